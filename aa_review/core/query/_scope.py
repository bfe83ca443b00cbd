"""What rows, evidence and findings queries share: checking the tree, then numpy masks."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from aa_review.core.query._fields import (
    FLAG_VALUES,
    SEVERITIES,
    FieldSpec,
    Kind,
    check_term,
    parse_number,
    resolve,
)
from aa_review.core.query._match import match_table
from aa_review.core.query._numbers import compare_exact, compare_rounded
from aa_review.core.query._syntax import And, Node, Not, QueryError, Term, parse_query

if TYPE_CHECKING:
    from aa_review.core.query._findex import FindingsIndex

__all__ = ["Scope", "terms_of", "severity_mask", "flag_mask", "number_mask", "finding_mask"]


def terms_of(node: Node | None) -> list[Term]:
    """Every term of the tree, in the order they are written."""
    if node is None:
        return []
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return terms_of(node.node)
    return [t for n in node.nodes for t in terms_of(n)]


class Scope:
    """One kind of table (rows, evidence items, findings) a query filters.

    Subclasses name their fields in ``specs``, say what free text matches in
    ``free_text``, and compute one term's mask in ``field_mask``/``text_mask``.
    """

    what = "items"
    free_text = ""
    specs: ClassVar[dict[str, FieldSpec]] = {}

    def __len__(self) -> int:
        raise NotImplementedError

    # -- the public face ---------------------------------------------------------
    @classmethod
    def check(cls, query: str) -> Node | None:
        """Parse ``query`` and check every field, operator and value; no data is read."""
        node = parse_query(query)
        for term in terms_of(node):
            if term.field is not None:
                check_term(resolve(term, cls.specs, query), term, query)
        return node

    def mask(self, query: str) -> np.ndarray | None:
        """Boolean mask of the items ``query`` keeps; None when it keeps all (no term)."""
        node = self.check(query)
        return None if node is None else self._eval(node, query)

    def filter(self, query: str) -> np.ndarray | None:
        """Positions of the items ``query`` keeps, in order; None when it keeps all."""
        m = self.mask(query)
        return None if m is None else np.flatnonzero(m)

    def values(self, spec: FieldSpec) -> list[tuple[str, int | None]]:
        """Values of an enumerated field found in the data, with how many items have each."""
        if spec.kind is Kind.FLAG:
            return [("yes", None), ("no", None)]
        if spec.kind is Kind.SEVERITY:
            return [(s, None) for s in SEVERITIES]
        return []

    # -- evaluation ----------------------------------------------------------------
    def _eval(self, node: Node, query: str) -> np.ndarray:
        if isinstance(node, Term):
            if node.field is None:
                return self.text_mask(node.value)
            spec = resolve(node, self.specs, query)
            if node.op == "!=":  # always the negation of '=' (missing values included)
                return ~self.field_mask(spec, replace(node, op="="), query)
            return self.field_mask(spec, node, query)
        if isinstance(node, Not):
            return ~self._eval(node.node, query)
        masks = (self._eval(n, query) for n in node.nodes)
        out = next(masks).copy()
        for m in masks:
            if isinstance(node, And):
                out &= m
            else:
                out |= m
        return out

    def text_mask(self, value: str) -> np.ndarray:
        raise NotImplementedError

    def field_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        raise NotImplementedError

    def needs(self, spec: FieldSpec, term: Term, query: str, what: str) -> QueryError:
        return QueryError(query, term.column, f"'{spec.name}' needs {what}")


def severity_mask(ranks: np.ndarray, term: Term) -> np.ndarray:
    """``severity:x`` is at least x; ``=``, ``<``... compare the levels' order."""
    want = SEVERITIES.index(term.value.strip().lower())
    op = ">=" if term.op == ":" else term.op
    return compare_exact(ranks, op, Decimal(want))


def flag_mask(values: np.ndarray, term: Term) -> np.ndarray:
    """``values``: 1 yes, 0 no, -1 unknown; unknown matches neither yes nor no."""
    mask: np.ndarray = values == (1 if FLAG_VALUES[term.value.strip().lower()] else 0)
    return mask


def number_mask(col: np.ndarray, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
    if term.value.strip().lower() == "none":
        return np.asarray(np.isnan(col))
    literal = parse_number(term, query, spec.name)
    if spec.kind is Kind.NUMBER:
        return compare_rounded(col, term.op, literal)
    return compare_exact(col, term.op, literal)


def finding_mask(f: FindingsIndex, spec: FieldSpec, term: Term) -> np.ndarray:
    """Findings a ``finding:``/``code:`` (code prefix) or ``severity:`` term selects."""
    if spec.kind is Kind.SEVERITY:
        return severity_mask(f.severity, term)
    if not len(f):
        return np.zeros(0, dtype=bool)
    mask: np.ndarray = match_table(f.code_table, term.value, Kind.PREFIX, term.op)[f.code]
    return mask
