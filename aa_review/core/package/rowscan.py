"""Scanning one byte range of a JSONL row file into columns (runs in worker processes).

Kept free of numpy and pydantic on purpose: a spawned worker imports only this
module, the standard library, orjson and xxhash, so it starts in a few milliseconds.
Problems travel back as plain tuples; the loader turns them into findings.
"""

from __future__ import annotations

import importlib
import itertools
import mmap
import os
from array import array
from dataclasses import dataclass, field
from typing import Any

import orjson
import xxhash

from aa_review.core.package.derive import evidence_id
from aa_review.core.package.jsondepth import MAX_DEPTH, may_be_too_deep, too_deep
from aa_review.core.package.safepath import open_beneath

__all__ = ["RowChunk", "Problem", "scan_range", "MAX_LINE_BYTES", "split_ranges", "Visitor"]

# A row visitor: ("module:function", config). ``function(config, relpath)`` returns an
# object whose ``row(position, row, raw)`` is called for every indexed row of the chunk
# (position in the chunk) and whose ``finish()`` result travels back in
# ``RowChunk.visited``: a caller's per-row work done on the one parse of each row.
Visitor = tuple[str, Any]

# (code, severity, relative line (0: the whole file), message)
Problem = tuple[str, str, int, str]

# A longer line is reported and not parsed: one row is never worth hundreds of MB of RAM.
MAX_LINE_BYTES = 32 * 1024 * 1024


@dataclass
class RowChunk:
    """The rows whose lines start in ``[start, end)`` of one file, as columns.

    Line numbers are relative to the chunk (1 = its first line); the loader
    adds the number of lines before the chunk.
    """

    file_code: int
    start: int
    lines_seen: int = 0
    line: list[int] = field(default_factory=list)
    offset: list[int] = field(default_factory=list)
    length: list[int] = field(default_factory=list)
    row_id: list[str] = field(default_factory=list)
    data_type: list[str] = field(default_factory=list)
    task: list[str] = field(default_factory=list)
    set_code: list[int] = field(default_factory=list)
    confidence: list[float] = field(default_factory=list)
    quality: list[float] = field(default_factory=list)
    # xxh3-64 of the line's bytes, and of the row's ``row_content_hash`` text (0: none);
    # what a diff or a fingerprint compares, without reading the rows again.
    digest: list[int] = field(default_factory=list)
    content_hash: list[int] = field(default_factory=list)
    sets: list[tuple[str, ...]] = field(default_factory=list)
    # The same sets as positions into the catalog ids the scan was given; an id the
    # catalog lacks is -(k + 1) for ``unknown[k]``. (None: only ``sets``, as a synthetic
    # index builds it.) The index maps them without looking every id up again.
    set_pos: list[tuple[int, ...]] | None = None
    unknown: list[str] = field(default_factory=list)
    refs: dict[str, str] = field(default_factory=dict)  # evidence id -> ref (v0.1 derivation)
    problems: list[Problem] = field(default_factory=list)
    visited: Any = None  # what the row visitor returned (see Visitor)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled compactly (a worker's result comes back to the window's process):
        number columns as machine arrays, ``row_id`` as one joined string, ``data_type``
        and ``task`` as a table and codes, the sets as one flat array. Unpickling then
        runs a few C calls per column, each brief, instead of one object per value, and
        holds the interpreter lock far less long in the process that receives it."""
        return (_unpack, (_pack(self),))


# Number columns and their array type codes ('q': int64, 'Q': uint64, 'd': float64).
_NUMBERS = (
    ("line", "q"),
    ("offset", "q"),
    ("length", "q"),
    ("set_code", "q"),
    ("confidence", "d"),
    ("quality", "d"),
    ("digest", "Q"),
    ("content_hash", "Q"),
)
_SEP = "\x1f"  # joins row ids; a chunk whose ids hold it sends them as a list


def _pack_numbers(values: list[Any], code: str) -> Any:
    try:
        return array(code, values).tobytes()
    except (TypeError, OverflowError):  # not all machine numbers: as they are
        return list(values)


def _unpack_numbers(packed: Any, code: str) -> list[Any]:
    if isinstance(packed, list):
        return packed
    out = array(code)
    out.frombytes(packed)
    return out.tolist()


def _pack_strings(values: list[str]) -> Any:
    if not values:
        return None
    joined = _SEP.join(values)
    if joined.count(_SEP) != len(values) - 1 or not all(type(v) is str for v in values):
        return list(values)
    return joined


def _unpack_strings(packed: Any) -> list[str]:
    if packed is None:
        return []
    if isinstance(packed, list):
        return packed
    return packed.split(_SEP)  # type: ignore[no-any-return]


def _pack_coded(values: list[str]) -> tuple[list[str], bytes]:
    table: dict[str, int] = {}
    codes = array("i", [table.setdefault(v, len(table)) for v in values])
    return list(table), codes.tobytes()


def _unpack_coded(packed: tuple[list[str], bytes]) -> list[str]:
    table, raw = packed
    codes = array("i")
    codes.frombytes(raw)
    return list(map(table.__getitem__, codes))


def _pack_sets(sets: list[tuple[int, ...]] | None) -> Any:
    if sets is None:
        return None
    try:
        sizes = array("q", map(len, sets))
        flat = array("q", itertools.chain.from_iterable(sets))
    except (TypeError, OverflowError):
        return list(sets)
    return sizes.tobytes(), flat.tobytes()


def _unpack_sets(packed: Any) -> list[tuple[int, ...]] | None:
    if packed is None or isinstance(packed, list):
        return packed
    sizes, flat = array("q"), array("q")
    sizes.frombytes(packed[0])
    flat.frombytes(packed[1])
    it = iter(flat.tolist())
    return [tuple(itertools.islice(it, n)) for n in sizes]


def _pack(ch: RowChunk) -> tuple[Any, ...]:
    return (
        ch.file_code,
        ch.start,
        ch.lines_seen,
        tuple(_pack_numbers(getattr(ch, name), code) for name, code in _NUMBERS),
        _pack_strings(ch.row_id),
        _pack_coded(ch.data_type),
        _pack_coded(ch.task),
        ch.sets,
        _pack_sets(ch.set_pos),
        ch.unknown,
        ch.refs,
        ch.problems,
        ch.visited,
    )


def _unpack(state: tuple[Any, ...]) -> RowChunk:
    (file_code, start, lines_seen, numbers, row_id, data_type, task, sets, set_pos) = state[:9]
    unknown, refs, problems, visited = state[9:]
    cols = {
        name: _unpack_numbers(packed, code)
        for (name, code), packed in zip(_NUMBERS, numbers, strict=True)
    }
    return RowChunk(
        file_code=file_code,
        start=start,
        lines_seen=lines_seen,
        row_id=_unpack_strings(row_id),
        data_type=_unpack_coded(data_type),
        task=_unpack_coded(task),
        sets=sets,
        set_pos=_unpack_sets(set_pos),
        unknown=unknown,
        refs=refs,
        problems=problems,
        visited=visited,
        **cols,
    )


def split_ranges(size: int, target: int) -> list[tuple[int, int]]:
    """Split ``[0, size)`` into ranges of about ``target`` bytes."""
    if size <= target:
        return [(0, size)]
    edges = [*range(0, size, target), size]
    return list(itertools.pairwise(edges))


_xxh = xxhash.xxh3_64_intdigest


def _float(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return float("nan")


def _line_problem(line_no: int, raw: bytes, at_eof_unterminated: bool, exc: Exception) -> Problem:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as uexc:
        return (
            "input.bad_encoding",
            "error",
            line_no,
            f"line is not valid UTF-8 (byte {uexc.start + 1}); re-export the file as UTF-8",
        )
    if at_eof_unterminated:
        return (
            "input.truncated",
            "error",
            line_no,
            "the last line is cut off (no newline, incomplete JSON): "
            f"the file looks truncated ({exc})",
        )
    return ("input.malformed_line", "error", line_no, f"line is not valid JSON: {exc}")


def scan_range(
    root: str,
    relpath: str,
    file_code: int,
    start: int,
    end: int,
    derive_refs: bool,
    visitor: Visitor | None = None,
    catalog_ids: tuple[str, ...] = (),
    columns: bool = True,
) -> RowChunk:
    """Parse every line that starts in ``[start, end)`` of ``relpath`` under ``root``.

    Each line becomes a row (columns) or a located problem; nothing is dropped
    silently. ``derive_refs`` also collects evidence id -> ref from the rows'
    ``evidence_refs`` (for v0.1 packages, which have no catalog). ``visitor`` sees
    every indexed row (see :data:`Visitor`). Evidence sets come back as positions into
    ``catalog_ids`` too (``RowChunk.set_pos``). ``columns`` False: counting only, every
    line checked as ever but only ``data_type`` kept of each row (no other column, no
    visit, no refs).
    """
    chunk = RowChunk(file_code=file_code, start=start, set_pos=[])
    try:
        fd = open_beneath(root, relpath)
    except OSError as exc:  # swapped for a symlink or a FIFO since it was planned
        code = {
            "SymlinkOutError": "input.unsafe_file",
            "SpecialFileError": "input.special_file",
        }.get(type(exc).__name__, "input.unreadable")
        chunk.problems.append(
            (
                code,
                "critical" if code == "input.unsafe_file" else "error",
                0,
                f"row file not read: {getattr(exc, 'reason', None) or exc}",
            )
        )
        return chunk
    with os.fdopen(fd, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size == 0 or start >= size:
            return chunk
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            visit = None
            if visitor is not None:
                module, name = visitor[0].split(":")
                visit = getattr(importlib.import_module(module), name)(visitor[1], relpath)
            _scan_mapped(chunk, mm, start, end, size, derive_refs, visit, catalog_ids, columns)
            if visit is not None:
                chunk.visited = visit.finish()
    return chunk


def _scan_mapped(
    chunk: RowChunk,
    mm: mmap.mmap,
    start: int,
    end: int,
    size: int,
    derive_refs: bool,
    visit: Any = None,
    catalog_ids: tuple[str, ...] = (),
    columns: bool = True,
) -> None:
    set_codes: dict[tuple[str, ...], int] = {}
    pos_of = {e: i for i, e in enumerate(catalog_ids)}
    unknown: dict[str, int] = {}
    set_pos = chunk.set_pos if chunk.set_pos is not None else []
    ref_ids_cache: dict[tuple[str, ...], tuple[str, ...]] = {}
    pos = start
    if start > 0 and mm[start - 1] != 0x0A:
        nl = mm.find(b"\n", start)
        pos = size if nl < 0 else nl + 1
    rel_line = 0
    while pos < end and pos < size:
        nl = mm.find(b"\n", pos)
        stop = size if nl < 0 else nl
        rel_line += 1
        length = stop - pos
        next_pos = stop + 1
        if length > MAX_LINE_BYTES:
            chunk.problems.append(
                (
                    "input.line_too_long",
                    "error",
                    rel_line,
                    f"line is {length:,} bytes, over the {MAX_LINE_BYTES:,}-byte "
                    "limit for one row; it was not parsed",
                )
            )
            pos = next_pos
            continue
        raw = mm[pos:stop]
        if not raw.strip():
            if nl >= 0 or length:
                chunk.problems.append(
                    (
                        "input.blank_line",
                        "low",
                        rel_line,
                        "blank line in a JSONL file (the compiler writes none)",
                    )
                )
            pos = next_pos
            continue
        try:
            row = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            chunk.problems.append(_line_problem(rel_line, raw, nl < 0, exc))
            pos = next_pos
            continue
        if may_be_too_deep(raw) and too_deep(row):
            chunk.problems.append(
                (
                    "input.too_deep",
                    "error",
                    rel_line,
                    f"line nests lists and objects more than {MAX_DEPTH} levels deep; a row "
                    "is never that deep, and it was not indexed",
                )
            )
            pos = next_pos
            continue
        if not isinstance(row, dict):
            chunk.problems.append(
                (
                    "input.not_an_object",
                    "error",
                    rel_line,
                    f"line holds a JSON {type(row).__name__}, not an object",
                )
            )
            pos = next_pos
            continue
        if not columns:  # counting: a row's type is all that is kept of it
            chunk.data_type.append(str(row.get("data_type") or ""))
            pos = next_pos
            continue
        rid = row.get("row_id") or row.get("pair_id") or ""
        ids = row.get("source_evidence_ref_ids")
        refs = row.get("evidence_refs")
        if not (isinstance(ids, list) and ids):
            key = tuple(r for r in refs if isinstance(r, str)) if isinstance(refs, list) else ()
            ids_t = ref_ids_cache.get(key)
            if ids_t is None:
                ids_t = ref_ids_cache[key] = tuple(evidence_id(r) for r in key)
        else:
            ids_t = tuple(map(str, ids))
        if derive_refs and isinstance(refs, list):
            key = tuple(r for r in refs if isinstance(r, str))
            if key not in ref_ids_cache:
                ref_ids_cache[key] = tuple(evidence_id(r) for r in key)
            for r, i in zip(key, ref_ids_cache[key], strict=True):
                chunk.refs.setdefault(i, r)
        code = set_codes.get(ids_t)
        if code is None:
            code = set_codes[ids_t] = len(set_pos)
            positions = []
            for e in ids_t:
                p = pos_of.get(e)
                if p is None:
                    p = unknown.get(e)
                    if p is None:
                        p = unknown[e] = -(len(unknown) + 1)
                        chunk.unknown.append(e)
                positions.append(p)
            set_pos.append(tuple(positions))
        chunk.line.append(rel_line)
        chunk.offset.append(pos)
        chunk.length.append(length)
        chunk.row_id.append(str(rid))
        chunk.data_type.append(str(row.get("data_type") or ""))
        chunk.task.append(str(row.get("source_task_id") or ""))
        chunk.set_code.append(code)
        chunk.confidence.append(_float(row.get("confidence")))
        chunk.quality.append(_float(row.get("quality_score")))
        chunk.digest.append(_xxh(raw))
        rch = row.get("row_content_hash")
        chunk.content_hash.append(
            _xxh(rch.encode("utf-8", "surrogatepass")) if isinstance(rch, str) else 0
        )
        if visit is not None:
            visit.row(len(chunk.line) - 1, row, raw)
        pos = next_pos
    chunk.lines_seen = rel_line
