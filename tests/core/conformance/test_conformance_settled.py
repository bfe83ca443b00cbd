"""Spec section 15 ("Settled readings", amendment 2), clause by clause.

Each test quotes the sentence it checks. The dossier is the spec-written passing one
(``spec_fixture``); every edit is re-sealed by ``build`` so that only the semantic change
remains (a changed report is reviewed again, changed parameters are sealed again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spec_fixture import DELETE, EVAL, LEAD, NOW, Variant, build

from aa_review.core.dossier import (
    GATE_IDS,
    ArchiveSchemaError,
    CheckRecord,
    DossierSchemaError,
    PrincipalRegistry,
    Workspace,
    evaluate,
    parse_archive,
    parse_dossier,
)

D = "dossier-spec-1"
P = "power_analysis.parameters."


def check(v: Variant) -> CheckRecord:
    return evaluate(
        parse_dossier(v.dossier),
        parse_archive(v.archive),
        PrincipalRegistry(v.principals),
        NOW,
        EVAL,
    )


def gate(v: Variant, gid: str) -> tuple[str, set[str]]:
    rec = check(v)
    g = rec.gates[gid]
    assert rec.eligible_if_decided is False
    return g.status.value, set(g.reason_codes)


def others_pass(v: Variant, gid: str) -> None:
    rec = check(v)
    bad = {g: r.reason_codes for g, r in rec.gates.items() if g != gid and r.status.value != "pass"}
    assert bad == {}


# -- Empty means absent (1.1) ----------------------------------------------------------------
# "An empty object {}, an empty string "", an empty list where a non-empty one is required,
# and an object whose contract fields are all absent or null (only unknown keys, or only
# nulls) are absent inputs: the check is unknown with the section's MISSING code, never pass
# and never a fail code that presumes a value."

EMPTY_IS_ABSENT: list[tuple[str, str, Any, str, set[str]]] = [
    # "A feasibility report {} is G2_REPORT_MISSING" (the fail-open of issue 22: it passed).
    ("report-source-{}", "feasibility.source_corpus_report", {}, "G2", {"G2_REPORT_MISSING"}),
    (
        "report-dataset-{}",
        "feasibility.dataset_feasibility_report",
        {},
        "G2",
        {"G2_REPORT_MISSING"},
    ),
    (
        "report-only-unknown-keys",
        "feasibility.source_corpus_report",
        {"note": "a key of no contract"},
        "G2",
        {"G2_REPORT_MISSING"},
    ),
    (
        "report-only-nulls",
        "feasibility.dataset_feasibility_report",
        {"report_id": None, "topics": None},
        "G2",
        {"G2_REPORT_MISSING"},
    ),
    # "a consent decision {} is G2_DECISION_MISSING, not G2_DECIDER_NOT_HUMAN_MAINTAINER"
    ("consent-{}", "decisions.consent", {}, "G2", {"G2_DECISION_MISSING"}),
    ("privacy-{}", "decisions.privacy", {}, "G2", {"G2_DECISION_MISSING"}),
    (
        "privacy-nulls",
        "decisions.privacy",
        {"status": None, "decided_by": None, "decided_at": None},
        "G2",
        {"G2_DECISION_MISSING"},
    ),
    ("decisions-{}", "decisions", {}, "G2", {"G2_DECISION_MISSING"}),
    ("review-{}", "feasibility.human_review", {}, "G2", {"G2_REVIEW_MISSING"}),
    # "multiplicity_method: "" is missing, not invalid"
    ("multiplicity-''", P + "multiplicity_method", "", "G1", {"G1_POWER_PARAMETER_MISSING"}),
    # "leakage_controls holding only nulls is G9_LEAKAGE_CONTROLS_MISSING"
    (
        "leakage-nulls",
        "dataset_plan.leakage_controls",
        {"split_unit": None, "exclude_hidden_splits": None, "exclude_exploit_traces": None},
        "G9",
        {"G9_LEAKAGE_CONTROLS_MISSING"},
    ),
    ("leakage-{}", "dataset_plan.leakage_controls", {}, "G9", {"G9_LEAKAGE_CONTROLS_MISSING"}),
    # "rungs: [] is absent (both G4_PLATEAU_MISSING and G4_RUNGS_MISSING)"
    ("rungs-[]", "lower_rungs.rungs", [], "G4", {"G4_PLATEAU_MISSING", "G4_RUNGS_MISSING"}),
    ("lower-multiplicity-''", "lower_rungs.multiplicity_method", "", "G4", {"G4_PLATEAU_MISSING"}),
    ("license-id-''", "license.license_id", "", "G6", {"G6_LICENSE_MISSING"}),
    ("intended-use-{}", "license.intended_use", {}, "G6", {"G6_INTENDED_USE_MISSING"}),
    ("budget-{}", "budgets.compute", {}, "G7", {"G7_BUDGET_MISSING"}),
    ("rollback-{}", "rollback_requirements", {}, "G7", {"G7_ROLLBACK_REQUIREMENTS_MISSING"}),
    ("cutoff-{}", "dataset_plan.cutoff", {}, "G9", {"G9_PLAN_MISSING"}),
    ("identity-''", "independence_plan.provider_identity", "", "G10", {"G10_IDENTITIES_MISSING"}),
    (
        "final-eval-{}",
        "independence_plan.final_evaluation",
        {},
        "G10",
        {"G10_FINAL_EVALUATION_MISSING"},
    ),
    ("dimension-{}", "cost_envelope.dimensions.compute", {}, "G11", {"G11_DIMENSION_MISSING"}),
    ("reward-plan-{}", "reward_plan", {}, "G5", {"G5_REWARD_PLAN_MISSING"}),
    ("recurrence-ids-[]", "recurrence.observation_ids", [], "G3", {"G3_RECURRENCE_MISSING"}),
    ("mechanism-''", "recurrence.mechanism_id", "", "G3", {"G3_RECURRENCE_MISSING"}),
    ("stage6-{}", "coverage.stage6", {}, "G1", {"G1_COVERAGE_MISSING"}),
]


@pytest.mark.parametrize(
    ("path", "value", "gid", "codes"),
    [c[1:] for c in EMPTY_IS_ABSENT],
    ids=[c[0] for c in EMPTY_IS_ABSENT],
)
def test_empty_is_absent_unknown_with_the_missing_code(
    path: str, value: Any, gid: str, codes: set[str]
) -> None:
    v = build([("ev", path, value)])
    status, found = gate(v, gid)
    assert status == "unknown", found
    assert codes <= found
    rec = check(v)
    assert all(c.endswith("_MISSING") for c in found), found  # none presumes a value
    assert rec.gates[gid].status.value == "unknown"
    others_pass(v, gid)


def test_a_topic_entry_of_nothing_is_a_missing_topic_not_an_uncovered_one() -> None:
    v = build(
        [
            ("ev", "feasibility.source_corpus_report.topics.privacy", {}),
            ("ev", "feasibility.dataset_feasibility_report.topics.privacy", {"covered": None}),
        ]
    )
    assert gate(v, "G2") == ("unknown", {"G2_TOPIC_MISSING"})


def test_an_empty_authorization_is_missing_not_a_scope_violation(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build([("doc!", "authorization", {})])
    assert gate(v, "G8") == ("unknown", {"G8_AUTHORIZATION_MISSING"})
    others_pass(v, "G8")


# -- Refused, not evaluated ------------------------------------------------------------------
# "A dossier or archive file that does not parse to the shapes of section 2 is refused, not
# evaluated. Import ... refuses, naming the JSON path ... A refusal writes nothing to the
# journal and changes no state."

REFUSED: list[tuple[str, str, Any, str]] = [
    ("bool-as-string", "evidence.coverage.stage6.can_evaluate_training_search", "true", "stage6"),
    ("int-as-0.0", "evidence.power_analysis.parameters.n_sim", 20000.0, "n_sim"),
    ("int-as-1.5", "evidence.lower_rungs.family_size", 1.5, "family_size"),
    ("int-with-point", "evidence.effective_sample.claimed_independent_groups", 19.0, "claimed"),
    ("literal-int-as-1.0", "spec_revision", 1.0, "spec_revision"),
    ("literal-int-as-bool", "schema_version", True, "schema_version"),
    ("state-enum", "state", "Draft", "state"),
    ("spec-literal", "spec", "SPEC-027", "spec"),
    ("timestamp-nobody-reads", "evidence.budgets.compute.approved_at", "2026-12-01", "approved_at"),
    ("timestamp-offset", "created_at", "2026-12-01T10:00:00+00:00", "created_at"),
    ("author-unknown", "created_by", "p-nobody-here", "created_by"),
    *[
        (f"identity-absent-{k}", k, DELETE, k)
        for k in (
            "kind",
            "spec",
            "spec_revision",
            "activation",
            "schema_version",
            "dossier_id",
            "revision",
            "state",
        )
    ],
    ("dossier-id-''", "dossier_id", "", "dossier_id"),
]


def _edit(tree: dict[str, Any], path: str, value: Any) -> None:
    node = tree
    *head, last = path.split(".")
    for step in head:
        node = node[step]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value


@pytest.mark.parametrize(
    ("path", "value", "named"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_a_file_that_does_not_parse_is_refused_naming_the_path(
    make_ws: Callable[..., Workspace], path: str, value: Any, named: str
) -> None:
    tree = build().dossier
    _edit(tree, path, value)
    ws = make_ws()
    with pytest.raises(DossierSchemaError) as err:
        ws.import_dossier(tree)
    assert err.value.reason_code == "DOSSIER_SCHEMA_INVALID"
    assert any(named in p.path for p in err.value.details), err.value.problems
    for p in err.value.details:  # a refusal a person can act on: rule and remedy
        assert p.rule.startswith("READINESS_DOSSIER.md")
        assert p.remedy
    assert ws.journal_entries() == [] and ws.dossier_ids() == []


@pytest.mark.parametrize(
    "state", ["evidence_bound", "independently_checked", "eligible", "deferred"]
)
def test_a_bound_or_later_state_without_a_binding_is_refused(
    make_ws: Callable[..., Workspace], state: str
) -> None:
    tree = build().dossier
    tree["state"] = state
    tree["binding"] = None
    ws = make_ws()
    with pytest.raises(DossierSchemaError) as err:
        ws.import_dossier(tree)
    assert any(p.path == "binding" for p in err.value.details)
    assert ws.journal_entries() == []


def test_an_absent_evidence_field_stays_a_gate_matter_never_a_refusal(
    make_ws: Callable[..., Workspace],
) -> None:
    tree = build([("ev", "budgets.compute.approved_at", DELETE)]).dossier
    ws = make_ws()
    ws.import_dossier(tree)
    assert ws.dossier_ids() == [D]


@pytest.mark.parametrize(
    ("where", "key", "value"),
    [
        ("experiments", "df", 40.0),  # a float where an integer (or "inf") is required
        ("groups", "split", "holdout"),  # outside its enumeration (2.6)
        ("epochs", "status", "sealed"),
        ("failure_observations", "causal_status", "probable"),
        ("experiments", "kind", "pilot"),
    ],
)
def test_an_archive_that_does_not_parse_is_refused_naming_the_path(
    where: str, key: str, value: Any
) -> None:
    arc = build().archive
    arc[where][0][key] = value
    with pytest.raises(ArchiveSchemaError) as err:
        parse_archive(arc)
    assert any(f"{where}[0].{key}" in p for p in err.value.problems), err.value.problems


# -- Domains the tables left open -------------------------------------------------------------


@pytest.mark.parametrize("alpha", [1.0, 0.0, 1.5, -0.05])
def test_family_alpha_outside_the_open_unit_interval_is_multiplicity_invalid(alpha: float) -> None:
    # "lower_rungs.family_alpha must lie in (0, 1), else G4_MULTIPLICITY_INVALID (F)."
    status, codes = gate(build([("ev!", "lower_rungs.family_alpha", alpha)]), "G4")
    assert status == "fail" and "G4_MULTIPLICITY_INVALID" in codes


def test_a_negative_standard_error_gives_no_bound() -> None:
    # "An experiment's standard_error must be >= 0; a negative one gives no bound
    # (G4_RESULT_MISSING, U)."
    v = build([("arc", "experiments[exp-r0].standard_error", -0.012)])
    assert gate(v, "G4") == ("unknown", {"G4_RESULT_MISSING"})


def test_grants_absent_is_missing_and_non_empty_is_scope_invalid() -> None:
    # "grants absent is G8_AUTHORIZATION_MISSING (U); present and non-empty is
    # G8_AUTHORIZATION_SCOPE_INVALID (F)."
    assert gate(build([("doc!", "authorization.grants", DELETE)]), "G8") == (
        "unknown",
        {"G8_AUTHORIZATION_MISSING"},
    )
    status, codes = gate(build([("doc!", "authorization.grants", ["spend"])]), "G8")
    assert status == "fail" and codes == {"G8_AUTHORIZATION_SCOPE_INVALID"}


def test_a_pool_group_of_zero_units_makes_the_claims_overstated() -> None:
    # "n_units of a pool group must be >= 1; a group of 0 units makes the claims over-stated
    # by 6.1 (G1_ESS_GROUPS_OVERCLAIMED, G1_ESS_OVERCLAIMED as they apply); G1_ESS_INVALID
    # stays reserved for the ICC."  pool-20 has its own component: G 19 -> 18, N 200 -> 190.
    v = build([("ev", "effective_sample.groups[pool-20].n_units", 0)])
    rec = check(v)
    g1 = rec.gates["G1"]
    assert g1.status.value == "fail"
    assert "G1_ESS_INVALID" not in g1.reason_codes
    assert {"G1_ESS_GROUPS_OVERCLAIMED", "G1_ESS_OVERCLAIMED"} <= set(g1.reason_codes)
    assert g1.metrics["independent_groups"] == 18
    assert g1.metrics["observation_units"] == 190


# -- G1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [DELETE, None, ""])
def test_an_absent_missingness_mechanism_is_not_the_supported_value(value: Any) -> None:
    # "An absent missingness.mechanism is 'not the supported value'
    # (G1_POWER_METHOD_UNSUPPORTED; G1_POWER_PARAMETER_MISSING may be reported too)."
    status, codes = gate(build([("ev", P + "missingness.mechanism", value)]), "G1")
    assert status == "unknown"
    assert "G1_POWER_METHOD_UNSUPPORTED" in codes
    assert codes <= {"G1_POWER_METHOD_UNSUPPORTED", "G1_POWER_PARAMETER_MISSING"}


@pytest.mark.parametrize("value", [DELETE, None, []])
def test_absent_hypotheses_are_a_missing_parameter(value: Any) -> None:
    # "Absent comparison_family.hypotheses is G1_POWER_PARAMETER_MISSING (K cannot be
    # counted; G1_POWER_PARAMETER_INVALID may be reported too)."
    _, codes = gate(build([("ev", P + "comparison_family.hypotheses", value)]), "G1")
    assert "G1_POWER_PARAMETER_MISSING" in codes
    assert codes <= {"G1_POWER_PARAMETER_MISSING", "G1_POWER_PARAMETER_INVALID"}


def test_a_sensitivity_range_excluding_its_base_is_not_simulated() -> None:
    # "A sensitivity range that excludes its base value makes the parameters invalid: the
    # corner is not simulated."
    rec = check(build([("ev", P + "sensitivity_range.icc", [0.1, 0.2])]))
    g1 = rec.gates["G1"]
    assert g1.status.value == "fail"
    assert "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE" in g1.reason_codes
    assert g1.metrics["power_worst_case"] is None


def test_an_unresolved_pool_group_alone_decides_and_nothing_is_computed() -> None:
    # "When a listed pool group_id does not resolve, G, DEFF and ESS are not computed
    # (G1_ESS_GROUP_UNRESOLVED alone decides)."
    v = build(
        [
            ("ev", "effective_sample.groups[pool-20].group_id", "pool-99"),
            ("ev", "effective_sample.claimed_independent_groups", 25),
        ]
    )
    rec = check(v)
    g1 = rec.gates["G1"]
    ess_codes = {c for c in g1.reason_codes if c.startswith("G1_ESS")}
    assert ess_codes == {"G1_ESS_GROUP_UNRESOLVED"}
    for name in ("independent_groups", "design_effect", "effective_sample_size"):
        assert g1.metrics[name] is None


def test_a_simulation_beyond_the_validator_limit_is_unknown_without_simulating() -> None:
    # "A simulation whose work n_sim x 2k exceeds 10^9 is beyond this validator:
    # G1_POWER_BEYOND_VALIDATOR_LIMIT (U), answered without simulating."
    v = build([("ev", P + "n_sim", 10**8)])
    rec = check(v)
    g1 = rec.gates["G1"]
    assert g1.status.value == "unknown"
    assert set(g1.reason_codes) == {"G1_POWER_BEYOND_VALIDATOR_LIMIT"}
    assert g1.metrics["power_base"] is None
    at_limit = build([("ev", P + "n_sim", 20000)])
    assert check(at_limit).gates["G1"].status.value == "pass"


# -- G3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["model_family", "executor_id"])
def test_an_observation_whose_class_cannot_be_named_does_not_qualify(key: str) -> None:
    # "An observation whose configuration lacks model_family or executor_id does not qualify
    # (its class cannot be named); if the thresholds are then unmet, G3 fails with the count
    # codes."  o2 is the only observation of cfg-2's class: without it one class remains.
    v = build([("arc", f"configurations[cfg-2].{key}", DELETE)])
    status, codes = gate(v, "G3")
    assert status == "fail"
    assert "G3_CONFIGURATIONS_LT_2" in codes
    assert all(not c.endswith("_MISSING") for c in codes)


def test_the_settled_dossier_still_passes_every_gate() -> None:
    rec = check(build())
    assert {g: r.status.value for g, r in rec.gates.items()} == dict.fromkeys(GATE_IDS, "pass")


def test_import_refusal_changes_nothing_in_a_workspace_with_a_revision(
    make_ws: Callable[..., Workspace],
) -> None:
    ws = make_ws()
    ws.import_dossier(build().dossier)
    ws.bind(D, 1, LEAD)
    before = ws.journal_entries()
    bad = build().dossier
    bad["revision"] = 2
    bad["spec"] = "SPEC-027"
    with pytest.raises(DossierSchemaError):
        ws.import_dossier(bad)
    assert ws.journal_entries() == before
    assert ws.revisions(D) == [1]
