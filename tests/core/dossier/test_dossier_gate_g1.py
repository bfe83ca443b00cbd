"""G1: coverage, effective sample and power — pass, fail and unknown for each check."""

from __future__ import annotations

from typing import Any

import pytest
from dossier_builder import DossierBuilder, archive, codes, passing, run_gate

from aa_review.core.dossier import GateStatus, json_digest
from aa_review.core.stats import POWER_THRESHOLD

METRICS = {
    "independent_groups",
    "observation_units",
    "design_effect",
    "effective_sample_size",
    "power_base",
    "power_worst_case",
    "adjusted_alpha",
}


def g1(tree: dict[str, Any], archive_tree: dict[str, Any] | None = None):
    return run_gate("G1", tree, archive_tree)


def test_passing_dossier_passes_with_fixed_metric_names() -> None:
    r = g1(passing())
    assert r.status is GateStatus.PASS and r.reason_codes == ()
    assert set(r.metrics) == METRICS
    assert r.metrics["independent_groups"] == 27  # 28 groups, two share a template
    assert r.metrics["observation_units"] == 280
    assert r.metrics["design_effect"] == pytest.approx(1 + (3000 / 280 - 1) * 0.1)
    assert r.metrics["adjusted_alpha"] == pytest.approx(0.025)
    assert r.metrics["power_base"] >= POWER_THRESHOLD
    assert r.metrics["power_worst_case"] >= POWER_THRESHOLD
    assert r.metrics["power_worst_case"] < r.metrics["power_base"]


def test_trajectory_counts_do_not_substitute_for_evidence() -> None:
    tree = (
        DossierBuilder()
        .evidence("trajectory_count", 10**9)
        .delete("evidence.power_analysis")
        .build()
    )
    r = g1(tree)
    assert r.status is GateStatus.UNKNOWN and "G1_POWER_MISSING" in codes(r)


# -- coverage --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "value", "status", "code"),
    [
        ("coverage", None, "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.stages.2", "DELETE", "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.stages.0.report_digest", "sha256:short", "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.stages.0.decision", "mostly", "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.stage6", None, "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.target_behavior_id", None, "unknown", "G1_COVERAGE_MISSING"),
        ("coverage.stages.4.decision", "insufficient", "fail", "G1_COVERAGE_STAGE_INSUFFICIENT"),
        ("coverage.target_behavior_id", "beh-other", "fail", "G1_COVERAGE_TARGET_MISMATCH"),
        (
            "coverage.stage6.can_evaluate_training_search",
            False,
            "fail",
            "G1_STAGE6_CANNOT_EVALUATE_TRAINING_SEARCH",
        ),
    ],
)
def test_coverage(path: str, value: Any, status: str, code: str) -> None:
    b = DossierBuilder()
    if value == "DELETE":
        b.delete(f"evidence.{path}")
    else:
        b.evidence(path, value)
    r = g1(b.build())
    assert r.status.value == status
    assert code in codes(r)


# -- effective sample --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "value", "status", "code"),
    [
        ("effective_sample", None, "unknown", "G1_ESS_MISSING"),
        ("effective_sample.groups", [], "unknown", "G1_ESS_MISSING"),
        ("effective_sample.icc", None, "unknown", "G1_ESS_MISSING"),
        ("effective_sample.analysis_unit", None, "unknown", "G1_ESS_MISSING"),
        ("effective_sample.claimed_design_effect", None, "unknown", "G1_ESS_MISSING"),
        ("effective_sample.analysis_unit", "attempt", "fail", "G1_ESS_PSEUDOREPLICATION"),
        ("effective_sample.analysis_unit", "seed", "fail", "G1_ESS_PSEUDOREPLICATION"),
        ("effective_sample.groups.3.group_id", "pool-404", "fail", "G1_ESS_GROUP_UNRESOLVED"),
        ("effective_sample.icc", 1.0, "fail", "G1_ESS_INVALID"),
        ("effective_sample.icc", -0.1, "fail", "G1_ESS_INVALID"),
        ("effective_sample.claimed_independent_groups", 28, "fail", "G1_ESS_GROUPS_OVERCLAIMED"),
        ("effective_sample.claimed_design_effect", 1.5, "fail", "G1_ESS_DESIGN_EFFECT_UNDERSTATED"),
        ("effective_sample.claimed_effective_sample_size", 150.0, "fail", "G1_ESS_OVERCLAIMED"),
    ],
)
def test_effective_sample(path: str, value: Any, status: str, code: str) -> None:
    r = g1(DossierBuilder().evidence(path, value).build())
    assert r.status.value == status
    assert code in codes(r)


def test_a_group_of_no_units_is_not_an_invalid_icc() -> None:
    # Spec 15: G1_ESS_INVALID stays reserved for the ICC; a group of 0 units only shrinks
    # G and ESS, against which the claims are judged (they may still hold).
    r = g1(DossierBuilder().evidence("effective_sample.groups.0.n_units", 0).build())
    assert "G1_ESS_INVALID" not in codes(r)
    assert r.metrics["observation_units"] is not None


def test_a_group_listed_twice_adds_its_units_to_its_component() -> None:
    # Spec 6.1 sums n_units per component; it has no rule against a repeated group.
    b = DossierBuilder()
    b.tree["evidence"]["effective_sample"]["groups"].append({"group_id": "pool-05", "n_units": 10})
    r = g1(b.build())
    assert "G1_ESS_INVALID" not in codes(r)
    assert r.metrics["independent_groups"] == 27
    assert r.metrics["observation_units"] == 290


def test_worked_example_of_section_6_1_through_the_gate() -> None:
    arch = archive()
    arch["groups"] += [
        {
            "group_id": gid,
            "epoch_id": "ep-2026",
            "split": "confirmatory_hidden",
            "family_label": gid,
            "source_ids": [f"src-{gid}"],
            "template_ids": [tpl],
        }
        for gid, tpl in [("A", "tA"), ("B", "tBC"), ("C", "tBC"), ("D", "tD"), ("E", "tE")]
    ]
    tree = (
        DossierBuilder()
        .evidence(
            "effective_sample.groups",
            [
                {"group_id": g, "n_units": n}
                for g, n in [("A", 6), ("B", 6), ("C", 8), ("D", 10), ("E", 10)]
            ],
        )
        .evidence("effective_sample.icc", 0.2)
        .build()
    )
    r = g1(tree, arch)
    assert r.metrics["independent_groups"] == 4
    assert r.metrics["observation_units"] == 40
    assert r.metrics["design_effect"] == pytest.approx(2.96)
    assert r.metrics["effective_sample_size"] == pytest.approx(13.51, abs=0.005)
    # Overclaims against G = 4 and ESS = 13.5, and a design the pool cannot hold.
    assert {
        "G1_ESS_GROUPS_OVERCLAIMED",
        "G1_ESS_OVERCLAIMED",
        "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE",
    } <= codes(r)


def test_ess_claim_at_the_exact_value_passes_and_a_hair_above_fails() -> None:
    exact = 280 / (1 + (3000 / 280 - 1) * 0.1)
    ok = DossierBuilder().evidence("effective_sample.claimed_effective_sample_size", exact)
    assert g1(ok.build()).status is GateStatus.PASS
    bad = DossierBuilder().evidence("effective_sample.claimed_effective_sample_size", exact * 1.001)
    assert "G1_ESS_OVERCLAIMED" in codes(g1(bad.build()))


# -- power ---------------------------------------------------------------------------------
P = "power_analysis.parameters."


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("power_analysis", None, "G1_POWER_MISSING"),
        (
            "power_analysis.method_id",
            "cluster_two_arm_mean_ttest/v2",
            "G1_POWER_METHOD_UNSUPPORTED",
        ),
        (P + "decision_rule", "reject_if_bayes_factor_gt_3", "G1_POWER_METHOD_UNSUPPORTED"),
        (P + "missingness.mechanism", "MAR", "G1_POWER_METHOD_UNSUPPORTED"),
        (P + "effect_scale", "raw_points", "G1_POWER_METHOD_UNSUPPORTED"),
        (P + "seed", None, "G1_POWER_PARAMETER_MISSING"),
        (P + "sensitivity_range.icc", None, "G1_POWER_PARAMETER_MISSING"),
        (P + "missingness.rate", None, "G1_POWER_PARAMETER_MISSING"),
        ("target_behavior.preregistered_minimum_useful_effect", None, "G1_POWER_PARAMETER_MISSING"),
        ("power_analysis.claimed.power_worst_case", None, "G1_POWER_CLAIM_MISSING"),
    ],
)
def test_power_unknowns(path: str, value: Any, code: str) -> None:
    r = g1(DossierBuilder().evidence(path, value).build())
    assert r.status is GateStatus.UNKNOWN, r.reason_codes
    assert code in codes(r)


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("power_analysis.sealed", False, "G1_POWER_NOT_SEALED"),
        (P + "alpha", 1.5, "G1_POWER_PARAMETER_INVALID"),
        (P + "alternative", "less", "G1_POWER_PARAMETER_INVALID"),
        (P + "multiplicity_method", "none", "G1_POWER_PARAMETER_INVALID"),  # K = 2
        (P + "comparison_family.hypotheses", [], "G1_POWER_PARAMETER_INVALID"),
        (P + "clusters_per_arm", 1, "G1_POWER_PARAMETER_INVALID"),
        (P + "cluster_attrition", 1.0, "G1_POWER_PARAMETER_INVALID"),
        (P + "sensitivity_range.icc", [0.13, 0.2], "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE"),
        (
            P + "sensitivity_range.missing_rate",
            [0.05, 1.0],
            "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE",
        ),
        (P + "minimum_useful_effect", 0.8, "G1_POWER_EFFECT_NOT_PREREGISTERED"),
        (P + "n_sim", 1999, "G1_POWER_NSIM_TOO_SMALL"),
        (P + "icc", 0.09, "G1_POWER_ICC_BELOW_ESTIMATE"),
        (
            P + "clusters_per_arm",
            14,
            "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE",
        ),  # 2k = 28 > G = 27
        (P + "cluster_size", 12, "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE"),  # 2km = 288 > N = 280
        ("power_analysis.claimed.power_base", 0.99, "G1_POWER_CLAIM_NOT_REPRODUCED"),
    ],
)
def test_power_failures(path: str, value: Any, code: str) -> None:
    r = g1(DossierBuilder().evidence(path, value).build())
    assert r.status is GateStatus.FAIL, r.reason_codes
    assert code in codes(r)


def test_changing_a_sealed_parameter_breaks_the_inputs_binding() -> None:
    # relink=False keeps the digests sealed before the change.
    tree = DossierBuilder().evidence(P + "seed", 7).build(relink=False)
    r = g1(tree)
    assert "G1_POWER_INPUTS_DIGEST_MISMATCH" in codes(r)
    assert r.metrics["power_base"] is not None  # numbers are still shown


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("power_analysis.simulation.inputs_digest", "G1_POWER_INPUTS_DIGEST_MISMATCH"),
        ("power_analysis.preregistration.sealed_inputs_digest", "G1_POWER_INPUTS_DIGEST_MISMATCH"),
        ("power_analysis.simulation.code_digest", "G1_POWER_CODE_DIGEST_MISMATCH"),
    ],
)
def test_an_absent_binding_digest_differs_from_the_sealed_one(path: str, code: str) -> None:
    r = g1(DossierBuilder().delete(f"evidence.{path}").build(relink=False))
    assert r.status is GateStatus.FAIL and code in codes(r)


@pytest.mark.parametrize("section", ["simulation", "preregistration"])
def test_an_absent_simulation_or_preregistration_is_the_power_section_missing(
    section: str,
) -> None:
    # 15 "Empty means absent": deleted is absent like {}; no fail presumes its digests.
    r = g1(DossierBuilder().delete(f"evidence.power_analysis.{section}").build(relink=False))
    assert r.status is GateStatus.UNKNOWN, r.reason_codes
    assert r.reason_codes == ("G1_POWER_MISSING",)


@pytest.mark.parametrize(
    ("absent", "present", "field", "code"),
    [
        ("preregistration", "simulation", "inputs_digest", "G1_POWER_INPUTS_DIGEST_MISMATCH"),
        ("preregistration", "simulation", "code_digest", "G1_POWER_CODE_DIGEST_MISMATCH"),
        (
            "simulation",
            "preregistration",
            "sealed_inputs_digest",
            "G1_POWER_INPUTS_DIGEST_MISMATCH",
        ),
    ],
)
def test_a_present_digest_is_still_checked_beside_an_absent_section(
    absent: str, present: str, field: str, code: str
) -> None:
    # G1: digest(parameters) differs from simulation.inputs_digest "or from"
    # preregistration.sealed_inputs_digest; code_digest "malformed": each needs one side.
    b = DossierBuilder().delete(f"evidence.power_analysis.{absent}")
    tree = b.evidence(f"power_analysis.{present}.{field}", "sha256:XYZ").build(relink=False)
    r = g1(tree)
    assert r.status is GateStatus.FAIL and code in codes(r), r.reason_codes
    assert "G1_POWER_MISSING" in codes(r)


def test_inputs_digest_must_match_both_simulation_and_preregistration() -> None:
    tree = passing()
    tree["evidence"]["power_analysis"]["preregistration"]["sealed_inputs_digest"] = json_digest("x")
    assert "G1_POWER_INPUTS_DIGEST_MISMATCH" in codes(g1(tree))


@pytest.mark.parametrize("code_digest", ["sha256:XYZ", json_digest("other code")])
def test_code_digest_must_be_well_formed_and_sealed(code_digest: str) -> None:
    tree = DossierBuilder().evidence("power_analysis.simulation.code_digest", code_digest).build()
    assert "G1_POWER_CODE_DIGEST_MISMATCH" in codes(g1(tree))


def test_underpowered_plan_fails_at_base_and_worst_case() -> None:
    tree = DossierBuilder().evidence(P + "clusters_per_arm", 6).reclaim_power().build()
    r = g1(tree)
    assert r.metrics["power_base"] < POWER_THRESHOLD
    assert {"G1_POWER_BELOW_THRESHOLD", "G1_POWER_SENSITIVITY_BELOW_THRESHOLD"} <= codes(r)
    assert "G1_POWER_CLAIM_NOT_REPRODUCED" not in codes(r)  # the claims were recomputed


def test_a_wide_sensitivity_box_fails_only_at_the_worst_corner() -> None:
    tree = DossierBuilder().evidence(P + "sensitivity_range.icc", [0.1, 0.6]).reclaim_power()
    r = g1(tree.build())
    assert r.metrics["power_base"] >= POWER_THRESHOLD > r.metrics["power_worst_case"]
    assert codes(r) == {"G1_POWER_SENSITIVITY_BELOW_THRESHOLD"}


def test_no_simulation_for_an_invalid_plan_and_every_reason_reported() -> None:
    tree = (
        DossierBuilder()
        .evidence(P + "alpha", 2.0)
        .evidence("power_analysis.sealed", False)
        .evidence("coverage.stages.1.decision", "insufficient")
        .build()
    )
    r = g1(tree)
    assert r.metrics["power_base"] is None
    assert {
        "G1_POWER_PARAMETER_INVALID",
        "G1_POWER_NOT_SEALED",
        "G1_COVERAGE_STAGE_INSUFFICIENT",
    } <= codes(r)


def test_fail_and_unknown_codes_together_make_fail() -> None:
    tree = (
        DossierBuilder()
        .evidence("coverage.stage6", None)
        .evidence("coverage.stages.0.decision", "insufficient")
        .build()
    )
    r = g1(tree)
    assert r.status is GateStatus.FAIL
    assert {"G1_COVERAGE_MISSING", "G1_COVERAGE_STAGE_INSUFFICIENT"} <= codes(r)


def test_simulation_beyond_the_validator_limit_is_unknown_not_run(monkeypatch) -> None:
    """Spec 15 (G1): a simulation whose work n_sim x 2k exceeds 10^9 is beyond this validator."""
    from aa_review.core.dossier import _gate_g1_power

    tree = passing()
    p = tree["evidence"]["power_analysis"]["parameters"]
    monkeypatch.setattr(
        _gate_g1_power, "MAX_SIMULATED_CLUSTERS", p["n_sim"] * 2 * p["clusters_per_arm"] - 1
    )
    r = g1(tree)
    assert r.status is GateStatus.UNKNOWN
    assert "G1_POWER_BEYOND_VALIDATOR_LIMIT" in codes(r)
    assert r.metrics["power_base"] is None  # nothing was simulated
    monkeypatch.setattr(
        _gate_g1_power, "MAX_SIMULATED_CLUSTERS", p["n_sim"] * 2 * p["clusters_per_arm"]
    )
    assert g1(tree).status is GateStatus.PASS
