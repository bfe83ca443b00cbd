"""Indexes and optimized-task reports: learning objects, training-time manifest, reports/."""

from __future__ import annotations

import shutil

from ._ctx import Ctx
from ._evidence import Evidence
from ._source import rubric_items

__all__ = ["write_indexes", "AUDIT_FIELDS", "TRAINING_USES"]

EC = "experience_compiler/"
TRAINING_USES = [
    "sft",
    "lora_ready_instruction_tuning",
    "process_supervision",
    "training_examples",
    "evaluation_examples",
    "verifier_examples",
    "reward_model_rows",
    "preference_pairs",
    "critique_revision_pairs",
    "failure_cases",
    "task_variants",
    "agentic_rl_rollouts",
    "grpo_rollout_material",
    "environment_response_pairs",
    "loop_learning",
    "contract_verification",
    "environment_state_transition_learning",
]
AUDIT_FIELDS = {
    "source_task_spec_mentor_audited": False,
    "source_task_spec_audit_source": None,
    "source_task_spec_audit_status": "unaudited",
    "source_rubric_mentor_audited": False,
    "source_rubric_audit_source": None,
    "source_rubric_audit_status": "unaudited",
}


def write_indexes(
    ctx: Ctx, ev: Evidence, rows_by_type: dict[str, int], by_file: dict[str, int], rounds: int
) -> None:
    pkg = ctx.pkg
    ctx.write_json(
        EC + "learning_objects_index.json",
        {
            "source_package_id": pkg,
            "learning_objects": [
                {"kind": "skill_pack", "path": EC + "skill_pack/skill.md"},
                {
                    "kind": "runtime_learning_package",
                    "path": EC + "runtime_learning_package/runtime_learning_manifest.json",
                },
                {
                    "kind": "training_time_package",
                    "path": EC + "training_time_package/training_time_manifest.json",
                },
                {"kind": "environment", "path": EC + "environment/environment_spec.json"},
                {"kind": "loop_learning", "path": EC + "loop_learning/loop_review_rows.jsonl"},
                {"kind": "reports", "path": EC + "compiler_report.json"},
            ],
            "rows_by_type": rows_by_type,
        },
    )
    ctx.write_json(
        EC + "training_time_package/training_time_manifest.json",
        {
            "source_package_id": pkg,
            "training_uses": TRAINING_USES,
            "supported_training_uses": [
                "sft",
                "lora_ready_instruction_tuning",
                "rl",
                "grpo",
                "agentic_rollouts",
                "reward_modeling",
                "preference_learning",
                "verifier_training",
                "process_supervision",
                "distillation",
                "eval_generation",
                "environment_model_training",
            ],
            "row_counts": rows_by_type,
            "row_counts_by_file": by_file,
            "schema_version": ctx.v.row,
            "source_evidence_map_ref": EC + "source_evidence_map.json",
            "no_model_training_claimed": True,
        },
    )
    ctx.write_json(
        EC + "experience_pack/experience_pack_manifest.json",
        {
            "pack_type": "experience_pack",
            "source_package_id": pkg,
            "skill_pack_ref": EC + "skill_pack/skill.md",
            "runtime_learning_package_ref": EC
            + "runtime_learning_package/runtime_learning_manifest.json",
            "training_time_package_ref": EC + "training_time_package/training_time_manifest.json",
        },
    )
    _write_optimized(ctx, ev, rounds)


def _write_optimized(ctx: Ctx, ev: Evidence, rounds: int) -> None:
    sc = ctx.sc
    spec = {
        "source_task_id": sc.task_id,
        "source_package_id": ctx.pkg,
        "optimized_title": sc.title,
        "optimized_instruction": sc.instruction,
        "domain": sc.domain,
        "subdomain": sc.subdomain,
        "role": sc.role,
        "expected_deliverables": sc.deliverables,
        "constraints": ["do not edit input files", "amounts in USD with two decimals"],
        "required_inputs": sc.inputs,
        "success_criteria": [c.description for c in sc.criteria],
        "failure_modes": sc.baseline_failed,
        "expected_economic_value": "medium",
        "expected_economic_value_rationale": (
            "Derived from task metadata, deliverables, trace size and evaluation evidence."
        ),
        "training_use_cases": [
            "supervised_finetuning_rows",
            "verifier_training",
            "reward_modeling",
            "preference_optimization",
        ],
        "generated_by": "Experience Compiler",
        "apprenticeship_mode": "autonomous",
        "compiler_round": rounds,
        "tdo_round": rounds,
        "weak_strong_proxy_available": True,
        **AUDIT_FIELDS,
        "evidence_refs": ev.evidence_refs,
    }
    rubric = {
        "source_task_id": sc.task_id,
        "source_package_id": ctx.pkg,
        "tdo_round": rounds,
        "rubric_items": rubric_items(sc),
        "verifier_checks": [
            "actual_outputs.json parses and points to generated artifacts",
            "artifact refs resolve inside the package",
            "trace steps support the claimed output",
            "grader, verifier and evaluator evidence agree",
        ],
        "scoring_guidance": (
            "Score from artifact, trace, grader, verifier and evaluator evidence; "
            "never reward a looser rubric."
        ),
        "failure_criteria": sc.baseline_failed,
        "artifact_checks": sc.deliverables,
        "environment_response_checks": [
            "environment response rows must mirror observed trace steps"
        ],
        "reward_modeling_notes": "Use score and verifier evidence plus the weak/strong proxy.",
        "evaluator_notes": (
            "Add exception labels and produce vendor_totals.csv from the converted amounts."
        ),
        **AUDIT_FIELDS,
        "evidence_refs": ev.evidence_refs,
    }
    profile = {
        "domain": sc.domain,
        "subdomain": sc.subdomain,
        "role": sc.role,
        "apprenticeship_mode": None,
        "economic_value_category": "high",
        "expected_economic_value": "medium",
        "value_drivers": [
            "specialized workflow",
            "artifact creation",
            "verifiable outputs",
            "reusable trace evidence",
        ],
        "risk_level": "medium",
        "specialization_level": "high",
        "automation_potential": "high",
        "training_value": "high",
        "evaluation_value": "high",
        "verifier_value": "high",
        "evidence_refs": ev.evidence_refs,
    }
    for d in ("tdo/", EC + "reports/"):
        ctx.write_json(d + "optimized_task_spec.json", spec)
        ctx.write_json(d + "optimized_rubric.json", rubric)
        ctx.write_json(d + "domain_value_profile.json", profile)
    ctx.write_text(
        EC + "reports/generation_notes.md",
        "# Generation Notes\n\nAccepted rows stay grounded in "
        "package evidence.\nUnsupported candidates are omitted or kept in rejected row data.\n",
    )
    if not ctx.v02:  # the 0.2.1 copy bug (format 12.1) is not in 0.1.x, which wrote the recipe
        shutil.copyfile(ctx.path("tdo/tdo_recipe.json"), ctx.path(EC + "compiler_recipe.json"))
        shutil.copyfile(
            ctx.path("tdo/tdo_recipe.json"), ctx.path(EC + "reports/compiler_recipe.json")
        )
