"""Editing a query's top-level terms, as facets and plots do when clicked."""

from __future__ import annotations

from aa_review.core.query._syntax import And, Node, Not, Or, QueryError, Term, parse_query

__all__ = ["set_term", "term_value", "quote"]


def quote(value: str) -> str:
    """``value`` as the query writes it: bare when it can be, else in double quotes."""
    bare = (
        value
        and not any(c.isspace() or c in '()"' for c in value)
        and value.lower() not in ("or", "and", "not")
        and not value.startswith("-")
    )
    if bare:
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _conjuncts(node: Node | None) -> list[Node]:
    if node is None:
        return []
    if isinstance(node, And) and not node.grouped:
        return list(node.nodes)
    return [node]


def _source(query: str, node: Node) -> str:
    text = query[node.start : node.end]
    return f"({text})" if isinstance(node, Or) and not node.grouped else text


def set_term(query: str, field: str, value: str | None) -> str:
    """``query`` with its top-level ``field:`` terms replaced by ``field:value``.

    Used by facets: clicking a value sets it, clicking it again (``None``) clears it.
    Every other part of the query is kept as written (an ``OR`` gets parentheses);
    a query that does not parse is replaced.
    """
    try:
        parts = _conjuncts(parse_query(query))
    except QueryError:
        parts = []
    kept = [_source(query, n) for n in parts if not _is_field_term(n, field)]
    if value is not None:
        kept.append(f"{field}:{quote(value)}")
    return " ".join(kept)


def _is_field_term(node: Node, field: str) -> bool:
    if isinstance(node, Not):
        node = node.node
    return isinstance(node, Term) and node.field == field


def term_value(query: str, field: str) -> str | None:
    """The value of the first top-level, non-negated ``field:`` term, if any."""
    try:
        parts = _conjuncts(parse_query(query))
    except QueryError:
        return None
    return next(
        (n.value for n in parts if isinstance(n, Term) and n.field == field and n.op == ":"), None
    )
