"""Spec section 5: every gate reason code, each on its own, and a passing dossier beside it.

Each case of ``gate_cases`` edits the spec-written passing dossier (``spec_fixture``)
in the place a sentence of section 5 names. The failing dossier must carry that code
(with only the companions the spec itself implies, named in ``also``) while every
other gate passes; its neighbour must pass every gate.
"""

from __future__ import annotations

import pytest
from gate_cases import CASE_IDS, CASES, Case
from spec_fixture import DELETE, EVAL, NOW, Variant, build

from aa_review.core.dossier import (
    GATE_IDS,
    CheckRecord,
    PrincipalRegistry,
    evaluate,
    parse_archive,
    parse_dossier,
)


def check(v: Variant) -> CheckRecord:
    """The validator on a variant (a draft: section 4's bound-state rules do not apply)."""
    return evaluate(
        parse_dossier(v.dossier),
        parse_archive(v.archive),
        PrincipalRegistry(v.principals),
        NOW,
        EVAL,
    )


def test_the_spec_written_dossier_passes_every_gate() -> None:
    rec = check(build())
    assert {g: r.status.value for g, r in rec.gates.items()} == dict.fromkeys(GATE_IDS, "pass")
    assert all(r.reason_codes == () for r in rec.gates.values())
    assert rec.dossier_reason_codes == () and rec.eligible_if_decided is True


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_code_alone(case: Case) -> None:
    rec = check(build(case.fail))
    gate = rec.gates[case.gate]
    assert gate.status.value == case.status, gate.reason_codes
    assert set(gate.reason_codes) == {case.code} | case.also
    others = {
        g: (r.status.value, r.reason_codes)
        for g, r in rec.gates.items()
        if g != case.gate and r.status.value != "pass"
    }
    assert others == {}
    assert rec.dossier_reason_codes == ()
    assert rec.eligible_if_decided is False


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_near_passes(case: Case) -> None:
    rec = check(build(case.near_edits()))
    failing = {g: r.reason_codes for g, r in rec.gates.items() if r.status.value != "pass"}
    assert failing == {}
    assert rec.eligible_if_decided is True


def test_every_gate_has_a_case_and_statuses_follow_the_f_and_u_marks() -> None:
    assert {c.gate for c in CASES} == set(GATE_IDS)
    for c in CASES:
        assert c.status in ("fail", "unknown")
        assert c.code.split("_", 1)[0] == c.gate


# -- 1.1: several findings at once ----------------------------------------------------------
def test_a_gate_reports_every_code_and_fail_wins_over_unknown() -> None:
    rec = check(
        build(
            [
                ("ev", "coverage.stage6", DELETE),
                ("ev", "coverage.stages[1].decision", "insufficient"),
                ("ev", "effective_sample.analysis_unit", "seed"),
            ]
        )
    )
    g1 = rec.gates["G1"]
    assert g1.status.value == "fail"
    assert {
        "G1_COVERAGE_MISSING",
        "G1_COVERAGE_STAGE_INSUFFICIENT",
        "G1_ESS_PSEUDOREPLICATION",
    } <= set(g1.reason_codes)


def test_an_insufficient_stage_fails_even_when_its_digest_is_malformed() -> None:
    rec = check(
        build(
            [
                ("ev", "coverage.stages[2].decision", "insufficient"),
                ("ev", "coverage.stages[2].report_digest", "sha256:0"),
            ]
        )
    )
    g1 = rec.gates["G1"]
    assert g1.status.value == "fail"
    assert set(g1.reason_codes) == {"G1_COVERAGE_MISSING", "G1_COVERAGE_STAGE_INSUFFICIENT"}


def test_extra_fields_are_ignored_and_no_count_substitutes_for_evidence() -> None:
    v = build([("ev", "trajectory_count", 10**9), ("ev", "power_analysis", DELETE)])
    rec = check(v)
    assert rec.gates["G1"].status.value == "unknown"
    assert rec.gates["G1"].reason_codes == ("G1_POWER_MISSING",)
    clean = check(
        build(
            [
                ("ev", "trajectory_count", 10**9),
                ("ev", "coverage.stage6.notes", "extra key inside a section"),
            ]
        )
    )
    assert clean.eligible_if_decided is True


# -- 2.5: the fixed metric names ----------------------------------------------------------
def test_metrics_carry_the_fixed_names_of_2_5_with_the_spec_numbers() -> None:
    rec = check(build())
    g1, g3, g4 = rec.gates["G1"].metrics, rec.gates["G3"].metrics, rec.gates["G4"].metrics
    assert set(g1) == {
        "independent_groups",
        "observation_units",
        "design_effect",
        "effective_sample_size",
        "power_base",
        "power_worst_case",
        "adjusted_alpha",
    }
    assert (g1["independent_groups"], g1["observation_units"]) == (19, 200)
    assert g1["design_effect"] == pytest.approx(1.5)
    assert g1["effective_sample_size"] == pytest.approx(200 / 1.5)
    assert g1["adjusted_alpha"] == pytest.approx(0.05 / 2)  # Holm, K = 2: alpha / K (6.2)
    assert set(g3) == {"families", "epochs", "configuration_classes"}
    assert (g3["families"], g3["epochs"], g3["configuration_classes"]) == (3, 2, 2)
    assert set(g4) == {"upper_bounds"}
    assert set(g4["upper_bounds"]) == {"0", "1", "2", "6"}
    for gid in GATE_IDS:
        if gid not in ("G1", "G3", "G4"):
            assert rec.gates[gid].metrics == {}
