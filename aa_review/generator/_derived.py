"""Derived training files (format 4.3): process supervision, rollouts, GRPO group, ..."""

from __future__ import annotations

import shutil
from typing import Any

from aa_review.core.package import derive

from ._attempts import SUMMARY
from ._ctx import Ctx
from ._evidence import Evidence
from ._final import FinalSink
from ._jsonfast import enc
from ._loops import ITERATIONS
from ._sink import LineSink, concat

__all__ = ["write_derived", "derived_base", "LOOP_T"]

TTP = "experience_compiler/training_time_package/"
LOOP_T = 7290.0  # seconds after the clock start: loop-learning rows, then the derived files


def derived_base(
    ctx: Ctx,
    ev: Evidence,
    confidence: float,
    data_type: str,
    row_id: str,
    refs: list[str],
    pair: bool = False,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Head and tail of a derived row: ids, lineage, evidence refs and ids, confidence, time."""
    sc = ctx.sc
    head: dict[str, Any] = {"schema_version": ctx.v.row}
    if pair:
        head["pair_id"] = row_id
    head.update(
        {
            "row_id": row_id,
            "data_type": data_type,
            "source_package_id": ctx.pkg,
            "source_task_id": sc.task_id,
            "task_lineage": lineage(ctx),
        }
    )
    ids = [ev.id_of.get(r) or derive.evidence_id(r) for r in refs]
    return head, {"evidence_refs": refs, "source_evidence_ref_ids": ids, "confidence": confidence}


def lineage(ctx: Ctx) -> dict[str, Any]:
    sc = ctx.sc
    return {
        "source_package_id": ctx.pkg,
        "source_task_id": sc.task_id,
        "task_title": sc.title,
        "domain": sc.domain,
        "subdomain": sc.subdomain,
        "workflow_family": sc.family,
    }


def write_derived(ctx: Ctx, ev: Evidence, final: FinalSink, avg_quality: float) -> None:
    """Write the derived files of training_time_package/ (eval_package copies come later)."""
    sc, pkg = ctx.sc, ctx.pkg
    safe = derive.safe_id(pkg)
    ps_parts = [final.ps[f].path for f in sorted(final.ps)]
    concat(ctx.path(TTP + "process_supervision.jsonl"), ps_parts)
    shutil.copyfile(
        ctx.path(TTP + "agentic_rollouts.jsonl"), ctx.path(TTP + "rl_environment_replay_rows.jsonl")
    )
    clock = ctx.clock
    grpo = LineSink(ctx.path(TTP + "grpo_rollout_groups.jsonl"))
    if final.rl_ids:
        head, tail = derived_base(
            ctx, ev, avg_quality, "grpo_rollout_group", f"grpo_group_{safe}", ev.evidence_refs[:12]
        )
        row = {
            **head,
            "rollout_group_id": f"rollout_{derive.safe_id(sc.task_id)}",
            "candidate_rollout_refs": None,
            "reward_components": ["artifact_contract", "verifier_signal", "step_success"],
            "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
            "evidence_refs": tail["evidence_refs"],
            "confidence": avg_quality,
            "created_at": clock.tick(LOOP_T + 4.2),
        }
        line = enc(row)  # json.dumps; the id list is spliced in to avoid a second huge copy
        grpo.write(
            line.replace(
                '"candidate_rollout_refs": null',
                '"candidate_rollout_refs": [' + ", ".join(enc(i) for i in final.rl_ids) + "]",
                1,
            )
        )
    grpo.close()
    crit = LineSink(ctx.path(TTP + "critique_revision_pairs.jsonl"))
    for it, kind in ITERATIONS:
        packet = f"loops/iterations/{it}/review_packet.json"
        head, tail = derived_base(
            ctx,
            ev,
            avg_quality,
            "critique_revision_pair",
            f"critique_revision_{safe}_{int(it)}",
            [packet],
            pair=True,
        )
        failed = sc.baseline_failed if kind == "baseline" else sc.revised_failed
        revision = (
            "Use loop feedback and revision plan to ground updates."
            if kind == "baseline"
            else str(
                {
                    "previous_output_summary": SUMMARY["baseline"],
                    "current_output_summary": SUMMARY["revised"],
                }
            )
        )
        crit.write(
            enc(
                {
                    **head,
                    "critique": "; ".join(failed),
                    "revision": revision,
                    "evidence_refs": tail["evidence_refs"],
                    "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
                    "loop_iteration": int(it),
                    "confidence": avg_quality,
                    "created_at": clock.tick(LOOP_T + 6.2),
                }
            )
        )
    for row in ctx.state["feedback_pairs"]:
        crit.write(enc(row))
    crit.close()
    head, tail = derived_base(
        ctx, ev, avg_quality, "distillation_record", f"distill_{safe}", ev.evidence_refs[:8]
    )
    ctx.write_text(
        TTP + "distillation_records.jsonl",
        enc(
            {
                **head,
                "input": sc.instruction,
                "target": SUMMARY["baseline"],
                **tail,
                "created_at": clock.tick(LOOP_T + 8.3),
            }
        )
        + "\n",
    )
    ctx.write_text(
        TTP + "trajectory_rollouts.jsonl",
        enc(
            {
                "source_package_id": pkg,
                "trajectory_ref": "traces/agent_traces.jsonl",
                "artifact_refs": ev.artifact_refs,
            }
        )
        + "\n",
    )
