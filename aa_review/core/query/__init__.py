"""One query language for rows, evidence and findings: ``type:a OR (confidence < 0.7 -quirk:yes)``.

The syntax is parsed once (``parse_query``) and evaluated on numpy masks by a
*scope*, one per kind of table: :class:`RowsScope`, :class:`EvidenceScope`,
:class:`FindingsScope`. Each names its fields, checks terms before reading data,
and proposes completions (:func:`complete`). docs/query.md is the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.query._complete import Completion, Suggestion, complete
from aa_review.core.query._edit import quote, set_term, term_value
from aa_review.core.query._evidence import EvidenceScope
from aa_review.core.query._fields import (
    EVIDENCE_SPECS,
    FINDING_SPECS,
    ROW_SPECS,
    FieldSpec,
    Kind,
)
from aa_review.core.query._findex import FindingsIndex, locations_of
from aa_review.core.query._findings import FindingsScope, check_of
from aa_review.core.query._numbers import DISPLAY_DECIMALS, format_number
from aa_review.core.query._reports import filter_corpus, filter_report
from aa_review.core.query._rows import RowsScope
from aa_review.core.query._scope import Scope
from aa_review.core.query._syntax import And, Node, Not, Or, QueryError, Term, parse_query

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = [
    "QueryError",
    "parse_query",
    "Node",
    "Term",
    "Not",
    "And",
    "Or",
    "Scope",
    "RowsScope",
    "EvidenceScope",
    "FindingsScope",
    "FindingsIndex",
    "locations_of",
    "FieldSpec",
    "Kind",
    "ROW_SPECS",
    "EVIDENCE_SPECS",
    "FINDING_SPECS",
    "ROW_FIELDS",
    "EVIDENCE_FIELDS",
    "FINDING_FIELDS",
    "filter_rows",
    "filter_evidence",
    "filter_findings",
    "filter_report",
    "filter_corpus",
    "check_query",
    "fields_used",
    "needs_package",
    "complete",
    "Completion",
    "Suggestion",
    "set_term",
    "term_value",
    "quote",
    "DISPLAY_DECIMALS",
    "format_number",
    "check_of",
]


def _help(specs: dict[str, FieldSpec]) -> dict[str, str]:
    out = {n: s.help for n, s in specs.items() if not n.startswith("row.")}
    if any(n.startswith("row.") for n in specs):
        out["row.<field>"] = "about a row matching <field> (any rows field, e.g. row.file:x)"
    return out


# Field name -> one-line help, for help texts.
ROW_FIELDS = _help(ROW_SPECS)
EVIDENCE_FIELDS = _help(EVIDENCE_SPECS)
FINDING_FIELDS = _help(FINDING_SPECS)

_SCOPES: dict[str, type[Scope]] = {
    "rows": RowsScope,
    "evidence": EvidenceScope,
    "findings": FindingsScope,
}


def filter_rows(
    pkg: Package, query: str, findings: FindingsIndex | Sequence[Finding] | None = None
) -> np.ndarray | None:
    """Positions of the rows matching ``query`` (None: no term, every row).

    ``findings`` (the audit's) serve ``finding:`` and ``severity:``; without them
    those terms raise :class:`QueryError`.
    """
    return RowsScope(pkg, findings).filter(query)


def filter_evidence(
    pkg: Package,
    query: str,
    cited: np.ndarray | None = None,
    findings: FindingsIndex | Sequence[Finding] | None = None,
) -> np.ndarray | None:
    """Positions (into ``index.evidence_ids``) of the evidence items matching ``query``."""
    return EvidenceScope(pkg, findings, cited).filter(query)


def filter_findings(
    findings: FindingsIndex | Sequence[Finding], query: str, pkg: Package | None = None
) -> list[int]:
    """Positions of the findings matching ``query``.

    Row fields (``type:``, ``confidence<0.7``, ``row.file:``...) keep findings about a
    matching row and need ``pkg`` (or an index built with it).
    """
    kept = FindingsScope(findings, pkg).filter(query)
    return list(range(len(findings))) if kept is None else kept.tolist()


def check_query(query: str, what: str) -> Node | None:
    """Parse and check ``query`` for ``rows``, ``evidence`` or ``findings`` without data."""
    return _SCOPES[what].check(query)


def fields_used(query: str, what: str) -> set[str]:
    """The fields (by their main name) a checked query uses.

    ``what`` is ``rows``, ``evidence`` or ``findings``.
    """
    from aa_review.core.query._fields import resolve
    from aa_review.core.query._scope import terms_of

    scope = _SCOPES[what]
    return {
        resolve(t, scope.specs, query).name
        for t in terms_of(scope.check(query))
        if t.field is not None
    }


def needs_package(query: str) -> bool:
    """Whether a findings query uses row fields, so needs the package to be evaluated."""
    from aa_review.core.query._fields import ROW_FIELDS_IN_FINDINGS

    return any(
        n.startswith("row.") or n in ROW_FIELDS_IN_FINDINGS for n in fields_used(query, "findings")
    )
