"""Queries over the training rows, evaluated on the columnar index (numpy masks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.query._fields import CHANGE_VALUES, ROW_SPECS, FieldSpec, Kind, is_number
from aa_review.core.query._findex import FindingsIndex, by_count
from aa_review.core.query._match import match_bytes, match_table
from aa_review.core.query._scope import Scope, finding_mask, number_mask
from aa_review.core.query._syntax import QueryError, Term

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["RowsScope", "findings_index"]


def findings_index(
    findings: FindingsIndex | Sequence[Finding] | None, pkg: Package | None
) -> FindingsIndex | None:
    """``findings`` as an index linked to ``pkg`` (built here from a plain list)."""
    if findings is None or isinstance(findings, FindingsIndex):
        return findings
    return FindingsIndex(findings, pkg)


class RowsScope(Scope):
    """The rows of one package; ``findings`` (the audit's) serve ``finding:`` and ``severity:``,
    ``subsets`` (name -> sorted row positions, the window's) serve ``subset:``.

    ``changes`` (set while the package is compared with a baseline) serve ``change:``:
    per value of :data:`CHANGE_VALUES`, a boolean mask over these rows (the review
    session's comparison sets it; ``aa_review.core.diff.change_masks`` makes them).
    """

    what = "rows"
    free_text = "row id, data type, file or task containing the text"
    specs = ROW_SPECS

    def __init__(
        self, pkg: Package, findings: FindingsIndex | Sequence[Finding] | None = None
    ) -> None:
        self.pkg = pkg
        self.ix = pkg.index
        self.findings = findings_index(findings, pkg)
        self._evidence_attr: dict[str, list[str]] = {}
        self.changes: dict[str, np.ndarray] | None = None
        self.subsets: dict[str, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.ix)

    def text_mask(self, value: str) -> np.ndarray:
        ix = self.ix
        m = match_bytes(ix.row_id_folded(), value, ":")
        for table, col in ((ix.data_types, ix.data_type), (ix.files, ix.file), (ix.tasks, ix.task)):
            hit = match_table(table, value, Kind.TEXT, ":")
            if hit.any():
                m |= hit[col]
        return m

    def evidence_attr(self, attr: str) -> list[str]:
        """One catalog attribute per evidence position ('' for ids the catalog lacks)."""
        got = self._evidence_attr.get(attr)
        if got is None:
            got = []
            for i in range(len(self.ix.evidence_ids)):
                e = self.pkg.evidence_at(i)
                got.append("" if e is None else str(getattr(e, attr, None) or ""))
            self._evidence_attr[attr] = got
        return got

    def citing_any(self, wanted: np.ndarray) -> np.ndarray:
        """Rows citing any evidence item in the mask (through the distinct evidence sets)."""
        return self.ix.citing_mask(np.flatnonzero(wanted))

    def field_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        ix, name, v = self.ix, spec.name, term.value
        if spec.kind in (Kind.NUMBER, Kind.COUNT):
            col = {"line": ix.line, "confidence": ix.confidence, "quality": ix.quality}[name]
            return number_mask(col, spec, term, query)
        if name in ("type", "file", "task"):
            table, col = {
                "type": (ix.data_types, ix.data_type),
                "file": (ix.files, ix.file),
                "task": (ix.tasks, ix.task),
            }[name]
            return (
                match_table(table, v, spec.kind, term.op)[col]
                if len(ix)
                else np.zeros(0, dtype=bool)
            )
        if name == "id":
            return match_bytes(ix.row_id_folded(), v, term.op)
        if name == "evidence":
            if term.op not in (":", "=") or is_number(v):
                return number_mask(ix.n_evidence, FieldSpec(name, Kind.COUNT, ""), term, query)
            return self.citing_any(match_table(ix.evidence_ids, v, Kind.TEXT, term.op))
        if name.startswith("evidence."):
            attr = {
                "evidence.visibility": "visibility",
                "evidence.type": "evidence_type",
                "evidence.ref": "ref",
            }[name]
            return self.citing_any(match_table(self.evidence_attr(attr), v, spec.kind, term.op))
        if name == "change":
            return self.change_mask(spec, term, query)
        if name == "subset":
            return self.subset_mask(spec, term, query)
        if self.findings is None:
            raise self.needs(spec, term, query, "the audit's findings: run the audit first")
        return self.findings.rows_of(finding_mask(self.findings, spec, term), len(ix))

    def change_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        """``change:VALUE`` (wildcards allowed): rows of that kind against the baseline."""
        v = term.value.strip().lower()
        hit = match_table(list(CHANGE_VALUES), v, Kind.ENUM, "=" if term.op == "!=" else term.op)
        if not hit.any():
            raise QueryError(
                query,
                term.value_start + 1,
                f"'change' takes one of {', '.join(CHANGE_VALUES)}, not '{term.value}'",
            )
        if self.changes is None:
            raise self.needs(
                spec,
                term,
                query,
                "a baseline to compare with: open one with "
                "File > Compare With… (on the command line: aa-review diff "
                "OLD NEW --query ...)",
            )
        out = np.zeros(len(self), dtype=bool)
        for value, wanted in zip(CHANGE_VALUES, hit.tolist(), strict=True):
            if wanted:
                out |= self.changes[value]
        return out

    def subset_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        """Rows in the subsets whose name matches (wildcards allowed), as one mask."""
        if self.subsets is None:
            raise self.needs(spec, term, query, "subsets, which are made in the window")
        n = len(self.ix)
        names = list(self.subsets)
        hit = (
            match_table(names, term.value, Kind.ENUM, term.op) if names else np.zeros(0, dtype=bool)
        )
        if not hit.any():
            known = ", ".join(names) if names else "none yet"
            raise QueryError(
                query, term.value_start + 1, f"no subset named '{term.value}': subsets now: {known}"
            )
        m = np.zeros(n, dtype=bool)
        for k in np.flatnonzero(hit):
            rows = self.subsets[names[k]]
            m[rows[rows < n]] = True
        return m

    def values(self, spec: FieldSpec) -> list[tuple[str, int | None]]:
        if spec.name == "change":
            if self.changes is None:
                return [(v, None) for v in CHANGE_VALUES]
            return [(v, int(np.count_nonzero(self.changes[v]))) for v in CHANGE_VALUES]
        ix = self.ix
        if spec.name == "subset":
            return [(k, len(v)) for k, v in (self.subsets or {}).items()]
        if spec.name in ("type", "task", "file"):
            counts = ix.counts_by({"type": "data_type", "task": "task", "file": "file"}[spec.name])
            return by_count(counts.items())
        if spec.name in ("evidence.visibility", "evidence.type"):
            attr = "visibility" if spec.name == "evidence.visibility" else "evidence_type"
            # Counted in rows (the rows citing an item of that value), as the popup says:
            # not the catalog items, which the evidence query counts.
            attrs = self.evidence_attr(attr)
            items: dict[str, list[int]] = {}
            for i, a in enumerate(attrs):
                if a:
                    items.setdefault(a, []).append(i)
            return by_count((k, int(np.count_nonzero(ix.citing_mask(v)))) for k, v in items.items())
        if spec.name == "evidence":
            return [(e, int(n)) for e, n in zip(ix.evidence_ids, ix.cited_counts(), strict=True)]
        if spec.name == "finding" and self.findings is not None:
            return self.findings.code_counts()
        return super().values(spec)
