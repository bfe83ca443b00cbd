"""loop_learning/: rows compiled from the review loop (format 4.4)."""

from __future__ import annotations

import json
from typing import Any

from aa_review.core.package import derive

from ._ctx import Ctx
from ._derived import LOOP_T, lineage
from ._evidence import Evidence
from ._loops import ITERATIONS

__all__ = ["write_loop_learning"]

LL = "experience_compiler/loop_learning/"


def _read(ctx: Ctx, rel: str) -> dict[str, Any]:
    p = ctx.path(rel)
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}


def write_loop_learning(ctx: Ctx, ev: Evidence, avg_quality: float) -> None:
    """Write the five loop-learning files; keep the feedback pairs for critique_revision_pairs."""
    sc = ctx.sc
    loop_id = f"loop_{ctx.pkg}"
    lid = derive.safe_id(loop_id)
    files: dict[str, list[dict[str, Any]]] = {
        n: []
        for n in (
            "loop_review_rows",
            "feedback_revision_pairs",
            "reviewer_decision_rows",
            "contract_verification_rows",
            "repair_loop_rows",
        )
    }
    for it, _kind in ITERATIONS:
        d = f"loops/iterations/{it}/"
        i = int(it)
        packet = _read(ctx, d + "review_packet.json")
        ref = d + "review_packet.json"
        base = {
            "schema_version": ctx.v.row,
            "source_package_id": ctx.pkg,
            "source_task_id": sc.task_id,
            "task_lineage": lineage(ctx),
            "loop_id": loop_id,
            "loop_iteration": i,
            "evidence_refs": [ref],
            "source_evidence_ref_ids": [ev.id_of.get(ref) or derive.evidence_id(ref)],
            "confidence": avg_quality,
            "created_at": ctx.clock.at(LOOP_T + 1.104729 * i - 0.818537),
            "generated_by": "Experience Compiler",
        }
        files["loop_review_rows"].append(
            {
                **base,
                "row_id": f"loop_review_{lid}_{i}",
                "data_type": "loop_review_row",
                "mode": packet["mode"],
                "current_attempt_summary": packet["current_attempt_summary"],
                "rubric_status": packet["rubric_status"],
                "verifier_status": packet["verifier_status"],
                "known_failures": packet["known_failures"],
                "missing_outputs": packet["missing_outputs"],
                "recommended_review_focus": packet["recommended_review_focus"],
                "review_packet_ref": ref,
                "review_packet_md_ref": d + "review_packet.md",
            }
        )
        feedback = _read(ctx, d + "reviewer_feedback.json")
        plan = _read(ctx, d + "revision_plan.json")
        if feedback or plan:
            files["feedback_revision_pairs"].append(
                {
                    **base,
                    "pair_id": f"feedback_revision_{lid}_{i}",
                    "row_id": f"feedback_revision_{lid}_{i}",
                    "data_type": "feedback_revision_pair",
                    "reviewer_type": feedback.get("reviewer_type") or "unknown",
                    "feedback": feedback.get("feedback", ""),
                    "blocking_issues": feedback.get("blocking_issues") or packet["known_failures"],
                    "revision_instructions": feedback.get("revision_instructions", []),
                    "revision_plan_ref": d + "revision_plan.json",
                    "diff_report_ref": d + "diff_report.json",
                    "feedback_applied_status": "unknown",
                }
            )
        decision = _read(ctx, d + "loop_decision.json")
        files["reviewer_decision_rows"].append(
            {
                **base,
                "row_id": f"reviewer_decision_{lid}_{i}",
                "data_type": "reviewer_decision_row",
                **{
                    k: decision.get(k)
                    for k in (
                        "decision",
                        "verdict",
                        "score",
                        "continue_loop",
                        "stop_condition",
                        "termination_reason",
                        "training_value_notes",
                    )
                },
                "loop_decision_ref": d + "loop_decision.json",
            }
        )
        cv = _read(ctx, d + "contract_verification.json")
        if cv:
            files["contract_verification_rows"].append(
                {
                    **base,
                    "row_id": f"contract_verification_{lid}_{i}",
                    "data_type": "contract_verification_row",
                    **{
                        k: cv[k]
                        for k in (
                            "contract_verification_passed",
                            "actual_outputs_json_ok",
                            "failure_count",
                            "semantic_warning_count",
                        )
                    },
                    "failures": cv["failures"][:20],
                    "semantic_warnings": cv["semantic_warnings"][:20],
                    "contract_verification_ref": d + "contract_verification.json",
                }
            )
        rp = _read(ctx, d + "contract_repair_plan.json")
        if rp:
            diff = _read(ctx, d + "diff_report.json")
            files["repair_loop_rows"].append(
                {
                    **base,
                    "row_id": f"repair_loop_{lid}_{i}",
                    "data_type": "repair_loop_row",
                    "repair_required": rp["repair_required"],
                    "preserve_passing_items": rp["preserve_passing_items"],
                    "issues_to_fix": rp["issues_to_fix"],
                    "repair_result": _read(ctx, d + "contract_repair_result.json"),
                    "changed_refs": diff.get("added_refs", []) + diff.get("removed_refs", []),
                    "contract_repair_plan_ref": d + "contract_repair_plan.json",
                    "contract_repair_result_ref": d + "contract_repair_result.json",
                }
            )
    for name, rows in files.items():
        ctx.write_jsonl(LL + name + ".jsonl", rows)
    ctx.state["feedback_pairs"] = files["feedback_revision_pairs"]
