"""Spec section 7: states, the transition table T0-T7, refusal precedence, imports,
immutability and revisions, separation of duties, and what ``eligible`` does not do."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import Clock
from spec_fixture import (
    AGENT,
    AGENT_MAINT,
    DECIDER,
    EVAL,
    EVAL2,
    LEAD,
    LEAD2,
    MAINT,
    TRAINING,
    build,
    spec_digest,
)
from test_conformance_freshness import EXPIRES, SECTIONS, bound_file

from aa_review.core.dossier import Workspace
from aa_review.core.package.digest import package_digest

D = "dossier-spec-1"


def kinds(ws: Workspace) -> list[tuple[str, str | None, str | None, str]]:
    """``(kind, from_state, to_state, actor role)`` of every journal entry."""
    return [
        (e["kind"], e["from_state"], e["to_state"], e["actor"]["role"])
        for e in ws.journal_entries()
    ]


def to_state(ws: Workspace, state: str, v: Any = None) -> Workspace:
    """Import the spec dossier and step it to ``state`` along the table."""
    ws.import_dossier((v or build()).dossier)
    steps = {
        "draft": [],
        "evidence_bound": ["bind"],
        "independently_checked": ["bind", "check"],
        "eligible": ["bind", "check", "decide"],
        "deferred": ["bind", "check", "defer"],
    }[state]
    for step in steps:
        r = {
            "bind": lambda: ws.bind(D, 1, LEAD),
            "check": lambda: ws.check(D, 1, EVAL),
            "decide": lambda: ws.decide_eligible(D, 1, DECIDER),
            "defer": lambda: ws.decide_deferred(D, 1, DECIDER),
        }[step]()
        assert r.outcome.value == "applied", r
    assert ws.revision(D, 1)["state"] == state
    return ws


# -- T0 and importing ---------------------------------------------------------------------------
def test_t0_import_draft_journals_imported_with_file_digest_and_signoffs(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build()
    ws = make_ws(v)
    ref = ws.import_dossier(v.dossier)
    assert ref.state.value == "draft" and ws.revision(D, 1)["state"] == "draft"
    (entry,) = ws.journal_entries()
    assert entry["kind"] == "imported" and entry["to_state"] == "draft"
    assert spec_digest(v.dossier) in entry["payload"].values()  # the file digest
    signoffs = [
        x
        for x in entry["payload"].values()
        if isinstance(x, list) and x and isinstance(x[0], dict) and "subject" in x[0]
    ]
    assert signoffs, "the imported entry lists the embedded sign-offs"
    subjects = {s["subject"] for s in signoffs[0]}
    assert {
        "feasibility_review",
        "decision_consent",
        "decision_privacy",
        "budget_approval",
        "record_acceptance",
        "not_applicable_acceptance",
        "amendment_authorization",
    } <= subjects


def test_t0_import_evidence_bound_with_its_binding(make_ws: Callable[..., Workspace]) -> None:
    v = build()
    ws = make_ws(v)
    assert ws.import_dossier(bound_file(v)).state.value == "evidence_bound"
    assert ws.check(D, 1, EVAL).state_after == {"1": "independently_checked"}


@pytest.mark.parametrize("claimed", ["independently_checked", "eligible", "deferred"])
def test_t0_a_later_state_is_imported_as_evidence_bound_and_its_check_does_not_count(
    make_ws: Callable[..., Workspace], claimed: str
) -> None:
    v = build()
    tree = bound_file(v)
    tree["state"] = claimed
    tree["check"] = {
        "checked_by": EVAL,
        "checked_at": "2026-12-08T00:00:00Z",
        "evidence_digest": spec_digest(tree["evidence"]),
        "validator_version": "someone-else/1",
        "gates": {
            f"G{i}": {"status": "pass", "reason_codes": [], "metrics": {}, "detail": {}}
            for i in range(1, 12)
        },
        "dossier_reason_codes": [],
        "eligible_if_decided": True,
    }
    ws = make_ws(v)
    assert ws.import_dossier(tree).state.value == "evidence_bound"
    stored = ws.revision(D, 1)
    assert stored["state"] == "evidence_bound" and stored["check"] is None
    assert tree["check"] in _values(stored)  # kept for display as untrusted history
    assert ws.decide_eligible(D, 1, DECIDER).reason == "TRANSITION_ILLEGAL"


def _values(node: Any) -> list[Any]:
    out = [node]
    if isinstance(node, dict):
        for v in node.values():
            out += _values(v)
    elif isinstance(node, list):
        for v in node:
            out += _values(v)
    return out


# -- T1 ------------------------------------------------------------------------------------------
def test_t1_bind_records_the_binding_of_2_3(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    v = build()
    ws = to_state(make_ws(v), "evidence_bound", v)
    binding = ws.revision(D, 1)["binding"]
    ev = v.dossier["evidence"]
    assert binding == {
        "evidence_digest": spec_digest(ev),
        "section_digests": {s: spec_digest(ev.get(s)) for s in SECTIONS},
        "bound_by": LEAD,
        "bound_at": clock.now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    assert kinds(ws)[-1] == ("transition", "draft", "evidence_bound", "training_research_lead")


def test_t1_a_missing_section_digests_as_null(make_ws: Callable[..., Workspace]) -> None:
    v = build([("ev", "reward_plan", None)])
    tree = copy.deepcopy(v.dossier)
    del tree["evidence"]["reward_plan"]
    ws = make_ws(v)
    ws.import_dossier(tree)
    ws.bind(D, 1, LEAD)
    assert ws.revision(D, 1)["binding"]["section_digests"]["reward_plan"] == spec_digest(None)


@pytest.mark.parametrize(
    ("actor", "reason"),
    [
        (EVAL, "ACTOR_ROLE_NOT_PERMITTED"),
        (MAINT, "ACTOR_ROLE_NOT_PERMITTED"),
        (AGENT, "ACTOR_ROLE_NOT_PERMITTED"),
        ("nobody-registered", "ACTOR_ROLE_NOT_PERMITTED"),
    ],
)
def test_t1_only_a_training_research_lead_binds(
    make_ws: Callable[..., Workspace], actor: str, reason: str
) -> None:
    ws = to_state(make_ws(), "draft")
    r = ws.bind(D, 1, actor)
    assert (r.outcome.value, r.reason) == ("refused", reason)
    assert ws.revision(D, 1)["state"] == "draft"
    assert ws.bind(D, 1, LEAD2).outcome.value == "applied"  # any lead, not only the author


# -- T2 / T3 -------------------------------------------------------------------------------------
def test_t2_check_writes_a_record_bound_to_the_evidence(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "independently_checked")
    stored = ws.revision(D, 1)
    assert stored["check"]["evidence_digest"] == stored["binding"]["evidence_digest"]
    assert stored["check"]["checked_by"] == EVAL
    assert {g["status"] for g in stored["check"]["gates"].values()} == {"pass"}
    assert kinds(ws)[-1] == (
        "transition",
        "evidence_bound",
        "independently_checked",
        "independent_evaluator",
    )


def test_t2_the_checker_is_never_a_training_side_identity(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build([("ev", "independence_plan.candidate_author_identity", EVAL2)])
    ws = to_state(make_ws(v), "evidence_bound", v)
    r = ws.check(D, 1, EVAL2)
    assert (r.outcome.value, r.reason) == ("refused", "SEPARATION_OF_DUTIES")
    assert ws.check(D, 1, EVAL).outcome.value == "applied"


@pytest.mark.parametrize("actor", [LEAD, DECIDER, AGENT])
def test_t2_only_an_independent_evaluator_checks(
    make_ws: Callable[..., Workspace], actor: str
) -> None:
    ws = to_state(make_ws(), "evidence_bound")
    assert ws.check(D, 1, actor).reason == "ACTOR_ROLE_NOT_PERMITTED"


def test_t3_a_gate_not_passing_defers_automatically(make_ws: Callable[..., Workspace]) -> None:
    v = build([("ev", "license.license_id", "GPL-3.0")])
    ws = to_state(make_ws(v), "evidence_bound", v)
    r = ws.check(D, 1, EVAL)
    assert r.outcome.value == "applied" and r.state_after == {"1": "deferred"}
    assert r.check_record.gates["G6"].status.value == "fail"
    assert kinds(ws)[-2:] == [
        ("transition", "evidence_bound", "independently_checked", "independent_evaluator"),
        ("transition", "independently_checked", "deferred", "system_reducer"),
    ]


# -- T4 ------------------------------------------------------------------------------------------
def test_t4_a_human_maintainer_may_always_defer(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "independently_checked")
    for actor in (AGENT_MAINT, LEAD, EVAL):  # an agent is never a human maintainer
        assert ws.decide_deferred(D, 1, actor).reason == "ACTOR_ROLE_NOT_PERMITTED"
    r = ws.decide_deferred(D, 1, MAINT)
    assert r.outcome.value == "applied" and r.state_after == {"1": "deferred"}
    assert kinds(ws)[-1] == ("transition", "independently_checked", "deferred", "human_maintainer")


def test_t4_has_no_freshness_precondition(make_ws: Callable[..., Workspace], clock: Clock) -> None:
    ws = to_state(make_ws(), "independently_checked")
    clock.now = EXPIRES + timedelta(days=1)
    r = ws.decide_deferred(D, 1, DECIDER)  # 7.2 applies T6 instead only to T1, T2, T5
    assert r.outcome.value == "applied" and r.state_after == {"1": "deferred"}
    assert ws.expire_if_stale(D, 1).state_after == {"1": "expired"}  # then T6 fires


# -- T5 ------------------------------------------------------------------------------------------
def test_t5_a_human_maintainer_decides_eligible(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "independently_checked")
    assert ws.decide_eligible(D, 1, AGENT_MAINT).reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert ws.decide_eligible(D, 1, EVAL).reason == "ACTOR_ROLE_NOT_PERMITTED"
    r = ws.decide_eligible(D, 1, DECIDER)
    assert r.outcome.value == "applied" and r.state_after == {"1": "eligible"}
    assert kinds(ws)[-1] == ("transition", "independently_checked", "eligible", "human_maintainer")


def test_t5_the_deciding_maintainer_is_not_a_training_side_identity(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build([("ev", "independence_plan.provider_identity", DECIDER)])
    ws = to_state(make_ws(v), "independently_checked", v)
    assert ws.decide_eligible(D, 1, DECIDER).reason == "SEPARATION_OF_DUTIES"
    assert ws.decide_eligible(D, 1, MAINT).outcome.value == "applied"


def _package(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "pkg-a"
    root.mkdir()
    (root / "rows.jsonl").write_text('{"id": "r1"}\n', encoding="utf-8")
    return root, {"package_id": "pkg-a", "package_digest": package_digest(root)}


def test_t5_precondition_is_re_verified_at_decision_time(
    make_ws: Callable[..., Workspace], tmp_path: Path
) -> None:
    # A blocking dossier-level reason appearing after the check (here: the bound package,
    # an extension of this project, can no longer be found) refuses the decision.
    root, entry = _package(tmp_path)
    v = build([("ev", "source_packages", [entry])])
    present = {"pkg-a": root}
    ws = make_ws(v, package_locator=present.get, package_contamination=lambda _root: [])
    to_state(ws, "independently_checked", v)
    present.clear()  # not located any more, and gone from the folder it was bound from
    root.rename(root.with_name("pkg-a-moved"))
    r = ws.decide_eligible(D, 1, DECIDER)
    assert (r.outcome.value, r.reason) == ("refused", "PRECONDITION_UNMET")


# -- refusal precedence ------------------------------------------------------------------------
def test_precedence_illegal_before_role(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "evidence_bound")
    assert ws.bind(D, 1, EVAL).reason == "TRANSITION_ILLEGAL"  # wrong state and wrong role


def test_precedence_role_before_separation_of_duties(make_ws: Callable[..., Workspace]) -> None:
    v = build([("ev", "independence_plan.training_identity", AGENT_MAINT)])
    ws = to_state(make_ws(v), "independently_checked", v)
    assert ws.decide_eligible(D, 1, AGENT_MAINT).reason == "ACTOR_ROLE_NOT_PERMITTED"


def test_precedence_separation_of_duties_before_precondition(
    make_ws: Callable[..., Workspace], tmp_path: Path
) -> None:
    root, entry = _package(tmp_path)
    v = build(
        [
            ("ev", "source_packages", [entry]),
            ("ev", "independence_plan.search_controller_identity", DECIDER),
        ]
    )
    present = {"pkg-a": root}
    ws = make_ws(v, package_locator=present.get, package_contamination=lambda _root: [])
    to_state(ws, "independently_checked", v)
    present.clear()
    assert ws.decide_eligible(D, 1, DECIDER).reason == "SEPARATION_OF_DUTIES"


def test_every_refused_attempt_is_journaled(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "draft")
    before = len(ws.journal_entries())
    ws.check(D, 1, EVAL)
    ws.bind(D, 1, EVAL)
    refused = ws.journal_entries()[before:]
    assert [(e["kind"], e["payload"].get("reason")) for e in refused] == [
        ("transition_refused", "TRANSITION_ILLEGAL"),
        ("transition_refused", "ACTOR_ROLE_NOT_PERMITTED"),
    ]
    assert [e["actor"]["principal_id"] for e in refused] == [EVAL, EVAL]


def test_transition_result_shape(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "draft")
    r = ws.bind(D, 1, LEAD).to_dict()
    assert {k: r[k] for k in ("outcome", "reason", "state_after")} == {
        "outcome": "applied",
        "reason": None,
        "state_after": {"1": "evidence_bound"},
    }


# -- T6 and expired as terminal ------------------------------------------------------------------
@pytest.mark.parametrize(
    "state", ["draft", "evidence_bound", "independently_checked", "eligible", "deferred"]
)
def test_t6_any_non_expired_state_expires_when_a_freshness_rule_fires(
    make_ws: Callable[..., Workspace], clock: Clock, state: str
) -> None:
    ws = to_state(make_ws(), state)
    assert ws.expire_if_stale(D, 1).outcome.value == "refused"  # nothing fires yet
    clock.now = EXPIRES + timedelta(seconds=1)
    r = ws.expire_if_stale(D, 1)
    assert r.state_after == {"1": "expired"}
    assert kinds(ws)[-1] == ("transition", state, "expired", "system_reducer")


def test_expired_is_terminal(make_ws: Callable[..., Workspace], clock: Clock) -> None:
    ws = to_state(make_ws(), "evidence_bound")
    clock.now = EXPIRES + timedelta(seconds=1)
    ws.expire_if_stale(D, 1)
    attempts = [
        ws.bind(D, 1, LEAD),
        ws.check(D, 1, EVAL),
        ws.decide_eligible(D, 1, DECIDER),
        ws.decide_deferred(D, 1, DECIDER),
        ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT"),
    ]
    assert {(r.outcome.value, r.reason) for r in attempts} == {("refused", "TRANSITION_ILLEGAL")}
    assert ws.revision(D, 1)["state"] == "expired" and ws.revisions(D) == [1]


# -- T7 and 7.3 ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "state", ["evidence_bound", "independently_checked", "eligible", "deferred"]
)
def test_t7_editing_a_bound_revision_makes_the_next_one(
    make_ws: Callable[..., Workspace], state: str
) -> None:
    v = build()
    ws = to_state(make_ws(v), state, v)
    before = ws.revision(D, 1)
    r = ws.edit_evidence(D, 1, LEAD2, ["license", "license_id"], "MIT")
    assert r.outcome.value == "applied_as_new_revision"
    assert r.state_after == {"1": "expired", "2": "draft"}
    old, new = ws.revision(D, 1), ws.revision(D, 2)
    assert old["evidence"] == before["evidence"]  # never mutated once bound
    assert "DOSSIER_EVIDENCE_CHANGED" in old["check"]["dossier_reason_codes"]
    assert {g["status"] for g in old["check"]["gates"].values()} == {"unknown"}
    assert (new["dossier_id"], new["revision"], new["state"]) == (D, 2, "draft")
    assert new["supersedes"] == {
        "dossier_id": D,
        "revision": 1,
        "evidence_digest": spec_digest(before["evidence"]),
    }
    expected = copy.deepcopy(before["evidence"])
    expected["license"]["license_id"] = "MIT"
    assert new["evidence"] == expected
    assert (
        ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "Apache-2.0").reason
        == "TRANSITION_ILLEGAL"
    )  # the old revision: expired and superseded


def test_t7_only_a_lead_edits(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "evidence_bound")
    for actor in (EVAL, MAINT, AGENT):
        r = ws.edit_evidence(D, 1, actor, ["license", "license_id"], "MIT")
        assert r.reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert ws.revisions(D) == [1]


def test_7_3_a_draft_is_edited_in_place(make_ws: Callable[..., Workspace]) -> None:
    ws = to_state(make_ws(), "draft")
    r = ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")
    assert r.outcome.value == "applied" and r.state_after == {"1": "draft"}
    assert ws.revisions(D) == [1]
    assert ws.revision(D, 1)["evidence"]["license"]["license_id"] == "MIT"


# -- 7.4 separation of duties ----------------------------------------------------------------
def test_7_4_a_training_side_lead_may_not_bind(make_ws: Callable[..., Workspace]) -> None:
    v = build([("ev", "independence_plan.training_identity", LEAD2)])
    ws = to_state(make_ws(v), "draft", v)
    assert ws.bind(D, 1, LEAD2).reason == "SEPARATION_OF_DUTIES"
    assert ws.bind(D, 1, LEAD).outcome.value == "applied"


def test_7_4_the_training_identity_never_authorizes(make_ws: Callable[..., Workspace]) -> None:
    v = build([("ev", "independence_plan.training_identity", MAINT)])
    ws = to_state(make_ws(v), "draft", v)
    r = ws.authorize_amendment(D, 1, MAINT, "amendments/x.md", spec_digest("x"))
    assert r.outcome.value == "refused"
    assert (
        ws.authorize_amendment(D, 1, DECIDER, "amendments/x.md", spec_digest("x")).outcome.value
        == "applied"
    )


def test_7_4_the_training_identity_never_publishes(make_ws: Callable[..., Workspace]) -> None:
    from aa_review.core.dossier import ProjectionError

    ws = to_state(make_ws(), "eligible")
    with pytest.raises(ProjectionError):
        ws.project(D, 1, TRAINING)


# -- 7.5 ----------------------------------------------------------------------------------------
def test_7_5_eligible_creates_nothing_and_every_operation_stays_denied(
    make_ws: Callable[..., Workspace],
) -> None:
    ws = to_state(make_ws(), "eligible")
    before = ws.journal_entries()
    stored = ws.revision(D, 1)
    for op in (
        "resolve_training_credential",
        "export_dataset",
        "start_provider_job",
        "import_checkpoint",
        "change_routing",
        "create_experiment",
        "reserve_capacity",
    ):
        assert ws.attempt_operation(op, DECIDER, D)["decision"] == "denied"
    after = ws.journal_entries()
    assert after[: len(before)] == before
    assert {e["kind"] for e in after[len(before) :]} == {"operation_denied"}
    assert ws.revision(D, 1) == stored and ws.revisions(D) == [1]
