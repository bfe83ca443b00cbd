"""Compiler manifest and report, quality report, tdo manifest and recipe (format 3.1, 3.2, 4.6)."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive

from ._counts import Counts
from ._ctx import Ctx
from ._evidence import Evidence
from ._indexes import AUDIT_FIELDS, TRAINING_USES, write_indexes
from ._rows_common import ROW_TYPES, SURFACE_TYPES, Scores, file_of

__all__ = ["write_reports", "COMPILE_T"]

EC = "experience_compiler/"
COMPILE_T = 7259.989885
_AUDIT = AUDIT_FIELDS


def _with_zeros(d: dict[str, int]) -> dict[str, int]:
    out = dict(d)
    for t in SURFACE_TYPES:
        out.setdefault(t, 0)
    return out


def _report(
    ctx: Ctx,
    counts: Counts,
    rows_by_type: dict[str, int],
    rounds: int,
    tdo_id: str,
    created: str,
    verdict_info: dict[str, Any],
) -> dict[str, Any]:
    sc = ctx.sc
    s = Scores(rounds)
    genuine = len(counts.dup_steps)
    rejected: dict[str, int] = {"multimodal_artifact": rounds * genuine} if genuine else {}
    for t, n in rows_by_type.items():
        if n:
            rejected[t] = rejected.get(t, 0) + (rounds - 1) * n
    gap = round(sc.revised_score - sc.baseline_score, 4)
    total = sum(rows_by_type.values())
    return {
        "tdo_id": tdo_id,
        "source_package_id": ctx.pkg,
        "source_task_id": sc.task_id,
        "created_at": created,
        "generator_mode": "codex",
        "tdo_judge_source": "apprentice_self_judge",
        "mentor_audited": False,
        "rounds_run": rounds,
        "stop_reason": "max_rounds_reached",
        "tdo_status": "completed",
        "rows_generated_by_type": _with_zeros({t: n * rounds for t, n in counts.generated.items()}),
        "rows_accepted_by_type": rows_by_type,
        "rows_rejected_by_type": _with_zeros(rejected),
        "average_quality_score": round(s.quality, 4),
        "average_fidelity_score": round(s.fidelity, 4),
        "average_difficulty_score": round(s.difficulty, 4),
        "average_learnability_score": round(s.learnability, 4),
        "average_reuse_value_score": round(s.reuse, 4),
        "schema_validation_passed": True,
        "sanitization_passed": True,
        "weak_strong_proxy_available": True,
        "average_solver_gap_proxy": gap,
        "grpo_suitability_distribution": {
            "high" if gap >= 0.2 else "medium" if gap > 0.05 else "low": total
        },
        "omitted_outputs": [],
        "not_generated_counts": {},
        "generation_notes": ["judge_source=apprentice_self_judge"],
        "recommended_uses": [
            "training_examples",
            "evaluation_examples",
            "verifier_training",
            "reward_modeling",
            "preference_optimization",
            "environment_response_training",
        ],
        "metadata_json": {
            "apprenticeship_mode": "autonomous",
            "record_only_followup_update": False,
            "followup_index": None,
            "follow_up_record_count": 0,
            "self_judge_generation_notes": ["recommended_future_mentor_audit"],
            "recommended_future_mentor_audit": True,
            "structural_guardrails": [
                "schema",
                "paths",
                "references",
                "secrets",
                "public-package hygiene",
            ],
            **_AUDIT,
        },
    }


def write_reports(
    ctx: Ctx,
    ev: Evidence,
    counts: Counts,
    by_file: dict[str, int],
    coverage: dict[str, int],
    rounds: int,
    verdict_info: dict[str, Any],
    hooks_apply: Any,
    lean: bool = False,
) -> None:
    """Write manifests and reports; ``hooks_apply(name, value)`` lets defects miscount.

    ``lean`` writes the compiler manifest and report and the quality report only.
    """
    sc, pkg = ctx.sc, ctx.pkg
    created = ctx.clock.at(COMPILE_T)
    tdo_id = f"tdo_{derive.safe_id(pkg)}_{ctx.clock.stamp(COMPILE_T + 1)}"
    compiler_id = tdo_id.replace("tdo_", "compiler_", 1)
    # first-seen order from the plan, counts as written (a duplicated row counts twice)
    rows_by_type = {t: by_file[file_of(t)] for t in counts.rows_by_type}
    rows_by_type = {t: n for t, n in rows_by_type.items() if n or t in SURFACE_TYPES}
    report = _report(ctx, counts, rows_by_type, rounds, tdo_id, created, verdict_info)
    if not lean:
        ctx.write_json("tdo/tdo_report.json", report)
    renames = {
        "tdo_id": "compiler_id",
        "tdo_status": "compiler_status",
        "tdo_judge_source": "judge_source",
    }
    creport = {renames.get(k, k): v for k, v in report.items()}  # format 12.2: the id keeps tdo_
    creport.update(
        {
            "public_feature_name": "Experience Compiler",
            "description": (
                "The Experience Compiler turns finished agent workflows into runtime "
                "learning material and training data."
            ),
            "apprenticeship_mode": "autonomous",
        }
    )
    ctx.write_json(EC + "compiler_report.json", creport)
    out_refs = [
        EC + "compiler_manifest.json",
        EC + "compiler_report.json",
        EC + "compiler_trace.jsonl",
        EC + "compiler_rounds.jsonl",
        EC + "compiler_recipe.json",
        EC + "compiler_judge_results.jsonl",
        EC + "learning_objects_index.json",
        EC + "skill_pack/skill.md",
    ]
    manifest: dict[str, Any] = {
        "schema_version": ctx.v.compiler,
        "training_row_schema_version": ctx.v.row,
        "source_evidence_map_schema_version": ctx.v.evidence_map,
        "package_version": ctx.v.package,
        "compiler_version": ctx.v.compiler,
        "compiler_id": compiler_id,
        "compiler_status": "completed",
        "source_package_id": pkg,
        "source_task_id": sc.task_id,
        "title": sc.title,
        "task_title": sc.title,
        "domain": sc.domain,
        "subdomain": sc.subdomain,
        "workflow_family": sc.family,
        "public_private_mode": "public_contribution",
        "sharing_upload_mode": "public_contribution",
        "private_internal_no_upload_confirmed": False,
        "apprenticeship_mode": "autonomous",
        "judge_source": "apprentice_self_judge",
        "mentor_audited": False,
        "rounds_run": rounds,
        "rows_by_type": hooks_apply("manifest_rows_by_type", dict(rows_by_type)),
        "training_row_counts_by_file": hooks_apply("manifest_counts_by_file", dict(by_file)),
        "source_evidence_ref_count": len(ev.catalog),
        "source_evidence_row_link_count": coverage["row_link_count"],
        "supported_runtime_uses": ["experience_pack", "skill_pack", "runtime_learning_package"],
        "supported_training_uses": TRAINING_USES,
        "loop_review_refs": ev.loop_refs,
        "compiler_output_refs": out_refs,
        "created_at": created,
    }
    quality: dict[str, Any] = {
        "source_package_id": pkg,
        "compiler_status": "completed",
        "package_version": ctx.v.package,
        "compiler_version": ctx.v.compiler,
        "average_quality_score": report["average_quality_score"],
        "average_fidelity_score": report["average_fidelity_score"],
        "average_reuse_value_score": report["average_reuse_value_score"],
        "training_row_counts_by_file": by_file,
        "source_evidence_map_coverage": coverage,
        "omitted_outputs": [],
        "not_generated_counts": {},
        "generation_notes": ["judge_source=apprentice_self_judge"],
        "grounding": (
            "Rows come from source traces, actual outputs, artifacts, rubrics and "
            "evaluator/verifier records."
        ),
    }
    if not ctx.v02:  # 0.1.x had neither catalog nor links, so nothing to count them by
        del manifest["source_evidence_ref_count"], manifest["source_evidence_row_link_count"]
        del quality["source_evidence_map_coverage"]
    ctx.write_json(EC + "compiler_manifest.json", manifest)
    ctx.write_json(EC + "quality_report.json", quality)
    if lean:
        return
    _write_tdo(ctx, tdo_id, rows_by_type, rounds, created, verdict_info)
    write_indexes(ctx, ev, rows_by_type, by_file, rounds)


def _write_tdo(
    ctx: Ctx,
    tdo_id: str,
    rows_by_type: dict[str, int],
    rounds: int,
    created: str,
    verdict_info: dict[str, Any],
) -> None:
    names = [
        "tdo_manifest.json",
        "tdo_report.json",
        "tdo_recipe.json",
        "optimized_task_spec.json",
        "optimized_rubric.json",
        "domain_value_profile.json",
        "environment_spec.json",
        "tdo_trace.jsonl",
        "tdo_rounds.jsonl",
        "tdo_judge_results.jsonl",
    ]
    # tdo_output_refs: the 7 JSON files, 3 logs, the 23 row files in type order, 2 more logs
    names += [file_of(t) for t in ROW_TYPES] + [
        "meta_optimization_records.jsonl",
        "rejected_rows.jsonl",
    ]
    ctx.write_json(
        "tdo/tdo_manifest.json",
        {
            "schema_version": ctx.v.compiler,
            "tdo_id": tdo_id,
            "tdo_status": "completed",
            "source_package_id": ctx.pkg,
            "source_task_id": ctx.sc.task_id,
            "tdo_output_refs": ["tdo/" + n for n in names],
            "tdo_judge_source": "apprentice_self_judge",
            "mentor_audited": False,
            **_AUDIT,
            "rounds_run": rounds,
            "rows_by_type": rows_by_type,
            "created_at": created,
        },
    )
    ctx.write_json(
        "tdo/tdo_recipe.json",
        {
            "schema_version": ctx.v.compiler,
            "recipe_version": f"{ctx.v.compiler}-round-{rounds}",
            "source_grounding": [
                "task_packet",
                "rubric",
                "agent_trace",
                "actual_outputs",
                "artifacts",
                "attempt_manifest",
                "evaluator_feedback",
                "grader_results",
                "verifier_results",
                "revision_plans",
                "process_supervision",
                "reward_modeling",
                "revision_preference_pairs",
                "lessons",
                "follow_up_records",
                "mentor_checkpoints",
            ],
            "max_rounds": rounds,
            "rounds_run": rounds,
            "quality_thresholds": {
                "min_quality_score": 0.65,
                "min_fidelity_score": 0.65,
                "min_reuse_value_score": 0.65,
            },
            "recipe_updates": verdict_info["recipe_updates"],
            "judge_source": "apprentice_self_judge",
            "mentor_audited": False,
            **_AUDIT,
        },
    )
