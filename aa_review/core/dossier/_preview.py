"""What the window asks before acting: would this actor be refused, and how do gates stand now.

Both are read-only: nothing is journaled. The transition itself (which journals a
refusal) is still the only authority; these only let the window show buttons as
enabled or not, and the gate table at every moment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.dossier._states import Action

if TYPE_CHECKING:
    from aa_review.core.dossier._freshness import Freshness
    from aa_review.core.dossier._validator import CheckRecord
    from aa_review.core.dossier._workspace import Workspace

__all__ = ["refusal_for", "preview_check", "USER_ACTIONS", "humanize_code"]

# The actions a person can ask for from the window, in lifecycle order.
USER_ACTIONS = (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE, Action.DEFER, Action.EDIT)


def refusal_for(
    ws: Workspace, action: Action, dossier_id: str, revision: int, actor_id: str
) -> str | None:
    """The refusal code the workspace would give (None: it would go ahead), without journaling.

    :meth:`Workspace.admission` as a string: read-only, key, illegal transition,
    role, separation of duties. Preconditions are left to the attempt.
    """
    reason = ws.admission(action, dossier_id, revision, actor_id)
    return None if reason is None else reason.value


def preview_check(
    ws: Workspace, dossier_id: str, revision: int, viewer_id: str
) -> tuple[Freshness, CheckRecord]:
    """Freshness and every gate of a revision now, as a check would see them; nothing changes.

    Bound packages are inspected (hashed, unless the caller's facts know them) once for both.
    """
    return ws.evaluate_now(dossier_id, revision, viewer_id)


_WORDS = {"G": "gate", "DOSSIER": "dossier", "SOD": "separation of duties"}


def humanize_code(code: str) -> str:
    """``G1_POWER_BELOW_TARGET`` -> ``G1: power below target`` (for tables; codes stay exact).

    What follows a colon names something (``DOSSIER_PACKAGE_CHANGED:pkg_demo_01``: a
    package id) and is kept exactly as written.
    """
    code, colon, named = code.partition(":")
    head, _, rest = code.partition("_")
    if head.startswith("G") and head[1:].isdigit():
        words = f"{head}: {rest.replace('_', ' ').lower()}"
    else:
        words = code.replace("_", " ").lower()
    return f"{words}: {named}" if colon else words
