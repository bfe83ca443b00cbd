"""``--query`` over a diff's rows: the project's query language, plus ``change:``."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.diff._model import LinksDiff, PackageDiff, RowsDiff
from aa_review.core.query import And, Not, QueryError, Term, filter_rows, parse_query, set_term
from aa_review.core.query._fields import CHANGE_VALUES
from aa_review.core.query._scope import terms_of

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["filter_diff", "change_masks", "CHANGE_VALUES"]


def filter_diff(
    d: PackageDiff, query: str, old_pkg: Package | None, new_pkg: Package | None
) -> PackageDiff:
    """The diff with its row lists (and linked rows) narrowed to the rows matching ``query``.

    Row terms (``type:``, ``file:``, ``id:``, ``line<``...) are evaluated in the package
    where the row is: the new one, the old one for removed rows. ``change:VALUE`` keeps
    rows of that kind (see :data:`CHANGE_VALUES`); terms are ANDed, ``-change:moved``
    excludes. Evidence, contract and finding changes are not filtered. Raises
    :class:`QueryError` for a query that cannot be understood.
    """
    wanted: list[tuple[str, bool]] = []
    tree = parse_query(query)
    top = (
        list(tree.nodes)
        if isinstance(tree, And) and not tree.grouped
        else ([] if tree is None else [tree])
    )
    for node in top:
        negated = isinstance(node, Not)
        t = node.node if isinstance(node, Not) else node
        if isinstance(t, Term) and t.field == "change":
            if t.op != ":" or t.value.lower() not in CHANGE_VALUES:
                raise QueryError(
                    query, t.column, "'change:' takes one of " + ", ".join(CHANGE_VALUES)
                )
            wanted.append((t.value.lower(), negated))
    inner = [t for t in terms_of(tree) if t.field == "change"]
    if len(inner) > len(wanted):  # under OR or parentheses: say so, never guess
        raise QueryError(
            query,
            inner[0].column,
            "'change:' terms are ANDed with the rest of "
            "the query (change:added type:x, -change:moved); not inside OR or "
            "parentheses",
        )
    rest = set_term(query, "change", None) if wanted else query
    r = d.rows
    linked_rows = d.links.rows
    linked = set(linked_rows.pos.tolist())
    kind_of = {int(p): "added" for p in r.added.pos.tolist()}
    kind_of.update({c.new_pos: "changed" for c in r.changed})
    kind_of.update({int(p): "moved" for p in r.moved.new.pos.tolist()})
    kind_of.update({int(p): "reformatted" for p in r.reformatted.pos.tolist()})

    def by_query(pos: np.ndarray, side: str) -> np.ndarray:
        if not rest.strip():
            return np.ones(len(pos), dtype=bool)
        pkg = new_pkg if side == "new" else old_pkg
        if pkg is None:
            raise QueryError(
                query, 1, f"filtering rows needs the {side} package, not a fingerprint"
            )
        hits = filter_rows(pkg, rest)
        return np.ones(len(pos), dtype=bool) if hits is None else np.isin(pos, hits)

    def keep(pos: np.ndarray, side: str) -> np.ndarray:
        mask = by_query(pos, side)
        if wanted:
            kinds = [
                {"removed"}
                if side == "old"
                else {kind_of.get(p, ""), "linked" if p in linked else ""}
                for p in pos.tolist()
            ]
            for value, negated in wanted:
                hit = np.array([value in k for k in kinds], dtype=bool)
                mask &= ~hit if negated else hit
        return mask

    changed_pos = np.array([c.new_pos for c in r.changed], dtype=np.int64)
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
