"""Rows derived from one trace step: the environment response pair and the surface rows (4.2)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from aa_review.core.package import derive

from ._jsonfast import Raw
from ._steps import KINDS

__all__ = ["StepIds", "env_fields", "surface_fields", "step_candidates", "env_extras", "ENV_SCORES"]

_USABLE_ENV = Raw(["environment_model_training", "agent_rl", "verifier_training"])
_USABLE_SURFACE = Raw(["trace_training", "environment_response_training", "verifier_training"])
_EMPTY = Raw([])
_SCORE_KEYS = (
    "format_score",
    "factuality_score",
    "consistency_score",
    "realism_score",
    "training_quality_score",
    "environment_response_quality_score",
)
ENV_SCORES = {"completed": 0.82, "failed": 0.45, "blocked": 0.45}
_COMPONENTS: dict[float, Raw] = {}
_Get = Callable[[str], Any]  # the step's ``get``
_Surface = Callable[[dict[str, Any], _Get, str | None, float], dict[str, Any]]


class StepIds:
    """``derive.row_id`` for step rows (no input/target), with the constant seed parts cached."""

    def __init__(
        self, data_type: str, task_id: str, trace_id: str, attempts: list[str], r: int
    ) -> None:
        self._head = (
            '{"data_type": '
            + json.dumps(data_type)
            + ', "input": null, "round": '
            + str(r)
            + ', "source_attempt_ids": '
            + json.dumps(attempts)
            + ', "source_step_ids": ['
        )
        self._tail = (
            '], "source_task_id": '
            + json.dumps(task_id)
            + ', "source_trace_id": '
            + json.dumps(trace_id)
            + ', "target": null}'
        )
        prefix = "pair" if data_type in derive.PAIR_TYPES else "row"
        self._prefix = f"{prefix}_{derive.safe_id(task_id)}_{derive.safe_id(data_type)}_"

    def __call__(self, n: int) -> str:
        seed = self._head + str(n) + self._tail
        return self._prefix + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:16]


def step_candidates(kind_idx: int, step: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Surface row candidates of a step: ``(data_type, multimodal artifact ref or None)``."""
    out: list[tuple[str, str | None]] = []
    for t in KINDS[kind_idx].row_types:
        if t == "multimodal_artifact":
            refs = (
                step.get("artifact_refs")
                or step.get("page_refs")
                or step.get("table_extract_refs")
                or [step.get("document_ref")]
            )
            out += [(t, ref) for ref in refs]
        else:
            out.append((t, None))
    return out


def env_fields(
    step: dict[str, Any], prev_state: str, total_turns: int, feedback: str
) -> dict[str, Any]:
    """Type fields of an ``environment_response_pair`` (from ``data_type`` to ``usable_for``)."""
    outcome = step["step_outcome"]
    s = ENV_SCORES.get(outcome, 0.72)
    out: dict[str, Any] = {
        "data_type": "environment_response_pair",
        "source_step_id": step["step"],
        "environment_domain": step["environment_domain"],
        "interaction_surface": step["interaction_surface"],
        "state_before": prev_state,
        "agent_action": step["input"],
        "observed_environment_response": step["output"],
        "state_after": step["state_change"],
        "success_signal": outcome,
        "failure_mode": step.get("error_type") or "",
        "verifier_feedback": feedback,
        "turn_idx": step["step"],
        "total_turns": total_turns,
    }
    for k in _SCORE_KEYS:
        out[k] = s
    out["usable_for"] = _USABLE_ENV
    return out


def env_extras(step: dict[str, Any], row_id: str, group: str) -> dict[str, Any]:
    """Fields the compiler appends after the hash (format 4.2 ★)."""
    outcome = step["step_outcome"]
    s = ENV_SCORES.get(outcome, 0.72)
    comp = _COMPONENTS.get(s)
    if comp is None:
        comp = _COMPONENTS[s] = Raw({"format": s, "consistency": s})
    return {
        "rollout_group_id": group,
        "candidate_rollout_id": "rollout_" + row_id,
        "scalar_reward": s,
        "reward_components": comp,
        "termination_reason": outcome,
    }


def surface_fields(t: str, step: dict[str, Any], ref: str | None, q: float) -> dict[str, Any]:
    """Type fields of a surface row (from ``data_type`` to the last surface field)."""
    g = step.get
    out: dict[str, Any] = {
        "data_type": t,
        "source_step_id": step["step"],
        "environment_domain": step["environment_domain"],
        "interaction_surface": step["interaction_surface"],
        "state_change": step["state_change"],
        "success_signal": step["step_outcome"],
        "failure_mode": g("error_type") or "",
        "training_quality_score": q,
        "usable_for": _USABLE_SURFACE,
    }
    out.update(_SURFACE[t](step, g, ref, q))
    return out


def _handoff(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "parent_agent_id": g("parent_agent_id"),
        "subagent_id": g("subagent_id"),
        "handoff_reason": g("handoff_reason"),
        "handoff_payload_ref": None,
        "subagent_output_refs": _EMPTY,
        "downstream_steps_caused": _EMPTY,
        "handoff_quality_score": q,
        "delegation_success": None,
        "reusable_lesson": step["state_change"],
    }


def _multimodal(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "modality": g("modality"),
        "artifact_ref": ref,
        "artifact_role": None,
        "mime_type": g("mime_type"),
        "artifact_hash": None,
        "preview_ref": None,
        "extracted_text_ref": None,
        "transcript_ref": None,
        "annotation_ref": None,
        "verifier_use": "artifact evidence",
        "training_use_cases": Raw(["multimodal_grounding", "verifier_training"]),
        "evidence_status": _EMPTY,
    }


def _ui(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "ui_surface": g("ui_surface"),
        "app_name": g("app_name"),
        "action_type": g("action_type"),
        "visible_state_ref": None,
        "screenshot_ref": g("screenshot_ref"),
        "element_selector": None,
        "coordinates": None,
        "input_text": "",
        "observed_result": step["output"],
    }


def _physical(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "physical_environment_type": step["environment_domain"],
        "device_type": g("device_type"),
        "sensor_readings_ref": None,
        "actuator_command": "",
        "physical_state_before_ref": None,
        "physical_state_after_ref": None,
        "telemetry_ref": None,
        "safety_state": g("safety_state"),
        "operator_override": None,
        "simulation_or_real_world": g("simulation_or_real_world"),
        "safety_relevance": "safety_state captured",
        "verifier_use": "safety and telemetry evidence",
        "evidence_status": Raw(["Physical evidence refs were not captured."]),
    }


def _api(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "api_provider": g("api_provider"),
        "api_service": g("api_service"),
        "api_endpoint": g("api_endpoint"),
        "api_method": g("api_method"),
        "http_status": g("http_status"),
        "request_payload_ref": None,
        "response_payload_ref": None,
        "resource_id": g("resource_id"),
        "object_type": g("object_type"),
        "retry_count": None,
        "verifier_use": "API request/response grounding",
    }


def _mcp(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "mcp_server": g("mcp_server"),
        "mcp_capability_type": g("mcp_capability_type"),
        "mcp_tool_name": g("mcp_tool_name"),
        "mcp_resource_uri": None,
        "mcp_prompt_name": None,
        "arguments_ref": None,
        "result_ref": None,
    }


def _database(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "database_type": g("database_type"),
        "database_name": g("database_name"),
        "schema_name": g("schema_name"),
        "table_name": g("table_name"),
        "query_type": g("query_type"),
        "query_ref": None,
        "row_count": g("row_count"),
        "affected_row_count": None,
        "transaction_id": None,
    }


def _table(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "workbook_ref": None,
        "sheet_name": g("sheet_name"),
        "table_ref": None,
        "cell_range": g("cell_range"),
        "row_count": g("row_count"),
        "column_count": g("column_count"),
        "formula_refs": _EMPTY,
        "before_table_ref": None,
        "after_table_ref": None,
        "diff_ref": None,
    }


def _software(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "command": g("command") or step["input"],
        "command_ref": None,
        "exit_code": g("exit_code"),
        "stdout_ref": g("stdout_ref"),
        "stderr_ref": None,
        "file_path": g("file_path"),
        "file_paths": _EMPTY,
        "file_operation": g("file_operation") or step["operation"],
        "diff_ref": None,
        "test_result_ref": None,
    }


def _search(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "search_provider": step["tool"],
        "query": g("query"),
        "query_ref": None,
        "search_scope": g("search_scope"),
        "result_count": g("result_count"),
        "selected_result_refs": _EMPTY,
        "citation_refs": _EMPTY,
    }


def _enterprise(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "service_name": g("service_name"),
        "workspace_id": None,
        "project_id": None,
        "resource_id": g("resource_id"),
        "resource_type": g("resource_type"),
        "record_id": g("record_id"),
        "ticket_id": None,
        "object_state_before_ref": None,
        "object_state_after_ref": None,
        "audit_log_ref": None,
    }


def _async(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "job_id": g("job_id"),
        "job_type": g("job_type"),
        "queue_name": g("queue_name"),
        "job_status": g("job_status"),
        "scheduler_ref": None,
        "webhook_ref": None,
        "retry_count": None,
        "result_ref": None,
    }


def _collaboration(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "platform_name": g("platform_name"),
        "channel_id": g("channel_id"),
        "thread_id": g("thread_id"),
        "message_id": None,
        "sender_role": g("sender_role"),
        "recipient_role": g("recipient_role"),
        "message_type": g("message_type"),
        "message_ref": None,
        "attachment_refs": _EMPTY,
        "decision_refs": _EMPTY,
        "followup_required": None,
    }


def _document(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "document_ref": g("document_ref"),
        "document_type": g("document_type"),
        "page_refs": g("page_refs") or _EMPTY,
        "section_refs": _EMPTY,
        "text_extract_ref": None,
        "table_extract_refs": _EMPTY,
        "figure_refs": _EMPTY,
        "citation_refs": _EMPTY,
        "annotation_refs": _EMPTY,
        "summary_ref": None,
    }


def _cross(step: dict[str, Any], g: _Get, ref: str | None, q: float) -> dict[str, Any]:
    return {
        "connected_surfaces": g("connected_surfaces") or _EMPTY,
        "cross_system_dependencies": _EMPTY,
        "handoff_refs": _EMPTY,
        "state_sync_refs": _EMPTY,
        "consistency_checks": g("consistency_checks") or _EMPTY,
        "system_of_record": g("system_of_record"),
    }


_SURFACE: dict[str, _Surface] = {
    "multi_agent_handoff": _handoff,
    "multimodal_artifact": _multimodal,
    "ui_interaction_event": _ui,
    "physical_environment_event": _physical,
    "api_interaction_event": _api,
    "mcp_interaction_event": _mcp,
    "database_event": _database,
    "structured_table_event": _table,
    "software_execution_event": _software,
    "search_retrieval_event": _search,
    "enterprise_app_event": _enterprise,
    "async_workflow_event": _async,
    "collaboration_event": _collaboration,
    "document_event": _document,
    "cross_system_event": _cross,
}
