"""skill_pack/: the reusable skill compiled from the workflow."""

from __future__ import annotations

from typing import Any

from ._ctx import Ctx
from ._evidence import Evidence

__all__ = ["write_skill_pack", "skill_md", "retrieval_card", "SKILL"]

SKILL = "experience_compiler/skill_pack/"
_SECTIONS = [
    "Best Use",
    "Prerequisites",
    "Workflow",
    "Decision Points",
    "Common Failure Patterns",
    "Recovery Strategies",
    "Evidence & Artifact Expectations",
    "Verification Checklist",
    "Examples",
    "Transfer Notes",
]


def skill_md(ctx: Ctx, ev: Evidence) -> str:
    """The skill document (also copied into runtime_learning_package/)."""
    sc = ctx.sc
    checks = "".join(f"- {c.description}\n" for c in sc.criteria)
    return (
        f"# Skill Pack: {sc.title}\n\n## Best Use\nMonth-end {sc.domain}/{sc.subdomain} "
        f"reconciliation resembling: {sc.instruction}\n\n## Prerequisites\n"
        "- Task inputs and package-relative evidence refs.\n"
        "- A writable output directory.\n\n## Workflow\n1. Read the inputs and the rubric.\n"
        "2. Convert, match, label, total.\n3. Register outputs in `actual_outputs.json`.\n\n"
        "## Decision Points\n"
        "- Apprenticeship Mode: autonomous.\n- Compiler judge source: apprentice_self_judge.\n\n"
        "## Common Failure Patterns\n- Missing vendor totals.\n- Unlabelled exception rows.\n\n"
        "## Recovery Strategies\n- Regenerate the missing deliverable and rerun the checks.\n\n"
        "## Evidence & Artifact Expectations\n"
        + "".join(f"- artifact: `{r}`\n" for r in ev.artifact_refs[:12])
        + "".join(f"- evidence ref: `{r}`\n" for r in ev.evidence_refs[:14])
        + f"\n## Verification Checklist\n{checks}\n## Examples\n- Source task: {sc.title}\n\n"
        "## Transfer Notes\n- Reuse the procedure, not the source numbers.\n"
    )


def retrieval_card(ctx: Ctx, ev: Evidence, confidence: float) -> dict[str, Any]:
    sc = ctx.sc
    words = sc.title.lower().split() + sc.instruction.lower().split()[:9] + [sc.domain]
    return {
        "title": sc.title,
        "tags": sorted({w for w in words if w.isalpha() and len(w) > 2}),
        "query_terms": sorted(set(sc.title.lower().split() + sc.instruction.lower().split())),
        "useful_for": [
            f"Runtime guidance for adjacent {sc.domain} tasks.",
            "Verifier checklist reuse.",
            "Training/evaluation examples grounded in the source package.",
        ],
        "evidence_refs": ev.evidence_refs[:12],
        "confidence": confidence,
        "source_package_id": ctx.pkg,
        "artifact_expectations": ev.artifact_refs[:10],
    }


def write_skill_pack(ctx: Ctx, ev: Evidence, confidence: float) -> None:
    sc, pkg = ctx.sc, ctx.pkg
    md = skill_md(ctx, ev)
    ctx.write_text(SKILL + "skill.md", md)
    checks = [c.description for c in sc.criteria]
    ctx.write_json(
        SKILL + "skill_manifest.json",
        {
            "source_package_id": pkg,
            "source_task_id": sc.task_id,
            "skill_ref": SKILL + "skill.md",
            "sections": _SECTIONS,
            "quality_floor": "task-specific, evidence-grounded, non-generic",
        },
    )
    bullets = [line[2:] for line in md.splitlines() if line.startswith("- ")]
    ctx.write_json(
        SKILL + "canonical_skill.json",
        {
            "skill_id": f"skill_{pkg}",
            "title": sc.title,
            "summary": f"Reusable runtime skill compiled from the completed workflow: {sc.title}",
            "when_to_use": [
                f"Use for similar {sc.domain} tasks with matching artifacts, constraints, or "
                "verification needs."
            ],
            "procedure": bullets[:12],
            "workflow_steps": [
                "Confirm the task matches the source domain.",
                "Reuse the workflow pattern.",
                "Create package-relative artifacts and update actual_outputs.json.",
                "Verify against the checklist.",
            ],
            "decision_rules": ["Apply only when domain, artifacts or verifier needs overlap."],
            "verifier_checks": [
                *checks,
                "actual_outputs.json names the deliverables",
                "source evidence refs remain package-relative",
            ],
            "failure_modes": [
                "Required inputs or tools are missing.",
                "Artifact refs are missing, absolute, or unresolved.",
            ],
            "recovery_strategies": ["Regenerate missing refs and rerun checks."],
            "success_criteria": checks,
            # format 12.18: evidence_reference_ids holds refs, not ids
            "evidence_refs": ev.evidence_refs,
            "evidence_reference_ids": ev.evidence_refs,
        },
    )
    ctx.write_json(
        SKILL + "skill_card.json",
        {
            "title": sc.title,
            "domain": sc.domain,
            "source_package_id": pkg,
            "runtime_training_summary": f"Skill pack for {sc.title}",
        },
    )
    ctx.write_json(SKILL + "retrieval_card.json", retrieval_card(ctx, ev, confidence))
    ctx.write_jsonl(
        SKILL + "usage_examples.jsonl",
        [
            {
                "source_package_id": pkg,
                "input": sc.instruction,
                "expected_runtime_behavior": "Follow the procedure and verify outputs.",
                "evidence_refs": ev.evidence_refs[:10],
            }
        ],
    )
    ctx.write_jsonl(
        SKILL + "anti_patterns.jsonl",
        [
            {
                "source_package_id": pkg,
                "anti_pattern": "Reusing the skill without checking current constraints.",
                "correction": "Re-read the brief and checklist first.",
            }
        ],
    )
    ctx.write_jsonl(
        SKILL + "failure_modes.jsonl",
        [
            {
                "source_package_id": pkg,
                "failure_mode": "Missing artifact evidence or unresolved output refs.",
                "recovery": "Relink package-relative refs and rerun checks.",
            }
        ],
    )
    ctx.write_jsonl(
        SKILL + "decision_rules.jsonl",
        [
            {
                "source_package_id": pkg,
                "rule": "Use the skill when domain and required tools match.",
                "evidence_refs": ev.evidence_refs[:5],
            }
        ],
    )
    ctx.write_json(
        SKILL + "tool_recipe.json",
        {
            "source_package_id": pkg,
            "required_tools": ctx.state["required_tools"],
            "procedure_ref": "skill.md",
        },
    )
    ctx.write_text(
        SKILL + "verifier_checklist.md",
        "# Verifier Checklist\n\n"
        + "".join(f"- {c}\n" for c in checks)
        + "- Bundle check passes.\n- Evidence refs resolve.\n",
    )
    ctx.write_json(
        SKILL + "verifier_checklist.json",
        {
            "source_package_id": pkg,
            "checks": [*checks, "bundle_check_passes", "evidence_refs_resolve"],
        },
    )
