"""What the window asks before acting: would this actor be refused, and how do gates stand now.

Both are read-only: nothing is journaled. The transition itself (which journals a
refusal) is still the only authority; these only let the window show buttons as
enabled or not, and the gate table at every moment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._principals import Kind
from aa_review.core.dossier._states import TRANSITIONS, Action, Refusal
from aa_review.core.dossier._validator import CheckRecord, evaluate

if TYPE_CHECKING:
    from aa_review.core.dossier._workspace import Workspace

__all__ = ["refusal_for", "preview_check", "USER_ACTIONS", "humanize_code"]

# The actions a person can ask for from the window, in lifecycle order.
USER_ACTIONS = (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE, Action.DEFER, Action.EDIT)


def refusal_for(ws: Workspace, action: Action, dossier_id: str, revision: int,
                actor_id: str) -> str | None:
    """The refusal code the workspace would give (None: it would go ahead), without journaling.

    Same precedence as the workspace: read-only, illegal transition, role, separation
    of duties. Preconditions (e.g. an expired dossier) are left to the attempt.
    """
    if ws.read_only:
        return Refusal.WORKSPACE_READ_ONLY.value
    unable = ws.can_act(actor_id) if ws.principals.get(actor_id) is not None else None
    if unable is not None and unable.startswith(Refusal.ACTOR_KEY_UNAVAILABLE.value):
        return Refusal.ACTOR_KEY_UNAVAILABLE.value  # first, as the workspace does (10.2)
    parsed = ws._get(dossier_id, revision)
    t = TRANSITIONS[action]
    if parsed.model.state not in t.from_states or ws._superseded(dossier_id, revision):
        return Refusal.TRANSITION_ILLEGAL.value
    actor = ws.principals.get(actor_id)
    if actor is None or actor.role is not t.role or (t.human_only and actor.kind is not Kind.HUMAN):
        return Refusal.ACTOR_ROLE_NOT_PERMITTED.value
    if action in (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE) and \
            ws._conflicts(action, parsed, actor):
        return Refusal.SEPARATION_OF_DUTIES.value
    return None


def preview_check(ws: Workspace, dossier_id: str, revision: int, viewer_id: str
                  ) -> tuple[Freshness, CheckRecord]:
    """Freshness and every gate of a revision now, as a check would see them; nothing changes.

    Bound packages are inspected (hashed) once for both.
    """
    parsed = ws._get(dossier_id, revision)
    now = ws._now()
    packages = ws._packages(parsed)
    fresh = assess_freshness(parsed, ws.archive, now, packages)
    record = evaluate(parsed, ws.archive, ws.principals, now, viewer_id,
                      package_contamination=ws._hook, packages=packages)
    return fresh, record


_WORDS = {"G": "gate", "DOSSIER": "dossier", "SOD": "separation of duties"}


def humanize_code(code: str) -> str:
    """``G1_POWER_BELOW_TARGET`` -> ``G1: power below target`` (for tables; codes stay exact)."""
    head, _, rest = code.partition("_")
    if head.startswith("G") and head[1:].isdigit():
        return f"{head}: {rest.replace('_', ' ').lower()}"
    return code.replace("_", " ").lower()
