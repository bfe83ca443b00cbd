"""Independent task families: components of the group/source/template graph (spec 3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from aa_review.core.dossier._models_archive import ArchiveGroup

__all__ = ["HIDDEN_SPLITS", "TaskGraph"]

HIDDEN_SPLITS = frozenset({"calibration", "confirmatory_hidden"})


@dataclass(frozen=True)
class TaskGraph:
    """Groups linked by a shared source or template; each component is one family.

    Attributes
    ----------
    component_of : dict of str to str
        Group id -> component id; the component id is its smallest group id, so
        ids are deterministic whatever the archive's order.
    hidden_groups : frozenset of str
        Groups in a ``calibration`` or ``confirmatory_hidden`` split (any epoch).
    """

    component_of: dict[str, str]
    hidden_groups: frozenset[str]

    @classmethod
    def from_groups(cls, groups: Sequence[ArchiveGroup]) -> TaskGraph:
        """Union-find over groups in sorted ``group_id`` order; family labels are ignored."""
        ordered = sorted((g for g in groups if g.group_id), key=lambda g: g.group_id or "")
        parent: dict[str, str] = {g.group_id: g.group_id for g in ordered if g.group_id}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a: str, b: str) -> None:
            ra, rb = find(a), find(b)
            if ra != rb:  # the smaller id becomes the root: deterministic component ids
                parent[max(ra, rb)] = min(ra, rb)

        first_with: dict[tuple[str, str], str] = {}
        for g in ordered:
            gid = g.group_id or ""
            keys = [("source", s) for s in g.source_ids or ()]
            keys += [("template", t) for t in g.template_ids or ()]
            for key in keys:
                if key in first_with:
                    union(first_with[key], gid)
                else:
                    first_with[key] = gid
        component_of = {gid: find(gid) for gid in parent}
        hidden = frozenset(g.group_id for g in ordered if g.split in HIDDEN_SPLITS and g.group_id)
        return cls(component_of, hidden)

    def component(self, group_id: str) -> str | None:
        """The component of a group, or None when the group is not in the archive."""
        return self.component_of.get(group_id)

    def evaluation_components(self, pool_group_ids: Iterable[str]) -> frozenset[str]:
        """Components of every hidden group and of every listed pool group."""
        comps = {self.component_of[g] for g in self.hidden_groups}
        comps |= {self.component_of[g] for g in pool_group_ids if g in self.component_of}
        return frozenset(comps)
