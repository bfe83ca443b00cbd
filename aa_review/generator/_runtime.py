"""runtime_learning_package/: contracts, checklists, runbooks, runtime memory (format 3.2, 3.3)."""

from __future__ import annotations

import shutil
from typing import Any

from aa_review.core.package.layout import RUNTIME_PATTERN_FILES

from ._contracts import contract_line, contracts, output_path
from ._ctx import Ctx
from ._evidence import Evidence
from ._skill import SKILL

__all__ = ["write_runtime_package", "RLP"]

RLP = "experience_compiler/runtime_learning_package/"
_OPTIONAL = (
    "columns",
    "numeric_columns",
    "non_empty_columns",
    "keys",
    "expected_types",
    "non_empty_fields",
    "min_rows",
)


def _optional(c: dict[str, Any]) -> dict[str, Any]:
    view = dict(c)
    if "top_level_keys" in view:
        view["keys"] = view["top_level_keys"]
    return {k: view[k] for k in _OPTIONAL if k in view}


def write_runtime_package(
    ctx: Ctx, ev: Evidence, confidence: float, lean: bool = False
) -> dict[str, Any]:
    """Write the runtime learning package; returns the output contract (eval rows embed it).

    ``lean`` writes only the two contracts and the two checklists (what opening reads).
    """
    sc, pkg = ctx.sc, ctx.pkg
    full = ctx.state["contracts"] = contracts(ctx, ev)
    required = [
        {
            "path": output_path(c["artifact_ref"]),
            "format": c["format"],
            "scoring_critical": True,
            **_optional(c),
        }
        for c in full
    ]
    if not any(r["path"].endswith("actual_outputs.json") for r in required):
        required.append(
            {"path": "output/actual_outputs.json", "format": "json", "scoring_critical": True}
        )
    output_contract = {
        "source_package_id": pkg,
        "contract_kind": "runtime_transfer_output_contract",
        "required_outputs": required,
        "validation_commands": [
            "open every required file",
            "validate JSON parses",
            "validate CSV/TSV headers",
            "confirm actual_outputs.json lists generated files",
        ],
        "common_schema_mistakes": [
            "files under the wrong relative directory",
            "missing required CSV columns or JSON keys",
            "stale actual_outputs.json",
        ],
    }
    artifact_contract = {
        "source_package_id": pkg,
        "contract_kind": "runtime_transfer_artifact_contract",
        "required_artifacts": [
            {
                "path": output_path(c["artifact_ref"]),
                "artifact_type": c["format"],
                "expected_location": output_path(c["artifact_ref"]).split("/", 1)[0],
                "name_pattern": c["filename"],
                "verify_exists": True,
                **_optional(c),
            }
            for c in full
        ],
    }
    ctx.state["output_contract"] = output_contract
    ctx.state["artifact_contract"] = artifact_contract
    ctx.write_json(RLP + "output_contract.json", output_contract)
    ctx.write_json(RLP + "artifact_contract.json", artifact_contract)
    if not lean:
        ctx.write_json(
            RLP + "runtime_learning_manifest.json",
            {
                "source_package_id": pkg,
                "apprenticeship_mode": "autonomous",
                "runtime_uses": [
                    "prompt_guidance",
                    "tool_use_hints",
                    "correction_patterns",
                    "experience_pack",
                ],
                "supported_runtime_uses": [
                    "skill_import",
                    "retrieval_augmented_execution",
                    "verifier_assisted_execution",
                    "workflow_checklist",
                    "failure_pattern_warning",
                    "tool_recipe_reuse",
                ],
                "skill_ref": SKILL + "skill.md",
                "transfer_runbook_ref": RLP + "transfer_runbook.md",
                "transfer_checklist_ref": RLP + "transfer_checklist.json",
                "minimal_prompt_context_ref": RLP + "minimal_prompt_context.md",
                "output_contract_ref": RLP + "output_contract.json",
                "artifact_contract_ref": RLP + "artifact_contract.json",
                "prefinal_verification_checklist_ref": RLP + "prefinal_verification_checklist.json",
                "repair_instructions_ref": RLP + "repair_instructions.md",
            },
        )
    checks = [
        (
            "required_files_exist",
            "Every required output exists at its relative path.",
            "filesystem_exists",
            "Create or move the missing file.",
        ),
        (
            "json_outputs_parse",
            "JSON outputs parse as objects or declared arrays.",
            "json_parse",
            "Rewrite malformed JSON.",
        ),
        (
            "csv_tsv_headers_match",
            "CSV/TSV outputs carry the required columns.",
            "delimited_header_check",
            "Rewrite the header exactly.",
        ),
        (
            "actual_outputs_lists_files",
            "actual_outputs.json lists the deliverables.",
            "actual_outputs_contract_check",
            "Update actual_outputs.json.",
        ),
    ]
    ctx.write_json(
        RLP + "prefinal_verification_checklist.json",
        {
            "source_package_id": pkg,
            "checks": [
                {
                    "check_id": a,
                    "description": b,
                    "verification_method": c,
                    "blocking": True,
                    "repair_hint": d,
                }
                for a, b, c, d in checks
            ],
            # format 12.18: these refs lack the experience_compiler/ prefix
            "output_contract_ref": "runtime_learning_package/output_contract.json",
            "artifact_contract_ref": "runtime_learning_package/artifact_contract.json",
            "required_output_count": len(required),
            "required_artifact_count": len(full),
        },
    )
    criteria = [c.description for c in sc.criteria]
    ctx.write_json(
        RLP + "transfer_checklist.json",
        {
            "source_package_id": pkg,
            "title": sc.title,
            "checks": [
                "current_task_inputs_read",
                "outputs_derived_from_current_inputs",
                "required_filenames_created",
                "csv_headers_or_json_keys_match_contract",
                "actual_outputs_json_lists_generated_files",
                "local_sanity_check_completed",
            ],
            "artifact_contracts": full,
            "verifier_checks": criteria,
        },
    )
    if lean:
        return output_contract
    ctx.write_json(
        RLP + "tool_execution_recipe.json",
        {
            "source_package_id": pkg,
            "recommended_steps": [
                "inspect visible input files",
                "write a short deterministic script",
                "run it in the task directory",
                "open outputs and validate schemas",
                "write actual_outputs.json",
            ],
            "artifact_contracts": full,
        },
    )
    _write_texts(ctx, ev, full, required, criteria)
    for name in ("skill.md", "retrieval_card.json", "tool_recipe.json"):
        shutil.copyfile(ctx.path(SKILL + name), ctx.path(RLP + name))
    shutil.copyfile(
        ctx.path(SKILL + "verifier_checklist.json"), ctx.path(RLP + "verifier_spec.json")
    )
    return output_contract


def _write_texts(
    ctx: Ctx,
    ev: Evidence,
    full: list[dict[str, Any]],
    required: list[dict[str, Any]],
    criteria: list[str],
) -> None:
    sc, pkg = ctx.sc, ctx.pkg
    lines = [f"- {contract_line(c)}\n" for c in full]
    checklist = "".join(f"- {c}\n" for c in criteria)
    ctx.write_text(
        RLP + "transfer_runbook.md",
        f"# Transfer Runbook: {sc.title}\n\n## Artifact Contract Pattern\n"
        + "".join(lines)
        + f"\n## Verification Checklist\n{checklist}",
    )
    minimal = (
        f"# Minimal Runtime Transfer Context: {sc.title}\n\n## Output Contract Pattern\n"
        + "".join(lines[:8])
    )
    ctx.write_text(RLP + "minimal_prompt_context.md", minimal[:4000])
    ctx.write_text(
        RLP + "repair_instructions.md",
        f"# Contract Repair Instructions: {sc.title}\n\n"
        "## Required Output Paths\n"
        + "".join(f"- `{r['path']}` ({r['format']})\n" for r in required),
    )
    evidence = "".join(f"- `{r}`\n" for r in ev.evidence_refs[:12])
    ctx.write_text(
        RLP + "runtime_context.md",
        f"# Runtime Context\n\nSource task: {sc.title}\n\n"
        f"Instruction pattern:\n\n{sc.instruction}\n\nDomain: {sc.domain}\n\n"
        f"Evidence refs:\n{evidence}",
    )
    ctx.write_text(
        RLP + "runtime_instructions.md",
        f"# Runtime Instructions: {sc.title}\n\n## Verifier Focus\n"
        f"{checklist}\n## Source Evidence\n{evidence}",
    )
    ctx.write_jsonl(
        RLP + "output_verification_steps.jsonl",
        [
            {
                "source_package_id": pkg,
                "artifact": output_path(c["artifact_ref"]),
                "check": contract_line(c),
                "evidence_refs": [c["artifact_ref"]],
            }
            for c in full
        ],
    )
    ctx.write_jsonl(
        RLP + "common_errors_to_avoid.jsonl",
        [
            {"source_package_id": pkg, "error": e, "avoidance": a}
            for e, a in (
                (
                    "Required output missing or written to the wrong place.",
                    "Create every artifact and reopen it.",
                ),
                (
                    "CSV headers or JSON keys drift from the artifact contract.",
                    "Write headers and keys explicitly.",
                ),
                (
                    "actual_outputs.json does not list generated files.",
                    "Populate it after verifying outputs.",
                ),
            )
        ],
    )
    ctx.write_jsonl(
        RLP + "correction_patterns.jsonl",
        [
            {
                "source_package_id": pkg,
                "pattern": "Update artifacts when follow-ups change constraints.",
                "usable_for": ["followup"],
            }
        ],
    )
    ctx.write_jsonl(
        RLP + "runtime_memory.jsonl",
        [{"source_package_id": pkg, "lesson": sc.instruction, "usable_for": ["runtime_memory"]}],
    )
    ctx.write_jsonl(
        RLP + "tool_use_hints.jsonl",
        [
            {
                "source_package_id": pkg,
                "hint": "Keep refs package-relative.",
                "usable_for": ["tool_use"],
            }
        ],
    )
    patterns = [
        {"source_package_id": pkg, "text": c, "evidence_refs": ev.evidence_refs[:5]}
        for c in criteria
    ]
    for name in RUNTIME_PATTERN_FILES:
        ctx.write_jsonl(RLP + name + ".jsonl", patterns)
