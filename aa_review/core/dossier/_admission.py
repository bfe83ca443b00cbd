"""Who may take a step on a revision: the refusal precedence of spec 7.2, as one pure function.

The workspace decides every attempt with :func:`admission` (and journals a refusal);
the panel state asks the same function, for every principal, without journaling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from aa_review.core.dossier._principals import Kind, Principal, Role
from aa_review.core.dossier._states import TRANSITIONS, Action, DossierState, Refusal

if TYPE_CHECKING:
    from aa_review.core.dossier._freshness import Freshness
    from aa_review.core.dossier._models_dossier import ParsedDossier

__all__ = ["AUTHORIZE", "Standing", "Step", "admission", "conflict_of", "eligible_precondition"]

# Authorizing the amendment proposal (2.4) is a sign-off, not a transition of 7.2.
AUTHORIZE: Literal["authorize_amendment"] = "authorize_amendment"
Step = Action | Literal["authorize_amendment"]
_AUTHORIZE_FROM = frozenset({DossierState.DRAFT, DossierState.EVIDENCE_BOUND})

# The plan fields naming a training-side identity (spec 7.4), in the words the UI uses.
TRAINING_SIDE_FIELDS = {
    "training_identity": "training identity",
    "provider_identity": "provider identity",
    "candidate_author_identity": "candidate-author identity",
    "search_controller_identity": "search-controller identity",
}


@dataclass(frozen=True)
class Standing:
    """What admission reads of a revision: its state and who acted on it.

    Attributes
    ----------
    state : DossierState
    superseded : bool
        A later revision exists (every step on this one is illegal).
    author, binder, checker : str or None
        ``created_by``, ``binding.bound_by``, ``check.checked_by``.
    training_side : dict of str to str
        Training-side identity -> the plan field naming it (spec 7.4).
    """

    state: DossierState
    superseded: bool
    author: str | None
    binder: str | None
    checker: str | None
    training_side: dict[str, str]

    @classmethod
    def of(cls, parsed: ParsedDossier, superseded: bool) -> Standing:
        m = parsed.model
        plan = m.evidence.independence_plan
        side: dict[str, str] = {}
        if plan is not None:
            for name in TRAINING_SIDE_FIELDS:
                who = getattr(plan, name, None)
                if who and who not in side:
                    side[who] = name
        checker = m.check.get("checked_by") if isinstance(m.check, dict) else None
        return cls(
            state=m.state,
            superseded=superseded,
            author=m.created_by,
            binder=m.binding.bound_by if m.binding else None,
            checker=checker if isinstance(checker, str) else None,
            training_side=side,
        )


def conflict_of(step: Step, standing: Standing, principal_id: str) -> str | None:
    """Why ``principal_id`` may not take ``step`` under separation of duties, or None.

    Returns ``"author"``, ``"binder"``, ``"checker"`` or the plan field naming a
    training-side identity (author/binder != checker != deciding maintainer; none of
    them on the training side: spec 7.2, 7.4).
    """
    if (
        step in (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE, AUTHORIZE)
        and principal_id in standing.training_side
    ):
        return standing.training_side[principal_id]
    capacities: tuple[tuple[str, str | None], ...] = ()
    if step is Action.CHECK:
        capacities = (("author", standing.author), ("binder", standing.binder))
    elif step is Action.DECIDE_ELIGIBLE:
        capacities = (
            ("author", standing.author),
            ("binder", standing.binder),
            ("checker", standing.checker),
        )
    return next((name for name, who in capacities if who == principal_id), None)


def admission(
    step: Step, standing: Standing, actor: Principal | None, *, read_only: bool, unable: str | None
) -> Refusal | None:
    """The refusal ``actor`` gets for ``step`` (None: the step goes ahead), in spec order.

    Read-only workspace first, then a principal who cannot sign here (nothing is
    journaled in the name of someone without a key, 10.2), then 7.2's precedence:
    illegal transition, role (and kind, for human maintainers), separation of duties.
    Preconditions (a passing check for T5) and freshness are decided by the step.

    Parameters
    ----------
    unable : str or None
        :meth:`Workspace.can_act`'s answer for the actor.
    """
    if read_only:
        return Refusal.WORKSPACE_READ_ONLY
    if step == AUTHORIZE:  # a sign-off of 2.4: its own legality, a human maintainer
        if standing.state not in _AUTHORIZE_FROM or standing.superseded:
            return Refusal.TRANSITION_ILLEGAL
        if actor is None or not actor.is_human_maintainer:
            return Refusal.ACTOR_ROLE_NOT_PERMITTED
        if conflict_of(AUTHORIZE, standing, actor.principal_id) is not None:
            return Refusal.SEPARATION_OF_DUTIES
        return None
    assert isinstance(step, Action)
    if (
        actor is not None
        and unable is not None
        and unable.startswith(Refusal.ACTOR_KEY_UNAVAILABLE.value)
    ):
        return Refusal.ACTOR_KEY_UNAVAILABLE
    t = TRANSITIONS[step]
    if standing.state not in t.from_states or standing.superseded:
        return Refusal.TRANSITION_ILLEGAL
    if actor is None or actor.role is not t.role or (t.human_only and actor.kind is not Kind.HUMAN):
        return Refusal.ACTOR_ROLE_NOT_PERMITTED
    if conflict_of(step, standing, actor.principal_id) is not None:
        return Refusal.SEPARATION_OF_DUTIES
    return None


def eligible_precondition(parsed: ParsedDossier, fresh: Freshness) -> bool:
    """T5's precondition: the latest check is bound to the current evidence digest, all
    eleven gates pass, and no dossier-level reason blocks (spec 7.2)."""
    from aa_review.core.dossier._gates_common import GATE_IDS

    check: dict[str, Any] = parsed.model.check if isinstance(parsed.model.check, dict) else {}
    found = check.get("gates")
    gates: dict[str, Any] = found if isinstance(found, dict) else {}
    all_pass = all(
        isinstance(gates.get(g), dict) and gates[g].get("status") == "pass" for g in GATE_IDS
    )
    return bool(
        check.get("evidence_digest") == parsed.evidence_digest
        and all_pass
        and check.get("eligible_if_decided") is True
        and not check.get("dossier_reason_codes")
        and not fresh.blocking
    )


def role_needed(step: Step) -> tuple[Role, bool]:
    """The role a step needs and whether the principal must also be of kind human."""
    if step == AUTHORIZE:
        return Role.HUMAN_MAINTAINER, True
    assert isinstance(step, Action)
    t = TRANSITIONS[step]
    return t.role, t.human_only
