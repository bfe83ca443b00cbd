"""G5 rewards, G6 license, G7 budgets, G8 authorization, G9 plan, G10 identities, G11 dry run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dossier_builder import DELETE, DossierBuilder, archive, codes, passing, run_gate

from aa_review.core.dossier import GATE_IDS, GateStatus, json_digest
from aa_review.core.package.digest import package_digest


def edit(path: str, value: Any) -> DossierBuilder:
    return DossierBuilder().set(path, value)


@pytest.mark.parametrize("gid", GATE_IDS)
def test_every_gate_passes_on_the_passing_dossier(gid: str) -> None:
    r = run_gate(gid, passing())
    assert r.status is GateStatus.PASS, (gid, r.reason_codes)


CASES: list[tuple[str, str, Any, str, str]] = [
    # G5
    ("G5", "evidence.reward_plan", None, "unknown", "G5_REWARD_PLAN_MISSING"),
    ("G5", "evidence.reward_plan.rewards", [], "unknown", "G5_REWARD_PLAN_MISSING"),
    ("G5", "evidence.reward_plan.rewards.1.components", [], "unknown", "G5_REWARD_PLAN_MISSING"),
    (
        "G5",
        "evidence.reward_plan.rewards",
        [{"reward_id": "r", "components": [{"kind": "human_preference"}]}],
        "fail",
        "G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL",
    ),
    (
        "G5",
        "evidence.reward_plan.rewards",
        [{"reward_id": "r", "components": [{"kind": "verifiable_outcome", "evidence_ref": ""}]}],
        "fail",
        "G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL",
    ),
    (
        "G5",
        "evidence.reward_plan.rewards.1.components",
        [{"kind": "model_judge", "calibrated": True, "calibration_ref": None}],
        "fail",
        "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE",
    ),
    (
        "G5",
        "evidence.reward_plan.rewards.1.components",
        [{"kind": "model_judge", "calibrated": False, "calibration_ref": "c.md"}],
        "fail",
        "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE",
    ),
    # G6
    ("G6", "evidence.license", None, "unknown", "G6_LICENSE_MISSING"),
    ("G6", "evidence.license.base_model_id", None, "unknown", "G6_LICENSE_MISSING"),
    (
        "G6",
        "evidence.license.intended_use.redistribution",
        None,
        "unknown",
        "G6_INTENDED_USE_MISSING",
    ),
    ("G6", "evidence.license.license_id", "GPL-3.0", "fail", "G6_LICENSE_UNSUPPORTED"),
    ("G6", "evidence.license.license_id", "SYN-EVAL-ONLY-1.0", "fail", "G6_TRAINING_NOT_PERMITTED"),
    ("G6", "evidence.license.intended_use.redistribution", True, "pass", ""),
    # G7
    ("G7", "evidence.budgets", None, "unknown", "G7_BUDGET_MISSING"),
    ("G7", "evidence.budgets.privacy", DELETE, "unknown", "G7_BUDGET_MISSING"),
    ("G7", "evidence.budgets.compute.approved", None, "unknown", "G7_BUDGET_MISSING"),
    ("G7", "evidence.budgets.provider.approved", False, "fail", "G7_BUDGET_NOT_APPROVED"),
    (
        "G7",
        "evidence.budgets.rollback.approved_by",
        "p-maint-bot",
        "fail",
        "G7_APPROVER_NOT_HUMAN_MAINTAINER",
    ),
    ("G7", "evidence.rollback_requirements", None, "unknown", "G7_ROLLBACK_REQUIREMENTS_MISSING"),
    (
        "G7",
        "evidence.rollback_requirements.canary_required",
        None,
        "unknown",
        "G7_ROLLBACK_REQUIREMENTS_MISSING",
    ),
    (
        "G7",
        "evidence.rollback_requirements.checkpoints_immutable",
        False,
        "fail",
        "G7_ROLLBACK_REQUIREMENT_UNMET",
    ),
    # G8
    ("G8", "authorization", None, "unknown", "G8_AUTHORIZATION_MISSING"),
    ("G8", "authorization.amendment_digest", None, "unknown", "G8_AUTHORIZATION_MISSING"),
    (
        "G8",
        "authorization.principal_id",
        "p-maint-bot",
        "fail",
        "G8_AUTHORIZER_NOT_HUMAN_MAINTAINER",
    ),
    ("G8", "authorization.action", "start_experiment", "fail", "G8_AUTHORIZATION_SCOPE_INVALID"),
    ("G8", "authorization.grants", ["provider_access"], "fail", "G8_AUTHORIZATION_SCOPE_INVALID"),
    (
        "G8",
        "authorization.amendment_digest",
        "sha256:nothex",
        "fail",
        "G8_AUTHORIZATION_NOT_DIGEST_LINKED",
    ),
    # G9
    ("G9", "evidence.dataset_plan", None, "unknown", "G9_PLAN_MISSING"),
    ("G9", "evidence.evidence_cutoff", None, "unknown", "G9_PLAN_MISSING"),
    ("G9", "evidence.dataset_plan.cutoff.at", None, "unknown", "G9_PLAN_MISSING"),
    ("G9", "evidence.dataset_plan.cutoff.kind", "rolling", "fail", "G9_CUTOFF_NOT_FIXED_FUTURE"),
    (
        "G9",
        "evidence.dataset_plan.cutoff.at",
        "2026-02-15T00:00:00Z",
        "fail",
        "G9_CUTOFF_NOT_FIXED_FUTURE",
    ),
    (
        "G9",
        "evidence.dataset_plan.grouping_rules",
        ["group", "source"],
        "fail",
        "G9_GROUPING_INCOMPLETE",
    ),
    ("G9", "evidence.dataset_plan.leakage_controls", {}, "unknown", "G9_LEAKAGE_CONTROLS_MISSING"),
    (
        "G9",
        "evidence.dataset_plan.leakage_controls",
        {"split_unit": None, "exclude_hidden_splits": None},
        "unknown",
        "G9_LEAKAGE_CONTROLS_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.training_source_items",
        [],
        "unknown",
        "G9_TRAINING_SOURCES_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.training_source_items",
        ["item-t1-a", "item-404"],
        "fail",
        "G9_TRAINING_ITEM_UNRESOLVED",
    ),
    (
        "G9",
        "evidence.dataset_plan.training_source_items",
        ["item-cal-1"],
        "fail",
        "G9_CONTAMINATION_HIDDEN_ITEM",
    ),
    (
        "G9",
        "evidence.dataset_plan.training_source_items",
        ["item-exploit"],
        "fail",
        "G9_CONTAMINATION_EXPLOIT_TRACE",
    ),
    (
        "G9",
        "evidence.dataset_plan.training_source_items",
        ["item-leak"],
        "fail",
        "G9_GROUPED_SPLIT_LEAKAGE",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback",
        None,
        "unknown",
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback.license",
        "",
        "unknown",
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback.retention_days",
        0,
        "unknown",
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback.use_scope",
        "everywhere",
        "unknown",
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback.atom_ids",
        ["atom-1", "atom-9"],
        "fail",
        "G9_FEEDBACK_ATOM_UNRESOLVED",
    ),
    (
        "G9",
        "evidence.dataset_plan.private_feedback.use_scope",
        "skill",
        "fail",
        "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION",
    ),  # atom-2 was confirmed for "artifact" only
    (
        "G9",
        "evidence.dataset_plan.private_feedback.use_scope",
        "none",
        "fail",
        "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION",
    ),
    ("G9", "evidence.dataset_plan.creates_dataset", True, "fail", "G9_DATASET_CREATED"),
    # G10
    ("G10", "evidence.independence_plan", None, "unknown", "G10_IDENTITIES_MISSING"),
    (
        "G10",
        "evidence.independence_plan.provider_identity",
        None,
        "unknown",
        "G10_IDENTITIES_MISSING",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluator_identity",
        "id-trainer-svc",
        "fail",
        "G10_IDENTITY_CONFLICT",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluation",
        None,
        "unknown",
        "G10_FINAL_EVALUATION_MISSING",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluation.evaluator_inputs",
        None,
        "unknown",
        "G10_FINAL_EVALUATION_MISSING",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluation.epoch_id",
        "ep-404",
        "fail",
        "G10_EVALUATION_EPOCH_UNRESOLVED",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluation.epoch_id",
        "ep-2025a",
        "fail",
        "G10_EVALUATION_EPOCH_NOT_SEALED",
    ),  # closed, and it was looked at
    (
        "G10",
        "evidence.independence_plan.final_evaluation.epoch_id",
        "ep-draft",
        "fail",
        "G10_EXPOSURE_UNKNOWN",
    ),  # unsealed draft epoch without a ledger row
    (
        "G10",
        "evidence.recurrence.observation_ids",
        ["obs-1", "obs-2", "obs-3", "obs-final"],
        "fail",
        "G10_EVALUATION_EPOCH_TOUCHED",
    ),
    (
        "G10",
        "evidence.lower_rungs.rungs.2.experiment.experiment_id",
        "exp-r2-final",
        "fail",
        "G10_EVALUATION_EPOCH_TOUCHED",
    ),
    (
        "G10",
        "evidence.independence_plan.final_evaluation.evaluator_inputs",
        ["evaluation_protocol", "claimed_gains"],
        "fail",
        "G10_EVALUATOR_RECEIVES_TRAINER_RATIONALE",
    ),
    # G11
    ("G11", "evidence.cost_envelope", None, "unknown", "G11_DRY_RUN_MISSING"),
    (
        "G11",
        "evidence.cost_envelope.spend_committed_micros",
        None,
        "unknown",
        "G11_DRY_RUN_MISSING",
    ),
    ("G11", "evidence.cost_envelope.mode", "spendable", "fail", "G11_NOT_NON_SPENDABLE"),
    ("G11", "evidence.cost_envelope.dimensions.egress", DELETE, "unknown", "G11_DIMENSION_MISSING"),
    (
        "G11",
        "evidence.cost_envelope.dimensions.retry.ceiling",
        None,
        "unknown",
        "G11_DIMENSION_MISSING",
    ),
    (
        "G11",
        "evidence.cost_envelope.dimensions.storage.worst_case",
        4.5,
        "fail",
        "G11_CEILING_EXCEEDED",
    ),
    (
        "G11",
        "evidence.cost_envelope.work_orders_created",
        ["wo-1"],
        "fail",
        "G11_SIDE_EFFECTS_CREATED",
    ),
    (
        "G11",
        "evidence.cost_envelope.reservations_created",
        ["res-1"],
        "fail",
        "G11_SIDE_EFFECTS_CREATED",
    ),
    ("G11", "evidence.cost_envelope.spend_committed_micros", 1, "fail", "G11_SIDE_EFFECTS_CREATED"),
]


@pytest.mark.parametrize(
    ("gid", "path", "value", "status", "code"),
    CASES,
    ids=[f"{c[0]}-{c[4] or 'pass'}-{i}" for i, c in enumerate(CASES)],
)
def test_gate_cases(gid: str, path: str, value: Any, status: str, code: str) -> None:
    r = run_gate(gid, edit(path, value).build())
    assert r.status.value == status, r.reason_codes
    if code:
        assert code in codes(r)


def test_g10_missing_exposure_row_alone_is_unknown() -> None:
    arch = archive()
    arch["exposure_ledger"] = [r for r in arch["exposure_ledger"] if r["epoch_id"] != "ep-2026"]
    r = run_gate("G10", passing(), arch)
    assert r.status is GateStatus.UNKNOWN and codes(r) == {"G10_EXPOSURE_UNKNOWN"}
    arch["exposure_ledger"].append(
        {"epoch_id": "ep-2026", "execution_looks": 0, "disclosure_looks": 2}
    )
    assert codes(run_gate("G10", passing(), arch)) == {"G10_EVALUATION_EPOCH_TOUCHED"}


def test_g6_redistribution_policy() -> None:
    b = edit("evidence.license.license_id", "SYN-NO-REDISTRIBUTION-1.0").set(
        "evidence.license.intended_use.redistribution", True
    )
    assert codes(run_gate("G6", b.build())) == {"G6_REDISTRIBUTION_NOT_PERMITTED"}
    ok = edit("evidence.license.license_id", "SYN-NO-REDISTRIBUTION-1.0")
    assert run_gate("G6", ok.build()).status is GateStatus.PASS


def test_g8_authorization_must_point_at_this_evidence() -> None:
    stale = edit("evidence.budgets.compute.amount", 1300).build(relink=False)
    assert codes(run_gate("G8", stale)) == {"G8_AUTHORIZATION_NOT_DIGEST_LINKED"}
    tree = passing()
    tree["authorization"]["evidence_digest"] = json_digest(tree["evidence"])
    assert run_gate("G8", tree).status is GateStatus.PASS


def test_g9_private_detail_names_items_but_codes_do_not() -> None:
    r = run_gate(
        "G9",
        edit(
            "evidence.dataset_plan.training_source_items", ["item-t1-a", "item-cal-1", "item-leak"]
        ).build(),
    )
    assert r.detail["hidden_items"] == ["item-cal-1"]
    assert set(r.detail["evaluation_family_items"]) == {"item-cal-1", "item-leak"}
    assert not any("item" in code.lower() and "-" in code for code in r.reason_codes)


def test_g9_an_item_linked_to_a_pool_group_is_leakage_even_if_not_hidden() -> None:
    arch = archive()
    for grp in arch["groups"]:
        if grp["group_id"].startswith("pool-"):
            grp["split"] = "development"  # the pool alone still defines evaluation families
    r = run_gate(
        "G9", edit("evidence.dataset_plan.training_source_items", ["item-leak"]).build(), arch
    )
    assert codes(r) == {"G9_GROUPED_SPLIT_LEAKAGE"}


# -- bound compiled packages and the contamination hook ---------------------------------
def make_package(root: Path) -> Path:
    (root / "experience_compiler").mkdir(parents=True)
    (root / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r1"}\n')
    (root / "manifest.json").write_text('{"package_id": "pkg-1"}\n')
    return root


def with_package(root: Path) -> dict[str, Any]:
    return edit(
        "evidence.source_packages",
        [{"package_id": "pkg-1", "package_digest": package_digest(root)}],
    ).build()


def test_g9_fake_contamination_hook(tmp_path: Path) -> None:
    root = make_package(tmp_path / "pkg")
    tree = with_package(root)
    locator = {"pkg-1": root}.get
    seen: list[Path] = []

    def clean(path: Path) -> list[str]:
        seen.append(path)
        return []

    assert run_gate("G9", tree, locator=locator, hook=clean).status is GateStatus.PASS
    assert seen == [root]
    dirty = run_gate("G9", tree, locator=locator, hook=lambda p: ["row-17", "row-3"])
    assert codes(dirty) == {"G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE"}
    assert dirty.detail["package_rows_citing_hidden_evidence"] == {"pkg-1": ["row-17", "row-3"]}


def test_g9_packages_without_hook_locator_or_with_a_failing_hook_are_unknown(
    tmp_path: Path,
) -> None:
    root = make_package(tmp_path / "pkg")
    tree = with_package(root)

    def broken(path: Path) -> list[str]:
        raise RuntimeError("audit crashed")

    for locator, hook in [
        ({"pkg-1": root}.get, None),
        (None, lambda p: []),
        ({}.get, lambda p: []),
        ({"pkg-1": root}.get, broken),
    ]:
        r = run_gate("G9", tree, locator=locator, hook=hook)
        assert r.status is GateStatus.UNKNOWN
        assert codes(r) == {"G9_PACKAGE_CONTAMINATION_UNVERIFIED"}
