"""The synthetic passing dossier of the demo workspace and the golden test data.

:func:`sample_dossier` assembles the evidence from one builder per group of sections,
in the order the dossier lists them; each builder returns fresh dicts, so a caller
may edit the result without touching the next one. :func:`seal` then recomputes the
claims and links the digests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aa_review.core.dossier._gate_g2 import FEASIBILITY_TOPICS
from aa_review.demo._sample_archive import LEAD, POOL, SIGNER, h
from aa_review.demo._sample_seal import seal

__all__ = ["sample_dossier"]

BEHAVIOR, MECHANISM = "beh-long-horizon-recall", "mech-ctx-drop"
USEFUL_EFFECT, EFFECT_SCALE = 0.7, "standardized_total_sd"
POWER_CODE = "power-code-v1"  # the label of the sealed simulation code's stand-in digest
ACCEPTED_AT = "2026-02-10T12:00:00Z"  # when the maintainer accepted the rung records
DECIDED_AT = "2026-02-17T16:00:00Z"  # the consent and privacy decisions

# name: (amount, unit), in the order the dossier lists them.
BUDGETS: dict[str, tuple[float, str]] = {
    "compute": (1200, "gpu_hours"),
    "provider": (0, "usd"),
    "privacy": (1.0, "epsilon"),
    "checkpoint": (40, "checkpoints"),
    "rollback": (8, "hours"),
}
# dimension: (worst case, ceiling, unit) of the dry run's cost envelope.
COST_DIMENSIONS: dict[str, tuple[float, float, str]] = {
    "compute": (1100, 1200, "gpu_hours"),
    "storage": (2.5, 4, "tb"),
    "checkpoint": (30, 40, "checkpoints"),
    "evaluation": (90, 120, "gpu_hours"),
    "egress": (0.2, 1, "tb"),
    "retry": (3, 5, "attempts"),
}
# Rungs backed by a confirmatory experiment; their bounds are claimed by seal().
EXPERIMENT_RUNGS = {0: "exp-r0", 1: "exp-r1", 2: "exp-r2", 6: "exp-r6"}


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
    evidence = {
        **_target_and_coverage(archive),
        **_statistics(),
        "lower_rungs": _lower_rungs(),
        **_signoffs(),
        **_training_plan(),
        **_limits(),
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
            "evidence_digest": "",  # sealed last, over the final evidence
            "issued_at": "2026-02-21T09:00:00Z",
        },
        "check": None,
    }
    seal(dossier, archive, reclaim=True)
    return dossier


def _target_and_coverage(archive: dict[str, Any]) -> dict[str, Any]:
    """The behavior the training targets, the epochs evaluated and the coverage reports."""
    stage6 = {
        "can_evaluate_training_search": True,
        "report_ref": "coverage/stage-6.md",
        "report_digest": h("stage-6"),
    }
    return {
        "target_behavior": {
            "behavior_id": BEHAVIOR,
            "mechanism_id": MECHANISM,
            "description_ref": "behaviors/long-horizon-recall.md",
            "preregistered_minimum_useful_effect": USEFUL_EFFECT,
            "effect_scale": EFFECT_SCALE,
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
            "target_behavior_id": BEHAVIOR,
            "stages": [
                {
                    "stage": s,
                    "decision": "sufficient",
                    "report_ref": f"coverage/stage-{s}.md",
                    "report_digest": h(f"stage-{s}"),
                }
                for s in range(6)
            ],
            "stage6": stage6,
        },
        "recurrence": {
            "mechanism_id": MECHANISM,
            "observation_ids": ["obs-1", "obs-2", "obs-3", "obs-4"],
        },
    }


def _statistics() -> dict[str, Any]:
    """The effective sample of the hidden pool and the sealed power analysis.

    The digests left empty and the zero claims are filled in by :func:`seal`.
    """
    return {
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
            "parameters": _power_parameters(),
            "simulation": {
                "code_ref": "power/cluster_ttest_v1.py",
                "code_digest": h(POWER_CODE),
                "inputs_digest": "",
            },
            "preregistration": {
                "prereg_id": "prereg-2026-007",
                "sealed_code_digest": h(POWER_CODE),
                "sealed_inputs_digest": "",
            },
            "claimed": {"power_base": 0.0, "power_worst_case": 0.0},
        },
    }


def _power_parameters() -> dict[str, Any]:
    """The preregistered design the power claims are simulated from."""
    return {
        "alpha": 0.05,
        "alternative": "greater",
        "comparison_family": {
            "family_id": "fam-confirm-2026",
            "hypotheses": ["h-primary-recall", "h-secondary-handoff"],
        },
        "multiplicity_method": "holm",
        "minimum_useful_effect": USEFUL_EFFECT,
        "effect_scale": EFFECT_SCALE,
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


def _lower_rungs() -> dict[str, Any]:
    """Rungs 0-6: four experiments, an infeasibility and a cost-ceiling record, one n/a."""
    rungs = {r: _experiment_rung(r, eid) for r, eid in EXPERIMENT_RUNGS.items()}
    rungs[3] = _record_rung(3, "infeasibility", "records/rung3-infeasible.md")
    rungs[4] = _record_rung(4, "cost_ceiling", "records/rung4-cost.md")
    rungs[4]["record"] |= {"projected_cost": 5000.0, "cost_ceiling": 2000.0, "unit": "gpu_hours"}
    rungs[5] = {
        "rung": 5,
        "applicable": False,
        "basis": "not_applicable",
        "not_applicable": {
            "reason_ref": "records/rung5-na.md",
            "accepted_by": SIGNER,
            "accepted_at": ACCEPTED_AT,
        },
    }
    return {
        "family_id": "fam-rungs-2025",
        "family_alpha": 0.05,
        "family_size": 4,
        "multiplicity_method": "holm",
        "useful_effect": USEFUL_EFFECT,
        "effect_scale": EFFECT_SCALE,
        "rungs": [rungs[r] for r in sorted(rungs)],
    }


def _experiment_rung(rung: int, experiment_id: str) -> dict[str, Any]:
    return {
        "rung": rung,
        "applicable": True,
        "basis": "confirmatory_experiment",
        "experiment": {"experiment_id": experiment_id, "claimed_upper_bound": 0.0},
    }


def _record_rung(rung: int, kind: str, reason_ref: str) -> dict[str, Any]:
    return {
        "rung": rung,
        "applicable": True,
        "basis": f"{kind}_record",
        "record": {
            "record_id": f"rec-{rung}",
            "kind": kind,
            "status": "accepted",
            "accepted_by": SIGNER,
            "accepted_at": ACCEPTED_AT,
            "reason_ref": reason_ref,
        },
    }


def _signoffs() -> dict[str, Any]:
    """The feasibility reports with their human review, and the consent and privacy decisions.

    The review's digest is filled in by :func:`seal`.
    """
    return {
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
            "consent": {"status": "supported", "decided_by": SIGNER, "decided_at": DECIDED_AT},
            "privacy": {"status": "eligible", "decided_by": SIGNER, "decided_at": DECIDED_AT},
        },
    }


def _topics(covered: bool = True) -> dict[str, Any]:
    return {t: {"covered": covered, "finding_ref": f"findings/{t}.md"} for t in FEASIBILITY_TOPICS}


def _training_plan() -> dict[str, Any]:
    """What the training would use and who plays which part: data, rewards, license, roles."""
    return {
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
        "reward_plan": _reward_plan(),
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
    }


def _reward_plan() -> dict[str, Any]:
    success = {"kind": "verifiable_outcome", "evidence_ref": "checks/task-success.md"}
    preference = {"kind": "calibrated_human_preference", "calibration_ref": "calibration/pref-1.md"}
    judge = {"kind": "model_judge", "calibrated": True, "calibration_ref": "calibration/j-1.md"}
    return {
        "rewards": [
            {"reward_id": "rw-task-success", "components": [success]},
            {"reward_id": "rw-handoff-quality", "components": [preference, judge]},
        ],
        "hard_integrity_constraints": ["no_test_tampering", "no_hidden_split_access"],
    }


def _limits() -> dict[str, Any]:
    """The approved budgets, what a rollback needs, and the dry run's cost envelope."""
    return {
        "budgets": {name: _budget(amount, unit) for name, (amount, unit) in BUDGETS.items()},
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
                for d, (w, c, u) in COST_DIMENSIONS.items()
            },
            "work_orders_created": [],
            "reservations_created": [],
            "spend_committed_micros": 0,
        },
    }


def _budget(amount: float, unit: str) -> dict[str, Any]:
    return {
        "amount": amount,
        "unit": unit,
        "approved": True,
        "approved_by": SIGNER,
        "approved_at": "2026-02-18T10:00:00Z",
    }
