"""G2 feasibility and review, G3 recurrence, G4 lower-rung plateau: pass, fail, unknown."""

from __future__ import annotations

from typing import Any

import pytest
from dossier_builder import DELETE, DossierBuilder, archive, codes, passing, run_gate

from aa_review.core.dossier import GateStatus


def gate(gid: str, b: DossierBuilder, relink: bool = True, arch: Any = None):
    return run_gate(gid, b.build(relink=relink), arch)


def edit(path: str, value: Any) -> DossierBuilder:
    return DossierBuilder().set(f"evidence.{path}", value)


# -- G2 --------------------------------------------------------------------------------
def test_g2_passes() -> None:
    assert run_gate("G2", passing()).status is GateStatus.PASS


@pytest.mark.parametrize(
    ("path", "value", "status", "code"),
    [
        ("feasibility", None, "unknown", "G2_REPORT_MISSING"),
        ("feasibility.dataset_feasibility_report", None, "unknown", "G2_REPORT_MISSING"),
        ("feasibility.materialized_dataset", None, "unknown", "G2_REPORT_MISSING"),
        ("feasibility.source_corpus_report.topics.privacy", DELETE, "pass", None),
        ("feasibility.human_review", None, "unknown", "G2_REVIEW_MISSING"),
        (
            "feasibility.human_review.reviewer",
            "p-maint-bot",
            "fail",
            "G2_REVIEWER_NOT_HUMAN_MAINTAINER",
        ),
        (
            "feasibility.human_review.reviewer",
            "p-lead-ada",
            "fail",
            "G2_REVIEWER_NOT_HUMAN_MAINTAINER",
        ),
        (
            "feasibility.human_review.decision",
            "changes_requested",
            "fail",
            "G2_REVIEW_NOT_APPROVED",
        ),
        ("feasibility.materialized_dataset", True, "fail", "G2_DATASET_MATERIALIZED"),
        (
            "feasibility.dataset_manifest_refs",
            ["manifests/d1.json"],
            "fail",
            "G2_DATASET_MATERIALIZED",
        ),
        ("decisions.consent", None, "unknown", "G2_DECISION_MISSING"),
        ("decisions.privacy.status", None, "unknown", "G2_DECISION_MISSING"),
        ("decisions.consent.status", "unsupported", "fail", "G2_CONSENT_UNSUPPORTED"),
        ("decisions.privacy.status", "ineligible", "fail", "G2_PRIVACY_INELIGIBLE"),
        ("decisions.privacy.decided_by", "p-agent-gus", "fail", "G2_DECIDER_NOT_HUMAN_MAINTAINER"),
    ],
)
def test_g2(path: str, value: Any, status: str, code: str | None) -> None:
    r = gate("G2", edit(path, value))
    assert r.status.value == status, r.reason_codes
    if code:
        assert code in codes(r)


def test_g2_topics_missing_from_both_reports_or_not_covered() -> None:
    b = DossierBuilder()
    for rep in ("source_corpus_report", "dataset_feasibility_report"):
        b.delete(f"evidence.feasibility.{rep}.topics.licensing")
        b.evidence(f"feasibility.{rep}.topics.consent.covered", False)
    r = gate("G2", b)
    assert r.status is GateStatus.FAIL
    assert {"G2_TOPIC_MISSING", "G2_TOPIC_NOT_COVERED"} <= codes(r)
    assert r.detail["topics_missing"] == ["licensing"]
    assert r.detail["topics_not_covered"] == ["consent"]
    # Covered in one report is enough.
    one = DossierBuilder().evidence(
        "feasibility.source_corpus_report.topics.consent.covered", False
    )
    assert gate("G2", one).status is GateStatus.PASS


def test_g2_review_must_cover_the_reports_as_they_are() -> None:
    b = edit("feasibility.source_corpus_report.report_id", "rep-source-2")
    assert "G2_REVIEW_DIGEST_MISMATCH" in codes(gate("G2", b, relink=False))
    assert gate("G2", b, relink=True).status is GateStatus.PASS


# -- G3 --------------------------------------------------------------------------------
def test_g3_passes_with_counts() -> None:
    r = run_gate("G3", passing())
    assert r.status is GateStatus.PASS
    assert r.metrics == {"families": 4, "epochs": 2, "configuration_classes": 2}


@pytest.mark.parametrize(
    ("path", "value", "status", "code"),
    [
        ("recurrence", None, "unknown", "G3_RECURRENCE_MISSING"),
        ("recurrence.observation_ids", [], "unknown", "G3_RECURRENCE_MISSING"),
        ("recurrence.mechanism_id", None, "unknown", "G3_RECURRENCE_MISSING"),
        ("recurrence.mechanism_id", "mech-other", "fail", "G3_MECHANISM_MISMATCH"),
        (
            "recurrence.observation_ids",
            ["obs-1", "obs-2", "obs-3", "obs-4", "obs-999"],
            "fail",
            "G3_OBSERVATION_UNRESOLVED",
        ),
        ("recurrence.observation_ids", ["obs-1", "obs-3", "obs-4"], "pass", None),
        ("recurrence.observation_ids", ["obs-3", "obs-4", "obs-5"], "fail", "G3_EPOCHS_LT_2"),
        ("recurrence.observation_ids", ["obs-1", "obs-2", "obs-3"], "pass", None),
        ("recurrence.observation_ids", ["obs-1", "obs-3"], "fail", "G3_FAMILIES_LT_3"),
        # obs-1 and obs-2 differ only in temperature: one configuration class, plus obs-4.
        (
            "recurrence.observation_ids",
            ["obs-1", "obs-2", "obs-4", "obs-5"],
            "fail",
            "G3_CONFIGURATIONS_LT_2",
        ),
    ],
)
def test_g3(path: str, value: Any, status: str, code: str | None) -> None:
    r = gate("G3", edit(path, value))
    assert r.status.value == status, r.reason_codes
    if code:
        assert code in codes(r)


def test_g3_non_qualifying_observations_are_ignored_not_failures() -> None:
    # obs-5's group shares a template with obs-3's: the same family.
    b = edit("recurrence.observation_ids", ["obs-3", "obs-5", "obs-suspected", "obs-1", "obs-4"])
    r = gate("G3", b)
    assert r.status is GateStatus.PASS
    assert r.metrics["families"] == 3
    assert "obs-suspected" in r.detail["ignored_observations"]


def test_g3_unsealed_epoch_or_unregistered_configuration_does_not_qualify() -> None:
    arch = archive()
    for e in arch["epochs"]:
        if e["epoch_id"] == "ep-2025b":
            e["preregistered_configurations"] = ["cfg-a1"]  # cfg-b1 of obs-3 no longer counts
    r = gate("G3", DossierBuilder(), arch=arch)
    # obs-3 drops out; obs-1, obs-2 and obs-4 all run fam-alpha on exec-1.
    assert r.metrics == {"families": 3, "epochs": 2, "configuration_classes": 1}
    assert codes(r) == {"G3_CONFIGURATIONS_LT_2"}
    arch2 = archive()
    arch2["epochs"][1]["sealed"] = False  # ep-2025b
    r2 = gate("G3", DossierBuilder(), arch=arch2)
    assert "G3_EPOCHS_LT_2" in codes(r2)


# -- G4 --------------------------------------------------------------------------------
R = "lower_rungs."


def test_g4_passes_with_bonferroni_bounds() -> None:
    r = run_gate("G4", passing())
    assert r.status is GateStatus.PASS
    assert set(r.metrics["upper_bounds"]) == {"0", "1", "2", "6"}
    assert all(v < 0.7 for v in r.metrics["upper_bounds"].values())


@pytest.mark.parametrize(
    ("path", "value", "status", "code"),
    [
        ("lower_rungs", None, "unknown", "G4_PLATEAU_MISSING"),
        (R + "rungs", None, "unknown", "G4_PLATEAU_MISSING"),
        (R + "family_alpha", None, "unknown", "G4_PLATEAU_MISSING"),
        (R + "rungs.6", DELETE, "unknown", "G4_RUNGS_MISSING"),
        (R + "rungs.3.rung", 2, "unknown", "G4_RUNGS_MISSING"),
        (R + "rungs.3.applicable", None, "unknown", "G4_RUNGS_MISSING"),
        (R + "rungs.0.experiment.claimed_upper_bound", None, "unknown", "G4_RESULT_MISSING"),
        (R + "rungs.3.record.reason_ref", None, "unknown", "G4_RECORD_MISSING"),
        (R + "rungs.4.record.projected_cost", None, "unknown", "G4_RECORD_MISSING"),
        (R + "multiplicity_method", "sidak", "fail", "G4_MULTIPLICITY_INVALID"),
        (R + "family_size", 3, "fail", "G4_FAMILY_SIZE_UNDERSTATED"),
        (R + "rungs.0.experiment.experiment_id", "exp-404", "fail", "G4_EXPERIMENT_UNRESOLVED"),
        (R + "rungs.1.experiment.experiment_id", "exp-r0", "fail", "G4_EXPERIMENT_UNRESOLVED"),
        (
            R + "rungs.2.experiment.experiment_id",
            "exp-explore-2",
            "fail",
            "G4_EXPLORATORY_NOT_PLATEAU",
        ),
        (
            R + "rungs.2",
            {"rung": 2, "applicable": True, "basis": "exploratory_search"},
            "fail",
            "G4_EXPLORATORY_NOT_PLATEAU",
        ),
        (R + "useful_effect", 0.6, "fail", "G4_USEFUL_EFFECT_MISMATCH"),
        (R + "rungs.0.experiment.claimed_upper_bound", 0.2, "fail", "G4_UCB_MISMATCH"),
        (R + "rungs.3.record.status", "proposed", "fail", "G4_RECORD_NOT_ACCEPTED"),
        (R + "rungs.3.record.accepted_by", "p-maint-bot", "fail", "G4_RECORD_NOT_ACCEPTED"),
        (R + "rungs.4.record.projected_cost", 1500.0, "fail", "G4_COST_CEILING_NOT_EXCEEDED"),
        (
            R + "rungs.5.not_applicable.accepted_by",
            "p-lead-ada",
            "fail",
            "G4_NOT_APPLICABLE_UNACCEPTED",
        ),
        (R + "rungs.5.not_applicable.reason_ref", "", "fail", "G4_NOT_APPLICABLE_UNACCEPTED"),
        (R + "rungs.5.basis", "infeasibility_record", "fail", "G4_NOT_APPLICABLE_UNACCEPTED"),
        (R + "rungs.3.basis", "not_applicable", "fail", "G4_BASIS_INVALID"),
        (R + "rungs.3.basis", "vibes", "fail", "G4_BASIS_INVALID"),
    ],
)
def test_g4(path: str, value: Any, status: str, code: str) -> None:
    r = gate("G4", edit(path, value))
    assert r.status.value == status, r.reason_codes
    assert code in codes(r)


def test_g4_archive_facts_override_the_dossier() -> None:
    arch = archive()
    for e in arch["experiments"]:
        if e["experiment_id"] == "exp-r1":
            e["preregistered"] = False
        if e["experiment_id"] == "exp-r6":
            e["estimate"] = 0.6  # UCB now above the useful effect
    r = gate("G4", DossierBuilder(), arch=arch)
    assert {"G4_NOT_PREREGISTERED", "G4_UCB_NOT_BELOW_USEFUL_EFFECT"} <= codes(r)
    assert r.metrics["upper_bounds"]["6"] > 0.7
    arch2 = archive()
    del arch2["experiments"][0]["standard_error"]
    assert "G4_RESULT_MISSING" in codes(gate("G4", DossierBuilder(), arch=arch2))


def test_g4_record_accepted_by_the_author_is_not_accepted() -> None:
    b = DossierBuilder().set("created_by", "p-maint-eve")  # author accepted their own record
    assert "G4_RECORD_NOT_ACCEPTED" in codes(gate("G4", b))


@pytest.mark.parametrize("method", ["none", "bonferroni"])
def test_g4_a_family_of_any_listed_method_is_judged_by_its_bounds_at_k_star(method: str) -> None:
    # 2.2: multiplicity_method "holm"|"bonferroni"|"none", with no condition (unlike
    # PowerParameters' "none only if K = 1"); 6.6: K* = max(family_size, confirmatory
    # entries, 1) and UCB = estimate + q * SE, q = t_df(1 - family_alpha / K*), for
    # every family. A plateau the bounds show passes whatever the method is called.
    holm = run_gate("G4", passing())
    tree = passing()
    assert tree["evidence"]["lower_rungs"]["family_size"] > 1  # K* > 1
    tree["evidence"]["lower_rungs"]["multiplicity_method"] = method
    r = run_gate("G4", tree)
    assert r.status is GateStatus.PASS, r.reason_codes
    assert r.metrics["upper_bounds"] == holm.metrics["upper_bounds"]


def test_g4_larger_family_widens_the_bounds() -> None:
    base = run_gate("G4", passing()).metrics["upper_bounds"]["0"]
    wide = gate("G4", edit(R + "family_size", 20)).metrics["upper_bounds"]["0"]
    assert wide > base
