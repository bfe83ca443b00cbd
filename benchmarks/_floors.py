"""Floors: the least work a task needs, done the plainest fast way, on the same cores.

A floor does the same work on the same bytes as what it judges, split the same way
over the same number of worker processes (started inside the timing, as the real
thing starts its own), and nothing else. Spawned workers import this module alone:
the standard library, orjson and xxhash.
"""

from __future__ import annotations

import hashlib
import itertools
import mmap
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import orjson
import xxhash

__all__ = [
    "parse_rows",
    "parse_and_hash_rows",
    "hash_file",
    "parse_link_lines",
    "run_pool",
    "row_ranges",
    "map_header",
]


def _lines(path: str, start: int, end: int):  # type: ignore[no-untyped-def]
    """The lines starting in [start, end) of ``path`` (the loader's split rule)."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size == 0 or start >= size:
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            pos = start
            if start > 0 and mm[start - 1] != 0x0A:
                nl = mm.find(b"\n", start)
                pos = size if nl < 0 else nl + 1
            while pos < end and pos < size:
                nl = mm.find(b"\n", pos)
                stop = size if nl < 0 else nl
                yield mm[pos:stop]
                pos = stop + 1


def parse_rows(path: str, start: int, end: int) -> int:
    """What opening must do per row at least: parse it, and a 64-bit digest of its bytes."""
    n = 0
    for raw in _lines(path, start, end):
        if raw.strip():
            orjson.loads(raw)
            xxhash.xxh3_64_intdigest(raw)
            n += 1
    return n


def parse_and_hash_rows(path: str, start: int, end: int) -> int:
    """Less than an audit must do per row: parse it and SHA-256 as many bytes as it has
    (its content hash covers the sorted JSON of nearly all of them)."""
    n = 0
    for raw in _lines(path, start, end):
        if raw.strip():
            orjson.loads(raw)
            hashlib.sha256(raw).digest()
            n += 1
    return n


def hash_file(path: str) -> int:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return 0


def parse_link_lines(path: str, start: int, end: int) -> int:
    """Parse the evidence map's link lines in [start, end) (one JSON value per line)."""
    n = 0
    for raw in _lines(path, start, end):
        line = raw.strip().rstrip(b",")
        if line.startswith(b'{"'):  # a link (or a catalog entry), not the map's own brace
            orjson.loads(line)
            n += 1
    return n


def map_header(path: str) -> int:
    """The map's keys before its links, the catalog included (what opening reads)."""
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        at = mm.find(b'\n  "row_evidence_links": [')
        head = orjson.loads(mm[: at + 1] + b'"_": null}')
    return len(head.get("evidence_catalog", []))


def row_ranges(root: str, rels: Sequence[str], chunk: int) -> list[tuple[str, int, int]]:
    """The byte ranges the loader splits row files into (``chunk`` bytes each)."""
    out = []
    for rel in rels:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        size = os.path.getsize(path)
        edges = [*range(0, size, chunk), size] if size > chunk else [0, size]
        out += [(path, a, b) for a, b in itertools.pairwise(edges)]
    return out


def _noop() -> int:
    return 0


def run_pool(workers: int, jobs: Sequence[tuple]) -> None:  # type: ignore[type-arg]
    """Run ``(function, *args)`` jobs on ``workers`` spawned processes, started here."""
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for fut in [pool.submit(fn, *args) for fn, *args in jobs]:
            fut.result()
