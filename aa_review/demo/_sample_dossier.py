"""The synthetic passing dossier of the demo workspace and the golden test data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aa_review.core.dossier._gate_g2 import FEASIBILITY_TOPICS
from aa_review.demo._sample_archive import LEAD, POOL, SIGNER, h
from aa_review.demo._sample_seal import seal

__all__ = ["sample_dossier"]


def _topics(covered: bool = True) -> dict[str, Any]:
    return {t: {"covered": covered, "finding_ref": f"findings/{t}.md"} for t in FEASIBILITY_TOPICS}


def _budget(amount: float, unit: str) -> dict[str, Any]:
    return {
        "amount": amount,
        "unit": unit,
        "approved": True,
        "approved_by": SIGNER,
        "approved_at": "2026-02-18T10:00:00Z",
    }


def sample_dossier(
    archive: dict[str, Any],
    *,
    expires_at: str = "2026-06-01T00:00:00Z",
    source_packages: Sequence[dict[str, str]] = (),
) -> dict[str, Any]:
    """A dossier that passes all eleven gates against :func:`sample_archive` (before expiry).

    Its power claims are recomputed with the reference model, its rung bounds from
    the archive's experiments, and its review and authorization digests are sealed.
    """
    params = {
        "alpha": 0.05,
        "alternative": "greater",
        "comparison_family": {
            "family_id": "fam-confirm-2026",
            "hypotheses": ["h-primary-recall", "h-secondary-handoff"],
        },
        "multiplicity_method": "holm",
        "minimum_useful_effect": 0.7,
        "effect_scale": "standardized_total_sd",
        "clusters_per_arm": 12,
        "cluster_size": 10,
        "icc": 0.12,
        "cluster_attrition": 0.05,
        "missingness": {"mechanism": "MCAR", "rate": 0.1},
        "decision_rule": "reject_if_p_le_adjusted_alpha",
        "sensitivity_range": {
            "icc": [0.1, 0.15],
            "cluster_attrition": [0.0, 0.1],
            "missing_rate": [0.05, 0.15],
        },
        "seed": 20260215,
        "n_sim": 4000,
    }

    def rung_exp(r: int, eid: str, ucb: float) -> dict[str, Any]:
        return {
            "rung": r,
            "applicable": True,
            "basis": "confirmatory_experiment",
            "experiment": {"experiment_id": eid, "claimed_upper_bound": ucb},
        }

    evidence = {
        "target_behavior": {
            "behavior_id": "beh-long-horizon-recall",
            "mechanism_id": "mech-ctx-drop",
            "description_ref": "behaviors/long-horizon-recall.md",
            "preregistered_minimum_useful_effect": 0.7,
            "effect_scale": "standardized_total_sd",
        },
        "evidence_cutoff": "2026-02-15T00:00:00Z",
        "epochs": {
            "archive_snapshot_id": "snap-2026-02-20",
            "evaluation_epochs": [
                {"epoch_id": e["epoch_id"], "manifest_digest": e["manifest_digest"]}
                for e in archive["epochs"]
                if e["epoch_id"] != "ep-draft"
            ],
        },
        "coverage": {
            "target_behavior_id": "beh-long-horizon-recall",
            "stages": [
                {
                    "stage": s,
                    "decision": "sufficient",
                    "report_ref": f"coverage/stage-{s}.md",
                    "report_digest": h(f"stage-{s}"),
                }
                for s in range(6)
            ],
            "stage6": {
                "can_evaluate_training_search": True,
                "report_ref": "coverage/stage-6.md",
                "report_digest": h("stage-6"),
            },
        },
        "recurrence": {
            "mechanism_id": "mech-ctx-drop",
            "observation_ids": ["obs-1", "obs-2", "obs-3", "obs-4"],
        },
        "effective_sample": {
            "pool_epoch_id": "ep-2026",
            "analysis_unit": "independent_group",
            "observation_unit": "task_outcome",
            "groups": [{"group_id": g, "n_units": 10} for g in POOL],
            "icc": 0.1,
            "icc_source_ref": "calibration/icc-2025b.md",
            "claimed_independent_groups": 27,
            "claimed_design_effect": 1.98,
            "claimed_effective_sample_size": 141.0,
        },
        "power_analysis": {
            "method_id": "cluster_two_arm_mean_ttest/v1",
            "sealed": True,
            "sealed_at": "2026-02-16T09:00:00Z",
            "parameters": params,
            "simulation": {
                "code_ref": "power/cluster_ttest_v1.py",
                "code_digest": h("power-code-v1"),
                "inputs_digest": "",
            },
            "preregistration": {
                "prereg_id": "prereg-2026-007",
                "sealed_code_digest": h("power-code-v1"),
                "sealed_inputs_digest": "",
            },
            "claimed": {"power_base": 0.0, "power_worst_case": 0.0},
        },
        "lower_rungs": {
            "family_id": "fam-rungs-2025",
            "family_alpha": 0.05,
            "family_size": 4,
            "multiplicity_method": "holm",
            "useful_effect": 0.7,
            "effect_scale": "standardized_total_sd",
            "rungs": [
                rung_exp(0, "exp-r0", 0.0),
                rung_exp(1, "exp-r1", 0.0),
                rung_exp(2, "exp-r2", 0.0),
                {
                    "rung": 3,
                    "applicable": True,
                    "basis": "infeasibility_record",
                    "record": {
                        "record_id": "rec-3",
                        "kind": "infeasibility",
                        "status": "accepted",
                        "accepted_by": SIGNER,
                        "accepted_at": "2026-02-10T12:00:00Z",
                        "reason_ref": "records/rung3-infeasible.md",
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
                        "accepted_by": SIGNER,
                        "accepted_at": "2026-02-10T12:00:00Z",
                        "reason_ref": "records/rung4-cost.md",
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
                        "reason_ref": "records/rung5-na.md",
                        "accepted_by": SIGNER,
                        "accepted_at": "2026-02-10T12:00:00Z",
                    },
                },
                rung_exp(6, "exp-r6", 0.0),
            ],
        },
        "feasibility": {
            "source_corpus_report": {"report_id": "rep-source-1", "topics": _topics()},
            "dataset_feasibility_report": {"report_id": "rep-dataset-1", "topics": _topics()},
            "human_review": {
                "reviewer": SIGNER,
                "decision": "approved",
                "reviewed_digest": "",
                "reviewed_at": "2026-02-17T15:00:00Z",
            },
            "materialized_dataset": False,
            "dataset_manifest_refs": [],
        },
        "decisions": {
            "consent": {
                "status": "supported",
                "decided_by": SIGNER,
                "decided_at": "2026-02-17T16:00:00Z",
            },
            "privacy": {
                "status": "eligible",
                "decided_by": SIGNER,
                "decided_at": "2026-02-17T16:00:00Z",
            },
        },
        "dataset_plan": {
            "cutoff": {"kind": "fixed", "at": "2026-09-01T00:00:00Z"},
            "grouping_rules": ["group", "source", "template"],
            "leakage_controls": {
                "split_unit": "graph_component",
                "exclude_hidden_splits": True,
                "exclude_exploit_traces": True,
            },
            "training_source_items": ["item-t1-a", "item-t1-b", "item-t2-a"],
            "private_feedback": {
                "use_scope": "artifact",
                "atom_ids": ["atom-1", "atom-2"],
                "authorization_ref": "authorizations/feedback-2026-01.md",
                "license": "internal-feedback-terms-2",
                "retention_days": 180,
            },
            "creates_dataset": False,
        },
        "reward_plan": {
            "rewards": [
                {
                    "reward_id": "rw-task-success",
                    "components": [
                        {"kind": "verifiable_outcome", "evidence_ref": "checks/task-success.md"}
                    ],
                },
                {
                    "reward_id": "rw-handoff-quality",
                    "components": [
                        {
                            "kind": "calibrated_human_preference",
                            "calibration_ref": "calibration/pref-1.md",
                        },
                        {
                            "kind": "model_judge",
                            "calibrated": True,
                            "calibration_ref": "calibration/j-1.md",
                        },
                    ],
                },
            ],
            "hard_integrity_constraints": ["no_test_tampering", "no_hidden_split_access"],
        },
        "license": {
            "base_model_id": "base-model-7b",
            "license_id": "Apache-2.0",
            "intended_use": {"training": True, "redistribution": False},
        },
        "independence_plan": {
            "training_identity": "id-trainer-svc",
            "provider_identity": "id-provider-x",
            "candidate_author_identity": "id-candidate-author",
            "search_controller_identity": "id-search-controller",
            "final_evaluator_identity": "id-final-evaluator",
            "final_evaluation": {
                "epoch_id": "ep-2026",
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
                d: {"worst_case": w, "ceiling": c, "unit": u}
                for d, w, c, u in [
                    ("compute", 1100, 1200, "gpu_hours"),
                    ("storage", 2.5, 4, "tb"),
                    ("checkpoint", 30, 40, "checkpoints"),
                    ("evaluation", 90, 120, "gpu_hours"),
                    ("egress", 0.2, 1, "tb"),
                    ("retry", 3, 5, "attempts"),
                ]
            },
            "work_orders_created": [],
            "reservations_created": [],
            "spend_committed_micros": 0,
        },
        "expiry": {"expires_at": expires_at},
        "source_packages": [dict(p) for p in source_packages],
        "trajectory_count": 125000,
    }
    dossier = {
        "kind": "TrainingReadinessDossier",
        "schema_version": 1,
        "spec": "SPEC-026",
        "spec_revision": 1,
        "activation": "deferred",
        "dossier_id": "dos-7f3a9c",
        "revision": 1,
        "supersedes": None,
        "state": "draft",
        "created_by": LEAD,
        "created_at": "2026-02-20T00:00:00Z",
        "evidence": evidence,
        "binding": None,
        "authorization": {
            "principal_id": SIGNER,
            "action": "propose_activation_amendment",
            "grants": [],
            "amendment_ref": "amendments/spec-026-r2-draft.md",
            "amendment_digest": h("amendment-draft-1"),
            "evidence_digest": "",
            "issued_at": "2026-02-21T09:00:00Z",
        },
        "check": None,
    }
    seal(dossier, archive, reclaim=True)
    return dossier
