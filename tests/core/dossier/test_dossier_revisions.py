"""Editing: drafts in place, bound revisions become a new revision (spec 7.3); import rules."""

from __future__ import annotations

import pytest
from dossier_builder import (
    DECIDER,
    EVALUATOR,
    LEAD,
    LEAD2,
    SIGNER,
    Clock,
    DossierBuilder,
    load,
    passing,
)

from aa_review.core.dossier import (
    DELETE,
    DossierSchemaError,
    DossierState,
    RevisionConflictError,
    RevisionNotFoundError,
    Workspace,
    json_digest,
)

D = "dos-7f3a9c"


def bound(ws: Workspace) -> None:
    ws.import_dossier(passing())
    assert ws.bind(D, 1, LEAD).outcome.value == "applied"


def test_editing_a_bound_revision_creates_the_next_and_expires_the_old(ws: Workspace) -> None:
    bound(ws)
    old = ws.revision(D, 1)
    r = ws.edit_evidence(D, 1, LEAD2, ["budgets", "compute", "amount"], 1400)
    assert r.outcome.value == "applied_as_new_revision"
    assert r.state_after == {"1": "expired", "2": "draft"}
    assert r.new_revision == 2 and r.reason == "DOSSIER_EVIDENCE_CHANGED"
    v1, v2 = ws.revision(D, 1), ws.revision(D, 2)
    assert v1["evidence"] == old["evidence"]  # bound evidence is never mutated
    assert v1["state"] == "expired"
    assert v1["check"]["dossier_reason_codes"] == ["DOSSIER_EVIDENCE_CHANGED"]
    assert v1["check"]["gates"]["G1"]["detail"]["changed_sections"] == ["budgets"]
    assert v2["evidence"]["budgets"]["compute"]["amount"] == 1400
    assert v2["supersedes"] == {
        "dossier_id": D,
        "revision": 1,
        "evidence_digest": json_digest(old["evidence"]),
    }
    assert (v2["state"], v2["binding"], v2["check"], v2["authorization"]) == (
        "draft",
        None,
        None,
        None,
    )
    assert v2["created_by"] == LEAD2 and v2["created_at"] == "2026-03-01T00:00:00Z"
    assert ws.revisions(D) == [1, 2]
    # The old revision is frozen; the new one follows the lifecycle from draft.
    assert ws.edit_evidence(D, 1, LEAD, ["expiry"], None).reason == "TRANSITION_ILLEGAL"
    assert ws.bind(D, 2, LEAD).outcome.value == "applied"
    expire, create, refused, _bind = ws.journal_entries()[-4:]
    assert refused["kind"] == "transition_refused"
    assert (expire["revision"], expire["to_state"], expire["actor"]["role"]) == (
        1,
        "expired",
        "system_reducer",
    )
    assert expire["payload"]["reasons"][0] == "DOSSIER_EVIDENCE_CHANGED"
    assert (create["revision"], create["from_state"], create["to_state"]) == (2, None, "draft")
    assert create["payload"]["path"] == ["budgets", "compute", "amount"]
    assert ws.verify_journal()["valid"]


def test_a_draft_is_edited_in_place(ws: Workspace) -> None:
    ws.import_dossier(passing())
    r = ws.edit_evidence(D, 1, LEAD, ["dataset_plan", "training_source_items", "3"], "item-t2-a")
    assert r.to_dict() == {"outcome": "applied", "reason": None, "state_after": {"1": "draft"}}
    assert ws.revisions(D) == [1]
    assert ws.revision(D, 1)["evidence"]["dataset_plan"]["training_source_items"][-1] == "item-t2-a"
    ws.edit_evidence(D, 1, LEAD, ["trajectory_count"], DELETE)
    assert "trajectory_count" not in ws.revision(D, 1)["evidence"]
    ws.edit_evidence(D, 1, LEAD, ["brand_new", "nested"], {"k": 1})  # unknown sections are kept
    assert ws.revision(D, 1)["evidence"]["brand_new"] == {"nested": {"k": 1}}
    assert ws.verify_journal()["valid"]


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (["power_analysis", "parameters", "icc"], "0.1", "DOSSIER_SCHEMA_INVALID"),
        (["expiry", "expires_at"], "next year", "DOSSIER_SCHEMA_INVALID"),
        (["budgets", "compute", "amount"], float("inf"), "DOSSIER_SCHEMA_INVALID"),
        (["license", "license_id", "deeper"], "x", "EDIT_PATH_INVALID"),
        (["dataset_plan", "training_source_items", "9"], "x", "EDIT_PATH_INVALID"),
        (["dataset_plan", "training_source_items", "first"], "x", "EDIT_PATH_INVALID"),
        ([], "x", "EDIT_PATH_INVALID"),
    ],
)
def test_invalid_edits_are_refused_and_change_nothing(ws: Workspace, path, value, reason) -> None:
    bound(ws)
    before = ws.revision(D, 1)
    r = ws.edit_evidence(D, 1, LEAD, path, value)
    assert (r.outcome.value, r.reason) == ("refused", reason)
    assert ws.revision(D, 1) == before and ws.revisions(D) == [1]
    assert ws.journal_entries()[-1]["kind"] == "transition_refused"


def test_edit_of_an_eligible_revision_expires_it(ws: Workspace) -> None:
    bound(ws)
    ws.check(D, 1, EVALUATOR)
    ws.decide_eligible(D, 1, DECIDER)
    r = ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")
    assert r.state_after == {"1": "expired", "2": "draft"}


def test_authorize_amendment_links_to_the_current_evidence(ws: Workspace) -> None:
    tree = DossierBuilder().set("authorization", None).build()
    ws.import_dossier(tree)
    amendment = json_digest("amendment text")
    assert ws.authorize_amendment(D, 1, LEAD, "a.md", amendment).reason == (
        "ACTOR_ROLE_NOT_PERMITTED"
    )
    assert ws.authorize_amendment(D, 1, "p-maint-bot", "a.md", amendment).reason == (
        "ACTOR_ROLE_NOT_PERMITTED"
    )
    r = ws.authorize_amendment(D, 1, SIGNER, "a.md", amendment)
    assert r.outcome.value == "applied"
    auth = ws.revision(D, 1)["authorization"]
    assert auth["evidence_digest"] == json_digest(ws.revision(D, 1)["evidence"])
    assert auth["grants"] == [] and auth["action"] == "propose_activation_amendment"
    signoff = ws.journal_entries()[-1]
    assert signoff["kind"] == "signoff"
    assert {k: signoff["payload"][k] for k in ("subject", "subject_digest")} == {
        "subject": "amendment_authorization",
        "subject_digest": json_digest(auth),
    }
    ws.bind(D, 1, LEAD)
    assert ws.check(D, 1, EVALUATOR).check_record.gates["G8"].status.value == "pass"
    assert ws.authorize_amendment(D, 1, SIGNER, "a.md", amendment).reason == "TRANSITION_ILLEGAL"


# -- import --------------------------------------------------------------------------------
def test_import_records_file_digest_and_embedded_signoffs(ws: Workspace) -> None:
    tree = passing()
    ref = ws.import_dossier(tree)
    assert (ref.dossier_id, ref.revision, ref.state) == (D, 1, DossierState.DRAFT)
    entry = ws.journal_entries()[0]
    assert entry["kind"] == "imported" and entry["to_state"] == "draft"
    assert entry["payload"]["file_digest"] == json_digest(tree)
    subjects = {s["subject"] for s in entry["payload"]["signoffs"]}
    assert subjects == {
        "feasibility_review",
        "decision_consent",
        "decision_privacy",
        "budget_approval",
        "record_acceptance",
        "not_applicable_acceptance",
        "amendment_authorization",
    }
    assert sum(s["subject"] == "budget_approval" for s in entry["payload"]["signoffs"]) == 5


def test_import_of_a_later_state_is_evidence_bound_with_untrusted_history(ws: Workspace) -> None:
    tree = load("dossier_evidence_bound.json")
    tree["state"] = "eligible"
    tree["check"] = {"checked_by": "someone", "eligible_if_decided": True}
    ref = ws.import_dossier(tree)
    assert ref.state is DossierState.EVIDENCE_BOUND
    stored = ws.revision(ref.dossier_id, 1)
    assert stored["state"] == "evidence_bound" and stored["check"] is None
    assert stored["imported_untrusted"] == {"claimed_state": "eligible", "check": tree["check"]}
    assert ws.journal_entries()[0]["payload"]["claimed_state"] == "eligible"
    # The untrusted check never counts: the revision must be checked here.
    assert ws.decide_eligible(ref.dossier_id, 1, DECIDER).reason == "TRANSITION_ILLEGAL"


def test_import_refusals(ws: Workspace) -> None:
    no_binding = passing()
    no_binding["state"] = "deferred"
    with pytest.raises(DossierSchemaError):
        ws.import_dossier(no_binding)
    with pytest.raises(DossierSchemaError):
        ws.import_dossier(DossierBuilder().set("activation", "active").build())
    ws.import_dossier(passing())
    with pytest.raises(RevisionConflictError):
        ws.import_dossier(passing())
    with pytest.raises(RevisionNotFoundError):
        ws.bind(D, 7, LEAD)
    assert [e["kind"] for e in ws.journal_entries()] == ["imported"]


def test_a_journaled_revision_cannot_be_imported_again_by_a_new_session(
    ws: Workspace, make_ws
) -> None:
    ws.import_dossier(passing())
    ws.close()  # one writer at a time (spec 10.5)
    again = make_ws()  # same journal, fresh memory
    with pytest.raises(RevisionConflictError):
        again.import_dossier(passing())


# -- from an expired revision: start a new one (spec 7.3; issue 23, item 4) ---------------
def expired(ws: Workspace, clock: Clock) -> None:
    bound(ws)
    clock.advance(days=400)  # past every expiry and freshness window of the dossier
    assert ws.expire_if_stale(D, 1, LEAD).outcome.value == "expired"
    clock.advance(days=-400)


def test_a_new_revision_from_an_expired_one(ws: Workspace, clock: Clock) -> None:
    expired(ws, clock)
    old = ws.revision(D, 1)
    r = ws.revise(D, 1, LEAD2)
    assert r.outcome.value == "applied_as_new_revision"
    assert r.state_after == {"1": "expired", "2": "draft"}
    v1, v2 = ws.revision(D, 1), ws.revision(D, 2)
    assert v1 == old  # the expired revision is left as it was
    assert v2["evidence"] == old["evidence"]
    assert v2["supersedes"] == {
        "dossier_id": D,
        "revision": 1,
        "evidence_digest": json_digest(old["evidence"]),
    }
    assert (v2["state"], v2["binding"], v2["check"], v2["authorization"]) == (
        "draft",
        None,
        None,
        None,
    )
    assert v2["created_by"] == LEAD2
    create = ws.journal_entries()[-1]
    assert (create["kind"], create["revision"], create["from_state"], create["to_state"]) == (
        "transition",
        2,
        None,
        "draft",
    )
    assert create["payload"]["supersedes"] == v2["supersedes"]
    assert ws.verify_journal()["valid"]
    # The new revision follows the lifecycle from draft.
    assert ws.bind(D, 2, LEAD).outcome.value == "applied"


def test_only_the_latest_expired_revision_by_a_lead(ws: Workspace, clock: Clock) -> None:
    bound(ws)
    assert ws.revise(D, 1, LEAD).reason == "TRANSITION_ILLEGAL"  # not expired: edit it
    clock.advance(days=400)
    ws.expire_if_stale(D, 1, LEAD)
    clock.advance(days=-400)
    assert ws.revise(D, 1, EVALUATOR).reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert ws.revise(D, 1, DECIDER).reason == "ACTOR_ROLE_NOT_PERMITTED"
    refused = ws.journal_entries()[-1]
    assert refused["kind"] == "transition_refused" and refused["payload"]["action"] == "revise"
    assert ws.revise(D, 1, LEAD).outcome.value == "applied_as_new_revision"
    assert ws.revise(D, 1, LEAD).reason == "TRANSITION_ILLEGAL"  # superseded now
    assert ws.revisions(D) == [1, 2] and ws.verify_journal()["valid"]
