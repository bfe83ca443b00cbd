"""Compiler manifest and report, quality report, tdo manifest/report/recipe, indexes (3.1, 3.2, 4.6)."""

from __future__ import annotations

from typing import Any

from .. import derive
from ._counts import Counts
from ._ctx import Ctx
from ._evidence import Evidence
from ._rows_common import SURFACE_TYPES, Scores
from ._source import rubric_items

__all__ = ["write_reports", "COMPILE_T"]

EC = "experience_compiler/"
COMPILE_T = 7259.989885
_TRAINING_USES = ["sft", "lora_ready_instruction_tuning", "process_supervision", "training_examples",
                  "evaluation_examples", "verifier_examples", "reward_model_rows", "preference_pairs",
                  "critique_revision_pairs", "failure_cases", "task_variants", "agentic_rl_rollouts",
                  "grpo_rollout_material", "environment_response_pairs", "loop_learning", "contract_verification",
                  "environment_state_transition_learning"]
_AUDIT = {"source_task_spec_mentor_audited": False, "source_task_spec_audit_source": None,
          "source_task_spec_audit_status": "unaudited", "source_rubric_mentor_audited": False,
          "source_rubric_audit_source": None, "source_rubric_audit_status": "unaudited"}


def _with_zeros(d: dict[str, int]) -> dict[str, int]:
    out = dict(d)
    for t in SURFACE_TYPES:
        out.setdefault(t, 0)
    return out


def _report(ctx: Ctx, counts: Counts, rows_by_type: dict[str, int], rounds: int, tdo_id: str,
            created: str, verdict_info: dict[str, Any]) -> dict[str, Any]:
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
        "tdo_id": tdo_id, "source_package_id": ctx.pkg, "source_task_id": sc.task_id, "created_at": created,
        "generator_mode": "codex", "tdo_judge_source": "apprentice_self_judge", "mentor_audited": False,
        "rounds_run": rounds, "stop_reason": "max_rounds_reached", "tdo_status": "completed",
        "rows_generated_by_type": _with_zeros({t: n * rounds for t, n in counts.generated.items()}),
        "rows_accepted_by_type": rows_by_type, "rows_rejected_by_type": _with_zeros(rejected),
        "average_quality_score": round(s.quality, 4), "average_fidelity_score": round(s.fidelity, 4),
        "average_difficulty_score": round(s.difficulty, 4), "average_learnability_score": round(s.learnability, 4),
        "average_reuse_value_score": round(s.reuse, 4), "schema_validation_passed": True,
        "sanitization_passed": True, "weak_strong_proxy_available": True, "average_solver_gap_proxy": gap,
        "grpo_suitability_distribution": {"high" if gap >= 0.2 else "medium" if gap > 0.05 else "low": total},
        "omitted_outputs": [], "not_generated_counts": {}, "generation_notes": ["judge_source=apprentice_self_judge"],
        "recommended_uses": ["training_examples", "evaluation_examples", "verifier_training", "reward_modeling",
                             "preference_optimization", "environment_response_training"],
        "metadata_json": {
            "apprenticeship_mode": "autonomous", "record_only_followup_update": False, "followup_index": None,
            "follow_up_record_count": 0, "self_judge_generation_notes": ["recommended_future_mentor_audit"],
            "recommended_future_mentor_audit": True,
            "structural_guardrails": ["schema", "paths", "references", "secrets", "public-package hygiene"],
            **_AUDIT},
    }


def write_reports(ctx: Ctx, ev: Evidence, counts: Counts, by_file: dict[str, int], coverage: dict[str, int],
                  rounds: int, verdict_info: dict[str, Any], hooks_apply: Any) -> None:
    """Write manifests and reports; ``hooks_apply(name, value)`` lets defects miscount."""
    sc, pkg = ctx.sc, ctx.pkg
    created = ctx.clock.at(COMPILE_T)
    tdo_id = f"tdo_{derive.safe_id(pkg)}_{ctx.clock.stamp(COMPILE_T + 1)}"
    compiler_id = tdo_id.replace("tdo_", "compiler_", 1)
    rows_by_type = {t: sum(by_file[f] for f in by_file if f == t + "s.jsonl") for t in counts.rows_by_type}
    rows_by_type = {t: n for t, n in rows_by_type.items() if n or t in SURFACE_TYPES}
    report = _report(ctx, counts, rows_by_type, rounds, tdo_id, created, verdict_info)
    ctx.write_json("tdo/tdo_report.json", report)
    renames = {"tdo_id": "compiler_id", "tdo_status": "compiler_status", "tdo_judge_source": "judge_source"}
    creport = {renames.get(k, k): v for k, v in report.items()}  # format 12.2: the id keeps tdo_
    creport.update({"public_feature_name": "Experience Compiler",
                    "description": "The Experience Compiler turns finished agent workflows into runtime learning "
                                   "material and training data.", "apprenticeship_mode": "autonomous"})
    ctx.write_json(EC + "compiler_report.json", creport)
    out_refs = [EC + "compiler_manifest.json", EC + "compiler_report.json", EC + "compiler_trace.jsonl",
                EC + "compiler_rounds.jsonl", EC + "compiler_recipe.json", EC + "compiler_judge_results.jsonl",
                EC + "learning_objects_index.json", EC + "skill_pack/skill.md"]
    manifest: dict[str, Any] = {
        "schema_version": ctx.v.compiler, "training_row_schema_version": ctx.v.row,
        "source_evidence_map_schema_version": ctx.v.evidence_map, "package_version": ctx.v.package,
        "compiler_version": ctx.v.compiler, "compiler_id": compiler_id, "compiler_status": "completed",
        "source_package_id": pkg, "source_task_id": sc.task_id, "title": sc.title, "task_title": sc.title,
        "domain": sc.domain, "subdomain": sc.subdomain, "workflow_family": sc.family,
        "public_private_mode": "public_contribution", "sharing_upload_mode": "public_contribution",
        "private_internal_no_upload_confirmed": False, "apprenticeship_mode": "autonomous",
        "judge_source": "apprentice_self_judge", "mentor_audited": False, "rounds_run": rounds,
        "rows_by_type": hooks_apply("manifest_rows_by_type", dict(rows_by_type)),
        "training_row_counts_by_file": hooks_apply("manifest_counts_by_file", dict(by_file)),
        "source_evidence_ref_count": len(ev.catalog), "source_evidence_row_link_count": coverage["row_link_count"],
        "supported_runtime_uses": ["experience_pack", "skill_pack", "runtime_learning_package"],
        "supported_training_uses": _TRAINING_USES, "loop_review_refs": ev.loop_refs,
        "compiler_output_refs": out_refs, "created_at": created}
    quality: dict[str, Any] = {
        "source_package_id": pkg, "compiler_status": "completed", "package_version": ctx.v.package,
        "compiler_version": ctx.v.compiler, "average_quality_score": report["average_quality_score"],
        "average_fidelity_score": report["average_fidelity_score"],
        "average_reuse_value_score": report["average_reuse_value_score"], "training_row_counts_by_file": by_file,
        "source_evidence_map_coverage": coverage, "omitted_outputs": [], "not_generated_counts": {},
        "generation_notes": ["judge_source=apprentice_self_judge"],
        "grounding": "Rows come from source traces, actual outputs, artifacts, rubrics and evaluator/verifier "
                     "records."}
    if not ctx.v02:  # 0.1.x had neither catalog nor links, so nothing to count them by
        del manifest["source_evidence_ref_count"], manifest["source_evidence_row_link_count"]
        del quality["source_evidence_map_coverage"]
    ctx.write_json(EC + "compiler_manifest.json", manifest)
    ctx.write_json(EC + "quality_report.json", quality)
    _write_tdo(ctx, tdo_id, rows_by_type, rounds, created, verdict_info)
    _write_indexes(ctx, ev, rows_by_type, by_file, rounds)


def _write_tdo(ctx: Ctx, tdo_id: str, rows_by_type: dict[str, int], rounds: int, created: str,
               verdict_info: dict[str, Any]) -> None:
    from ._final import ROW_FILES

    names = ["tdo_manifest.json", "tdo_report.json", "tdo_recipe.json", "optimized_task_spec.json",
             "optimized_rubric.json", "domain_value_profile.json", "environment_spec.json", "tdo_trace.jsonl",
             "tdo_rounds.jsonl", "tdo_judge_results.jsonl"]
    from ._rows_common import ROW_TYPES, file_of

    names += [file_of(t) for t in ROW_TYPES] + ["meta_optimization_records.jsonl", "rejected_rows.jsonl"]
    assert len(ROW_FILES) == 23
    ctx.write_json("tdo/tdo_manifest.json", {
        "schema_version": ctx.v.compiler, "tdo_id": tdo_id, "tdo_status": "completed",
        "source_package_id": ctx.pkg, "source_task_id": ctx.sc.task_id, "tdo_output_refs": ["tdo/" + n for n in names],
        "tdo_judge_source": "apprentice_self_judge", "mentor_audited": False, **_AUDIT, "rounds_run": rounds,
        "rows_by_type": rows_by_type, "created_at": created})
    ctx.write_json("tdo/tdo_recipe.json", {
        "schema_version": ctx.v.compiler, "recipe_version": f"{ctx.v.compiler}-round-{rounds}",
        "source_grounding": ["task_packet", "rubric", "agent_trace", "actual_outputs", "artifacts",
                             "attempt_manifest", "evaluator_feedback", "grader_results", "verifier_results",
                             "revision_plans", "process_supervision", "reward_modeling",
                             "revision_preference_pairs", "lessons", "follow_up_records", "mentor_checkpoints"],
        "max_rounds": rounds, "rounds_run": rounds,
        "quality_thresholds": {"min_quality_score": 0.65, "min_fidelity_score": 0.65,
                               "min_reuse_value_score": 0.65},
        "recipe_updates": verdict_info["recipe_updates"], "judge_source": "apprentice_self_judge",
        "mentor_audited": False, **_AUDIT})


def _write_indexes(ctx: Ctx, ev: Evidence, rows_by_type: dict[str, int], by_file: dict[str, int],
                   rounds: int) -> None:
    pkg = ctx.pkg
    ctx.write_json(EC + "learning_objects_index.json", {"source_package_id": pkg, "learning_objects": [
        {"kind": "skill_pack", "path": EC + "skill_pack/skill.md"},
        {"kind": "runtime_learning_package", "path": EC + "runtime_learning_package/runtime_learning_manifest.json"},
        {"kind": "training_time_package", "path": EC + "training_time_package/training_time_manifest.json"},
        {"kind": "environment", "path": EC + "environment/environment_spec.json"},
        {"kind": "loop_learning", "path": EC + "loop_learning/loop_review_rows.jsonl"},
        {"kind": "reports", "path": EC + "compiler_report.json"}], "rows_by_type": rows_by_type})
    ctx.write_json(EC + "training_time_package/training_time_manifest.json", {
        "source_package_id": pkg, "training_uses": _TRAINING_USES,
        "supported_training_uses": ["sft", "lora_ready_instruction_tuning", "rl", "grpo", "agentic_rollouts",
                                    "reward_modeling", "preference_learning", "verifier_training",
                                    "process_supervision", "distillation", "eval_generation",
                                    "environment_model_training"],
        "row_counts": rows_by_type, "row_counts_by_file": by_file, "schema_version": ctx.v.row,
        "source_evidence_map_ref": EC + "source_evidence_map.json", "no_model_training_claimed": True})
    ctx.write_json(EC + "experience_pack/experience_pack_manifest.json", {
        "pack_type": "experience_pack", "source_package_id": pkg, "skill_pack_ref": EC + "skill_pack/skill.md",
        "runtime_learning_package_ref": EC + "runtime_learning_package/runtime_learning_manifest.json",
        "training_time_package_ref": EC + "training_time_package/training_time_manifest.json"})
    _write_optimized(ctx, ev, rounds)


def _write_optimized(ctx: Ctx, ev: Evidence, rounds: int) -> None:
    sc = ctx.sc
    spec = {
        "source_task_id": sc.task_id, "source_package_id": ctx.pkg, "optimized_title": sc.title,
        "optimized_instruction": sc.instruction, "domain": sc.domain, "subdomain": sc.subdomain, "role": sc.role,
        "expected_deliverables": sc.deliverables,
        "constraints": ["do not edit input files", "amounts in USD with two decimals"],
        "required_inputs": sc.inputs, "success_criteria": [c.description for c in sc.criteria],
        "failure_modes": sc.baseline_failed, "expected_economic_value": "medium",
        "expected_economic_value_rationale": "Derived from task metadata, deliverables, trace size and evaluation "
                                             "evidence.",
        "training_use_cases": ["supervised_finetuning_rows", "verifier_training", "reward_modeling",
                               "preference_optimization"],
        "generated_by": "Experience Compiler", "apprenticeship_mode": "autonomous", "compiler_round": rounds,
        "tdo_round": rounds, "weak_strong_proxy_available": True, **_AUDIT, "evidence_refs": ev.evidence_refs}
    rubric = {
        "source_task_id": sc.task_id, "source_package_id": ctx.pkg, "tdo_round": rounds,
        "rubric_items": rubric_items(sc),
        "verifier_checks": ["actual_outputs.json parses and points to generated artifacts",
                            "artifact refs resolve inside the package", "trace steps support the claimed output",
                            "grader, verifier and evaluator evidence agree"],
        "scoring_guidance": "Score from artifact, trace, grader, verifier and evaluator evidence; never reward a "
                            "looser rubric.",
        "failure_criteria": sc.baseline_failed, "artifact_checks": sc.deliverables,
        "environment_response_checks": ["environment response rows must mirror observed trace steps"],
        "reward_modeling_notes": "Use score and verifier evidence plus the weak/strong proxy.",
        "evaluator_notes": "Add exception labels and produce vendor_totals.csv from the converted amounts.",
        **_AUDIT, "evidence_refs": ev.evidence_refs}
    profile = {
        "domain": sc.domain, "subdomain": sc.subdomain, "role": sc.role, "apprenticeship_mode": None,
        "economic_value_category": "high", "expected_economic_value": "medium",
        "value_drivers": ["specialized workflow", "artifact creation", "verifiable outputs",
                          "reusable trace evidence"],
        "risk_level": "medium", "specialization_level": "high", "automation_potential": "high",
        "training_value": "high", "evaluation_value": "high", "verifier_value": "high",
        "evidence_refs": ev.evidence_refs}
    for d in ("tdo/", EC + "reports/"):
        ctx.write_json(d + "optimized_task_spec.json", spec)
        ctx.write_json(d + "optimized_rubric.json", rubric)
        ctx.write_json(d + "domain_value_profile.json", profile)
    ctx.write_text(EC + "reports/generation_notes.md", "# Generation Notes\n\nAccepted rows stay grounded in "
                   "package evidence.\nUnsupported candidates are omitted or kept in rejected row data.\n")
    if not ctx.v02:  # the 0.2.1 copy bug (format 12.1) is not in 0.1.x, which wrote the recipe
        import shutil

        shutil.copyfile(ctx.path("tdo/tdo_recipe.json"), ctx.path(EC + "compiler_recipe.json"))
        shutil.copyfile(ctx.path("tdo/tdo_recipe.json"), ctx.path(EC + "reports/compiler_recipe.json"))
