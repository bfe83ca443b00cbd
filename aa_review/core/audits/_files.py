"""Hashing every package file once: byte SHA-256, catalog text hash, package digest.

Packages hold many byte-identical files (the copies of format 3 and 5, ``tdo/`` beside
``experience_compiler/``). Files of equal size are read side by side and compared; a
file identical to the first of its group shares that file's hashes instead of being
hashed again (comparing bytes costs a fraction of hashing them). Large packages are
hashed in worker processes, so the hashing never competes with the checks for the GIL.

Spawned workers import this module, which needs the standard library only.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import io
import logging
import operator
import os
import re
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from aa_review.core.package.derive import CONTENT_HASH_LIMIT, content_hash_bytes
from aa_review.core.package.digest import Entry, digest_of, list_package
from aa_review.core.package.safepath import open_beneath, read_beneath
from aa_review.core.util.buffers import CHUNK, read_buffers
from aa_review.core.util.procpool import POOL_UNAVAILABLE, drain, spawn_pool

__all__ = [
    "FileFacts",
    "FileHashes",
    "Wants",
    "ByteScan",
    "ScanResult",
    "scan_file",
    "hash_file",
    "hash_group",
    "hash_package",
    "text_hash",
    "HashCancelled",
]

log = logging.getLogger(__name__)

GROUP_MIN_BYTES = 1 << 20  # smaller files are hashed directly: comparing them saves nothing
PROCESS_MIN_BYTES = 256 * 1024 * 1024  # below this, worker start-up costs more than it saves


_NEWLINE_RUNS = re.compile(rb"\n\n+")


@dataclass(frozen=True)
class ScanResult:
    """What :class:`ByteScan` counted: non-empty lines (None: not asked), and per needle
    ``(occurrences, byte offset of the first, its line number)`` (``-1, 0``: none)."""

    lines: int | None
    needles: dict[bytes, tuple[int, int, int]]


@dataclass(frozen=True)
class Wants:
    """What to count in a file's bytes: non-empty ``lines``, occurrences of ``needles``."""

    lines: bool = False
    needles: tuple[bytes, ...] = ()

    def __or__(self, other: Wants) -> Wants:
        return Wants(self.lines or other.lines, tuple(dict.fromkeys(self.needles + other.needles)))


class ByteScan:
    """Counts in a file's bytes, fed chunk by chunk while they are hot in cache.

    Lines are counted as a JSONL reader sees them: blank lines do not count, a last
    line without a newline does. A needle that straddles two chunks is found too.
    """

    def __init__(self, wants: Wants) -> None:
        self.lines = wants.lines
        self.needles = tuple(n for n in wants.needles if n)
        self._lines = 0
        self._prev = b"\n"  # as if a line had just ended: a leading blank line is not counted
        self._newlines = 0  # up to the first hit of every needle (for its line number)
        self._pos = 0
        self._tail = b""
        self._hits = {n: [0, -1, 0] for n in self.needles}
        self._keep = max((len(n) - 1 for n in self.needles), default=0)
        self._unplaced = len(self.needles)  # needles whose first hit is still to be found

    def feed(self, chunk: bytes | bytearray) -> None:
        if self.lines:
            block = _NEWLINE_RUNS.sub(b"\n", chunk) if _NEWLINE_RUNS.search(chunk) else chunk
            if block:
                self._lines += block.count(b"\n") - (self._prev == b"\n" and block[:1] == b"\n")
                self._prev = bytes(block[-1:])
        if not self.needles:
            return
        for needle, hit in self._hits.items():
            head = bytes(chunk[: len(needle) - 1])
            across = self._tail[max(0, len(self._tail) - len(needle) + 1) :] + head
            n_across, n_inside = across.count(needle), chunk.count(needle)
            if hit[1] < 0 and n_across:
                at = across.find(needle)
                back = len(across) - len(head) - at  # of its bytes before this chunk
                hit[1] = self._pos - back
                hit[2] = (
                    self._newlines - self._tail[max(0, len(self._tail) - back) :].count(b"\n") + 1
                )
                self._unplaced -= 1
            elif hit[1] < 0 and n_inside:
                at = chunk.find(needle)
                hit[1] = self._pos + at
                hit[2] = self._newlines + chunk.count(b"\n", 0, at) + 1
                self._unplaced -= 1
            hit[0] += n_across + n_inside
        if self._unplaced:
            self._newlines += chunk.count(b"\n")
        self._pos += len(chunk)
        if self._keep:
            self._tail = (self._tail + bytes(chunk[-self._keep :]))[-self._keep :]

    def result(self) -> ScanResult:
        return ScanResult(
            self._lines + (self._prev != b"\n") if self.lines else None,
            {n: (h[0], h[1], h[2]) for n, h in self._hits.items()},
        )


def scan_file(root: Path | str, rel: str, wants: Wants) -> ScanResult:
    """:class:`ByteScan` of the whole package file ``rel``, read in 1 MiB chunks."""
    scan = ByteScan(wants)
    buf = read_buffers()[0]
    with os.fdopen(open_beneath(str(root), rel), "rb", buffering=0) as fh:
        while k := fh.readinto(buf):
            scan.feed(buf if k == CHUNK else bytes(buf[:k]))
    return scan.result()


class HashCancelled(Exception):
    """The caller's ``cancelled()`` turned true while hashing."""


@dataclass(frozen=True)
class FileFacts:
    """One file: size, SHA-256 of its bytes and, when small enough, its catalog text hash.

    ``same_as`` names the file of equal bytes whose hashes these are (compared, not hashed).
    """

    size: int
    sha256: str
    text_hash: str | None
    same_as: str | None = None
    scan: ScanResult | None = None  # byte counts, when they were asked for


@dataclass
class FileHashes:
    """Facts of every regular file (by package-relative path) and the package digest."""

    files: dict[str, FileFacts] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    listing: list[Entry] = field(default_factory=list)  # every entry, special files too
    digest: str | None = None
    nbytes: int = 0
    compared: int = 0  # bytes found identical to another file's instead of hashed


def text_hash(data: bytes, byte_hex: str | None = None) -> str:
    """The catalog hash (format 7.3): the file read as UTF-8 text (``errors="replace"``,
    universal newlines) and re-encoded.

    For valid UTF-8 that is the bytes with CRLF and CR turned into LF (no multi-byte
    sequence contains those bytes), so only invalid UTF-8 needs the decode/encode round
    trip; LF-only valid UTF-8 hashes like its bytes.
    """
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return content_hash_bytes(data)
    if b"\r" not in data:
        return "sha256:" + (byte_hex or hashlib.sha256(data).hexdigest())
    text = data.replace(b"\r\n", b"\n")
    if b"\r" in text:
        text = text.replace(b"\r", b"\n")
    return "sha256:" + hashlib.sha256(text).hexdigest()


def _finish(root: str, rel: str, n_total: int, byte_hex: str, plain: bool) -> FileFacts:
    """Facts of a file whose bytes hashed to ``byte_hex``; reads it again only when its
    catalog text hash differs from the byte hash (CR or non-ASCII in a small file)."""
    if n_total > CONTENT_HASH_LIMIT:
        return FileFacts(n_total, byte_hex, None)
    if plain:
        return FileFacts(n_total, byte_hex, "sha256:" + byte_hex)
    data = read_beneath(root, rel, limit=CONTENT_HASH_LIMIT)
    if len(data) != n_total:
        raise OSError(errno.EAGAIN, "changed while it was being hashed", rel)
    return FileFacts(n_total, byte_hex, text_hash(data, byte_hex))


def hash_file(root: Path | str, rel: str) -> FileFacts:
    """Hash one file in 1 MiB chunks (hashlib releases the GIL while it works).

    The catalog hash of a file up to 2,000,000 bytes equals its byte hash unless it
    holds a CR or non-ASCII bytes (checked chunk by chunk while hot in cache); only
    such files are read again whole for the text-mode hash.
    """
    facts = hash_group(str(root), [rel])[0]
    assert facts is not None  # the first path's facts are never None (it raises instead)
    return facts


def hash_group(root: str, paths: list[str], wants: Wants | None = None) -> list[FileFacts | None]:
    """Hash package file ``paths[0]`` and compare the other files (of the same size) with
    it, chunk by chunk; every file is opened through :func:`open_beneath` under ``root``.

    Returns facts per path: the first file's for every file byte-identical to it, None
    for a file that differs (hash it on its own). Raises OSError when the first file
    cannot be read; another file that cannot be read counts as differing. With
    ``wants``, the facts carry a :class:`ByteScan` of the bytes.
    """
    scan = ByteScan(wants) if wants is not None else None
    h = hashlib.sha256()
    buf, other = read_buffers()
    view = memoryview(buf)
    n_total, plain = 0, True
    rest: list[tuple[int, io.FileIO]] = []
    differ: set[int] = set()
    with os.fdopen(open_beneath(root, paths[0]), "rb", buffering=0) as fh:
        for i, p in enumerate(paths[1:], 1):
            try:
                rest.append((i, os.fdopen(open_beneath(root, p), "rb", buffering=0)))
            except OSError:
                differ.add(i)
        try:
            while k := fh.readinto(buf):
                h.update(view[:k])
                n_total += k
                chunk = buf if k == CHUNK else bytes(view[:k])
                if plain:
                    plain = chunk.isascii() and b"\r" not in chunk
                if scan is not None:
                    scan.feed(chunk)
                for i, other_fh in rest:
                    if i in differ:
                        continue
                    try:
                        j = other_fh.readinto(other)
                    except OSError:
                        j = -1
                    if j != k or (other if k == CHUNK else bytes(other[:k])) != chunk:
                        differ.add(i)
        finally:
            for i, other_fh in rest:
                if i not in differ and other_fh.read(1):
                    differ.add(i)  # it grew while being read
                other_fh.close()
    facts = _finish(root, paths[0], n_total, h.hexdigest(), plain)
    if scan is not None:
        facts = replace(facts, scan=scan.result())
    out: list[FileFacts | None] = [facts]
    for i in range(1, len(paths)):
        out.append(None if i in differ else replace(facts, same_as=paths[0]))
    return out


Result = list[tuple[str, "FileFacts | None", "str | None"]]


def _job(root: str, rels: list[str], wants: Wants | None) -> Result:
    """Hash one group of package files: ``(rel, facts or None (differs), error)`` each."""
    try:
        facts = hash_group(root, rels, wants)
    except OSError as exc:
        why: str = getattr(exc, "reason", None) or exc.strerror or str(exc)
        return [(rels[0], None, why)] + [(r, None, None) for r in rels[1:]]
    return [
        (r, f if f is None or f.same_as is None else replace(f, same_as=rels[0]), None)
        for r, f in zip(rels, facts, strict=True)
    ]


def _groups(sizes: dict[str, int], full: bool, scans: dict[str, Wants]) -> list[list[str]]:
    """Jobs: files of one size (over GROUP_MIN_BYTES) together, others alone; largest first."""
    by_size: dict[int, list[str]] = {}
    jobs: list[list[str]] = []
    for rel, size in sizes.items():
        if not full and size > CONTENT_HASH_LIMIT and rel not in scans:
            continue  # catalog hashes only: a file over the limit is only sized
        if size >= GROUP_MIN_BYTES:
            by_size.setdefault(size, []).append(rel)
        else:
            jobs.append([rel])
    jobs.extend(sorted(g) for g in by_size.values())
    jobs.sort(key=lambda g: -sizes[g[0]])
    return jobs


def hash_package(
    root: Path,
    *,
    threads: int = 4,
    full: bool = True,
    scans: dict[str, Wants] | None = None,
    processes: bool = True,
    only: set[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> FileHashes:
    """Hash every file under ``root`` (symlinks are listed, never followed) and digest them.

    The digest is :func:`~aa_review.core.package.digest.digest_of` the files, as
    :func:`aa_review.core.package.package_digest` computes it.
    Work goes to ``threads`` threads, or (when ``processes``) to as many worker
    processes, at most one per core, for a large package: they never wait for a GIL
    that checks running beside them hold, but cost a start. ``progress`` is called
    from the calling thread. With ``full=False`` (catalog hashes only) files over
    2,000,000 bytes are only sized, and there is no digest; ``only`` then limits the
    hashing to those files (those a check reads). ``scans`` names files whose
    facts also carry a :class:`ByteScan` of what they want counted, taken from the bytes
    while they are hashed.
    """
    listing = list_package(root)
    entries = listing.entries
    sizes = {
        e.rel: e.size
        for e in entries
        if e.kind == "file" and (full or only is None or e.rel in only)
    }
    total = sum(sizes.values())
    n = max(1, threads)
    out: FileHashes | None = None
    if processes and total >= PROCESS_MIN_BYTES and n > 1 and (os.cpu_count() or 1) > 1:
        procs: ProcessPoolExecutor | None = None
        try:
            procs = spawn_pool(min(n, os.cpu_count() or 1))
            out = _hash_all(procs, root, sizes, full, scans or {}, progress, cancelled)
        except POOL_UNAVAILABLE as exc:
            # Workers could not start (no __main__ guard, no /dev/shm...): hash in threads.
            log.warning("hashing in worker processes unavailable (%s); using threads", exc)
        finally:  # on cancellation, do not wait for a worker busy with a large file
            if procs is not None:
                procs.shutdown(wait=out is not None, cancel_futures=True)
    if out is None:
        with ThreadPoolExecutor(n) as threads_pool:
            out = _hash_all(threads_pool, root, sizes, full, scans or {}, progress, cancelled)
    out.listing = entries
    for e in entries:
        if e.kind == "error":
            out.errors[e.rel] = e.detail
    if out.errors or not full:
        return out  # no digest: a file could not be read, or was not hashed
    out.digest = digest_of(
        entries,
        (
            (out.files[e.rel].size, out.files[e.rel].sha256) if e.kind == "file" else None
            for e in entries
        ),
    )
    return out


def _hash_all(
    pool: Executor,
    root: Path,
    sizes: dict[str, int],
    full: bool,
    scans: dict[str, Wants],
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool],
) -> FileHashes:
    total = sum(sizes.values())
    out = FileHashes(nbytes=total)
    jobs = _groups(sizes, full, scans)
    done_bytes = total - sum(sizes[r] for g in jobs for r in g)
    for rel, size in sizes.items():
        if not full and size > CONTENT_HASH_LIMIT and rel not in scans:
            out.files[rel] = FileFacts(size, "", None)  # sized only
    base = str(root)
    added: list[tuple[Future[Result], int]] = []

    def submit(group: list[str]) -> tuple[Future[Result], int]:
        wanted = [scans[r] for r in group if r in scans]
        return pool.submit(
            _job, base, group, functools.reduce(operator.or_, wanted) if wanted else None
        ), 0

    def finish(_: int, result: Result) -> None:
        nonlocal done_bytes
        for rel, facts, error in result:
            if facts is None and error is None:  # differs from its group: alone
                added.append(submit([rel]))
                continue
            if facts is not None:
                out.files[rel] = facts
                if facts.same_as is not None:
                    out.compared += facts.size
            else:
                out.errors[rel] = error or "unreadable"
            done_bytes += sizes[rel]
        if progress is not None:
            progress(done_bytes, total)

    def take_added() -> list[tuple[Future[Result], int]]:
        new = added[:]
        added.clear()
        return new

    drain(dict(submit(g) for g in jobs), finish, cancelled, HashCancelled, take_added)
    return out
