"""Findings as columns, with the rows and evidence items each one locates.

``locations_of`` is the only place that reads where a finding points; everything
else (filters, the rows a finding concerns, exports) goes through it, so findings
that carry many locations need a change here alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.findings import Finding, Location, distinct_sorted

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex

__all__ = ["FindingsIndex", "locations_of", "by_count"]


def by_count(pairs: Iterable[tuple[str, int]]) -> list[tuple[str, int | None]]:
    """``(value, count)`` pairs, most frequent first (stable among equals)."""
    return [(v, n) for v, n in sorted(pairs, key=lambda kv: -kv[1])]


def locations_of(finding: Finding) -> Sequence[Location]:
    """Every place ``finding`` concerns, as :class:`Location` objects (for exports: a
    finding about a million rows makes a million objects here; the index below never
    does)."""
    return finding.locations


# The location fields the index keeps as text columns (file and line have their own).
_TEXT_FIELDS = ("row_id", "evidence_id", "ref", "key_path", "contract")


def _categorical(values: list[str]) -> tuple[list[str], np.ndarray]:
    table: dict[str, int] = {}
    codes = np.fromiter(
        (table.setdefault(v, len(table)) for v in values), dtype=np.int64, count=len(values)
    )
    return list(table), codes


class FindingsIndex:
    """Columns over ``findings`` and, given the package, the rows and evidence they locate.

    Location columns have one entry per location; ``owner`` maps a location to its
    finding, so a finding matches a location term when any of its locations does.
    """

    def __init__(self, findings: Sequence[Finding], pkg: Package | None = None) -> None:
        self.findings = list(findings)
        self.pkg = pkg
        fs = self.findings
        self.code_table, self.code = _categorical([f.code for f in fs])
        self.severity = np.array([f.severity.rank for f in fs], dtype=np.int8)
        self.quirk = np.array([f.quirk for f in fs], dtype=bool)
        # One entry per location, read column by column from each finding's columnar
        # locations: never one Python object per location.
        sizes = np.fromiter((len(f.locations) for f in fs), dtype=np.int64, count=len(fs))
        self.owner = np.repeat(np.arange(len(fs), dtype=np.int64), sizes)
        # Finding i's locations are entries start[i] to start[i + 1] of every column.
        self.start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        self._rows_of: dict[int, np.ndarray] = {}
        self._values: dict[str, list[object]] = {
            name: [v for f in fs for v in f.locations.values(name)]
            for name in ("file", "line", *_TEXT_FIELDS)
        }
        self.file_table, self.file = _categorical([str(v or "") for v in self._values["file"]])
        self.line = np.array(
            [np.nan if v is None else v for v in self._values["line"]], dtype=float
        )
        self._text: dict[str, tuple[list[str], np.ndarray]] = {}
        self._haystack: list[str] | None = None
        self.loc_row = np.full(len(self.owner), -1, dtype=np.int64)
        self.loc_evidence = np.full(len(self.owner), -1, dtype=np.int64)
        if pkg is not None:
            self._link(pkg, sizes)

    def __len__(self) -> int:
        return len(self.findings)

    # -- one finding: where it points --------------------------------------------------
    def location_count(self, i: int) -> int:
        """How many locations finding ``i`` has."""
        return int(self.start[i + 1] - self.start[i])

    def rows_of_finding(self, i: int) -> np.ndarray:
        """Row positions (in the linked package) that finding ``i`` locates, sorted, each once."""
        got = self._rows_of.get(i)
        if got is None:
            rows = self.loc_row[self.start[i] : self.start[i + 1]]
            got = self._rows_of[i] = distinct_sorted(rows[rows >= 0])
        return got

    def row_at(self, i: int, k: int) -> int | None:
        """The row of location ``k`` of finding ``i``, None when it names no row of the package."""
        pos = int(self.loc_row[self.start[i] + k])
        return None if pos < 0 else pos

    def evidence_at(self, i: int, k: int) -> int | None:
        """The evidence item (by id, else by ref) of location ``k`` of finding ``i``."""
        pos = int(self.loc_evidence[self.start[i] + k])
        return None if pos < 0 else pos

    def contract_at(self, i: int, k: int) -> str | None:
        """The contract entry location ``k`` of finding ``i`` names, if any."""
        value = self._values["contract"][int(self.start[i]) + k]
        return str(value) if value else None

    def about(
        self, *, row: int | None = None, evidence: int | None = None, contract: str | None = None
    ) -> np.ndarray:
        """Positions of the findings with a location at ``row``, at ``evidence`` (by id or
        by ref) or naming ``contract``, in order."""
        at = np.zeros(self.n_locations, dtype=bool)
        if row is not None:
            at |= self.loc_row == row
        if evidence is not None:
            at |= self.loc_evidence == evidence
            item = self.pkg.evidence_at(evidence) if self.pkg is not None else None
            if item is not None:  # a location naming the item's ref besides another id
                at |= self._text_is("ref", item.ref)
        if contract:
            at |= self._text_is("contract", contract)
        return np.flatnonzero(self.findings_at(at))

    def code_counts(self) -> list[tuple[str, int | None]]:
        """Each code present, with its number of findings, most frequent first."""
        counts = np.bincount(self.code, minlength=len(self.code_table))
        return by_count([(c, int(n)) for c, n in zip(self.code_table, counts, strict=True)])

    @property
    def n_locations(self) -> int:
        return len(self.owner)

    def location_text(self, attr: str) -> tuple[list[str], np.ndarray]:
        """Distinct values of a Location attribute and, per location, which one (cached)."""
        got = self._text.get(attr)
        if got is None:
            got = self._text[attr] = _categorical(
                [str(v) if v is not None else "" for v in self._values[attr]]
            )
        return got

    def _text_is(self, attr: str, value: str) -> np.ndarray:
        table, codes = self.location_text(attr)
        return (
            codes == table.index(value)
            if value in table
            else np.zeros(self.n_locations, dtype=bool)
        )

    def haystack(self) -> list[str]:
        """Per finding, the lower-cased code and message (free text also searches every
        location's fields, through :meth:`location_text`)."""
        if self._haystack is None:
            self._haystack = [f"{f.code} {f.message}".lower() for f in self.findings]
        return self._haystack

    def text_anywhere(self, needle: str) -> np.ndarray:
        """Findings whose code, message or any location's field contains ``needle``."""
        v = needle.lower()
        out = np.array([v in h for h in self.haystack()], dtype=bool)
        for attr in ("file", *_TEXT_FIELDS):
            table, codes = self.location_text(attr)
            hit = np.array([v in t.lower() for t in table], dtype=bool)
            if hit.any():
                out |= self.findings_at(hit[codes])
        return out

    def _link(self, pkg: Package, sizes: np.ndarray) -> None:
        """Rows: the audit's own row positions when it read this same index; else by file
        and line (one sorted lookup per file), else by row id. Evidence by id, else ref."""
        ix = pkg.index
        start = 0
        for f, n in zip(self.findings, sizes.tolist(), strict=True):
            table = f.locations.table
            if table is not None and table.row_id is ix.row_id and table.keys is None:
                self.loc_row[start : start + n] = f.locations.rows_per_location()
            start += n
        lines = np.nan_to_num(self.line, nan=-1).astype(np.int64)
        todo = self.loc_row < 0
        for code, file in enumerate(self.file_table):
            if file not in ix.files:
                continue
            at = np.flatnonzero(todo & (self.file == code) & (lines >= 0))
            if len(at):
                self.loc_row[at] = _rows_at(ix, ix.files.index(file), lines[at])
        ids = self._values["row_id"]
        for k in np.flatnonzero(self.loc_row < 0).tolist():
            rid = ids[k]
            if rid:
                row = ix.find_row(str(rid))
                if row is not None:
                    self.loc_row[k] = row
        for attr, lookup in (("evidence_id", ix.evidence_pos.get), ("ref", pkg.evidence_of_ref)):
            names, codes = self.location_text(attr)
            pos = np.array([_or_minus(lookup(t)) if t else -1 for t in names], dtype=np.int64)
            if len(codes):
                found = pos[codes]
                fill = (self.loc_evidence < 0) & (found >= 0)
                self.loc_evidence[fill] = found[fill]

    # -- from a mask over findings to the rows / evidence they locate, and back --------
    def rows_of(self, finding_mask: np.ndarray, n_rows: int) -> np.ndarray:
        """Rows located by any finding in ``finding_mask``."""
        out = np.zeros(n_rows, dtype=bool)
        keep = (self.loc_row >= 0) & finding_mask[self.owner]
        out[self.loc_row[keep]] = True
        return out

    def evidence_of(self, finding_mask: np.ndarray, n_evidence: int) -> np.ndarray:
        out = np.zeros(n_evidence, dtype=bool)
        keep = (self.loc_evidence >= 0) & finding_mask[self.owner]
        out[self.loc_evidence[keep]] = True
        return out

    def findings_at(self, location_mask: np.ndarray) -> np.ndarray:
        """Findings with at least one location in ``location_mask``."""
        out = np.zeros(len(self.findings), dtype=bool)
        out[self.owner[location_mask]] = True
        return out

    def findings_about_rows(self, row_mask: np.ndarray) -> np.ndarray:
        """Findings locating at least one row in ``row_mask``."""
        has = self.loc_row >= 0
        loc_mask = np.zeros(self.n_locations, dtype=bool)
        loc_mask[has] = row_mask[self.loc_row[has]]
        return self.findings_at(loc_mask)


def _or_minus(pos: int | None) -> int:
    return -1 if pos is None else pos


def _rows_at(ix: RowIndex, file_code: int, lines: np.ndarray) -> np.ndarray:
    """Index positions of the rows of one file at ``lines`` (-1 where none is)."""
    pos = np.flatnonzero(ix.file == file_code)
    order = np.argsort(ix.line[pos], kind="stable")
    sorted_lines, sorted_pos = ix.line[pos][order], pos[order]
    i = np.minimum(np.searchsorted(sorted_lines, lines), max(len(sorted_lines) - 1, 0))
    if not len(sorted_lines):
        return np.full(len(lines), -1, dtype=np.int64)
    return np.where(sorted_lines[i] == lines, sorted_pos[i], -1).astype(np.int64)
