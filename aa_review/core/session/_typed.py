"""A value the open package does not have, caught as it is typed in a filter box.

``type:fa`` is a query of the language (it keeps no row: ``type`` is matched whole),
so ``aa-review rows --query`` answers it with no rows, as it always has. Typed in the
window, it is nearly always a word not finished: the box says so, as it does for
``severity:bad``, and the table keeps what it showed instead of blanking mid-word.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from aa_review.core.query import QueryError
from aa_review.core.query._fields import Kind, resolve
from aa_review.core.query._scope import terms_of

if TYPE_CHECKING:
    from aa_review.core.query._scope import Scope as QueryScope

__all__ = ["check_known_values"]

_WILD = ("*", "?")


def check_known_values(scope: QueryScope, query: str) -> None:
    """Raise :class:`QueryError` at the first ``field:value`` term of an enumerated field
    (its values come from the data) whose value no item of ``scope`` has, naming the
    values it could be. Wildcards, quoted values and fields with no values known pass."""
    node = scope.check(query)
    for term in terms_of(node):
        if term.field is None or term.op != ":" or term.quoted or not term.value:
            continue
        if any(w in term.value for w in _WILD):
            continue
        spec = resolve(term, scope.specs, query)
        if spec.kind is not Kind.ENUM:
            continue
        known = [v for v, _n in scope.values(spec)]
        if not known or term.value.lower() in {v.lower() for v in known}:
            continue
        typed = term.value.lower()
        near = [v for v in known if v.lower().startswith(typed)] or difflib.get_close_matches(
            term.value, known, n=3, cutoff=0.5
        )
        hint = (
            f"did you mean {' or '.join(near[:3])}?"
            if near
            else "its values: " + ", ".join(known[:6]) + ("…" if len(known) > 6 else "")
        )
        raise QueryError(
            query,
            term.value_start + 1,
            f"no {scope.what} with {spec.name} '{term.value}' here: {hint} "
            f"({spec.name}:{term.value}* keeps those starting with it)",
        )
