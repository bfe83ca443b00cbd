"""environment/: the environment spec and its replay, setup and reset files (format 3.2)."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive

from ._ctx import Ctx
from ._derived import LOOP_T, derived_base, lineage
from ._evidence import Evidence
from ._trace_stats import TraceStats

__all__ = ["write_environment", "ENV"]

ENV = "experience_compiler/environment/"
_REQ = (
    "capture surface-specific ids, state refs, requests/responses, evidence refs, and status "
    "transitions "
    "when available"
)
_HOOKS = (
    "grading/baseline_grader_result.json",
    "grading/revised_grader_result.json",
    "grading/baseline_verifier_result.json",
    "grading/revised_verifier_result.json",
)


def _spec(ctx: Ctx, ev: Evidence, st: TraceStats) -> dict[str, Any]:
    def g(name: str) -> list[Any]:
        return list(getattr(st, name))

    surfaces = sorted(st.surfaces)
    commands = sorted(st.commands)
    scoring = [r for r in _HOOKS if ctx.path(r).exists()]
    return {
        "environment_type": "mixed",
        "environment_domain": "mixed",
        "interaction_surfaces": surfaces,
        "surface_requirements": dict.fromkeys(surfaces, _REQ),
        "required_tools": ctx.state["required_tools"],
        "runtime_dependencies": ["python"],
        "setup_commands": [],
        "input_artifacts": ev.input_refs,
        "initial_state_refs": ["task/task_intake_spec.json", "rubric/rubric.json"],
        "allowed_actions": sorted(st.operations),
        "action_schema": {
            "action": "operation/tool invocation or artifact-producing step",
            "tool": "optional tool name",
            "input": "visible input or command payload",
            "artifact_refs": "package-relative refs produced or inspected",
        },
        "observation_schema": {
            "observation": "tool/environment response summary",
            "state_change": "state delta after action",
            "artifact_refs": "package-relative output refs",
            "success_signal": "step outcome or verifier signal",
        },
        "reset_strategy": "unknown",
        "verification_commands": [],
        "scoring_refs": scoring,
        "expected_output_refs": [r for r in ev.artifact_refs if "/artifacts/" in r],
        # format 12.7: the sanitizer rewrites the controller key inside the token
        "termination_conditions": [
            "task_complete",
            "contract_verified",
            "[internal controller setting omitted]_reached",
        ],
        "reward_function_components": [
            "artifact_contract",
            "verifier_signal",
            "step_success",
            "grader_score_if_available",
        ],
        "replay_smoke_test": {"available": False, "command": None, "success_condition": None},
        "reproducibility_metadata": {
            "source_trace_count": 2,
            "package_id": ctx.pkg,
            "created_from_observed_trace": True,
        },
        "multi_agent": {
            "present": bool(st.agents),
            "agents": g("agents"),
            "coordination_pattern": st.coordination,
            "handoff_refs": [],
        },
        "multimodal": {
            "present": bool(st.modalities),
            "modalities": sorted(st.modalities),
            "artifact_refs": g("mm_refs"),
        },
        "ui_or_software": {"present": bool(st.ui), "surfaces": sorted(st.ui), "state_refs": []},
        "physical_or_industrial": {
            "present": st.physical,
            "environment_type": None,
            "device_refs": [],
            "safety_refs": [],
            "telemetry_refs": [],
        },
        "api": {
            "providers": g("api_providers"),
            "endpoints": g("endpoints"),
            "auth_modes": [],
            "schemas": [],
        },
        "mcp": {
            "servers": g("mcp_servers"),
            "tools": g("mcp_tools"),
            "resources": [],
            "prompts": [],
        },
        "database": {"types": g("db_types"), "schemas": g("db_schemas"), "tables": g("db_tables")},
        "spreadsheet": {"workbooks": [], "sheets": sorted(st.sheets), "tables": []},
        "software_execution": {"commands": commands, "tests": [], "dependencies": []},
        "async": {"jobs": g("jobs")[:50], "queues": g("queues"), "webhooks": [], "schedulers": []},
        "collaboration": {
            "platforms": g("platforms"),
            "threads": sorted(st.threads),
            "decisions": [],
        },
        "documents": {"documents": g("documents"), "extracts": g("extracts"), "citations": []},
        "cross_system": {
            "systems": surfaces,
            "dependencies": [],
            "system_of_record": next(iter(st.systems_of_record), None),
        },
        "evidence_status": ["No simulated environment response is generated."],
    }


def write_environment(ctx: Ctx, ev: Evidence, st: TraceStats, confidence: float) -> None:
    sc, pkg = ctx.sc, ctx.pkg
    spec = _spec(ctx, ev, st)
    ctx.write_json(ENV + "environment_spec.json", spec)
    ctx.write_json("tdo/environment_spec.json", spec)
    ctx.write_json(
        ENV + "environment_manifest.json",
        {
            "schema_version": ctx.v.environment,
            "source_package_id": pkg,
            "source_task_id": sc.task_id,
            "task_lineage": lineage(ctx),
            "environment_spec_ref": ENV + "environment_spec.json",
            "state_transition_rows_ref": ENV + "state_transition_rows.jsonl",
            "replay_plan_ref": ENV + "replay_plan.json",
            "source_evidence_map_ref": "experience_compiler/source_evidence_map.json",
            "supported_training_uses": [
                "agentic_rl",
                "grpo_rollout_material",
                "environment_model_training",
                "replay_smoke_testing",
            ],
        },
    )
    ctx.write_json(
        ENV + "replay_plan.json",
        {
            "schema_version": ctx.v.replay,
            "source_package_id": pkg,
            "source_task_id": sc.task_id,
            "task_lineage": lineage(ctx),
            "replay_available": False,
            "initial_state_refs": spec["initial_state_refs"],
            "visible_input_refs": ev.input_refs,
            "action_schema_ref": ENV + "allowed_actions.jsonl",
            "observation_schema": {
                "observation": "string",
                "artifact_refs": "array",
                "state_after": "string",
            },
            "scoring_or_verifier_hooks": spec["scoring_refs"],
            # format 12.7: the unsanitized replay plan keeps the controller key
            "termination_conditions": [
                "task_complete",
                "contract_verified",
                "max_iterations_reached",
            ],
            "reward_function_components": ["artifact_contract", "verifier_signal", "step_success"],
            "generation_note": (
                "Replay is task-dependent; use environment_spec and verifier checks."
            ),
        },
    )
    ctx.write_json(
        ENV + "setup_requirements.json",
        {
            "schema_version": ctx.v.setup,
            "source_package_id": pkg,
            "required_tools": ctx.state["required_tools"],
            "runtime_dependencies": ["python"],
            "dependency_metadata": {
                "commands": spec["software_execution"]["commands"],
                "tests": [],
                "dependencies": [],
            },
        },
    )
    ctx.write_json(
        ENV + "reset_strategy.json",
        {
            "schema_version": ctx.v.reset,
            "source_package_id": pkg,
            "reset_strategy": "unknown",
            "state_reset_refs": spec["initial_state_refs"],
            "generation_notes": ["No simulated environment response is generated."],
        },
    )
    rows = []
    for i, action in enumerate(spec["allowed_actions"], 1):
        head, tail = derived_base(
            ctx,
            ev,
            confidence,
            "allowed_action",
            f"allowed_action_{_safe(pkg)}_{i}",
            ev.evidence_refs[:3],
        )
        rows.append(
            {
                **head,
                "action": action,
                "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
                "evidence_refs": tail["evidence_refs"],
                "confidence": confidence,
                "created_at": ctx.clock.tick(LOOP_T + 13.8),
            }
        )
    ctx.write_jsonl(ENV + "allowed_actions.jsonl", rows)
    ctx.write_text(ENV + "verification_commands.jsonl", "")


def _safe(x: str) -> str:
    return derive.safe_id(x)
