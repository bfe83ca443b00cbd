"""The columnar row index and the two-way row <-> evidence lookup."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aa_review.core.package.rowscan import RowChunk

__all__ = ["RowIndex", "RowSet", "build_index"]


@dataclass(frozen=True)
class RowSet:
    """Rows as segments of one index array: sized and indexable without copying.

    Rows that cite the same evidence set are stored contiguously in
    ``RowIndex.by_set``; an evidence item's citing rows are a few such
    segments, so building this is O(number of distinct evidence sets).
    """

    source: np.ndarray
    starts: np.ndarray
    stops: np.ndarray
    _cum: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cum", np.concatenate(([0], np.cumsum(self.stops - self.starts))))

    def __len__(self) -> int:
        return int(self._cum[-1])

    def __getitem__(self, pos: int) -> int:
        if pos < 0:
            pos += len(self)
        if not 0 <= pos < len(self):
            raise IndexError(pos)
        seg = int(np.searchsorted(self._cum, pos, side="right")) - 1
        return int(self.source[self.starts[seg] + pos - self._cum[seg]])

    def to_array(self) -> np.ndarray:
        """All row positions, sorted."""
        if len(self.starts) == 1:
            return self.source[self.starts[0] : self.stops[0]]
        parts = [self.source[a:b] for a, b in zip(self.starts, self.stops, strict=True)]
        return np.sort(np.concatenate(parts)) if parts else np.empty(0, np.int64)


class RowIndex:
    """Every training row as columns; a full row is read from disk by offset.

    Attributes
    ----------
    files, data_types, tasks : list of str
        Code tables for ``file``, ``data_type`` and ``task``.
    evidence_ids : list of str
        Catalog ids first (catalog order), then ids rows cite that the catalog lacks.
    sets : list of numpy.ndarray
        Distinct evidence sets (arrays of positions into ``evidence_ids``).
    """

    def __init__(
        self,
        *,
        files: Sequence[str],
        data_types: list[str],
        tasks: list[str],
        evidence_ids: list[str],
        catalog_size: int,
        sets: list[np.ndarray],
        columns: dict[str, np.ndarray],
    ) -> None:
        self.files = list(files)
        self.data_types = data_types
        self.tasks = tasks
        self.evidence_ids = evidence_ids
        self.catalog_size = catalog_size
        self.evidence_pos = {e: i for i, e in enumerate(evidence_ids)}
        self.sets = sets
        self.row_id: np.ndarray = columns["row_id"]
        self.file: np.ndarray = columns["file"]
        self.data_type: np.ndarray = columns["data_type"]
        self.task: np.ndarray = columns["task"]
        self.line: np.ndarray = columns["line"]
        self.offset: np.ndarray = columns["offset"]
        self.length: np.ndarray = columns["length"]
        self.set_code: np.ndarray = columns["set_code"]
        self.confidence: np.ndarray = columns["confidence"]
        self.quality: np.ndarray = columns["quality"]
        # Per row: xxh3-64 of its line bytes and of its row_content_hash text (0: none).
        self.digest: np.ndarray = columns.get("digest", np.zeros(len(self.row_id), np.uint64))
        self.content_hash: np.ndarray = columns.get(
            "content_hash", np.zeros(len(self.row_id), np.uint64)
        )
        self.set_size = np.array([len(s) for s in sets], dtype=np.int32)
        self.n_evidence: np.ndarray = (
            self.set_size[self.set_code] if len(sets) else np.zeros(len(self.row_id), np.int32)
        )
        # Rows grouped by evidence set, and which sets contain each evidence item.
        self.by_set = np.argsort(self.set_code, kind="stable")
        counts = np.bincount(self.set_code, minlength=len(sets))
        self.set_ptr = np.concatenate(([0], np.cumsum(counts)))
        # For each evidence item, the codes of the sets holding it, ascending.
        if sets:
            flat = np.concatenate(sets).astype(np.int64)
            owner = np.repeat(np.arange(len(sets), dtype=np.int64), self.set_size)
            by_item = owner[np.argsort(flat, kind="stable")]
            bounds = np.concatenate(
                ([0], np.cumsum(np.bincount(flat, minlength=len(evidence_ids))))
            )
            self.sets_with = [by_item[bounds[i] : bounds[i + 1]] for i in range(len(evidence_ids))]
        else:
            self.sets_with = [np.zeros(0, np.int64) for _ in evidence_ids]
        self._id_order = np.argsort(self.row_id, kind="stable")

    def __len__(self) -> int:
        return len(self.row_id)

    # -- lookups ---------------------------------------------------------
    def evidence_of_row(self, row: int) -> np.ndarray:
        """Positions (into ``evidence_ids``) of the evidence a row cites."""
        return self.sets[int(self.set_code[row])]

    def rows_citing(self, evidence: int) -> RowSet:
        """Rows that cite an evidence item (by position in ``evidence_ids``)."""
        codes = self.sets_with[evidence]
        return RowSet(self.by_set, self.set_ptr[codes], self.set_ptr[codes + 1])

    def citing_mask(self, evidence: np.ndarray | list[int]) -> np.ndarray:
        """Boolean mask over the rows: True for rows citing any of the ``evidence`` positions.

        Goes through the distinct evidence sets, so it costs one pass over the rows
        however many items are asked for.
        """
        set_hit = np.zeros(len(self.sets), dtype=bool)
        for e in np.asarray(evidence, dtype=np.int64).tolist():
            set_hit[self.sets_with[e]] = True
        return set_hit[self.set_code] if len(self.sets) else np.zeros(len(self), dtype=bool)

    def cited_counts(self) -> np.ndarray:
        """How many rows cite each evidence position (computed once, then kept).

        The one place this count is made: the evidence table, its ``cited`` query
        field and the exports all read it.
        """
        counts = getattr(self, "_cited", None)
        if counts is None:
            rows_per_set = np.diff(self.set_ptr)
            counts = np.zeros(len(self.evidence_ids), dtype=np.int64)
            if len(self.sets):
                members = np.concatenate(self.sets).astype(np.int64)
                np.add.at(counts, members, np.repeat(rows_per_set, self.set_size))
            self._cited = counts
        return counts

    def find_row(self, row_id: str) -> int | None:
        """Position of the first row with this id, or None."""
        key = (
            np.array(row_id.encode("utf-8"), dtype=self.row_id.dtype)
            if len(row_id.encode("utf-8")) <= self.row_id.dtype.itemsize
            else None
        )
        if key is None or not len(self.row_id):
            return None
        i = int(np.searchsorted(self.row_id, key, sorter=self._id_order))
        if i < len(self._id_order) and self.row_id[self._id_order[i]] == key:
            return int(self._id_order[i])
        return None

    def row_id_folded(self) -> np.ndarray:
        """Row ids lower-cased, for case-insensitive search; computed once (the loader warms it)."""
        folded = getattr(self, "_folded", None)
        if folded is None:
            lower = np.char.lower(self.row_id)
            folded = self.row_id if np.array_equal(lower, self.row_id) else lower
            self._folded = folded
        return folded

    def row_id_str(self, row: int) -> str:
        return str(self.row_id[row].decode("utf-8", "replace"))

    def counts_by(self, column: str) -> dict[str, int]:
        """Row counts per data type (``data_type``), file (``file``) or task (``task``)."""
        table = {"data_type": self.data_types, "file": self.files, "task": self.tasks}[column]
        counts = np.bincount(getattr(self, column), minlength=len(table))
        return {name: int(c) for name, c in zip(table, counts, strict=True)}


def _arrays(ch: RowChunk) -> dict[str, np.ndarray]:
    return {
        "line": np.asarray(ch.line, dtype=np.int64),
        "offset": np.asarray(ch.offset, dtype=np.int64),
        "length": np.asarray(ch.length, dtype=np.int64),
        "set_code": np.asarray(ch.set_code, dtype=np.int32),
        "confidence": np.asarray(ch.confidence, dtype=np.float64),
        "quality": np.asarray(ch.quality, dtype=np.float64),
        "digest": np.asarray(ch.digest, dtype=np.uint64)
        if len(ch.digest) == len(ch.line)
        else np.zeros(len(ch.line), np.uint64),
        "content_hash": np.asarray(ch.content_hash, dtype=np.uint64)
        if len(ch.content_hash) == len(ch.line)
        else np.zeros(len(ch.line), np.uint64),
    }


def _codes(values: list[str], table: dict[str, int], names: list[str]) -> np.ndarray:
    out = np.empty(len(values), dtype=np.int32)
    for i, v in enumerate(values):
        c = table.get(v)
        if c is None:
            c = table[v] = len(names)
            names.append(v)
        out[i] = c
    return out


_BLOCK_SETS = 4096  # sets copied per C call: a few ms with the interpreter lock held


def _as_arrays(sets: list[tuple[int, ...]]) -> list[np.ndarray]:
    """One int32 array per set, as views of one buffer (one allocation, not one per set).

    Copied in blocks: one ``np.fromiter`` over every set of a 100,000-row package held
    the interpreter lock for 50 ms, the window's GUI thread waiting for it."""
    if not sets:
        return []
    sizes = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
    ends = np.cumsum(sizes)
    flat = np.empty(int(ends[-1]), dtype=np.int32)
    at = 0
    for i in range(0, len(sets), _BLOCK_SETS):
        end = int(ends[min(i + _BLOCK_SETS, len(sets)) - 1])
        flat[at:end] = np.fromiter(
            itertools.chain.from_iterable(sets[i : i + _BLOCK_SETS]), dtype=np.int32, count=end - at
        )
        at = end
    starts = ends - sizes
    return [flat[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]


def build_index(
    chunks: Sequence[RowChunk],
    files: Sequence[str],
    catalog_ids: list[str],
    line_base: dict[tuple[int, int], int],
) -> RowIndex:
    """Merge scanned chunks (in row order) into one :class:`RowIndex`.

    ``line_base`` maps ``(file_code, chunk start)`` to the number of lines before the chunk.
    """
    ev_ids = list(catalog_ids)
    ev_pos = {e: i for i, e in enumerate(ev_ids)}
    set_table: dict[tuple[int, ...], int] = {}
    type_t: dict[str, int] = {}
    type_n: list[str] = []
    task_t: dict[str, int] = {}
    task_n: list[str] = []
    cols: dict[str, list[np.ndarray]] = {
        k: []
        for k in (
            "line",
            "offset",
            "length",
            "set_code",
            "confidence",
            "quality",
            "file",
            "data_type",
            "task",
            "digest",
            "content_hash",
        )
    }
    row_ids: list[str] = []
    new_sets: list[tuple[int, ...]] = []
    for ch in chunks:
        local_sets: Sequence[Any] = ch.set_pos if ch.set_pos is not None else ch.sets
        remap = np.empty(len(local_sets), dtype=np.int32)
        unknown: list[int] = []  # position of each of the chunk's uncatalogued ids
        for e in ch.unknown:
            p = ev_pos.get(e)
            if p is None:
                p = ev_pos[e] = len(ev_ids)
                ev_ids.append(e)
            unknown.append(p)
        for local, ids in enumerate(local_sets):
            if ch.set_pos is None:  # ids as text (a synthetic chunk)
                pos: list[int] = []
                for e in ids:
                    p = ev_pos.get(e)
                    if p is None:
                        p = ev_pos[e] = len(ev_ids)
                        ev_ids.append(e)
                    pos.append(p)
                key = tuple(pos)
            elif min(ids, default=0) < 0:
                key = tuple(unknown[-p - 1] if p < 0 else p for p in ids)
            else:
                key = ids
            g = set_table.get(key)
            if g is None:
                g = set_table[key] = len(new_sets)
                new_sets.append(key)
            remap[local] = g
        arrs = _arrays(ch)
        arrs["line"] += line_base.get((ch.file_code, ch.start), 0)
        arrs["set_code"] = remap[arrs["set_code"]] if len(remap) else arrs["set_code"]
        arrs["file"] = np.full(len(ch.line), ch.file_code, dtype=np.int16)
        arrs["data_type"] = _codes(ch.data_type, type_t, type_n)
        arrs["task"] = _codes(ch.task, task_t, task_n)
        for k, v in arrs.items():
            cols[k].append(v)
        row_ids.extend(ch.row_id)
    sets = _as_arrays(new_sets)
    columns = {k: (np.concatenate(v) if v else np.empty(0, np.int64)) for k, v in cols.items()}
    columns["set_code"] = columns["set_code"].astype(np.int32)
    for k in ("digest", "content_hash"):
        columns[k] = columns[k].astype(np.uint64)
    columns["row_id"] = (
        np.array([r.encode("utf-8") for r in row_ids], dtype=np.bytes_)
        if row_ids
        else np.empty(0, dtype="S1")
    )
    return RowIndex(
        files=files,
        data_types=type_n,
        tasks=task_n,
        evidence_ids=ev_ids,
        catalog_size=len(catalog_ids),
        sets=sets,
        columns=columns,
    )
