"""Every transition from every state by every kind of actor; precedence; separation of duties."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from dossier_builder import (
    AGENT,
    AGENT_MAINTAINER,
    DECIDER,
    EVALUATOR,
    EVALUATOR2,
    LEAD,
    LEAD2,
    REDUCER_ID,
    SIGNER,
    Clock,
    DossierBuilder,
    load,
    passing,
)

from aa_review.core.dossier import GATE_IDS, DossierState, Workspace

D = "dos-7f3a9c"
ACTORS = [LEAD, LEAD2, EVALUATOR, DECIDER, AGENT_MAINTAINER, REDUCER_ID, AGENT, "nobody"]
ACTIONS = ["bind", "check", "decide_eligible", "decide_deferred", "edit"]
# (state, action) -> actors for whom the transition applies; all others are refused.
LEGAL: dict[tuple[str, str], set[str]] = {
    ("draft", "bind"): {LEAD, LEAD2},
    ("draft", "edit"): {LEAD, LEAD2},
    ("evidence_bound", "check"): {EVALUATOR},
    ("evidence_bound", "edit"): {LEAD, LEAD2},
    ("independently_checked", "decide_eligible"): {DECIDER},
    ("independently_checked", "decide_deferred"): {DECIDER},
    ("independently_checked", "edit"): {LEAD, LEAD2},
    ("eligible", "edit"): {LEAD, LEAD2},
    ("deferred", "edit"): {LEAD, LEAD2},
}
ROLE_FOR = {
    "bind": {LEAD, LEAD2},
    "check": {EVALUATOR},
    "decide_eligible": {DECIDER},
    "decide_deferred": {DECIDER},
    "edit": {LEAD, LEAD2},
}


def reach(ws: Workspace, state: str, tree: dict[str, Any] | None = None) -> None:
    ws.import_dossier(tree or passing())
    steps: list[Callable[[], Any]] = []
    if state != "draft":
        steps.append(lambda: ws.bind(D, 1, LEAD))
    if state in ("independently_checked", "eligible", "deferred"):
        steps.append(lambda: ws.check(D, 1, EVALUATOR))
    if state == "eligible":
        steps.append(lambda: ws.decide_eligible(D, 1, DECIDER))
    if state == "deferred":
        steps.append(lambda: ws.decide_deferred(D, 1, DECIDER))
    if state == "expired":
        steps.append(lambda: ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT"))
    for step in steps:
        assert step().outcome.value in ("applied", "applied_as_new_revision")
    assert ws.revision(D, 1)["state"] == state


def attempt(ws: Workspace, action: str, actor: str):
    if action == "edit":
        return ws.edit_evidence(D, 1, actor, ["license", "license_id"], "MIT")
    return getattr(ws, action)(D, 1, actor)


STATES = ["draft", "evidence_bound", "independently_checked", "eligible", "deferred", "expired"]


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("action", ACTIONS)
def test_transition_matrix(make_ws: Callable[..., Workspace], state: str, action: str) -> None:
    ws = make_ws()
    reach(ws, state)
    legal = LEGAL.get((state, action), set())
    # Refused actors first: a refusal changes nothing but the journal.
    for actor in [a for a in ACTORS if a not in legal] + sorted(legal)[:1]:
        before = len(ws.journal_entries())
        result = attempt(ws, action, actor)
        if actor in legal:
            want = "applied_as_new_revision" if action == "edit" and state != "draft" else "applied"
            assert result.outcome.value == want, (state, action, actor, result)
            continue
        assert result.outcome.value == "refused", (state, action, actor)
        if not legal:
            assert result.reason == "TRANSITION_ILLEGAL"
        else:
            assert result.reason == "ACTOR_ROLE_NOT_PERMITTED", (actor, result.reason)
        assert result.state_after == {"1": state}
        assert ws.revision(D, 1)["state"] == state
        entries = ws.journal_entries()
        if actor in ("nobody", REDUCER_ID):
            # Not in the registry, or the reducer acting on no one's behalf: nothing can be
            # journaled in their name (spec 10.1), the refusal is only returned.
            assert len(entries) == before
            continue
        assert len(entries) == before + 1
        assert entries[-1]["kind"] == "transition_refused"
        assert entries[-1]["payload"]["reason"] == result.reason
    assert ws.verify_journal()["valid"]


def test_superseded_revision_is_frozen(make_ws: Callable[..., Workspace]) -> None:
    ws = make_ws()
    ws.import_dossier(passing())
    newer = DossierBuilder().set("revision", 2).build()
    ws.import_dossier(newer)
    for action in ACTIONS:
        r = attempt(ws, action, next(iter(ROLE_FOR[action])))
        assert r.reason == "TRANSITION_ILLEGAL"
    assert ws.bind(D, 2, LEAD).outcome.value == "applied"


def test_check_then_automatic_deferral_of_a_failing_dossier(ws: Workspace) -> None:
    ws.import_dossier(load("dossier_failing_contaminated.json"))
    d = "dos-contam-51e0"
    ws.bind(d, 1, LEAD)
    result = ws.check(d, 1, EVALUATOR)
    assert result.outcome.value == "applied"
    assert result.state_after == {"1": "deferred"}
    assert result.check_record is not None and not result.check_record.eligible_if_decided
    assert result.check_record.gates["G9"].status.value == "fail"
    stored = ws.revision(d, 1)
    assert stored["state"] == "deferred" and stored["check"]["gates"]["G9"]["status"] == "fail"
    *_, checked, deferred = ws.journal_entries()
    assert (checked["from_state"], checked["to_state"]) == (
        "evidence_bound",
        "independently_checked",
    )
    assert checked["actor"]["principal_id"] == EVALUATOR
    assert (deferred["from_state"], deferred["to_state"]) == ("independently_checked", "deferred")
    assert deferred["actor"]["role"] == "system_reducer"
    assert deferred["payload"]["gates_not_passing"] == ["G9"]
    assert ws.decide_eligible(d, 1, DECIDER).reason == "TRANSITION_ILLEGAL"


def test_a_dossier_level_reason_alone_defers(ws: Workspace) -> None:
    ws.import_dossier(DossierBuilder().delete("evidence.expiry").build())
    ws.bind(D, 1, LEAD)
    r = ws.check(D, 1, EVALUATOR)
    assert all(r.check_record.gates[g].status.value == "pass" for g in GATE_IDS if g != "G8")
    assert r.check_record.dossier_reason_codes == ("DOSSIER_EXPIRY_MISSING",)
    assert r.state_after == {"1": "deferred"}


# -- separation of duties ---------------------------------------------------------------
def imported_bound(**changes: Any) -> dict[str, Any]:
    b = DossierBuilder(load("dossier_evidence_bound.json")).set("dossier_id", D)
    for path, value in changes.items():
        b.set(path.replace("__", "."), value)
    tree = b.build()
    from aa_review.core.dossier import json_digest

    tree["binding"]["evidence_digest"] = json_digest(tree["evidence"])
    return tree


@pytest.mark.parametrize(
    ("changes", "checker"),
    [
        ({"created_by": EVALUATOR}, EVALUATOR),  # the author may not check
        ({"binding__bound_by": EVALUATOR}, EVALUATOR),  # nor the binder
        ({"evidence__independence_plan__training_identity": EVALUATOR2}, EVALUATOR2),
        ({"evidence__independence_plan__search_controller_identity": EVALUATOR}, EVALUATOR),
    ],
)
def test_checker_separation(ws: Workspace, changes: dict[str, Any], checker: str) -> None:
    ws.import_dossier(imported_bound(**changes))
    r = ws.check(D, 1, checker)
    assert (r.outcome.value, r.reason) == ("refused", "SEPARATION_OF_DUTIES")
    other = EVALUATOR if checker == EVALUATOR2 else EVALUATOR2
    assert ws.check(D, 1, other).outcome.value == "applied"


@pytest.mark.parametrize(
    "changes",
    [
        {"created_by": DECIDER},
        {"binding__bound_by": DECIDER},
        {"evidence__independence_plan__provider_identity": DECIDER},
    ],
)
def test_deciding_maintainer_separation(ws: Workspace, changes: dict[str, Any]) -> None:
    ws.import_dossier(imported_bound(**changes))
    assert ws.check(D, 1, EVALUATOR).state_after == {"1": "independently_checked"}
    r = ws.decide_eligible(D, 1, DECIDER)
    assert (r.outcome.value, r.reason) == ("refused", "SEPARATION_OF_DUTIES")
    assert ws.decide_eligible(D, 1, SIGNER).outcome.value == "applied"


def test_a_maintainer_may_always_defer_even_when_conflicted(ws: Workspace) -> None:
    ws.import_dossier(imported_bound(created_by=DECIDER))
    ws.check(D, 1, EVALUATOR)
    assert ws.decide_deferred(D, 1, DECIDER).state_after == {"1": "deferred"}


def test_binder_may_not_be_a_training_side_identity(ws: Workspace) -> None:
    ws.import_dossier(
        DossierBuilder().set("evidence.independence_plan.training_identity", LEAD2).build()
    )
    assert ws.bind(D, 1, LEAD2).reason == "SEPARATION_OF_DUTIES"
    assert ws.bind(D, 1, LEAD).outcome.value == "applied"


def test_refusal_precedence(ws: Workspace) -> None:
    ws.import_dossier(imported_bound(created_by=EVALUATOR))
    # Wrong state and wrong role: the state wins.
    assert ws.decide_eligible(D, 1, AGENT).reason == "TRANSITION_ILLEGAL"
    # Right state, wrong role (an agent "maintainer"): the role wins over anything else.
    assert ws.check(D, 1, AGENT_MAINTAINER).reason == "ACTOR_ROLE_NOT_PERMITTED"
    # Right role, conflicting capacity.
    assert ws.check(D, 1, EVALUATOR).reason == "SEPARATION_OF_DUTIES"


# -- preconditions and freshness during attempts ------------------------------------------
def test_eligibility_needs_the_freshness_rules_to_hold_at_decision_time(
    ws: Workspace, clock: Clock
) -> None:
    reach(ws, "independently_checked")
    clock.advance(days=120)  # past 2026-06-01
    r = ws.decide_eligible(D, 1, DECIDER)
    assert (r.outcome.value, r.reason) == ("expired", "DOSSIER_EXPIRED_BY_TIME")
    assert r.state_after == {"1": "expired"}
    assert {g.reason_codes for g in r.check_record.gates.values()} == {
        ("GATE_NOT_EVALUATED_DOSSIER_EXPIRED",)
    }
    assert ws.revision(D, 1)["check"] == r.check_record.to_json()
    assert ws.decide_deferred(D, 1, DECIDER).reason == "TRANSITION_ILLEGAL"


def test_unauthorised_attempts_on_a_stale_revision_are_refused_not_applied(
    ws: Workspace, clock: Clock
) -> None:
    reach(ws, "evidence_bound")
    clock.advance(days=120)
    assert ws.check(D, 1, AGENT).reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert ws.revision(D, 1)["state"] == "evidence_bound"
    assert ws.check(D, 1, EVALUATOR).outcome.value == "expired"


def test_expire_if_stale_is_the_reducer_alone(ws: Workspace, clock: Clock) -> None:
    reach(ws, "deferred")
    assert ws.expire_if_stale(D, 1).reason == "PRECONDITION_UNMET"
    clock.advance(days=120)
    r = ws.expire_if_stale(D, 1)
    assert r.outcome.value == "expired" and r.state_after == {"1": "expired"}
    assert ws.journal_entries()[-1]["actor"]["role"] == "system_reducer"


def test_state_enum_and_result_shape(ws: Workspace) -> None:
    ws.import_dossier(passing())
    r = ws.bind(D, 1, LEAD)
    assert r.to_dict() == {
        "outcome": "applied",
        "reason": None,
        "state_after": {"1": "evidence_bound"},
    }
    assert r["state_after"] == {"1": "evidence_bound"}
    assert DossierState(ws.revision(D, 1)["state"]) is DossierState.EVIDENCE_BOUND
    binding = ws.revision(D, 1)["binding"]
    assert binding["bound_by"] == LEAD and binding["bound_at"] == "2026-03-01T00:00:00Z"
    assert len(binding["section_digests"]) == 19
