"""The source package's task side: task/, rubric/, input/, hidden_reference/, README, manifest."""

from __future__ import annotations

from typing import Any

from ._ctx import Ctx
from ._scenario import Scenario

__all__ = ["write_task_side", "rubric_items", "TRACE_COUNTERS"]

TRACE_COUNTERS = (
    "raw_trace_count",
    "raw_trace_step_count",
    "normalized_trace_count",
    "normalized_trace_step_count",
    "fallback_trace_count",
    "fallback_trace_step_count",
    "discarded_step_count",
    "raw_trace_parse_error_count",
    "trace_normalization_error_count",
    "trace_normalization_partial_count",
    "trace_lossless_count",
    "trace_lossless_failure_count",
)


def rubric_items(sc: Scenario) -> list[dict[str, Any]]:
    """The rubric items as ``rubric/rubric.json`` lists them."""
    return [
        {
            "rubric_item_id": c.item_id,
            "criterion_name": c.name,
            "criterion_description": c.description,
            "weight": c.weight,
            "score_min": 0.0,
            "score_max": 1.0,
            "pass_threshold": 0.7,
            "observable_evidence": [f"{c.name} visible in the deliverables"],
            "required_artifacts": ["reconciliation_report.csv"],
            "scoring_method": "hybrid",
            "worker_visible": True,
            "verifier_only": False,
            "hidden_reference_required": False,
            "failure_modes": [f"{c.name} missing"],
            "partial_credit_rules": [],
            "edge_cases": [],
            "anti_cheat_notes": [],
            "metadata_json": {},
        }
        for c in sc.criteria
    ]


def _raw_task(ctx: Ctx) -> dict[str, Any]:
    sc = ctx.sc
    payload = {
        "normalized_domain": sc.domain,
        "normalized_subdomain": sc.subdomain,
        "apprenticeship_role": sc.role,
        "task_family": sc.family,
        "expected_deliverable": "Reconciled report, vendor totals and audit summary",
        "expected_economic_value": "medium",
        "difficulty_tier": "medium",
        "needs_expert_review": False,
    }
    return {
        "raw_task_id": sc.task_id,
        "raw_title": sc.title,
        "raw_description": sc.instruction,
        "raw_payload": {**payload, "input_requirements": sc.inputs},
        "task_id": sc.task_id,
        "normalized_title": sc.title,
        "normalized_instruction": sc.instruction,
        "input_artifact_refs": [],
        "created_at": ctx.clock.at(0),
        "metadata_json": {},
        **payload,
    }


def _intake_spec(sc: Scenario) -> dict[str, Any]:
    return {
        "task_id": sc.task_id,
        "normalized_title": sc.title,
        "normalized_instruction": sc.instruction,
        "domain": sc.domain,
        "subdomain": sc.subdomain,
        "professional_role": "accounts payable analyst",
        "apprenticeship_role": sc.role,
        "task_family": sc.family,
        "expected_economic_value": "medium",
        "workflow_type": "data_reconciliation",
        "skill_targets": ["fx_conversion", "fuzzy_vendor_matching", "exception_reporting"],
        "difficulty_tier": "medium",
        "expected_human_deliverable": "Month-end reconciliation workbook",
        "expected_agent_deliverable": "Reconciled report, vendor totals and audit summary",
        "input_requirements": sc.inputs,
        "output_requirements": sc.deliverables,
        "required_context": [],
        "assumptions": ["fx rates are valid for the whole month"],
        "constraints": ["do not edit input files", "amounts in USD with two decimals"],
        "allowed_tools": ["python", "bash"],
        "disallowed_tools": [],
        "privacy_classification": "synthetic",
        "license": "CC-BY-4.0",
        "allowed_use": "research",
        "rubricability_score": 0.9,
        "verifiability_score": 0.85,
        "artifactability_score": 0.9,
        "needs_expert_review": False,
        "metadata_json": {"mentor_audited": False, "audit_status": "unaudited"},
    }


def _rubric(sc: Scenario) -> dict[str, Any]:
    return {
        "rubric_id": f"rubric_{sc.package_id}",
        "task_id": sc.task_id,
        "rubric_version": "1",
        "rubric_items": rubric_items(sc),
        "total_weight": 1.0,
        "pass_threshold": 0.7,
        "worker_visible_rubric_ref": "rubric/worker_visible_rubric.md",
        "verifier_private_rubric_ref": "rubric/verifier_private_rubric.json",
        "hidden_reference_policy": "hidden references are used only by graders",
        "scoring_aggregation": "weighted_sum",
        "required_artifacts": sc.deliverables,
        "disqualifying_errors": [],
        "partial_credit_allowed": True,
        "grader_kind": "hybrid",
        "rubric_generation_source": "task_specific_agent_draft",
        "metadata_json": {"mentor_audited": False, "audit_status": "unaudited"},
    }


def _csv(rows: list[list[str]]) -> str:
    return "".join(",".join(r) + "\n" for r in rows)


def write_task_side(ctx: Ctx) -> None:
    """Write task/, rubric/, input/, hidden_reference/, README.md and manifest.json."""
    sc, pkg = ctx.sc, ctx.pkg
    ctx.write_text(
        "README.md", f"# Task package {pkg}\n\nLocal agent apprenticeship trace package.\n"
    )
    ctx.write_json(
        "manifest.json",
        {
            "task_id": sc.task_id,
            "schema_version": "aa-package-v0.1",
            "trace_counters": dict.fromkeys(TRACE_COUNTERS, 0),
        },
    )
    raw = _raw_task(ctx)
    ctx.write_json("task/raw_task_record.json", raw)
    ctx.write_json("input/task.json", raw)
    ctx.write_json("task/task_intake_spec.json", _intake_spec(sc))
    ctx.write_json(
        "task/task_intake_quality_report.json",
        {
            "task_id": sc.task_id,
            "instruction_clarity_score": 0.9,
            "input_completeness_score": 0.95,
            "output_contract_score": 0.85,
            "rubricability_score": 0.9,
            "verifiability_score": 0.85,
            "artifactability_score": 0.9,
            "privacy_risk_score": 0.05,
            "license_risk_score": 0.05,
            "ambiguity_score": 0.15,
            "overall_intake_quality_score": 0.88,
            "quality_flags": [],
            "blockers": [],
            "recommended_fix": None,
            "metadata_json": {},
        },
    )
    rubric = _rubric(sc)
    ctx.write_json("rubric/rubric.json", rubric)
    ctx.write_json("rubric/verifier_private_rubric.json", rubric)
    ctx.write_jsonl("rubric/rubric_items.jsonl", rubric["rubric_items"])
    ctx.write_json(
        "rubric/rubric_quality_report.json",
        {
            "rubric_id": f"rubric_{pkg}",
            "task_id": sc.task_id,
            "criteria_count": len(sc.criteria),
            "total_weight": 1.0,
            "weights_sum_valid": True,
            "has_observable_evidence": True,
            "has_required_artifacts": True,
            "has_partial_credit_rules": False,
            "has_disqualifying_errors": False,
            "has_hidden_reference_policy": True,
            "has_worker_visible_view": True,
            "has_verifier_private_view": True,
            "ambiguous_criteria_count": 0,
            "unverifiable_criteria_count": 0,
            "rubric_quality_score": 0.86,
            "quality_flags": [],
            "blockers": [],
            "metadata_json": {},
        },
    )
    ctx.write_text(
        "rubric/worker_visible_rubric.md",
        "# Rubric\n\n"
        + "".join(f"- **{c.name}** ({c.weight}): {c.description}\n" for c in sc.criteria),
    )
    _write_inputs(ctx)


def _write_inputs(ctx: Ctx) -> None:
    sc, pkg = ctx.sc, ctx.pkg
    ctx.write_text(
        "input/invoices.csv",
        _csv(
            [
                ["invoice_id", "vendor", "invoice_date", "due_date", "currency", "amount"],
                *sc.invoices,
            ]
        ),
    )
    ctx.write_text(
        "input/payments.csv",
        _csv(
            [
                ["payment_id", "payment_date", "vendor_name", "invoice_ref", "currency", "amount"],
                *sc.payments,
            ]
        ),
    )
    ctx.write_text(
        "input/fx_rates.csv",
        _csv(
            [["currency", "usd_rate", "effective_date"]]
            + [[cur, repr(rate), f"{sc.year}-02-01"] for cur, rate in sc.fx.items()]
        ),
    )
    ctx.write_text(
        "input/vendor_aliases.csv",
        _csv([["canonical_vendor", "alias"]] + [[v, v.upper()] for v in sc.vendors]),
    )
    ctx.write_text(
        "input/reconciliation_policy.md",
        (
            "# Reconciliation policy\n\n- Convert amounts to USD with fx_rates.csv.\n"
            "- Resolve vendor names through vendor_aliases.csv.\n"
            "- Label partial payments, overpayments, duplicate invoice ids and missing invoice "
            "references.\n"
            "- Payments up to 3 days after the due date count as on time.\n"
        ),
    )
    ctx.write_text(
        "input/task_brief.md",
        (
            f"# {sc.title}\n\n## Instruction\n{sc.instruction}\n\n## Expected deliverable\n"
            f"{', '.join(sc.deliverables)}\n\n## Publishable task metadata\n- domain: {sc.domain}\n"
            f"- subdomain: {sc.subdomain}\n- task_family: {sc.family}\n- difficulty_tier: medium\n"
        ),
    )
    for i in (1, 2, 3):
        ctx.write_text(
            f"input/scans/invoice_scan_0{i}.pdf",
            (
                f"%PDF-1.4\n% synthetic scan {i} for {pkg}\n"
                "1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"
            ),
        )
    ctx.write_text(
        "hidden_reference/expected_vendor_totals.csv",
        _csv(
            [["vendor", "total_invoiced_usd"]]
            + [[v, f"{1000 + 37 * i:.2f}"] for i, v in enumerate(sc.vendors)]
        ),
    )
