"""Queries over the evidence items: the catalog, then ids rows cite that it lacks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.query._fields import EVIDENCE_SPECS, FieldSpec, Kind
from aa_review.core.query._findex import FindingsIndex
from aa_review.core.query._match import match_table
from aa_review.core.query._rows import findings_index
from aa_review.core.query._scope import Scope, finding_mask, flag_mask, number_mask
from aa_review.core.query._syntax import Term

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["EvidenceScope"]


def _flag(v: object) -> int:
    return -1 if v is None else int(bool(v))


class EvidenceScope(Scope):
    """Evidence positions of one package (``index.evidence_ids``)."""

    what = "evidence items"
    free_text = "evidence id or ref containing the text"
    specs = EVIDENCE_SPECS

    def __init__(
        self,
        pkg: Package,
        findings: FindingsIndex | Sequence[Finding] | None = None,
        cited: np.ndarray | None = None,
    ) -> None:
        ix = pkg.index
        self.pkg = pkg
        self.findings = findings_index(findings, pkg)
        items = [pkg.evidence_at(i) for i in range(len(ix.evidence_ids))]
        self.ids = list(ix.evidence_ids)
        self.text = {
            "ref": [e.ref if e else "" for e in items],
            "type": [(e.evidence_type or "") if e else "" for e in items],
            "visibility": [(e.visibility or "") if e else "" for e in items],
        }
        self.flags = {
            "resolves": np.array([_flag(e.resolves if e else None) for e in items], np.int8),
            "catalogued": np.array([_flag(e is not None) for e in items], np.int8),
        }
        self.confidence = np.array(
            [e.confidence if e and e.confidence is not None else np.nan for e in items], dtype=float
        )
        self.cited = pkg.index.cited_counts() if cited is None else np.asarray(cited)

    def __len__(self) -> int:
        return len(self.ids)

    def text_mask(self, value: str) -> np.ndarray:
        mask: np.ndarray = match_table(self.ids, value, Kind.TEXT, ":") | match_table(
            self.text["ref"], value, Kind.TEXT, ":"
        )
        return mask

    def field_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        name = spec.name
        if name in ("confidence", "cited"):
            col = self.confidence if name == "confidence" else self.cited
            return number_mask(col, spec, term, query)
        if spec.kind is Kind.FLAG:
            return flag_mask(self.flags[name], term)
        if name in self.text or name == "id":
            table = self.ids if name == "id" else self.text[name]
            return match_table(table, term.value, spec.kind, term.op)
        if self.findings is None:
            raise self.needs(spec, term, query, "the audit's findings: run the audit first")
        return self.findings.evidence_of(finding_mask(self.findings, spec, term), len(self.ids))

    def values(self, spec: FieldSpec) -> list[tuple[str, int | None]]:
        if spec.name in ("type", "visibility"):
            return [(k, n) for k, n in Counter(self.text[spec.name]).most_common() if k]
        if spec.name == "id":
            return [(e, int(n)) for e, n in zip(self.ids, self.cited, strict=True)]
        if spec.name == "finding" and self.findings is not None:
            return self.findings.code_counts()
        return super().values(spec)
