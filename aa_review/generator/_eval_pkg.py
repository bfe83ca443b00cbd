"""eval_package/ and the transfer-eval task row (format 3.2, 4.3)."""

from __future__ import annotations

import shutil
from typing import Any

from aa_review.core.package import derive

from ._ctx import Ctx
from ._derived import LOOP_T, TTP, derived_base, lineage
from ._evidence import Evidence
from ._runtime import RLP

__all__ = ["write_eval_package", "EVAL"]

EVAL = "experience_compiler/eval_package/"


def write_eval_package(
    ctx: Ctx, ev: Evidence, confidence: float, output_contract: dict[str, Any]
) -> None:
    """Write the transfer-eval task, the eval package rows and its manifest."""
    sc, pkg = ctx.sc, ctx.pkg
    safe = derive.safe_id(pkg)
    clock = ctx.clock
    head, tail = derived_base(
        ctx, ev, confidence, "transfer_eval_task", f"transfer_eval_{safe}", ev.evidence_refs[:8]
    )
    ctx.write_jsonl(
        TTP + "transfer_eval_tasks.jsonl",
        [
            {
                **head,
                "task": f"Replay a small adjacent {sc.title} task and compare artifact quality.",
                "success_signal": (
                    "bundle check passes and verifier/evaluator evidence refs are present"
                ),
                "transfer_tested": False,
                "expected_output_contract": output_contract,
                "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
                "evidence_refs": tail["evidence_refs"],
                "confidence": confidence,
                "created_at": clock.tick(LOOP_T + 9.4),
            }
        ],
    )
    shutil.copyfile(
        ctx.path(TTP + "transfer_eval_tasks.jsonl"), ctx.path(EVAL + "transfer_eval_tasks.jsonl")
    )
    refs5 = ev.evidence_refs[:5]
    rubric_rows = []
    for i, c in enumerate(sc.criteria, 1):
        head, tail = derived_base(
            ctx, ev, confidence, "eval_rubric_item", f"eval_rubric_{safe}_{i}", refs5
        )
        rubric_rows.append(
            {
                **head,
                "rubric_item": c.description,
                "scoring_criterion": c.description,
                **tail,
                "created_at": clock.tick(LOOP_T + 9.4),
            }
        )
    ctx.write_jsonl(EVAL + "rubric_items.jsonl", rubric_rows)
    head, tail = derived_base(ctx, ev, confidence, "grader_case", f"grader_case_{safe}", refs5)
    ctx.write_jsonl(
        EVAL + "grader_cases.jsonl",
        [
            {
                **head,
                "case": "Grade output against compiled rubric and artifact evidence.",
                "output_contract": output_contract,
                "artifact_contract": ctx.state["artifact_contract"],
                **tail,
                "created_at": clock.tick(LOOP_T + 10.5),
            }
        ],
    )
    head, tail = derived_base(ctx, ev, confidence, "verifier_case", f"verifier_case_{safe}", refs5)
    ctx.write_jsonl(
        EVAL + "verifier_cases.jsonl",
        [
            {
                **head,
                "claim_or_output": (
                    "Required artifacts and output refs exist and match the contract."
                ),
                "visible_evidence": ev.artifact_refs[:12],
                "expected_contract": output_contract,
                "verifier_decision": "case_requires_future_candidate_output",
                "failure_reasons": [],
                **tail,
                "created_at": clock.tick(LOOP_T + 11.6),
            }
        ],
    )
    expected = []
    for i, ref in enumerate(ev.artifact_refs, 1):
        head, tail = derived_base(
            ctx, ev, 1.0, "expected_artifact", f"expected_artifact_{safe}_{i}", [ref]
        )
        expected.append(
            {
                **head,
                "artifact_ref": ref,
                "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
                "evidence_refs": [ref],
                "confidence": 1.0,
                "created_at": clock.tick(LOOP_T + 12.7),
            }
        )
    ctx.write_jsonl(EVAL + "expected_artifacts.jsonl", expected)
    report = {
        "transfer_tested": False,
        "reason": (
            "Transfer tests are reserved for future replay runs; no model training was performed."
        ),
    }
    ctx.write_json("experience_compiler/reports/transfer_test_report.json", report)
    ctx.write_json(EVAL + "transfer_test_report.json", report)
    ctx.write_json(
        EVAL + "eval_manifest.json",
        {
            "schema_version": ctx.v.eval,
            "source_package_id": pkg,
            "source_task_id": sc.task_id,
            "task_lineage": lineage(ctx),
            "source_evidence_map_ref": "experience_compiler/source_evidence_map.json",
            "output_contract_ref": RLP + "output_contract.json",
            "artifact_contract_ref": RLP + "artifact_contract.json",
            "supported_eval_uses": [
                "rubric_eval",
                "contract_verifier_training",
                "transfer_eval_generation",
                "grader_case_generation",
            ],
        },
    )
