"""Findings as columns, with the rows and evidence items each one locates.

``locations_of`` is the only place that reads where a finding points; everything
else (filters, the rows a finding concerns, exports) goes through it, so findings
that carry many locations need a change here alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.findings import Finding, Location

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex

__all__ = ["FindingsIndex", "locations_of", "by_count"]


def by_count(pairs: Iterable[tuple[str, int]]) -> list[tuple[str, int | None]]:
    """``(value, count)`` pairs, most frequent first (stable among equals)."""
    return [(v, n) for v, n in sorted(pairs, key=lambda kv: -kv[1])]


def locations_of(finding: Finding) -> Sequence[Location]:
    """Every place ``finding`` concerns (one today: ``Finding.location``)."""
    many = finding.locations if _has_many(type(finding)) else None  # type: ignore[attr-defined]
    return tuple(many) if many else (finding.location,)


@functools.cache
def _has_many(cls: type) -> bool:
    """Whether findings of ``cls`` carry ``locations`` (asked once per class: looking a
    missing attribute up on a pydantic model raises and catches an error each time)."""
    return "locations" in getattr(cls, "model_fields", {})


def _categorical(values: list[str]) -> tuple[list[str], np.ndarray]:
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(v, len(table)) for v in values), dtype=np.int64,
                        count=len(values))
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
        locs = [(i, loc) for i, f in enumerate(fs) for loc in locations_of(f)]
        self.owner = np.array([i for i, _ in locs], dtype=np.int64)
        self.locations = [loc for _, loc in locs]
        self.file_table, self.file = _categorical([loc.file or "" for loc in self.locations])
        self.line = np.array([loc.line if loc.line is not None else np.nan
                              for loc in self.locations], dtype=float)
        self._text: dict[str, tuple[list[str], np.ndarray]] = {}
        self._haystack: list[str] | None = None
        self.loc_row = np.full(len(locs), -1, dtype=np.int64)
        self.loc_evidence = np.full(len(locs), -1, dtype=np.int64)
        if pkg is not None:
            self._link(pkg)

    def __len__(self) -> int:
        return len(self.findings)

    def code_counts(self) -> list[tuple[str, int | None]]:
        """Each code present, with its number of findings, most frequent first."""
        counts = np.bincount(self.code, minlength=len(self.code_table))
        return by_count([(c, int(n)) for c, n in zip(self.code_table, counts)])

    def location_text(self, attr: str) -> tuple[list[str], np.ndarray]:
        """Distinct values of a Location attribute and, per location, which one (cached)."""
        got = self._text.get(attr)
        if got is None:
            got = self._text[attr] = _categorical([getattr(loc, attr) or ""
                                                   for loc in self.locations])
        return got

    def haystack(self) -> list[str]:
        """Per finding, the lower-cased text free text searches: code, message, locations."""
        if self._haystack is None:
            self._haystack = [" ".join((f.code, f.message, *(loc.short() for loc in
                                                            locations_of(f)))).lower()
                              for f in self.findings]
        return self._haystack

    def _link(self, pkg: Package) -> None:
        """Rows by file and line (one sorted lookup per file), else by row id; evidence
        by id, else by ref."""
        ix = pkg.index
        lines = np.nan_to_num(self.line, nan=-1).astype(np.int64)
        for code, file in enumerate(self.file_table):
            if file not in ix.files:
                continue
            at = np.flatnonzero((self.file == code) & (lines >= 0))
            if len(at):
                self.loc_row[at] = _rows_at(ix, ix.files.index(file), lines[at])
        by_ref = {e.ref: i for i, e in enumerate(pkg.catalog)}
        for k, loc in enumerate(self.locations):
            if self.loc_row[k] < 0 and loc.row_id:
                row = ix.find_row(loc.row_id)
                if row is not None:
                    self.loc_row[k] = row
            ev = ix.evidence_pos.get(loc.evidence_id or "")
            if ev is None and loc.ref:
                ev = by_ref.get(loc.ref)
            if ev is not None:
                self.loc_evidence[k] = ev

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
        loc_mask = np.zeros(len(self.locations), dtype=bool)
        loc_mask[has] = row_mask[self.loc_row[has]]
        return self.findings_at(loc_mask)


def _rows_at(ix: RowIndex, file_code: int, lines: np.ndarray) -> np.ndarray:
    """Index positions of the rows of one file at ``lines`` (-1 where none is)."""
    pos = np.flatnonzero(ix.file == file_code)
    order = np.argsort(ix.line[pos], kind="stable")
    sorted_lines, sorted_pos = ix.line[pos][order], pos[order]
    i = np.minimum(np.searchsorted(sorted_lines, lines), max(len(sorted_lines) - 1, 0))
    if not len(sorted_lines):
        return np.full(len(lines), -1, dtype=np.int64)
    return np.where(sorted_lines[i] == lines, sorted_pos[i], -1).astype(np.int64)
