"""Completion while typing: given the text and the cursor, what may come next there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from aa_review.core.query._edit import quote
from aa_review.core.query._fields import FieldSpec, Kind
from aa_review.core.query._syntax import tokenize

if TYPE_CHECKING:
    from aa_review.core.query._scope import Scope

__all__ = ["Suggestion", "Completion", "complete"]

_NUMERIC = (Kind.NUMBER, Kind.COUNT)
_STOP = set("() \t\r\n")


@dataclass(frozen=True)
class Suggestion:
    """One proposal: ``text`` replaces the completion's span; ``label``/``detail`` are shown.

    ``kind`` is ``field``, ``operator``, ``value`` or ``keyword``.
    """

    text: str
    label: str
    detail: str
    kind: str


@dataclass(frozen=True)
class Completion:
    """Suggestions for the text between ``start`` and ``end`` (0-based, ``end`` exclusive).

    Accepting one replaces ``query[start:end]`` with its ``text``; the cursor then goes
    to ``start + len(text)``.
    """

    start: int
    end: int
    items: tuple[Suggestion, ...]


def complete(scope: Scope, query: str, cursor: int, limit: int = 50) -> Completion:
    """Field names, operators or values (from the scope's data) for the word at ``cursor``."""
    cursor = max(0, min(cursor, len(query)))
    before = query[:cursor]
    end = cursor
    while end < len(query) and query[end] not in _STOP:
        end += 1
    tokens = [t for t in tokenize(before, tolerant=True) if t.kind != "EOF"]
    last = tokens[-1] if tokens else None
    if last is None or last.end < cursor or before[-1:] in ("(", "-") or last.kind == "(":
        return Completion(cursor, cursor, tuple(_fields(scope, "")[:limit]))
    term = last.term
    if last.kind in ("OR", "AND", "NOT"):
        return Completion(
            last.start, end, (Suggestion(last.kind, last.kind, "keyword", "keyword"),)
        )
    if term is None:
        return Completion(cursor, cursor, ())
    if term.field is not None:
        spec = _spec(scope, term.field)
        if spec is None or spec.kind in _NUMERIC:
            return Completion(cursor, cursor, ())
        items = _values(scope, spec, term.value)
        return Completion(term.value_start, end, tuple(items[:limit]))
    if term.quoted:
        return Completion(cursor, cursor, ())
    word = term.value
    spec = _spec(scope, word.lower())
    if spec is not None and spec.kind in _NUMERIC and spec.name == word.lower():
        ops = [
            Suggestion(f"{spec.name}{op}", f"{spec.name}{op}", text, "operator")
            for op, text in (
                ("<", "less than"),
                ("<=", "at most"),
                (">", "more than"),
                (">=", "at least"),
                ("=", "equal to"),
                ("!=", "not equal to"),
            )
        ]
        return Completion(term.start, end, tuple(ops))
    items = _fields(scope, word)
    items += [
        Suggestion(k, k, "keyword", "keyword")
        for k in ("OR", "AND", "NOT")
        if k.startswith(word.upper()) and k != word.upper()
    ]
    return Completion(term.start, end, tuple(items[:limit]))


def _spec(scope: Scope, name: str) -> FieldSpec | None:
    return next((s for s in scope.specs.values() if name == s.name or name in s.aliases), None)


def _fields(scope: Scope, prefix: str) -> list[Suggestion]:
    p = prefix.lower()
    out = []
    for s in scope.specs.values():
        if not s.name.startswith(p) or (s.name.startswith("row.") and not p.startswith("row")):
            continue
        numeric = s.kind in _NUMERIC
        text = s.name if numeric else f"{s.name}:"
        detail = s.help + (" (number: < <= > >= = !=)" if numeric else "")
        out.append(Suggestion(text, s.name, detail, "field"))
    return out


def _values(scope: Scope, spec: FieldSpec, partial: str) -> list[Suggestion]:
    p = partial.lower()
    values = scope.values(spec)
    starts = [(v, n) for v, n in values if v.lower().startswith(p)]
    inside = [(v, n) for v, n in values if p and p in v.lower() and not v.lower().startswith(p)]
    return [
        Suggestion(quote(v), v, "" if n is None else f"{n:,} {scope.what}", "value")
        for v, n in starts + inside
    ]
