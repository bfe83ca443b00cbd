"""Lifecycle states, actions and the transition table (spec 7.1, 7.2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from aa_review.core.dossier._principals import Role

__all__ = [
    "BOUND_STATES",
    "TRANSITIONS",
    "Action",
    "DossierState",
    "Outcome",
    "Refusal",
    "Transition",
    "find_transition",
]


class DossierState(StrEnum):
    """State of one dossier revision."""

    DRAFT = "draft"
    EVIDENCE_BOUND = "evidence_bound"
    INDEPENDENTLY_CHECKED = "independently_checked"
    ELIGIBLE = "eligible"
    DEFERRED = "deferred"
    EXPIRED = "expired"


# States in which the evidence digest is recorded and the evidence immutable.
BOUND_STATES = frozenset(
    {
        DossierState.EVIDENCE_BOUND,
        DossierState.INDEPENDENTLY_CHECKED,
        DossierState.ELIGIBLE,
        DossierState.DEFERRED,
    }
)


class Action(StrEnum):
    """What an actor (or the reducer) asks to do to a revision."""

    CREATE = "create"  # T0: a new revision in draft (an edit of a bound revision)
    EDIT_DRAFT = "edit_draft"  # a draft is edited in place
    BIND = "bind"  # T1
    CHECK = "check"  # T2
    AUTO_DEFER = "auto_defer"  # T3
    DEFER = "defer"  # T4
    DECIDE_ELIGIBLE = "decide_eligible"  # T5
    EXPIRE = "expire"  # T6
    EDIT = "edit"  # T7: expires the bound revision and creates the next one


class Outcome(StrEnum):
    """``TransitionResult.outcome``."""

    APPLIED = "applied"
    REFUSED = "refused"
    EXPIRED = "expired"
    APPLIED_AS_NEW_REVISION = "applied_as_new_revision"


class Refusal(StrEnum):
    """Reason codes of a refused attempt, in precedence order first (spec 7.2)."""

    TRANSITION_ILLEGAL = "TRANSITION_ILLEGAL"
    ACTOR_ROLE_NOT_PERMITTED = "ACTOR_ROLE_NOT_PERMITTED"
    SEPARATION_OF_DUTIES = "SEPARATION_OF_DUTIES"
    PRECONDITION_UNMET = "PRECONDITION_UNMET"
    DOSSIER_SCHEMA_INVALID = "DOSSIER_SCHEMA_INVALID"
    EDIT_PATH_INVALID = "EDIT_PATH_INVALID"
    WORKSPACE_READ_ONLY = "WORKSPACE_READ_ONLY"
    JOURNAL_WRITE_FAILED = "JOURNAL_WRITE_FAILED"
    # The actor's private key is not on this machine (spec 10.2): nothing is journaled.
    ACTOR_KEY_UNAVAILABLE = "ACTOR_KEY_UNAVAILABLE"


@dataclass(frozen=True)
class Transition:
    """One row of the transition table.

    Attributes
    ----------
    label : str
        The spec's row label (T0..T7).
    action : Action
        The action the row permits.
    from_states : frozenset
        States the revision must be in (``None``: the revision does not exist yet).
    to_state : DossierState or None
        State after the action (``None`` for T7, which creates a new revision).
    role : Role
        The only role that may perform it.
    human_only : bool
        The actor must also be of kind ``human`` (human maintainer rows).
    """

    label: str
    action: Action
    from_states: frozenset[DossierState | None]
    to_state: DossierState | None
    role: Role
    human_only: bool = False


_S = DossierState
_NOT_EXPIRED = frozenset(s for s in DossierState if s is not _S.EXPIRED)

TRANSITIONS: dict[Action, Transition] = {
    t.action: t
    for t in (
        Transition("T0", Action.CREATE, frozenset({None}), _S.DRAFT, Role.TRAINING_RESEARCH_LEAD),
        Transition(
            "T0", Action.EDIT_DRAFT, frozenset({_S.DRAFT}), _S.DRAFT, Role.TRAINING_RESEARCH_LEAD
        ),
        Transition(
            "T1", Action.BIND, frozenset({_S.DRAFT}), _S.EVIDENCE_BOUND, Role.TRAINING_RESEARCH_LEAD
        ),
        Transition(
            "T2",
            Action.CHECK,
            frozenset({_S.EVIDENCE_BOUND}),
            _S.INDEPENDENTLY_CHECKED,
            Role.INDEPENDENT_EVALUATOR,
        ),
        Transition(
            "T3",
            Action.AUTO_DEFER,
            frozenset({_S.INDEPENDENTLY_CHECKED}),
            _S.DEFERRED,
            Role.SYSTEM_REDUCER,
        ),
        Transition(
            "T4",
            Action.DEFER,
            frozenset({_S.INDEPENDENTLY_CHECKED}),
            _S.DEFERRED,
            Role.HUMAN_MAINTAINER,
            human_only=True,
        ),
        Transition(
            "T5",
            Action.DECIDE_ELIGIBLE,
            frozenset({_S.INDEPENDENTLY_CHECKED}),
            _S.ELIGIBLE,
            Role.HUMAN_MAINTAINER,
            human_only=True,
        ),
        Transition("T6", Action.EXPIRE, _NOT_EXPIRED, _S.EXPIRED, Role.SYSTEM_REDUCER),
        Transition("T7", Action.EDIT, frozenset(BOUND_STATES), None, Role.TRAINING_RESEARCH_LEAD),
    )
}


def find_transition(
    from_state: DossierState | None, to_state: DossierState | None, role: Role
) -> Transition | None:
    """The table row that moves ``from_state`` to ``to_state`` for ``role``, if any.

    Used by journal replay, which sees states and roles but not actions.
    """
    for t in TRANSITIONS.values():
        if t.to_state is not None and t.to_state is to_state and t.role is role:
            if from_state in t.from_states:
                return t
    return None
