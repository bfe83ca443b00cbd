"""``--query`` over a diff's rows: the project's query language, ``change:`` included.

One parser and one evaluator: the rows scope that serves the window's rows filter and
``aa-review rows --query`` (:class:`aa_review.core.query.RowsScope`), its ``change:``
field served by the diff's masks, exactly as in the window's compare mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.diff._model import LinksDiff, PackageDiff, RowsDiff
from aa_review.core.query import QueryError, RowsScope, Term, check_query
from aa_review.core.query._fields import CHANGE_VALUES, FieldSpec, resolve
from aa_review.core.query._scope import terms_of

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["filter_diff", "change_masks", "side_masks", "CHANGE_VALUES"]


def filter_diff(
    d: PackageDiff,
    query: str,
    old_pkg: Package | None,
    new_pkg: Package | None,
    findings: tuple[Sequence[Finding] | None, Sequence[Finding] | None] = (None, None),
) -> PackageDiff:
    """The diff with its row lists (and linked rows) narrowed to the rows matching ``query``.

    The query is the rows filter's, whole (``OR``, parentheses, wildcards, ``-term``):
    added, changed, moved, re-serialized and linked rows are matched in the new package,
    removed rows in the old one, each with ``change:`` as the window's compare mode
    answers it (a removed row's only change is ``removed``). ``findings`` (old, new:
    the audits', when made) serve ``finding:`` and ``severity:``. With a fingerprint
    as the old package, only ``change:`` terms can be used. Evidence, contract and
    finding changes are not filtered. Raises :class:`QueryError` for a query that
    cannot be understood or answered.
    """
    tree = check_query(query, "rows")
    if tree is None:
        return replace(d, query=query)
    r = d.rows
    n_new = len(new_pkg.index) if new_pkg is not None else _span(d, "new")
    n_old = len(old_pkg.index) if old_pkg is not None else _span(d, "old")
    new_masks, old_masks = side_masks(d, n_old, n_new)
    new_scope = _scope(new_pkg, findings[1], new_masks, n_new, query, "new")
    old_scope = _scope(old_pkg, findings[0], old_masks, n_old, query, "old")
    new_keep = new_scope.mask(query)
    old_keep = old_scope.mask(query)
    assert new_keep is not None and old_keep is not None  # a query with terms

    def keep(pos: np.ndarray, side: str) -> np.ndarray:
        m = new_keep if side == "new" else old_keep
        return m[pos] if len(pos) else np.zeros(0, dtype=bool)

    changed_pos = np.array([c.new_pos for c in r.changed], dtype=np.int64)
    linked_rows = d.links.rows
    rows = RowsDiff(
        compared=r.compared,
        reason=r.reason,
        added=r.added.where(keep(r.added.pos, "new")),
        removed=r.removed.where(keep(r.removed.pos, "old")),
        changed=tuple(
            c for c, k in zip(r.changed, keep(changed_pos, "new").tolist(), strict=True) if k
        ),
        moved=r.moved.where(keep(r.moved.new.pos, "new")),
        reformatted=r.reformatted.where(keep(r.reformatted.pos, "new")),
        shifted=r.shifted,
        unchanged=r.unchanged,
    )
    links = LinksDiff(d.links.by_evidence, listed=linked_rows.where(keep(linked_rows.pos, "new")))
    return replace(d, rows=rows, links=links, query=query)


def side_masks(
    d: PackageDiff, n_old: int, n_new: int
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The ``change:`` masks of each side: over the new package's rows (no row of it is
    ``removed``) and over the old package's (``removed`` is all their change)."""
    masks = change_masks(d, n_old, n_new)
    new = {k: (np.zeros(n_new, dtype=bool) if k == "removed" else m) for k, m in masks.items()}
    old = {k: (m if k == "removed" else np.zeros(n_old, dtype=bool)) for k, m in masks.items()}
    return new, old


def _span(d: PackageDiff, side: str) -> int:
    """How many rows a side without its package must cover: past its last listed row."""
    r = d.rows
    if side == "old":
        pos = [r.removed.pos]
    else:
        pos = [r.added.pos, r.moved.new.pos, r.reformatted.pos, d.links.rows.pos]
        pos.append(np.array([c.new_pos for c in r.changed], dtype=np.int64))
    top = [int(p.max()) + 1 for p in pos if len(p)]
    return max(top, default=0)


class _Unread(RowsScope):
    """The rows of a side known by its fingerprint only: ``change:`` terms alone."""

    def __init__(self, n: int, changes: dict[str, np.ndarray]) -> None:
        self.n = n
        self.changes = changes
        self.subsets = None
        self.findings = None

    def __len__(self) -> int:
        return self.n

    def field_mask(self, spec: FieldSpec, term: Term, query: str) -> np.ndarray:
        return self.change_mask(spec, term, query)  # _scope let change: terms alone in


def _scope(
    pkg: Package | None,
    findings: Sequence[Finding] | None,
    changes: dict[str, np.ndarray],
    n: int,
    query: str,
    side: str,
) -> RowsScope:
    if pkg is not None:
        scope = RowsScope(pkg, findings)
        scope.changes = changes
        return scope
    for t in terms_of(check_query(query, "rows")):
        if t.field is None or resolve(t, RowsScope.specs, query).name != "change":
            raise QueryError(
                query, t.column, f"filtering rows needs the {side} package, not a fingerprint"
            )
    return _Unread(n, changes)


def change_masks(d: PackageDiff, n_old: int, n_new: int) -> dict[str, np.ndarray]:
    """Per ``change:`` value, a boolean mask over the rows of the package where such rows
    are: ``removed`` over the old package's ``n_old`` rows, the others over the new
    package's ``n_new`` (a facet or a ``change:`` query term in a view of either)."""
    r = d.rows
    out = {k: np.zeros(n_old if k == "removed" else n_new, dtype=bool) for k in CHANGE_VALUES}
    out["added"][r.added.pos] = True
    out["removed"][r.removed.pos] = True
    out["changed"][[c.new_pos for c in r.changed]] = True
    out["moved"][r.moved.new.pos] = True
    out["reformatted"][r.reformatted.pos] = True
    out["linked"][d.links.rows.pos] = True
    return out
