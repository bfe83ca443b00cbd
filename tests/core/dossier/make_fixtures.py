"""Regenerate tests/data/dossier/*.json: ``python tests/core/dossier/make_fixtures.py``.

The golden files are data; this script only documents how they were made.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from dossier_builder import (
    AGENT,
    AGENT_MAINTAINER,
    DATA,
    DECIDER,
    EVALUATOR,
    EVALUATOR2,
    LEAD,
    LEAD2,
    REDUCER_ID,
    SIGNER,
    relink_all,
)

from aa_review.core.dossier import json_digest, section_digests


def h(label: str) -> str:
    return "sha256:" + hashlib.sha256(label.encode()).hexdigest()


PRINCIPALS = {"principals": [
    {"principal_id": LEAD, "role": "training_research_lead", "kind": "human"},
    {"principal_id": LEAD2, "role": "training_research_lead", "kind": "human"},
    {"principal_id": EVALUATOR, "role": "independent_evaluator", "kind": "human"},
    {"principal_id": EVALUATOR2, "role": "independent_evaluator", "kind": "human"},
    {"principal_id": SIGNER, "role": "human_maintainer", "kind": "human"},
    {"principal_id": DECIDER, "role": "human_maintainer", "kind": "human"},
    {"principal_id": AGENT_MAINTAINER, "role": "human_maintainer", "kind": "agent"},
    {"principal_id": AGENT, "role": "agent", "kind": "agent"},
    {"principal_id": REDUCER_ID, "role": "system_reducer", "kind": "agent"},
]}

POOL = [f"pool-{i:02d}" for i in range(28)]


def group(gid: str, epoch: str, split: str, label: str, src: list[str], tpl: list[str]) -> dict:
    return {"group_id": gid, "epoch_id": epoch, "split": split, "family_label": label,
            "source_ids": src, "template_ids": tpl}


def make_archive() -> dict:
    groups = [group(g, "ep-2026", "confirmatory_hidden", f"fam-pool-{i}", [f"src-pool-{i}"],
                    ["tpl-pool-shared" if i < 2 else f"tpl-pool-{i}"]) for i, g in enumerate(POOL)]
    groups += [
        group("dev-a", "ep-2025a", "development", "fam-a", ["src-a"], ["tpl-a"]),
        group("dev-b", "ep-2025a", "development", "fam-b", ["src-b"], ["tpl-b"]),
        group("dev-c", "ep-2025b", "development", "fam-c", ["src-c"], ["tpl-c"]),
        group("dev-c2", "ep-2025b", "development", "fam-c-prime", ["src-c2"], ["tpl-c"]),
        group("dev-d", "ep-2025b", "development", "fam-d", ["src-d"], ["tpl-d"]),
        group("train-1", "ep-2025a", "development", "fam-t1", ["src-t1"], ["tpl-t1"]),
        group("train-2", "ep-2025b", "development", "fam-t2", ["src-t2"], ["tpl-t2"]),
        group("cal-1", "ep-2025b", "calibration", "fam-cal", ["src-cal"], ["tpl-cal"]),
        group("train-leak", "ep-2025b", "development", "fam-leak", ["src-pool-5"], ["tpl-leak"]),
    ]
    items = [{"item_id": f"item-{g}", "group_id": g} for g in POOL[:3]]
    items += [{"item_id": "item-t1-a", "group_id": "train-1"},
              {"item_id": "item-t1-b", "group_id": "train-1"},
              {"item_id": "item-t2-a", "group_id": "train-2"},
              {"item_id": "item-exploit", "group_id": "train-2"},
              {"item_id": "item-cal-1", "group_id": "cal-1"},
              {"item_id": "item-leak", "group_id": "train-leak"}]
    epochs = [
        {"epoch_id": "ep-2025a", "status": "closed", "sealed": True,
         "manifest_digest": h("ep-2025a"),
         "preregistered_configurations": ["cfg-a1", "cfg-a2", "cfg-b1"]},
        {"epoch_id": "ep-2025b", "status": "closed", "sealed": True,
         "manifest_digest": h("ep-2025b"),
         "preregistered_configurations": ["cfg-a1", "cfg-b1"]},
        {"epoch_id": "ep-2026", "status": "active", "sealed": True, "manifest_digest": h("ep-2026"),
         "preregistered_configurations": ["cfg-a1", "cfg-b1"]},
        {"epoch_id": "ep-draft", "status": "draft", "sealed": False, "manifest_digest": h("ep-d"),
         "preregistered_configurations": ["cfg-a1"]},
    ]
    configs = [
        {"config_id": "cfg-a1", "model_family": "fam-alpha", "model_id": "alpha-7b",
         "executor_id": "exec-1", "settings": {"temperature": 0.0}},
        {"config_id": "cfg-a2", "model_family": "fam-alpha", "model_id": "alpha-7b",
         "executor_id": "exec-1", "settings": {"temperature": 0.7}},
        {"config_id": "cfg-b1", "model_family": "fam-beta", "model_id": "beta-13b",
         "executor_id": "exec-2", "settings": {"temperature": 0.0}},
    ]

    def obs(oid: str, g: str, ep: str, cfg: str, status: str = "confirmed") -> dict:
        return {"observation_id": oid, "mechanism_id": "mech-ctx-drop", "group_id": g,
                "epoch_id": ep, "config_id": cfg, "causal_status": status}

    observations = [
        obs("obs-1", "dev-a", "ep-2025a", "cfg-a1"), obs("obs-2", "dev-b", "ep-2025a", "cfg-a2"),
        obs("obs-3", "dev-c", "ep-2025b", "cfg-b1"), obs("obs-4", "dev-d", "ep-2025b", "cfg-a1"),
        obs("obs-5", "dev-c2", "ep-2025b", "cfg-a1"),
        obs("obs-suspected", "dev-a", "ep-2025b", "cfg-b1", "suspected"),
        obs("obs-final", "pool-03", "ep-2026", "cfg-b1"),
    ]

    def exp(eid: str, rung: int, kind: str = "confirmatory", est: float = 0.1,
            se: float = 0.1, df: int | str = 30, epoch: str = "ep-2025b") -> dict:
        return {"experiment_id": eid, "rung": rung, "kind": kind, "preregistered": True,
                "sealed": True, "epoch_id": epoch, "useful_effect": 0.7, "estimate": est,
                "standard_error": se, "df": df}

    experiments = [exp("exp-r0", 0), exp("exp-r1", 1, est=0.05, se=0.08, df=60),
                   exp("exp-r2", 2, est=0.12, se=0.09, df="inf"), exp("exp-r6", 6, est=0.0),
                   exp("exp-explore-2", 2, kind="exploratory"),
                   exp("exp-r2-final", 2, epoch="ep-2026")]
    return {
        "archive_snapshot_id": "snap-2026-02-20",
        "groups": groups, "items": items, "epochs": epochs, "configurations": configs,
        "failure_observations": observations, "experiments": experiments,
        "exposure_ledger": [{"epoch_id": "ep-2025a", "execution_looks": 3, "disclosure_looks": 1},
                            {"epoch_id": "ep-2026", "execution_looks": 0, "disclosure_looks": 0}],
        "feedback_atoms": [
            {"atom_id": "atom-1", "confirmed_effect_scope": "skill",
             "classification": "style_correction", "verbatim_ref": "feedback/atom-1.txt"},
            {"atom_id": "atom-2", "confirmed_effect_scope": "artifact",
             "classification": "factual_fix", "verbatim_ref": "feedback/atom-2.txt"}],
        "exploit_traces": [{"trace_id": "trace-1", "epoch_id": "ep-2025a", "current_epoch": False,
                            "item_ids": ["item-exploit"]}],
    }


def topics(covered: bool = True) -> dict:
    names = ["prospective_completeness", "independence", "contamination_controls", "licensing",
             "consent", "privacy", "statistical_power"]
    return {t: {"covered": covered, "finding_ref": f"findings/{t}.md"} for t in names}


def budget(amount: float, unit: str) -> dict:
    return {"amount": amount, "unit": unit, "approved": True, "approved_by": SIGNER,
            "approved_at": "2026-02-18T10:00:00Z"}


def make_dossier(archive: dict) -> dict:
    params = {
        "alpha": 0.05, "alternative": "greater",
        "comparison_family": {"family_id": "fam-confirm-2026",
                              "hypotheses": ["h-primary-recall", "h-secondary-handoff"]},
        "multiplicity_method": "holm", "minimum_useful_effect": 0.7,
        "effect_scale": "standardized_total_sd", "clusters_per_arm": 12, "cluster_size": 10,
        "icc": 0.12, "cluster_attrition": 0.05, "missingness": {"mechanism": "MCAR", "rate": 0.1},
        "decision_rule": "reject_if_p_le_adjusted_alpha",
        "sensitivity_range": {"icc": [0.1, 0.15], "cluster_attrition": [0.0, 0.1],
                              "missing_rate": [0.05, 0.15]},
        "seed": 20260215, "n_sim": 4000,
    }

    def rung_exp(r: int, eid: str, ucb: float) -> dict:
        return {"rung": r, "applicable": True, "basis": "confirmatory_experiment",
                "experiment": {"experiment_id": eid, "claimed_upper_bound": ucb}}

    evidence = {
        "target_behavior": {"behavior_id": "beh-long-horizon-recall",
                            "mechanism_id": "mech-ctx-drop",
                            "description_ref": "behaviors/long-horizon-recall.md",
                            "preregistered_minimum_useful_effect": 0.7,
                            "effect_scale": "standardized_total_sd"},
        "evidence_cutoff": "2026-02-15T00:00:00Z",
        "epochs": {"archive_snapshot_id": "snap-2026-02-20", "evaluation_epochs": [
            {"epoch_id": e["epoch_id"], "manifest_digest": e["manifest_digest"]}
            for e in archive["epochs"] if e["epoch_id"] != "ep-draft"]},
        "coverage": {"target_behavior_id": "beh-long-horizon-recall",
                     "stages": [{"stage": s, "decision": "sufficient",
                                 "report_ref": f"coverage/stage-{s}.md",
                                 "report_digest": h(f"stage-{s}")} for s in range(6)],
                     "stage6": {"can_evaluate_training_search": True,
                                "report_ref": "coverage/stage-6.md",
                                "report_digest": h("stage-6")}},
        "recurrence": {"mechanism_id": "mech-ctx-drop",
                       "observation_ids": ["obs-1", "obs-2", "obs-3", "obs-4"]},
        "effective_sample": {"pool_epoch_id": "ep-2026", "analysis_unit": "independent_group",
                             "observation_unit": "task_outcome",
                             "groups": [{"group_id": g, "n_units": 10} for g in POOL],
                             "icc": 0.1, "icc_source_ref": "calibration/icc-2025b.md",
                             "claimed_independent_groups": 27, "claimed_design_effect": 1.98,
                             "claimed_effective_sample_size": 141.0},
        "power_analysis": {"method_id": "cluster_two_arm_mean_ttest/v1", "sealed": True,
                           "sealed_at": "2026-02-16T09:00:00Z", "parameters": params,
                           "simulation": {"code_ref": "power/cluster_ttest_v1.py",
                                          "code_digest": h("power-code-v1"), "inputs_digest": ""},
                           "preregistration": {"prereg_id": "prereg-2026-007",
                                               "sealed_code_digest": h("power-code-v1"),
                                               "sealed_inputs_digest": ""},
                           "claimed": {"power_base": 0.0, "power_worst_case": 0.0}},
        "lower_rungs": {
            "family_id": "fam-rungs-2025", "family_alpha": 0.05, "family_size": 4,
            "multiplicity_method": "holm", "useful_effect": 0.7,
            "effect_scale": "standardized_total_sd",
            "rungs": [
                rung_exp(0, "exp-r0", 0.0), rung_exp(1, "exp-r1", 0.0), rung_exp(2, "exp-r2", 0.0),
                {"rung": 3, "applicable": True, "basis": "infeasibility_record",
                 "record": {"record_id": "rec-3", "kind": "infeasibility", "status": "accepted",
                            "accepted_by": SIGNER, "accepted_at": "2026-02-10T12:00:00Z",
                            "reason_ref": "records/rung3-infeasible.md"}},
                {"rung": 4, "applicable": True, "basis": "cost_ceiling_record",
                 "record": {"record_id": "rec-4", "kind": "cost_ceiling", "status": "accepted",
                            "accepted_by": SIGNER, "accepted_at": "2026-02-10T12:00:00Z",
                            "reason_ref": "records/rung4-cost.md", "projected_cost": 5000.0,
                            "cost_ceiling": 2000.0, "unit": "gpu_hours"}},
                {"rung": 5, "applicable": False, "basis": "not_applicable",
                 "not_applicable": {"reason_ref": "records/rung5-na.md", "accepted_by": SIGNER,
                                    "accepted_at": "2026-02-10T12:00:00Z"}},
                rung_exp(6, "exp-r6", 0.0),
            ]},
        "feasibility": {
            "source_corpus_report": {"report_id": "rep-source-1", "topics": topics()},
            "dataset_feasibility_report": {"report_id": "rep-dataset-1", "topics": topics()},
            "human_review": {"reviewer": SIGNER, "decision": "approved", "reviewed_digest": "",
                             "reviewed_at": "2026-02-17T15:00:00Z"},
            "materialized_dataset": False, "dataset_manifest_refs": []},
        "decisions": {"consent": {"status": "supported", "decided_by": SIGNER,
                                  "decided_at": "2026-02-17T16:00:00Z"},
                      "privacy": {"status": "eligible", "decided_by": SIGNER,
                                  "decided_at": "2026-02-17T16:00:00Z"}},
        "dataset_plan": {
            "cutoff": {"kind": "fixed", "at": "2026-09-01T00:00:00Z"},
            "grouping_rules": ["group", "source", "template"],
            "leakage_controls": {"split_unit": "graph_component", "exclude_hidden_splits": True,
                                 "exclude_exploit_traces": True},
            "training_source_items": ["item-t1-a", "item-t1-b", "item-t2-a"],
            "private_feedback": {"use_scope": "artifact", "atom_ids": ["atom-1", "atom-2"],
                                 "authorization_ref": "authorizations/feedback-2026-01.md",
                                 "license": "internal-feedback-terms-2", "retention_days": 180},
            "creates_dataset": False},
        "reward_plan": {"rewards": [
            {"reward_id": "rw-task-success", "components": [
                {"kind": "verifiable_outcome", "evidence_ref": "checks/task-success.md"}]},
            {"reward_id": "rw-handoff-quality", "components": [
                {"kind": "calibrated_human_preference", "calibration_ref": "calibration/pref-1.md"},
                {"kind": "model_judge", "calibrated": True,
                 "calibration_ref": "calibration/j-1.md"}]}],
            "hard_integrity_constraints": ["no_test_tampering", "no_hidden_split_access"]},
        "license": {"base_model_id": "base-model-7b", "license_id": "Apache-2.0",
                    "intended_use": {"training": True, "redistribution": False}},
        "independence_plan": {
            "training_identity": "id-trainer-svc", "provider_identity": "id-provider-x",
            "candidate_author_identity": "id-candidate-author",
            "search_controller_identity": "id-search-controller",
            "final_evaluator_identity": "id-final-evaluator",
            "final_evaluation": {"epoch_id": "ep-2026",
                                 "evaluator_inputs": ["candidate_checkpoint_ref",
                                                      "evaluation_protocol"]}},
        "budgets": {"compute": budget(1200, "gpu_hours"), "provider": budget(0, "usd"),
                    "privacy": budget(1.0, "epsilon"), "checkpoint": budget(40, "checkpoints"),
                    "rollback": budget(8, "hours")},
        "rollback_requirements": {"prior_model_pinned": True, "checkpoints_immutable": True,
                                  "base_never_overwritten": True, "event_replayable_rollback": True,
                                  "canary_required": True},
        "cost_envelope": {"mode": "non_spendable_dry_run", "dimensions": {
            d: {"worst_case": w, "ceiling": c, "unit": u} for d, w, c, u in [
                ("compute", 1100, 1200, "gpu_hours"), ("storage", 2.5, 4, "tb"),
                ("checkpoint", 30, 40, "checkpoints"), ("evaluation", 90, 120, "gpu_hours"),
                ("egress", 0.2, 1, "tb"), ("retry", 3, 5, "attempts")]},
            "work_orders_created": [], "reservations_created": [], "spend_committed_micros": 0},
        "expiry": {"expires_at": "2026-06-01T00:00:00Z"},
        "source_packages": [],
        "trajectory_count": 125000,
    }
    dossier = {
        "kind": "TrainingReadinessDossier", "schema_version": 1, "spec": "SPEC-026",
        "spec_revision": 1, "activation": "deferred", "dossier_id": "dos-7f3a9c",
        "revision": 1, "supersedes": None, "state": "draft",
        "created_by": LEAD, "created_at": "2026-02-20T00:00:00Z",
        "evidence": evidence, "binding": None,
        "authorization": {"principal_id": SIGNER, "action": "propose_activation_amendment",
                          "grants": [], "amendment_ref": "amendments/spec-026-r2-draft.md",
                          "amendment_digest": h("amendment-draft-1"), "evidence_digest": "",
                          "issued_at": "2026-02-21T09:00:00Z"},
        "check": None,
    }
    relink_all(dossier, reclaim=True)
    return dossier


def bounds(dossier: dict) -> None:
    """Fill the claimed upper bounds from the archive's experiments (spec 6.6)."""
    from aa_review.core.stats import one_sided_upper_bound

    arch = {e["experiment_id"]: e for e in ARCHIVE["experiments"]}
    for entry in dossier["evidence"]["lower_rungs"]["rungs"]:
        if entry.get("basis") == "confirmatory_experiment":
            e = arch[entry["experiment"]["experiment_id"]]
            ucb = one_sided_upper_bound(e["estimate"], e["standard_error"], e["df"], 0.05, 4)
            entry["experiment"]["claimed_upper_bound"] = round(ucb, 5)


def write(name: str, tree: object) -> None:
    (DATA / name).write_text(json.dumps(tree, indent=2, ensure_ascii=False) + "\n", "utf-8")


ARCHIVE = make_archive()

if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    passing = make_dossier(ARCHIVE)
    bounds(passing)
    relink_all(passing)
    write("principals.json", PRINCIPALS)
    write("archive.json", ARCHIVE)
    write("dossier_passing.json", passing)

    bound = copy.deepcopy(passing)
    bound["state"] = "evidence_bound"
    bound["revision"] = 1
    bound["dossier_id"] = "dos-bound-2b71"
    bound["binding"] = {"evidence_digest": json_digest(bound["evidence"]),
                        "section_digests": section_digests(bound["evidence"]), "bound_by": LEAD2,
                        "bound_at": "2026-02-22T00:00:00Z"}
    write("dossier_evidence_bound.json", bound)

    contaminated = copy.deepcopy(passing)
    contaminated["dossier_id"] = "dos-contam-51e0"
    contaminated["evidence"]["dataset_plan"]["training_source_items"] += [
        "item-cal-1", "item-exploit", "item-leak"]
    relink_all(contaminated)
    write("dossier_failing_contaminated.json", contaminated)

    weak = copy.deepcopy(passing)
    weak["dossier_id"] = "dos-weak-0c44"
    weak["evidence"]["power_analysis"]["parameters"]["clusters_per_arm"] = 6
    relink_all(weak)  # claims now overstate the power of the smaller design
    write("dossier_failing_underpowered.json", weak)

    thin = copy.deepcopy(passing)
    thin["dossier_id"] = "dos-thin-9d12"
    for section in ("recurrence", "lower_rungs", "cost_envelope", "expiry"):
        del thin["evidence"][section]
    thin["authorization"] = None
    write("dossier_failing_missing.json", thin)
    print("fixtures written to", DATA)
