"""Parsing the filter syntax shared by every table and ``aa-review audit --query``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aa_review.core.errors import AAReviewError

__all__ = ["QueryError", "Term", "parse_query", "set_term", "term_value"]

_OPS = ("<=", ">=", "!=", "<", ">", "=", ":")
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


class QueryError(AAReviewError):
    """A query that cannot be understood; ``column`` is 1-based."""

    def __init__(self, query: str, column: int, message: str) -> None:
        self.query = query
        self.column = column
        self.message = message
        super().__init__(f"query column {column}: {message}\n  {query}\n  {' ' * (column - 1)}^")


@dataclass(frozen=True)
class Term:
    """``field op value``; ``field`` is None for free text. ``column`` is where it starts."""

    field: str | None
    op: str
    value: str
    negated: bool
    column: int


def _read_value(q: str, i: int) -> tuple[str, int]:
    if i < len(q) and q[i] == '"':
        end = q.find('"', i + 1)
        if end < 0:
            raise QueryError(q, i + 1, "unclosed quote")
        return q[i + 1:end], end + 1
    j = i
    while j < len(q) and not q[j].isspace():
        j += 1
    return q[i:j], j


def parse_query(q: str) -> list[Term]:
    """Split a query into terms. Terms are ANDed; ``-term`` negates one.

    Forms: ``field:value``, ``field<number`` (also ``<= > >= = !=``), ``"free text"``, ``word``.
    """
    terms: list[Term] = []
    i = 0
    while i < len(q):
        if q[i].isspace():
            i += 1
            continue
        start = i
        negated = q[i] == "-" and i + 1 < len(q) and not q[i + 1].isspace()
        if negated:
            i += 1
        m = _FIELD.match(q, i)
        if m:
            after = m.end()
            op = next((o for o in _OPS if q.startswith(o, after)), None)
            if op is not None:
                value, i = _read_value(q, after + len(op))
                if value == "":
                    raise QueryError(q, after + len(op) + 1,
                                     f"'{m.group()}{op}' needs a value after it")
                terms.append(Term(m.group().lower(), op, value, negated, start + 1))
                continue
        value, i = _read_value(q, i)
        if value:
            terms.append(Term(None, ":", value, negated, start + 1))
    return terms


def _quote(value: str) -> str:
    return f'"{value}"' if not value or any(c.isspace() for c in value) else value


def set_term(query: str, field: str, value: str | None) -> str:
    """``query`` with its ``field:`` terms replaced by ``field:value`` (removed when None).

    Used by facets: clicking a value sets it, clicking it again clears it.
    An unparseable query is replaced rather than edited.
    """
    try:
        terms = parse_query(query)
    except QueryError:
        terms = []
    kept = [t for t in terms if t.field != field]
    parts = [("-" if t.negated else "") + (f"{t.field}{t.op}" if t.field else "") + _quote(t.value)
             for t in kept]
    if value is not None:
        parts.append(f"{field}:{_quote(value)}")
    return " ".join(parts)


def term_value(query: str, field: str) -> str | None:
    """The value of the first non-negated ``field:`` term, if any."""
    try:
        return next((t.value for t in parse_query(query) if t.field == field and not t.negated),
                    None)
    except QueryError:
        return None
