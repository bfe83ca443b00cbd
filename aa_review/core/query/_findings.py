"""Queries over findings: their own fields, and the fields of the rows they locate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.query._fields import FINDING_SPECS, ROW_SPECS, SEVERITIES, FieldSpec, Kind
from aa_review.core.query._findex import FindingsIndex, by_count
from aa_review.core.query._match import match_table
from aa_review.core.query._rows import RowsScope
from aa_review.core.query._scope import Scope, finding_mask, flag_mask, number_mask
from aa_review.core.query._syntax import Term

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["FindingsScope", "check_of"]

# Location fields: which attribute of a Location each one reads.
_LOCATION_TEXT = {
    "row": "row_id",
    "evidence": "evidence_id",
    "ref": "ref",
    "key": "key_path",
    "contract": "contract",
}


def check_of(code: str) -> str:
    """The audit check that reports ``code`` ('' for loading problems and unknown codes)."""
    from aa_review.core.audits import CHECKS

    return next((name for name, ch in CHECKS.items() if code in ch.codes), "")


class FindingsScope(Scope):
    """Findings; given the package, row fields select findings about matching rows."""

    what = "findings"
    free_text = "code, message or location containing the text"
    specs = FINDING_SPECS

    def __init__(
        self, findings: FindingsIndex | Sequence[Finding], pkg: Package | None = None
    ) -> None:
        if not isinstance(findings, FindingsIndex) or (pkg is not None and findings.pkg is None):
            findings = FindingsIndex(
                findings.findings if isinstance(findings, FindingsIndex) else findings, pkg
            )
        self.f = findings
        self._rows: RowsScope | None = None

    def __len__(self) -> int:
        return len(self.f)

    @property
    def rows(self) -> RowsScope | None:
        if self._rows is None and self.f.pkg is not None:
            self._rows = RowsScope(self.f.pkg, self.f)
        return self._rows

    def text_mask(self, value: str) -> np.ndarray:
        return self.f.text_anywhere(value)

    def field_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        f, name = self.f, spec.name
        if not len(f):
            return np.zeros(0, dtype=bool)
        if name in ("code", "severity"):
            return finding_mask(f, spec, term)
        if name == "quirk":
            return flag_mask(f.quirk.astype(np.int8), term)
        if name == "check":
            table = [check_of(c) for c in f.code_table]
            mask: np.ndarray = match_table(table, term.value, spec.kind, term.op)[f.code]
            return mask
        if name == "message":
            return match_table([x.message for x in f.findings], term.value, spec.kind, term.op)
        if name == "line":
            return f.findings_at(number_mask(f.line, spec, term, query))
        if name == "file" or name in _LOCATION_TEXT:
            table, codes = (
                (f.file_table, f.file)
                if name == "file"
                else self.f.location_text(_LOCATION_TEXT[name])
            )
            return f.findings_at(match_table(table, term.value, spec.kind, term.op)[codes])
        rows = self.rows
        if rows is None:
            raise self.needs(
                spec,
                term,
                query,
                "the package the findings are about (a row "
                "field: findings about rows that match it)",
            )
        row_name = name.removeprefix("row.")
        row_term = replace(term, field=row_name)
        return f.findings_about_rows(rows.field_mask(ROW_SPECS[row_name], row_term, query))

    def values(self, spec: FieldSpec) -> list[tuple[str, int | None]]:
        f = self.f
        if spec.name == "code":
            return f.code_counts()
        if spec.name == "check":
            counts: dict[str, int] = {}
            for code, n in f.code_counts():
                name = check_of(code)
                if name:
                    counts[name] = counts.get(name, 0) + (n or 0)
            return by_count(counts.items())
        if spec.name == "file":
            counts_f = np.bincount(f.file, minlength=len(f.file_table))
            return by_count((n, int(c)) for n, c in zip(f.file_table, counts_f, strict=True) if n)
        if spec.name == "severity":
            counts_s = np.bincount(f.severity.astype(np.int64), minlength=len(SEVERITIES))
            return [(s, int(counts_s[i])) for i, s in enumerate(SEVERITIES)]
        if (
            spec.kind is not Kind.FLAG
            and self.rows is not None
            and (spec.name in ROW_SPECS or spec.name.startswith("row."))
        ):
            row_name = spec.name.removeprefix("row.")
            return self.rows.values(ROW_SPECS[row_name])
        return super().values(spec)
