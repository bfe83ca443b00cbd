"""Lifecycle steps in words: what a step is, who may take it, and why someone may not.

Refusal texts name the step in words, the role it needs, the role the actor holds
and, where the table allows anyone, who could take it (spec 12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aa_review.core.dossier._admission import (
    AUTHORIZE,
    TRAINING_SIDE_FIELDS,
    Standing,
    Step,
    conflict_of,
    role_needed,
)
from aa_review.core.dossier._principals import Kind, Principal
from aa_review.core.dossier._states import TRANSITIONS, Action, DossierState, Refusal

__all__ = ["STEPS", "StepWords", "needs_words", "refusal_text", "who_text", "step_words"]


@dataclass(frozen=True)
class StepWords:
    """How the window names one step.

    Attributes
    ----------
    label : str
        The button.
    noun : str
        The step in a sentence ("binding the evidence").
    table : str
        Its row of the transition table ("T1 draft → evidence_bound").
    """

    label: str
    noun: str
    table: str


STEPS: dict[Step, StepWords] = {
    Action.BIND: StepWords("Bind evidence", "binding the evidence", "T1 draft → evidence_bound"),
    Action.CHECK: StepWords(
        "Run independent check",
        "the independent check",
        "T2 evidence_bound → independently_checked",
    ),
    Action.DECIDE_ELIGIBLE: StepWords(
        "Decide eligible", "deciding eligible", "T5 independently_checked → eligible"
    ),
    Action.DEFER: StepWords(
        "Decide deferred", "deciding deferred", "T4 independently_checked → deferred"
    ),
    Action.EDIT: StepWords(
        "Edit evidence…",
        "editing the bound evidence (a new revision)",
        "T7 new revision in draft; this one expires",
    ),
    Action.EDIT_DRAFT: StepWords(
        "Edit evidence…", "editing the draft", "T0 the draft is edited in place"
    ),
    AUTHORIZE: StepWords(
        "Authorize amendment proposal…",
        "authorizing the amendment proposal",
        "sign-off of spec 2.4 (it grants nothing)",
    ),
}


def step_words(step: Step) -> StepWords:
    return STEPS[step]


def needs_words(step: Step) -> str:
    """``role training_research_lead``, or ``a human maintainer (role human_maintainer, kind
    human)``."""
    role, human = role_needed(step)
    if human:
        return f"a human maintainer (role {role.value}, kind human)"
    return f"role {role.value}"


def _holds(actor: Principal) -> str:
    return f"{actor.principal_id} holds role {actor.role.value} (kind {actor.kind.value})"


def who_text(ids: Sequence[str]) -> str:
    """``p-a``, ``p-a or p-b``, ``p-a, p-b or p-c``; ``nobody here`` when empty."""
    ids = list(ids)
    if not ids:
        return "nobody in this workspace"
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " or " + ids[-1]


def conditions_text(step: Step, standing: Standing) -> str:
    """Who, besides the role, may not take the step: ``who is not the author or on the
    training side`` (spec 7.2, 7.4)."""
    capacities: list[str] = []
    if step in (Action.CHECK, Action.DECIDE_ELIGIBLE):
        capacities.append("the author")
        if standing.binder and standing.binder != standing.author:
            capacities.append("the binder")
    if (
        step is Action.DECIDE_ELIGIBLE
        and standing.checker
        and standing.checker not in (standing.author, standing.binder)
    ):
        capacities.append("the checker")
    if step in (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE, AUTHORIZE):
        capacities.append("on the training side")
    if not capacities:
        return ""
    if len(capacities) == 1:
        return f"who is not {capacities[0]}"
    return "who is not " + ", ".join(capacities[:-1]) + " or " + capacities[-1]


def refusal_text(
    step: Step,
    refusal: Refusal | str,
    actor: Principal | None,
    actor_id: str,
    standing: Standing,
    could: Sequence[str] = (),
    fault: str | None = None,
) -> str:
    """Why ``actor`` may not take ``step``, in words: the step, the role it needs, the role
    the actor holds, and who could take it."""
    words = STEPS[step]
    code = Refusal(refusal) if refusal in Refusal.__members__.values() else None
    who = f" Who could: {who_text(could)}." if could else ""
    if not actor_id:
        return f"Choose who you act as first: {words.noun} needs {needs_words(step)}."
    if code is Refusal.WORKSPACE_READ_ONLY:
        return (
            f"The workspace is read-only ({fault or 'its journal failed verification'}): "
            f"no step can be taken until a human repairs it."
        )
    if code is Refusal.ACTOR_KEY_UNAVAILABLE:
        return (
            f"{actor_id}'s private key is not on this machine, so {actor_id} cannot sign "
            f"anything here: {words.noun} needs {needs_words(step)} with a key here "
            f"(aa-review keys).{who}"
        )
    if code is Refusal.TRANSITION_ILLEGAL:
        return f"{words.noun.capitalize()} is not possible now: {_illegal(step, standing)}"
    if code is Refusal.ACTOR_ROLE_NOT_PERMITTED:
        if actor is None:
            return (
                f"{words.noun.capitalize()} needs {needs_words(step)}; {actor_id} is not in "
                f"the principal registry.{who}"
            )
        role, human = role_needed(step)
        if actor.role is role and human and actor.kind is not Kind.HUMAN:
            return (
                f"{words.noun.capitalize()} needs {needs_words(step)}; {_holds(actor)}: "
                f"an agent is never a human maintainer.{who}"
            )
        return f"{words.noun.capitalize()} needs {needs_words(step)}; {_holds(actor)}.{who}"
    if code is Refusal.SEPARATION_OF_DUTIES:
        capacity = conflict_of(step, standing, actor_id) or "a conflicting capacity"
        as_what = TRAINING_SIDE_FIELDS.get(capacity)
        why = (
            f"{actor_id} is the plan's {as_what} (independence_plan.{capacity})"
            if as_what
            else f"{actor_id} is this revision's {capacity}"
        )
        held = f" ({_holds(actor)})" if actor is not None else ""
        return (
            f"Separation of duties: {words.noun} needs {needs_words(step)} "
            f"{conditions_text(step, standing)}; {why}{held}.{who}"
        )
    if code is Refusal.PRECONDITION_UNMET:
        return (
            f"{words.noun.capitalize()} needs the latest check bound to this evidence, "
            "all eleven gates passing and no dossier-level reason; that is not the case "
            f"now.{who}"
        )
    if code is Refusal.JOURNAL_WRITE_FAILED:
        return f"{words.noun.capitalize()} was not recorded: the journal could not be written."
    return f"{words.noun.capitalize()} was refused ({refusal})."


def _illegal(step: Step, standing: Standing) -> str:
    state = standing.state
    if standing.superseded:
        return "this revision is superseded by a later one; act on the latest revision."
    if state is DossierState.EXPIRED:
        return "this revision is expired, which is final."
    if step == AUTHORIZE:
        return f"an authorization is signed on a draft or bound revision; this one is {state}."
    assert isinstance(step, Action)
    allowed = sorted(s.value for s in TRANSITIONS[step].from_states if s is not None)
    return f"it starts from {' or '.join(allowed)}; this revision is {state.value}."
