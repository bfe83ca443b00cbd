"""A readiness dossier, archive and registry written from READINESS_DOSSIER.md section 2.

Nothing here comes from the project's demo data. The base dossier passes every
gate once :mod:`spec_fixture` has derived its digests, claims and bounds. It
deliberately puts the lower rungs on another effect scale than G1
(``absolute_success_rate`` with useful effect 0.05, while the preregistered minimum
useful effect is 0.7 total-SD units), as a real dossier would.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

NOW = datetime(2026, 12, 15, 12, 0, 0, tzinfo=UTC)

# Principals (1.4): one role each; "human maintainer" means role and kind human.
LEAD, LEAD2 = "lead-ana", "lead-ben"
EVAL, EVAL2 = "eval-cai", "eval-dan"
MAINT, DECIDER = "maint-eva", "maint-fei"
AGENT_MAINT, AGENT = "maint-bot", "agent-gil"

# The independence plan's five identities (G10) and the training side of 7.4.
TRAINING, PROVIDER, CANDIDATE, SEARCH, FINAL_EVAL = (
    "id-trainer",
    "id-provider",
    "id-candidate-author",
    "id-search-controller",
    "id-final-eval",
)

TOPICS = (
    "prospective_completeness",
    "independence",
    "contamination_controls",
    "licensing",
    "consent",
    "privacy",
    "statistical_power",
)
POOL = [f"pool-{i:02d}" for i in range(1, 21)]


def spec_digest(value: Any) -> str:
    """Spec 1.3, verbatim."""
    canonical = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")
    return "sha256:" + hashlib.sha256(canonical).hexdigest()


def label_digest(label: str) -> str:
    """A well-formed digest standing for a report or manifest that is not a real file."""
    return spec_digest({"stands_for": label})


def principals() -> list[dict[str, str]]:
    return [
        {"principal_id": LEAD, "role": "training_research_lead", "kind": "human"},
        {"principal_id": LEAD2, "role": "training_research_lead", "kind": "human"},
        {"principal_id": EVAL, "role": "independent_evaluator", "kind": "human"},
        {"principal_id": EVAL2, "role": "independent_evaluator", "kind": "human"},
        {"principal_id": MAINT, "role": "human_maintainer", "kind": "human"},
        {"principal_id": DECIDER, "role": "human_maintainer", "kind": "human"},
        {"principal_id": AGENT_MAINT, "role": "human_maintainer", "kind": "agent"},
        {"principal_id": AGENT, "role": "agent", "kind": "agent"},
    ]


def _group(
    gid: str, epoch: str, split: str, sources: list[str], templates: list[str]
) -> dict[str, Any]:
    return {
        "group_id": gid,
        "epoch_id": epoch,
        "split": split,
        "family_label": f"label-{gid}",
        "source_ids": sources,
        "template_ids": templates,
    }


def archive() -> dict[str, Any]:
    """ArchiveMetadata (2.6).

    * Pool: 20 hidden groups in ``ep-final``; pool-01 and pool-02 share a template, so
      they are one family (section 3): 19 components.
    * Development groups D1..D3b for recurrence; D3 and D3b share a source.
    * Training groups T1, T2 (clean), T3 (its item is in an exploit trace), LK (shares
      a source with pool-05: an evaluation family), cal-1 (calibration: hidden).
    """
    groups = [
        _group(
            g,
            "ep-final",
            "confirmatory_hidden",
            [f"src-{g}"],
            ["tpl-pool-shared" if g in ("pool-01", "pool-02") else f"tpl-{g}"],
        )
        for g in POOL
    ]
    groups += [
        _group("D1", "ep-a", "development", ["src-d1"], ["tpl-d1"]),
        _group("D2", "ep-a", "development", ["src-d2"], ["tpl-d2"]),
        _group("D3", "ep-b", "development", ["src-d3"], ["tpl-d3"]),
        _group("D3b", "ep-b", "development", ["src-d3"], ["tpl-d3b"]),
        _group("T1", "ep-a", "development", ["src-t1"], ["tpl-t1"]),
        _group("T2", "ep-b", "development", ["src-t2"], ["tpl-t2"]),
        _group("T3", "ep-b", "development", ["src-t3"], ["tpl-t3"]),
        _group("LK", "ep-b", "development", ["src-pool-05"], ["tpl-lk"]),
        _group("cal-1", "ep-b", "calibration", ["src-cal"], ["tpl-cal"]),
    ]
    items = [
        {"item_id": "it-t1", "group_id": "T1"},
        {"item_id": "it-t2", "group_id": "T2"},
        {"item_id": "it-t1b", "group_id": "T1"},
        {"item_id": "it-exploit", "group_id": "T3"},
        {"item_id": "it-leak", "group_id": "LK"},
        {"item_id": "it-cal", "group_id": "cal-1"},
        {"item_id": "it-pool", "group_id": "pool-07"},
        {"item_id": "it-orphan", "group_id": "group-not-in-archive"},
    ]
    epochs = [
        {
            "epoch_id": "ep-a",
            "status": "closed",
            "sealed": True,
            "manifest_digest": label_digest("manifest ep-a"),
            "preregistered_configurations": ["cfg-1", "cfg-1b", "cfg-2"],
        },
        {
            "epoch_id": "ep-b",
            "status": "closed",
            "sealed": True,
            "manifest_digest": label_digest("manifest ep-b"),
            "preregistered_configurations": ["cfg-1", "cfg-2"],
        },
        {
            "epoch_id": "ep-final",
            "status": "active",
            "sealed": True,
            "manifest_digest": label_digest("manifest ep-final"),
            "preregistered_configurations": ["cfg-1", "cfg-2"],
        },
        {
            "epoch_id": "ep-draft",
            "status": "draft",
            "sealed": False,
            "manifest_digest": label_digest("manifest ep-draft"),
            "preregistered_configurations": ["cfg-1", "cfg-2"],
        },
    ]
    configurations = [
        {
            "config_id": "cfg-1",
            "model_family": "fam-x",
            "model_id": "x-7b",
            "executor_id": "exec-1",
            "settings": {"temperature": 0.0},
        },
        {
            "config_id": "cfg-1b",
            "model_family": "fam-x",
            "model_id": "x-7b",
            "executor_id": "exec-1",
            "settings": {"temperature": 0.7, "seed": 3},
        },
        {
            "config_id": "cfg-2",
            "model_family": "fam-y",
            "model_id": "y-13b",
            "executor_id": "exec-2",
            "settings": {"temperature": 0.0},
        },
    ]

    def obs(
        oid: str,
        group: str,
        epoch: str,
        cfg: str,
        status: str = "confirmed",
        mechanism: str = "mech-ctx-drop",
    ) -> dict[str, Any]:
        return {
            "observation_id": oid,
            "mechanism_id": mechanism,
            "group_id": group,
            "epoch_id": epoch,
            "config_id": cfg,
            "causal_status": status,
        }

    observations = [
        obs("o1", "D1", "ep-a", "cfg-1"),
        obs("o2", "D2", "ep-a", "cfg-2"),
        obs("o3", "D3", "ep-b", "cfg-1"),
        obs("o4", "D1", "ep-b", "cfg-1"),  # family D1 again
        obs("o5", "D3", "ep-a", "cfg-1"),  # epoch ep-a again
        obs("o6", "D2", "ep-a", "cfg-1b"),  # cfg-1b: cfg-1's class, other settings
        obs("o7", "D3b", "ep-b", "cfg-2"),  # family of D3 (shared source)
        obs("o-suspected", "D2", "ep-b", "cfg-2", status="suspected"),
        obs("o-draft-epoch", "D2", "ep-draft", "cfg-2"),
        obs("o-unregistered", "D2", "ep-b", "cfg-1b"),  # cfg-1b not preregistered in ep-b
        obs("o-other-mech", "D2", "ep-b", "cfg-2", mechanism="mech-other"),
        obs("o-final", "pool-03", "ep-final", "cfg-2"),
    ]

    def exp(
        eid: str,
        rung: int,
        estimate: float,
        se: float,
        df: int | str,
        epoch: str = "ep-b",
        kind: str = "confirmatory",
    ) -> dict[str, Any]:
        return {
            "experiment_id": eid,
            "rung": rung,
            "kind": kind,
            "preregistered": True,
            "sealed": True,
            "epoch_id": epoch,
            "useful_effect": 0.05,
            "estimate": estimate,
            "standard_error": se,
            "df": df,
        }

    experiments = [
        exp("exp-r0", 0, 0.01, 0.012, 40),
        exp("exp-r1", 1, 0.0, 0.015, 60, epoch="ep-a"),
        exp("exp-r2", 2, 0.005, 0.01, "inf"),
        exp("exp-r6", 6, -0.01, 0.02, 30),
        exp("exp-r2-explore", 2, 0.0, 0.01, 40, kind="exploratory"),
        exp("exp-r2-final", 2, 0.0, 0.01, 40, epoch="ep-final"),
    ]
    return {
        "archive_snapshot_id": "snap-2026-12-10",
        "groups": groups,
        "items": items,
        "epochs": epochs,
        "configurations": configurations,
        "failure_observations": observations,
        "experiments": experiments,
        "exposure_ledger": [
            {"epoch_id": "ep-a", "execution_looks": 4, "disclosure_looks": 2},
            {"epoch_id": "ep-final", "execution_looks": 0, "disclosure_looks": 0},
        ],
        "feedback_atoms": [
            {
                "atom_id": "atom-art",
                "confirmed_effect_scope": "artifact",
                "classification": "factual_fix",
                "verbatim_ref": "feedback/atom-art.txt",
            },
            {
                "atom_id": "atom-skill",
                "confirmed_effect_scope": "skill",
                "classification": "style_correction",
                "verbatim_ref": "feedback/atom-skill.txt",
            },
        ],
        "exploit_traces": [
            {
                "trace_id": "trace-1",
                "epoch_id": "ep-b",
                "current_epoch": False,
                "item_ids": ["it-exploit"],
            }
        ],
    }


def _report(report_id: str) -> dict[str, Any]:
    return {
        "report_id": report_id,
        "topics": {t: {"covered": True, "finding_ref": f"findings/{t}.md"} for t in TOPICS},
    }


def _budget(amount: float, unit: str) -> dict[str, Any]:
    return {
        "amount": amount,
        "unit": unit,
        "approved": True,
        "approved_by": MAINT,
        "approved_at": "2026-12-05T10:00:00Z",
    }


def _rung_experiment(rung: int, experiment_id: str) -> dict[str, Any]:
    return {
        "rung": rung,
        "applicable": True,
        "basis": "confirmatory_experiment",
        "experiment": {"experiment_id": experiment_id, "claimed_upper_bound": None},
    }


def evidence() -> dict[str, Any]:
    """Evidence (2.2), the eighteen sections; no extension keys."""
    arc_epochs = {e["epoch_id"]: e for e in archive()["epochs"]}
    parameters = {
        "alpha": 0.05,
        "alternative": "greater",
        "comparison_family": {
            "family_id": "fam-confirmatory",
            "hypotheses": ["h-recall", "h-handoff"],
        },
        "multiplicity_method": "holm",
        "minimum_useful_effect": 0.7,
        "effect_scale": "standardized_total_sd",
        "clusters_per_arm": 8,
        "cluster_size": 10,
        "icc": 0.05,
        "cluster_attrition": 0.0,
        "missingness": {"mechanism": "MCAR", "rate": 0.0},
        "decision_rule": "reject_if_p_le_adjusted_alpha",
        "sensitivity_range": {
            "icc": [0.0, 0.1],
            "cluster_attrition": [0.0, 0.0],
            "missing_rate": [0.0, 0.0],
        },
        "seed": 2026,
        "n_sim": 4000,
    }
    return {
        "target_behavior": {
            "behavior_id": "beh-recall",
            "mechanism_id": "mech-ctx-drop",
            "description_ref": "behaviors/recall.md",
            "preregistered_minimum_useful_effect": 0.7,
            "effect_scale": "standardized_total_sd",
        },
        "evidence_cutoff": "2026-11-30T00:00:00Z",
        "epochs": {
            "archive_snapshot_id": "snap-2026-12-01",
            "evaluation_epochs": [
                {"epoch_id": e, "manifest_digest": arc_epochs[e]["manifest_digest"]}
                for e in ("ep-a", "ep-b", "ep-final")
            ],
        },
        "coverage": {
            "target_behavior_id": "beh-recall",
            "stages": [
                {
                    "stage": s,
                    "decision": "sufficient",
                    "report_ref": f"coverage/stage-{s}.md",
                    "report_digest": label_digest(f"stage {s}"),
                }
                for s in range(6)
            ],
            "stage6": {
                "can_evaluate_training_search": True,
                "report_ref": "coverage/stage-6.md",
                "report_digest": label_digest("stage 6"),
            },
        },
        "recurrence": {"mechanism_id": "mech-ctx-drop", "observation_ids": ["o1", "o2", "o3"]},
        "effective_sample": {
            "pool_epoch_id": "ep-final",
            "analysis_unit": "independent_group",
            "observation_unit": "task_outcome",
            "groups": [{"group_id": g, "n_units": 10} for g in POOL],
            "icc": 0.05,
            "icc_source_ref": "calibration/icc.md",
            # 6.1: components {pool-01, pool-02} = 20 and 18 x 10: G 19, N 200,
            # sum M^2 / sum M = 2200 / 200 = 11, DEFF = 1 + 10 * 0.05 = 1.5, ESS = 133.33.
            "claimed_independent_groups": 19,
            "claimed_design_effect": 1.5,
            "claimed_effective_sample_size": 133.3,
        },
        "power_analysis": {
            "method_id": "cluster_two_arm_mean_ttest/v1",
            "sealed": True,
            "sealed_at": "2026-12-02T09:00:00Z",
            "parameters": parameters,
            "simulation": {
                "code_ref": "power/cluster_ttest_v1.py",
                "code_digest": label_digest("power code v1"),
                "inputs_digest": None,
            },
            "preregistration": {
                "prereg_id": "prereg-7",
                "sealed_code_digest": label_digest("power code v1"),
                "sealed_inputs_digest": None,
            },
            "claimed": {"power_base": None, "power_worst_case": None},
        },
        "lower_rungs": {
            "family_id": "fam-rungs",
            "family_alpha": 0.05,
            "family_size": 4,
            "multiplicity_method": "holm",
            "useful_effect": 0.05,
            "effect_scale": "absolute_success_rate",
            "rungs": [
                _rung_experiment(0, "exp-r0"),
                _rung_experiment(1, "exp-r1"),
                _rung_experiment(2, "exp-r2"),
                {
                    "rung": 3,
                    "applicable": True,
                    "basis": "infeasibility_record",
                    "record": {
                        "record_id": "rec-3",
                        "kind": "infeasibility",
                        "status": "accepted",
                        "accepted_by": MAINT,
                        "accepted_at": "2026-12-03T10:00:00Z",
                        "reason_ref": "records/rung-3.md",
                    },
                },
                {
                    "rung": 4,
                    "applicable": True,
                    "basis": "cost_ceiling_record",
                    "record": {
                        "record_id": "rec-4",
                        "kind": "cost_ceiling",
                        "status": "accepted",
                        "accepted_by": MAINT,
                        "accepted_at": "2026-12-03T10:00:00Z",
                        "reason_ref": "records/rung-4.md",
                        "projected_cost": 5000.0,
                        "cost_ceiling": 2000.0,
                        "unit": "gpu_hours",
                    },
                },
                {
                    "rung": 5,
                    "applicable": False,
                    "basis": "not_applicable",
                    "not_applicable": {
                        "reason_ref": "records/rung-5.md",
                        "accepted_by": MAINT,
                        "accepted_at": "2026-12-03T10:00:00Z",
                    },
                },
                _rung_experiment(6, "exp-r6"),
            ],
        },
        "feasibility": {
            "source_corpus_report": _report("rep-source"),
            "dataset_feasibility_report": _report("rep-dataset"),
            "human_review": {
                "reviewer": MAINT,
                "decision": "approved",
                "reviewed_digest": None,
                "reviewed_at": "2026-12-04T10:00:00Z",
            },
            "materialized_dataset": False,
            "dataset_manifest_refs": [],
        },
        "decisions": {
            "consent": {
                "status": "supported",
                "decided_by": MAINT,
                "decided_at": "2026-12-04T11:00:00Z",
            },
            "privacy": {
                "status": "eligible",
                "decided_by": MAINT,
                "decided_at": "2026-12-04T11:00:00Z",
            },
        },
        "dataset_plan": {
            "cutoff": {"kind": "fixed", "at": "2027-03-01T00:00:00Z"},
            "grouping_rules": ["group", "source", "template"],
            "leakage_controls": {
                "split_unit": "graph_component",
                "exclude_hidden_splits": True,
                "exclude_exploit_traces": True,
            },
            "training_source_items": ["it-t1", "it-t2"],
            "private_feedback": {
                "use_scope": "artifact",
                "atom_ids": ["atom-art", "atom-skill"],
                "authorization_ref": "authorizations/feedback.md",
                "license": "feedback-terms-3",
                "retention_days": 90,
            },
            "creates_dataset": False,
        },
        "reward_plan": {
            "rewards": [
                {
                    "reward_id": "rw-outcome",
                    "components": [
                        {"kind": "verifiable_outcome", "evidence_ref": "checks/outcome.md"}
                    ],
                },
                {
                    "reward_id": "rw-preference",
                    "components": [
                        {
                            "kind": "calibrated_human_preference",
                            "calibration_ref": "calibration/pref.md",
                        },
                        {
                            "kind": "model_judge",
                            "calibrated": True,
                            "calibration_ref": "calibration/judge.md",
                        },
                    ],
                },
            ],
            "hard_integrity_constraints": ["no_test_tampering"],
        },
        "license": {
            "base_model_id": "base-7b",
            "license_id": "Apache-2.0",
            "intended_use": {"training": True, "redistribution": False},
        },
        "independence_plan": {
            "training_identity": TRAINING,
            "provider_identity": PROVIDER,
            "candidate_author_identity": CANDIDATE,
            "search_controller_identity": SEARCH,
            "final_evaluator_identity": FINAL_EVAL,
            "final_evaluation": {
                "epoch_id": "ep-final",
                "evaluator_inputs": ["candidate_checkpoint_ref", "evaluation_protocol"],
            },
        },
        "budgets": {
            "compute": _budget(1200, "gpu_hours"),
            "provider": _budget(0, "usd"),
            "privacy": _budget(1.0, "epsilon"),
            "checkpoint": _budget(40, "checkpoints"),
            "rollback": _budget(8, "hours"),
        },
        "rollback_requirements": {
            "prior_model_pinned": True,
            "checkpoints_immutable": True,
            "base_never_overwritten": True,
            "event_replayable_rollback": True,
            "canary_required": True,
        },
        "cost_envelope": {
            "mode": "non_spendable_dry_run",
            "dimensions": {
                "compute": {"worst_case": 1100, "ceiling": 1200, "unit": "gpu_hours"},
                "storage": {"worst_case": 2.5, "ceiling": 4, "unit": "tb"},
                "checkpoint": {"worst_case": 30, "ceiling": 40, "unit": "checkpoints"},
                "evaluation": {"worst_case": 90, "ceiling": 120, "unit": "gpu_hours"},
                "egress": {"worst_case": 0.2, "ceiling": 1, "unit": "tb"},
                "retry": {"worst_case": 3, "ceiling": 5, "unit": "attempts"},
            },
            "work_orders_created": [],
            "reservations_created": [],
            "spend_committed_micros": 0,
        },
        "expiry": {"expires_at": "2027-06-01T00:00:00Z"},
    }


def dossier() -> dict[str, Any]:
    """TrainingReadinessDossier (2.1), revision 1 in ``draft``, before its derived values."""
    return {
        "kind": "TrainingReadinessDossier",
        "schema_version": 1,
        "spec": "SPEC-026",
        "spec_revision": 1,
        "activation": "deferred",
        "dossier_id": "dossier-spec-1",
        "revision": 1,
        "supersedes": None,
        "state": "draft",
        "created_by": LEAD,
        "created_at": "2026-12-01T09:00:00Z",
        "evidence": evidence(),
        "binding": None,
        "authorization": {
            "principal_id": MAINT,
            "action": "propose_activation_amendment",
            "grants": [],
            "amendment_ref": "amendments/activation-r2.md",
            "amendment_digest": label_digest("amendment r2"),
            "evidence_digest": None,
            "issued_at": "2026-12-06T09:00:00Z",
        },
        "check": None,
    }
