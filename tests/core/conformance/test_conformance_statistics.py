"""Spec section 6 through the gates: the rules of 6.1-6.7 on the spec-written dossier.

The reference numbers of 6.8 are unit tests of ``aa_review.core.stats`` (tests/core/stats);
here each rule is exercised where a verdict depends on it.
"""

from __future__ import annotations

import math

import pytest
from spec_fixture import DELETE, build, one_sided_bound
from test_conformance_gates import check

from aa_review.core.dossier import GATE_IDS

P = "power_analysis.parameters."
LR = "lower_rungs."


def _all_pass_but(rec, gate: str) -> dict[str, tuple[str, ...]]:
    return {
        g: r.reason_codes for g, r in rec.gates.items() if g != gate and r.status.value != "pass"
    }


def test_6_1_unequal_components_use_the_size_weighted_design_effect() -> None:
    # pool-01 + pool-02 form one component of 20 units, 18 others have 10 each.
    g1 = check(build()).gates["G1"].metrics
    m_bar_w = (20**2 + 18 * 10**2) / 200
    assert g1["design_effect"] == pytest.approx(1 + (m_bar_w - 1) * 0.05)
    assert g1["independent_groups"] < 20  # two groups, one family


def test_6_1_repeated_units_inside_a_group_are_not_extra_groups() -> None:
    v = build([("ev", "effective_sample.groups[pool-03].n_units", 40)])
    g1 = check(v).gates["G1"].metrics
    assert g1["independent_groups"] == 19 and g1["observation_units"] == 230


def test_6_2_simulation_runs_even_when_a_digest_check_failed() -> None:
    rec = check(build([("ev!", P + "seed", 11)]))
    g1 = rec.gates["G1"]
    assert g1.reason_codes == ("G1_POWER_INPUTS_DIGEST_MISMATCH",)
    assert g1.metrics["power_base"] is not None and g1.metrics["power_worst_case"] is not None


def test_6_2_no_simulation_for_an_incomplete_plan() -> None:
    g1 = check(build([("ev", P + "n_sim", DELETE)])).gates["G1"]
    assert g1.metrics["power_base"] is None and g1.metrics["power_worst_case"] is None


def test_6_2_any_integer_seed_is_accepted() -> None:
    rec = check(build([("ev", P + "seed", -42)]))  # 2.2: "seed | int"
    assert rec.eligible_if_decided, {g: r.reason_codes for g, r in rec.gates.items()}


def test_6_4_delta_is_the_preregistered_effect_never_the_plans() -> None:
    # A plan claiming a larger effect is not simulated with it (it would look stronger).
    base = check(build()).gates["G1"].metrics["power_base"]
    bigger = check(build([("ev", P + "minimum_useful_effect", 1.5)])).gates["G1"]
    assert bigger.reason_codes == ("G1_POWER_EFFECT_NOT_PREREGISTERED",)
    assert bigger.metrics["power_base"] == pytest.approx(base)


@pytest.mark.parametrize("side", [-1, 1])
def test_6_5_monte_carlo_tolerance(side: int) -> None:
    rec = check(build())
    p_hat = rec.gates["G1"].metrics["power_base"]
    n = 4000
    tol = max(0.015, 4 * math.sqrt(p_hat * (1 - p_hat) / n))
    inside = check(
        build(
            [("ev!", "power_analysis.claimed.power_base", round(p_hat + side * (tol - 0.0005), 6))]
        )
    )
    assert inside.gates["G1"].status.value == "pass"
    outside = check(
        build(
            [("ev!", "power_analysis.claimed.power_base", round(p_hat + side * (tol + 0.0005), 6))]
        )
    )
    assert outside.gates["G1"].reason_codes == ("G1_POWER_CLAIM_NOT_REPRODUCED",)


def test_6_6_bounds_use_k_star_and_the_t_or_normal_quantile() -> None:
    bounds = check(build()).gates["G4"].metrics["upper_bounds"]
    assert bounds["0"] == pytest.approx(one_sided_bound(0.01, 0.012, 40, 0.05, 4))
    assert bounds["2"] == pytest.approx(one_sided_bound(0.005, 0.01, "inf", 0.05, 4))
    # K* = max(family_size, confirmatory entries, 1): a larger family widens every bound.
    wider = check(build([("ev", LR + "family_size", 8)])).gates["G4"].metrics["upper_bounds"]
    assert wider["0"] == pytest.approx(one_sided_bound(0.01, 0.012, 40, 0.05, 8))
    assert wider["0"] > bounds["0"]


def test_6_6_worked_example() -> None:
    assert one_sided_bound(0.03, 0.05, 40, 0.05, 4) == pytest.approx(0.1464, abs=5e-5)
    v = build(
        [
            ("arc", "experiments[exp-r0].estimate", 0.03),
            ("arc", "experiments[exp-r0].standard_error", 0.05),
            ("ev", LR + "useful_effect", 0.2),
            *[
                ("arc", f"experiments[{e}].useful_effect", 0.2)
                for e in ("exp-r0", "exp-r1", "exp-r2", "exp-r6")
            ],
        ]
    )
    assert check(v).gates["G4"].metrics["upper_bounds"]["0"] == pytest.approx(0.1464, abs=5e-5)


def test_6_6_plateau_is_strict() -> None:
    ucb = one_sided_bound(0.01, 0.012, 40, 0.05, 4)
    edits = [
        ("ev", LR + "useful_effect", ucb),
        *[
            ("arc", f"experiments[{e}].useful_effect", ucb)
            for e in ("exp-r0", "exp-r1", "exp-r2", "exp-r6")
        ],
    ]
    g4 = check(build(edits)).gates["G4"]
    assert g4.reason_codes == ("G4_UCB_NOT_BELOW_USEFUL_EFFECT",)


def test_6_6_experiment_facts_come_from_the_archive_not_the_dossier() -> None:
    # A dossier's own description of the experiment is not trusted (nor even read).
    rec = check(
        build(
            [
                ("ev", LR + "rungs[0].experiment.estimate", 0.9),
                ("ev", LR + "rungs[0].experiment.kind", "confirmatory"),
            ]
        )
    )
    assert rec.eligible_if_decided
    arc = check(build([("arc", "experiments[exp-r0].kind", "exploratory")]))
    assert arc.gates["G4"].reason_codes == ("G4_EXPLORATORY_NOT_PLATEAU",)


def test_6_6_rungs_have_their_own_scale_and_useful_effect() -> None:
    v = build()
    tb, lr = v.dossier["evidence"]["target_behavior"], v.dossier["evidence"]["lower_rungs"]
    assert lr["effect_scale"] != tb["effect_scale"]
    assert lr["useful_effect"] != tb["preregistered_minimum_useful_effect"]
    rec = check(v)
    assert rec.gates["G4"].status.value == "pass" and rec.eligible_if_decided


def test_6_7_non_qualifying_observations_are_ignored_not_failures() -> None:
    ids = ["o1", "o2", "o3", "o-suspected", "o-draft-epoch", "o-unregistered", "o-other-mech"]
    rec = check(build([("ev", "recurrence.observation_ids", ids)]))
    assert rec.eligible_if_decided
    assert rec.gates["G3"].metrics == {"families": 3, "epochs": 2, "configuration_classes": 2}


@pytest.mark.parametrize(
    "stand_in", ["o-suspected", "o-draft-epoch", "o-unregistered", "o-other-mech"]
)
def test_6_7_a_non_qualifying_observation_does_not_count(stand_in: str) -> None:
    # o3 is the only observation of family D3 in ep-b; its stand-in does not qualify.
    rec = check(build([("ev", "recurrence.observation_ids", ["o1", "o2", stand_in])]))
    g3 = rec.gates["G3"]
    assert g3.status.value == "fail"
    assert g3.metrics["families"] == 2
    assert _all_pass_but(rec, "G3") == {}


def test_14_7_counts_are_taken_over_the_whole_set_not_per_family() -> None:
    # No single family has two epochs and two classes; together they do.
    rec = check(build([("ev", "recurrence.observation_ids", ["o1", "o2", "o3"])]))
    assert rec.gates["G3"].status.value == "pass"
    assert set(GATE_IDS) == set(rec.gates)
