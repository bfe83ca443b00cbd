"""Per-round logs: compiler trace, rounds, judge results and meta-optimization records (3.2)."""

from __future__ import annotations

from typing import Any

from ._counts import Counts
from ._ctx import Ctx
from ._rows_common import Scores
from ._rows_steps import StepIds

__all__ = ["write_round_logs", "dup_ids"]

EC = "experience_compiler/"
_IMPROVE = "The loop continues to strengthen weak rows and recipe grounding."
_FINAL_IMPROVE = "Some candidate rows need stronger grounding or safer refs."


def dup_ids(ctx: Ctx, counts: Counts, r: int) -> list[str]:
    """``duplicate_row_id:<id>`` reasons of round ``r`` (the baseline's two-ref pdf steps)."""
    sc = ctx.sc
    ids = StepIds(
        "multimodal_artifact",
        sc.task_id,
        sc.trace_id("baseline"),
        [sc.attempt_id("baseline"), sc.attempt_id("revised")],
        r,
    )
    return ["duplicate_row_id:" + ids(n) for n in counts.dup_steps]


def write_round_logs(ctx: Ctx, counts: Counts, rounds: int) -> dict[str, Any]:
    """Write the round logs (experience_compiler/, reports/, tdo/); returns the final verdict."""
    sc = ctx.sc
    trace: list[dict[str, Any]] = []
    rnds: list[dict[str, Any]] = []
    judges: list[dict[str, Any]] = []
    meta: list[dict[str, Any]] = []
    updates: list[str] = []
    for r in range(1, rounds + 1):
        final = r == rounds
        errors = dup_ids(ctx, counts, r)
        verdict = "improve" if (not final or errors) else "accept"
        reason = (
            (_FINAL_IMPROVE if errors else "Rows are grounded and accepted.") if final else _IMPROVE
        )
        trace += [
            {
                "event_type": "generate",
                "round": r,
                "message": "generated candidate training data",
                "counts": counts.generated,
            },
            {
                "event_type": "judge",
                "round": r,
                "message": "judge feedback complete",
                "verdict": verdict,
            },
            {
                "event_type": "improve" if verdict == "improve" else "accept",
                "round": r,
                "message": reason,
            },
        ]
        rejected = {"multimodal_artifact": len(errors)} if errors else {}
        if not final:
            for t, n in counts.generated.items():
                rejected[t] = n
            updates = [*updates, f"round_{r}_strengthen_grounding_and_reuse_scores"]
        rnds.append(
            {
                "round": r,
                "recipe_version": f"{ctx.v.compiler}-round-{r}",
                "generated_counts": counts.generated,
                "accepted_counts": counts.validated if final else {},
                "rejected_counts": rejected,
                "schema_errors": errors,
                "quality_findings": [],
                "recipe_updates": list(updates),
                "judge_source": "apprentice_self_judge",
                "stop_reason": "max_rounds_reached" if final else None,
            }
        )
        s = Scores(r)
        judges.append(
            {
                "compiler_round": r,
                "judge_source": "apprentice_self_judge",
                "mentor_audited": False,
                "verdict": verdict,
                "weak_pattern": "; ".join(sc.baseline_failed),
                "strong_pattern": "; ".join(sc.improved),
                "gap_interpretation": "Revised evidence outperformed baseline.",
                "rubric_concerns": [],
                "grounding_concerns": errors,
                "data_quality_concerns": [],
                "grpo_suitability": "high",
                "learning_signal_quality": "high",
                "reuse_value": "high" if s.reuse >= 0.8 else "medium",
                "quality_score": round(s.quality, 4),
                "fidelity_score": round(s.fidelity, 4),
                "difficulty_score": round(s.difficulty, 4),
                "learnability_score": round(s.learnability, 4),
                "reuse_value_score": round(s.reuse, 4),
                "verdict_reason": reason,
                "suggestion_for_generator": (
                    "Strengthen evidence refs and improve weak rows in the next round."
                ),
                "metadata_json": {},
            }
        )
        meta.append(
            {
                "recipe_version": f"{ctx.v.compiler}-round-{r}",
                "round": r,
                "failure_patterns": errors,
                "accepted_recipe_updates": list(updates),
                "rejected_recipe_updates": [],
                "quality_delta": round(0.11 * (r - 1), 2),
                "prompt_improvement_candidates": [
                    "Require source evidence refs for every reusable row."
                ],
                "notes_for_future_tdo_recipe": (
                    "Prefer a mentor-model audit when one is configured."
                ),
            }
        )
    tdo_judges = [
        {
            (
                "tdo_round"
                if k == "compiler_round"
                else "tdo_judge_source"
                if k == "judge_source"
                else k
            ): v
            for k, v in j.items()
        }
        for j in judges
    ]
    for d in (EC, "tdo/tdo_"):
        ctx.write_jsonl(d + ("compiler_trace.jsonl" if d == EC else "trace.jsonl"), trace)
    ctx.write_jsonl(EC + "compiler_rounds.jsonl", rnds)
    ctx.write_jsonl(EC + "reports/compiler_rounds.jsonl", rnds)
    ctx.write_jsonl("tdo/tdo_rounds.jsonl", rnds)
    ctx.write_jsonl(EC + "compiler_judge_results.jsonl", judges)
    ctx.write_jsonl(EC + "reports/compiler_judge_results.jsonl", judges)
    ctx.write_jsonl("tdo/tdo_judge_results.jsonl", tdo_judges)
    ctx.write_jsonl(EC + "reports/meta_optimization_records.jsonl", meta)
    ctx.write_jsonl("tdo/meta_optimization_records.jsonl", meta)
    return {"verdict": judges[-1]["verdict"], "recipe_updates": updates}
