"""Role-dependent views of a revision: private detail only for the independent evaluator."""

from __future__ import annotations

import copy
from typing import Any

from aa_review.core.dossier._archive import Archive
from aa_review.core.dossier._principals import Principal, Role

__all__ = ["WITHHELD", "revision_view"]

WITHHELD = {"withheld": "evaluator_private"}


def revision_view(
    raw: dict[str, Any], viewer: Principal | None, archive: Archive
) -> dict[str, Any]:
    """A copy of a revision's JSON as ``viewer`` may see it (spec 2.5, 2.2, G9).

    For anyone but an independent evaluator, every gate's ``detail`` (which may
    name hidden items or groups) is emptied, also in untrusted imported history,
    and ``evidence.effective_sample`` is withheld when its pool lies in a hidden
    split. Reason codes, statuses and metrics stay visible.
    """
    view = copy.deepcopy(raw)
    if viewer is not None and viewer.role is Role.INDEPENDENT_EVALUATOR:
        return view
    for check in (view.get("check"), (view.get("imported_untrusted") or {}).get("check")):
        gates = check.get("gates") if isinstance(check, dict) else None
        for gate in gates.values() if isinstance(gates, dict) else ():
            if isinstance(gate, dict) and "detail" in gate:
                gate["detail"] = {}
    evidence = view.get("evidence")
    if isinstance(evidence, dict):
        sample = evidence.get("effective_sample")
        if isinstance(sample, dict) and _pool_is_hidden(sample, archive):
            evidence["effective_sample"] = dict(WITHHELD)
    return view


def _pool_is_hidden(sample: dict[str, Any], archive: Archive) -> bool:
    groups = sample.get("groups")
    ids = (
        [g.get("group_id") for g in groups if isinstance(g, dict)]
        if isinstance(groups, list)
        else []
    )
    # An unknown group may be hidden too: withhold unless every group is known and visible.
    return any(gid not in archive.groups or gid in archive.graph.hidden_groups for gid in ids)
