"""Spec section 4 (dossier-level freshness) and the parse rule of section 2, end to end."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from conftest import Clock
from spec_fixture import DELETE, EVAL, LEAD, LEAD2, NOW, Variant, build, label_digest, spec_digest
from test_conformance_gates import check

from aa_review.core.dossier import (
    GATE_IDS,
    DossierSchemaError,
    PrincipalRegistry,
    Workspace,
    evaluate,
    parse_archive,
    parse_dossier,
)

D = "dossier-spec-1"
SECTIONS = (
    "target_behavior",
    "evidence_cutoff",
    "epochs",
    "coverage",
    "recurrence",
    "effective_sample",
    "power_analysis",
    "lower_rungs",
    "feasibility",
    "decisions",
    "dataset_plan",
    "reward_plan",
    "license",
    "independence_plan",
    "budgets",
    "rollback_requirements",
    "cost_envelope",
    "expiry",
)
EXPIRES = NOW.replace(year=2027, month=6, day=1, hour=0)
NOT_EVALUATED = "GATE_NOT_EVALUATED_DOSSIER_EXPIRED"


def bound_file(v: Variant, evidence: dict[str, Any] | None = None) -> dict[str, Any]:
    """The dossier as a file in ``evidence_bound`` with the Binding of 2.3 (over ``evidence``)."""
    tree = copy.deepcopy(v.dossier)
    ev = evidence if evidence is not None else tree["evidence"]
    tree["state"] = "evidence_bound"
    tree["binding"] = {
        "evidence_digest": spec_digest(ev),
        "section_digests": {s: spec_digest(ev.get(s)) for s in SECTIONS},
        "bound_by": LEAD2,
        "bound_at": "2026-12-07T00:00:00Z",
    }
    return tree


def assert_all_unknown_not_evaluated(record: dict[str, Any]) -> None:
    assert {g: r["status"] for g, r in record["gates"].items()} == dict.fromkeys(
        GATE_IDS, "unknown"
    )
    assert all(r["reason_codes"] == [NOT_EVALUATED] for r in record["gates"].values())
    assert record["eligible_if_decided"] is False


# -- rule 1: expiry missing ---------------------------------------------------------------------
def test_rule_1_expiry_missing_blocks_eligibility_but_every_gate_is_checked() -> None:
    rec = check(build([("ev", "expiry", DELETE)]))
    assert all(r.status.value == "pass" for r in rec.gates.values())
    assert rec.dossier_reason_codes == ("DOSSIER_EXPIRY_MISSING",)
    assert rec.eligible_if_decided is False
    assert check(build()).eligible_if_decided is True  # the neighbour with an expiry


def test_rule_1_expiry_missing_defers_and_never_expires(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    v = build([("ev", "expiry.expires_at", DELETE)])
    ws = make_ws(v)
    ws.import_dossier(v.dossier)
    assert ws.bind(D, 1, LEAD).outcome.value == "applied"
    r = ws.check(D, 1, EVAL)
    assert r.state_after == {"1": "deferred"}  # T3: a dossier-level reason exists
    assert r.check_record.dossier_reason_codes == ("DOSSIER_EXPIRY_MISSING",)
    clock.advance(days=365 * 50)
    assert ws.freshness(D, 1).expires is False  # 14.2: missing expiry never expires
    assert ws.expire_if_stale(D, 1).outcome.value == "refused"


# -- rule 2: time -------------------------------------------------------------------------------
def test_rule_2_now_after_expires_at_expires_and_no_gate_is_evaluated() -> None:
    v = build()
    args = (parse_dossier(v.dossier), parse_archive(v.archive), PrincipalRegistry(v.principals))
    at = evaluate(*args, EXPIRES, EVAL)  # now == expires_at: not after it
    assert at.eligible_if_decided is True
    after = evaluate(*args, EXPIRES + timedelta(seconds=1), EVAL)
    assert_all_unknown_not_evaluated(after.to_json())
    assert after.dossier_reason_codes == ("DOSSIER_EXPIRED_BY_TIME",)


def test_rule_2_a_draft_expires_when_bound_too_late(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    ws = make_ws()
    ws.import_dossier(build().dossier)
    clock.now = EXPIRES + timedelta(seconds=1)
    r = ws.bind(D, 1, LEAD)  # T1 checks rule 2; T6 is applied instead
    assert r.outcome.value == "expired" and r.reason == "DOSSIER_EXPIRED_BY_TIME"
    assert r.state_after == {"1": "expired"}
    stored = ws.revision(D, 1)
    assert stored["state"] == "expired"
    assert stored["check"] == r.check_record.to_json()
    assert_all_unknown_not_evaluated(stored["check"])


# -- rule 3: evidence digest ----------------------------------------------------------------------
def test_rule_3_bound_evidence_that_changed_expires(make_ws: Callable[..., Workspace]) -> None:
    v = build()
    earlier = copy.deepcopy(v.dossier["evidence"])
    earlier["license"]["license_id"] = "MIT"
    ws = make_ws(v)
    ws.import_dossier(bound_file(v, evidence=earlier))  # bound over other evidence
    r = ws.check(D, 1, EVAL)
    assert r.outcome.value == "expired" and r.reason == "DOSSIER_EVIDENCE_DIGEST_MISMATCH"
    assert "DOSSIER_EVIDENCE_DIGEST_MISMATCH" in r.check_record.dossier_reason_codes
    assert_all_unknown_not_evaluated(ws.revision(D, 1)["check"])


def test_rule_3_neighbour_bound_over_its_own_evidence_is_checked(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build()
    ws = make_ws(v)
    ws.import_dossier(bound_file(v))
    r = ws.check(D, 1, EVAL)
    assert r.outcome.value == "applied" and r.state_after == {"1": "independently_checked"}
    assert r.check_record.eligible_if_decided is True


# -- rule 4: epochs -------------------------------------------------------------------------------
@pytest.mark.parametrize("change", ["manifest", "removed"])
def test_rule_4_a_changed_or_missing_epoch_expires_a_bound_revision(
    make_ws: Callable[..., Workspace], change: str
) -> None:
    v = build()
    ws = make_ws(v)
    ws.import_dossier(v.dossier)
    ws.bind(D, 1, LEAD)
    arc = copy.deepcopy(v.archive)
    if change == "manifest":
        next(e for e in arc["epochs"] if e["epoch_id"] == "ep-b")["manifest_digest"] = label_digest(
            "manifest ep-b, resealed"
        )
    else:
        arc["epochs"] = [e for e in arc["epochs"] if e["epoch_id"] != "ep-a"]
    ws.update_archive(arc)
    r = ws.check(D, 1, EVAL)
    assert r.outcome.value == "expired" and r.reason == "DOSSIER_EPOCH_CHANGED"


def test_rule_4_a_newer_archive_snapshot_alone_does_not_expire(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build()
    ws = make_ws(v)
    ws.import_dossier(v.dossier)
    ws.bind(D, 1, LEAD)
    arc = copy.deepcopy(v.archive)
    arc["archive_snapshot_id"] = "snap-2026-12-14"
    ws.update_archive(arc)
    r = ws.check(D, 1, EVAL)
    assert r.state_after == {"1": "independently_checked"}


@pytest.mark.parametrize(
    "edit",
    [("ev", "epochs.evaluation_epochs", []), ("ev", "epochs", DELETE)],
    ids=["empty", "absent"],
)
def test_rule_4_epochs_missing_is_never_eligible(edit: Any) -> None:
    rec = check(build([edit]))
    assert all(r.status.value == "pass" for r in rec.gates.values())
    assert rec.dossier_reason_codes == ("DOSSIER_EPOCHS_MISSING",)
    assert rec.eligible_if_decided is False


# -- all four, every time --------------------------------------------------------------------------
def test_every_firing_rule_is_reported_none_short_circuits(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    v = build([("ev", "epochs.evaluation_epochs[ep-b].manifest_digest", label_digest("old"))])
    stale = copy.deepcopy(v.dossier["evidence"])
    stale["budgets"]["compute"]["amount"] = 999
    ws = make_ws(v)
    ws.import_dossier(bound_file(v, evidence=stale))
    clock.now = EXPIRES + timedelta(days=1)
    r = ws.check(D, 1, EVAL)
    assert r.outcome.value == "expired"
    assert {
        "DOSSIER_EXPIRED_BY_TIME",
        "DOSSIER_EVIDENCE_DIGEST_MISMATCH",
        "DOSSIER_EPOCH_CHANGED",
    } <= set(r.check_record.dossier_reason_codes)


def test_expiring_replaces_an_earlier_check_record(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    ws = make_ws()
    ws.import_dossier(build().dossier)
    ws.bind(D, 1, LEAD)
    passed = ws.check(D, 1, EVAL)
    assert passed.check_record.eligible_if_decided
    clock.now = EXPIRES + timedelta(hours=1)
    r = ws.decide_eligible(D, 1, "maint-fei")  # T5 re-verifies rule 2; T6 instead
    assert r.outcome.value == "expired"
    stored = ws.revision(D, 1)["check"]
    assert stored == r.check_record.to_json()
    assert_all_unknown_not_evaluated(stored)


# -- section 2: parsing rejects only structurally invalid JSON types ------------------------
@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("activation", "active"),
        ("kind", "TrainingDossier"),
        ("revision", "1"),
        ("evidence", []),
        ("spec_revision", 2),
        ("evidence.license.license_id", 7),
    ],
    ids=["activation", "kind", "revision-type", "evidence-type", "spec-revision", "field-type"],
)
def test_schema_invalid_is_refused_and_nothing_is_journaled(
    make_ws: Callable[..., Workspace], path: str, value: Any
) -> None:
    tree = build().dossier
    node = tree
    *head, last = path.split(".")
    for step in head:
        node = node[step]
    node[last] = value
    ws = make_ws()
    with pytest.raises(DossierSchemaError) as err:
        ws.import_dossier(tree)
    assert err.value.reason_code == "DOSSIER_SCHEMA_INVALID"
    assert ws.journal_entries() == []


def test_absent_evidence_parses_and_the_predicates_decide(
    make_ws: Callable[..., Workspace],
) -> None:
    tree = build().dossier
    tree["evidence"] = {}
    tree["authorization"] = None
    ws = make_ws()
    ws.import_dossier(tree)
    ws.bind(D, 1, LEAD)
    r = ws.check(D, 1, EVAL)
    assert r.state_after == {"1": "deferred"}
    assert {g.status.value for g in r.check_record.gates.values()} == {"unknown"}
