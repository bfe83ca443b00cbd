"""The seven fixed row types (format 4.2): training, evaluation, verifier, reward, ..."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive

from ._attempts import SUMMARY
from ._grading import FEEDBACK_SUMMARY, grader_result, verifier_result
from ._jsonfast import Raw
from ._plan import ATTEMPTS
from ._rows_common import TARGETS, USE_CASES, RowContext
from ._source import rubric_items

__all__ = ["fixed_rows", "finish_row"]

_VARIANT_NOTE = (
    "\n\nVariant constraint: keep the same deliverables and make the result easier to verify."
)


def finish_row(
    rc: RowContext,
    row: dict[str, Any],
    fields: dict[str, Any],
    extras: dict[str, Any],
    rejection: str | None = None,
) -> dict[str, Any]:
    """Append id, use cases, hash slot, targets and extras to ``row`` (common + type fields)."""
    t = fields["data_type"]
    row.update(fields)
    rid = derive.row_id(
        t,
        row["source_task_id"],
        row["source_trace_id"],
        row["source_step_ids"],
        _plain(row["source_attempt_ids"]),
        _plain(row.get("input")),
        _plain(row.get("target")),
        rc.r,
    )
    if t in derive.PAIR_TYPES:
        row["pair_id"] = rid
    row["row_id"] = rid
    if "training_use_cases" not in row:
        row["training_use_cases"] = USE_CASES[t]
    row["quality_signal_source"] = "apprentice_self_judge"
    row["source_trace_ref"] = row["source_trace_id"]
    row["evidence_confidence"] = rc.scores.confidence
    row["row_content_hash"] = None
    row["model_training_targets"] = TARGETS[t]
    row.update(extras)
    return row


def _plain(v: Any) -> Any:
    return v.value if isinstance(v, Raw) else v


def fixed_rows(rc: RowContext) -> list[dict[str, Any]]:
    """Rows of the fixed types in the compiler's candidate order (no content hash yet)."""
    ctx, ev, sc = rc.ctx, rc.ev, rc.ctx.sc
    items = rubric_items(sc)
    rubric = Raw(items)
    refs = ev.artifact_refs
    trace = sc.trace_id("baseline")
    out: list[dict[str, Any]] = []

    def add(fields: dict[str, Any], extras: dict[str, Any] | None = None) -> None:
        out.append(finish_row(rc, rc.common(trace, []), fields, extras or {}))

    add(
        {
            "data_type": "training_example",
            "input": {"instruction": sc.instruction, "expected_deliverables": sc.deliverables},
            "target": {"artifact_refs": refs, "summary": SUMMARY["baseline"]},
            "expected_output": SUMMARY["baseline"],
            "rubric": rubric,
            "scoring_hint": (
                "Ground the answer in actual_outputs.json, artifacts, traces and grader evidence."
            ),
            "training_use_case": "supervised_task_completion",
        },
        {
            "instruction": sc.instruction,
            "target_output": SUMMARY["baseline"],
            "output_contract_summary": (
                "Use actual_outputs.json plus artifact refs as the output contract."
            ),
        },
    )
    for item in items:
        add(
            {
                "data_type": "evaluation_example",
                "input": {"artifact_refs": refs, "criterion": item["criterion_name"]},
                "target": {
                    "criterion_description": item["criterion_description"],
                    "pass_threshold": item["pass_threshold"],
                },
                "expected_output": (
                    "Score the attempt against this criterion using grounded evidence."
                ),
                "rubric": item,
                "scoring_hint": "Reward only evidence-backed satisfaction of the criterion.",
            }
        )
    if sc.with_verifier:
        for kind in ATTEMPTS:
            inp = {"attempt_kind": kind, "artifact_refs": refs}
            res = verifier_result(ctx, kind)
            add(
                {
                    "data_type": ("verifier_example"),
                    "input": inp,
                    "target": res,
                    "expected_output": (
                        "Check grounding, the artifact contract and score consistency."
                    ),
                    "rubric": rubric,
                    "scoring_hint": "Verifier output is evidence; agent self-assessment is not.",
                },
                {"claim_or_output": inp, "visible_evidence": refs, "verifier_decision": res},
            )
    graders = {kind: grader_result(ctx, kind) for kind in ATTEMPTS}
    for kind in ATTEMPTS:
        g = graders[kind]
        add(
            {
                "data_type": "reward_model_row",
                "input": {"attempt_kind": kind, "output_summary": SUMMARY[kind]},
                "target": {"final_score": g["final_score"], "passed": g["passed"]},
                "expected_output": "Prefer grounded outputs whose verifier evidence agrees.",
                "rubric": rubric,
                "scoring_hint": "Grader and verifier results are the reward labels.",
            },
            {
                "reward_component": "task_outcome",
                "reward_value": g["final_score"],
                "reward_timing": "final",
                "verifier_or_grader_source": "grader_result",
            },
        )
    gap = round(sc.revised_score - sc.baseline_score, 4)
    hint = "Preference follows the observed score and verifier gap."
    add(
        {
            "data_type": "preference_pair",
            "input": {
                "baseline_attempt_ref": "attempts/baseline",
                "revised_attempt_ref": "attempts/revised",
            },
            "target": {"chosen": "revised", "solver_gap_proxy": gap},
            "expected_output": "Choose the attempt with stronger grounded evidence.",
            "rubric": rubric,
            "scoring_hint": hint,
        },
        {
            "chosen_output": "revised",
            "rejected_output": "baseline",
            "preference_reason": hint,
            "quality_delta": gap,
        },
    )
    for kind in ATTEMPTS:
        for crit in graders[kind]["failed_criteria"]:
            add(
                {
                    "data_type": ("failure_case"),
                    "input": {"attempt_kind": kind, "failed_criterion": crit},
                    "target": {"failure_mode": crit, "repair_hint": FEEDBACK_SUMMARY},
                    "expected_output": "Name the failure and propose grounded repair guidance.",
                    "rubric": rubric,
                    "scoring_hint": (
                        "Failure cases must cite grader, verifier or evaluator evidence."
                    ),
                },
                {
                    "failure_type": crit,
                    "failure_severity": "medium",
                    "repair_recommendation": FEEDBACK_SUMMARY,
                },
            )
    variant = sc.instruction + _VARIANT_NOTE
    add(
        {
            "data_type": "task_variant",
            "input": {"source_instruction": sc.instruction},
            "target": {"variant_instruction": variant, "expected_deliverables": sc.deliverables},
            "expected_output": "A grounded task variant with the same artifact contract.",
            "rubric": rubric,
            "scoring_hint": "The variant must keep artifact requirements and verifier checks.",
        },
        {
            "variant_instruction": variant,
            "expected_output_contract": sc.deliverables,
            "difficulty": rc.scores.difficulty,
        },
    )
    return out
