"""Per-row companions: evidence-map links, process-supervision and agentic-rollout rows (4.3, 6)."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive

from ._evidence import Evidence
from ._jsonfast import Raw, dumps_line, enc
from ._rows_common import RowContext
from ._template import RowTemplate

__all__ = ["Companions"]

_NEXT = "Continue from the observed state and verify the output contract before answering."


_META: dict[tuple[Any, ...], Raw] = {}


def _meta(*key: Any) -> Raw:
    out = _META.get(key)
    if out is None:
        names = ("environment_domain", "interaction_surface", "tool_or_surface")[: len(key)]
        out = _META[key] = Raw(dict(zip(names, key, strict=True)))
    return out


def _ps_values(r: dict[str, Any]) -> dict[str, Any]:
    g = r.get
    signal = r["success_signal"]
    label = (
        "positive"
        if signal in ("completed", True)
        else ("negative" if signal in ("failed", "blocked") else "unknown")
    )
    tool = g("api_endpoint") or g("table_name") or g("service_name") or g("search_provider")
    return {
        "row_id": "ps_" + r["row_id"],
        "source_trace_id": r["source_trace_id"],
        "source_step_ids": r["source_step_ids"],
        "step_goal": g("agent_action") or g("command") or g("query") or r["state_change"],
        "action_taken": g("agent_action")
        or g("command")
        or g("query")
        or g("action_type")
        or r["state_change"],
        "observation": g("observed_environment_response")
        or g("observed_result")
        or r["state_change"],
        "tool_action_metadata": _meta(r["environment_domain"], r["interaction_surface"], tool),
        "correctness_label": label,
        "quality_signal": r["training_quality_score"],
    }


def _rl_values(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "row_id": "rl_" + r["row_id"],
        "candidate_rollout_id": "rollout_" + r["row_id"],
        "prompt_or_instruction": r["agent_action"],
        "initial_environment_state": r["state_before"],
        "tool_action_schema": _meta(r["environment_domain"], r["interaction_surface"]),
        "step_action_trace": Raw(
            None,
            '{"source_trace_id": '
            + enc(r["source_trace_id"])
            + ', "source_step_ids": '
            + enc(r["source_step_ids"])
            + ', "action": '
            + enc(r["agent_action"])
            + ', "observation": '
            + enc(r["observed_environment_response"])
            + "}",
        ),
        "final_output": r["state_after"],
        "scalar_reward": r["scalar_reward"],
        "reward_components": r["reward_components"],
        "success_label": r["success_signal"],
        "termination_reason": r["termination_reason"],
    }


class Companions:
    """Renders the link, process-supervision and rollout lines that follow a final-round row."""

    def __init__(self, rc: RowContext, ev: Evidence, group: str) -> None:
        ctx = rc.ctx
        self.ev = ev
        self._visible = {e["evidence_id"] for e in ev.catalog if e["visibility"] == "visible"}
        self._inferred = {e["evidence_id"] for e in ev.catalog if e["visibility"] == "inferred"}
        head = {"schema_version": ctx.v.row}
        lineage = {
            "source_package_id": ctx.pkg,
            "source_task_id": ctx.sc.task_id,
            "task_lineage": rc.lineage,
        }
        flow = {
            "domain": ctx.sc.domain,
            "subdomain": ctx.sc.subdomain,
            "workflow_family": ctx.sc.family,
        }
        tail = {
            "source_evidence_ref_ids": Raw(ev.evidence_ids),
            "evidence_refs": Raw(ev.evidence_refs),
            "confidence": rc.scores.confidence,
            "created_at": rc.created_at,
        }
        proto_ps = {
            **head,
            "row_id": "",
            "data_type": "process_supervision",
            **lineage,
            **flow,
            "source_trace_id": "",
            "source_step_ids": [],
            "step_goal": "",
            "action_taken": "",
            "observation": "",
            "tool_action_metadata": {},
            "correctness_label": "",
            "quality_signal": 0.0,
            "next_step_recommendation": _NEXT,
            **tail,
        }
        self._ps = RowTemplate(proto_ps, set(_PS_VARS), hashed=False)
        proto_rl = {
            **head,
            "row_id": "",
            "data_type": "agentic_rl_rollout",
            **lineage,
            **flow,
            "rollout_group_id": group,
            "candidate_rollout_id": "",
            "prompt_or_instruction": "",
            "initial_environment_state": "",
            "visible_input_refs": Raw(ev.input_refs),
            "tool_action_schema": {},
            "step_action_trace": {},
            "artifacts_produced": Raw(ev.artifact_refs),
            "final_output": "",
            "verifier_decision": "",
            "scalar_reward": 0.0,
            "reward_components": {},
            "reward_timing": "step",
            "success_label": "",
            "termination_reason": "",
            "source_evidence_ref_ids": tail["source_evidence_ref_ids"],
            "evidence_refs": tail["evidence_refs"],
            "replay_scoring_smoke_test_refs": Raw(ev.eval_refs),
            "confidence": tail["confidence"],
            "created_at": tail["created_at"],
        }
        self._rl_proto = proto_rl
        self._rl: RowTemplate | None = None
        self._links: dict[tuple[str, str], RowTemplate] = {}
        self._link_artifacts = Raw(ev.artifact_refs)
        self._link_ids = Raw(ev.evidence_ids)
        self._link_visible = Raw(ev.visible_ids)
        self._task_id = ctx.sc.task_id
        # Varied rows cite their own evidence sets: no template shares a link's ids.
        self.varied = ctx.variation is not None

    def ps(self, r: dict[str, Any]) -> str:
        return self._ps.render(_ps_values(r))

    def rl(self, r: dict[str, Any]) -> str:
        if self._rl is None:
            proto = dict(self._rl_proto)
            proto["verifier_decision"] = r["verifier_feedback"]
            self._rl = RowTemplate(proto, set(_RL_VARS), hashed=False)
        return self._rl.render(_rl_values(r))

    def link(self, file: str, r: dict[str, Any], standard: bool) -> str:
        """The ``row_evidence_links`` entry; ``standard`` rows carry the package's full id list."""
        rid = r.get("row_id") or r.get("pair_id") or ""
        if not standard:
            return dumps_line(self.link_dict(file, r))
        if self.varied:
            whole = {**r, "source_artifact_refs": self._link_artifacts}
            return dumps_line(self.link_dict(file, whole))
        key = (file, r["data_type"])
        tpl = self._links.get(key)
        if tpl is None:
            proto = self.link_dict(
                file,
                {
                    **r,
                    "source_evidence_ref_ids": self._link_ids,
                    "source_artifact_refs": self._link_artifacts,
                },
            )
            tpl = self._links[key] = RowTemplate(
                proto, {"row_id", "source_trace_id", "source_step_ids"}, hashed=False
            )
        return tpl.render(
            {
                "row_id": str(rid),
                "source_trace_id": r["source_trace_id"],
                "source_step_ids": r["source_step_ids"],
            }
        )

    def link_dict(self, file: str, r: dict[str, Any]) -> dict[str, Any]:
        """The link of a row built field by field (rows changed by a defect)."""
        ids = _plain(r.get("source_evidence_ref_ids")) or [
            derive.evidence_id(x) for x in _plain(r.get("evidence_refs")) or []
        ]
        return {
            "row_id": str(r.get("row_id") or r.get("pair_id") or ""),
            "row_file": file,
            "data_type": r.get("data_type"),
            "source_task_id": r.get("source_task_id", self._task_id),
            "source_trace_id": r.get("source_trace_id"),
            "source_step_ids": r.get("source_step_ids") or [],
            "source_artifact_refs": _plain(r.get("source_artifact_refs")) or [],
            "evidence_ref_ids": ids,
            "visible_evidence_ref_ids": [i for i in ids if i in self._visible],
            "inferred_evidence_ref_ids": [i for i in ids if i in self._inferred],
        }


def _plain(v: Any) -> Any:
    return v.value if isinstance(v, Raw) else v


_PS_VARS = (
    "row_id",
    "source_trace_id",
    "source_step_ids",
    "step_goal",
    "action_taken",
    "observation",
    "tool_action_metadata",
    "correctness_label",
    "quality_signal",
)
_RL_VARS = (
    "row_id",
    "candidate_rollout_id",
    "prompt_or_instruction",
    "initial_environment_state",
    "tool_action_schema",
    "step_action_trace",
    "final_output",
    "scalar_reward",
    "reward_components",
    "success_label",
    "termination_reason",
)
