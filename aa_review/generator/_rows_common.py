"""Fields every training row shares (format 4.1), scores (7.6) and per-type use tables (5)."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive
from aa_review.core.package.layout import FIXED_TYPES, SURFACE_TYPES

from ._ctx import Ctx
from ._evidence import Evidence
from ._jsonfast import Raw
from ._plan import ATTEMPTS

__all__ = [
    "Scores",
    "scores",
    "RowContext",
    "USE_CASES",
    "TARGETS",
    "FIXED_TYPES",
    "SURFACE_TYPES",
    "STEP_TYPES",
    "ROW_TYPES",
    "file_of",
    "round_time",
]

# The 7 fixed types and the 15 surface types (rule order, format 4.2) are the loader's.
STEP_TYPES = ("environment_response_pair", *SURFACE_TYPES)
ROW_TYPES = FIXED_TYPES + STEP_TYPES

_PS_RL = ("process_supervision", "agentic_rl")
_PS_ENV = ("process_supervision", "environment_model_training")
USE_CASES: dict[str, list[str]] = {
    "training_example": ["sft", "lora_ready_instruction_tuning"],
    "evaluation_example": ["eval_generation", "rubric_training"],
    "verifier_example": ["verifier_training"],
    "reward_model_row": ["reward_modeling", "agentic_rl_reward"],
    "preference_pair": ["preference_optimization", "dpo_ipo_orpo"],
    "failure_case": ["failure_prediction", "repair_policy_training"],
    "task_variant": ["transfer_eval_generation", "curriculum_generation"],
    "environment_response_pair": [
        "environment_model_training",
        "agentic_rl",
        "grpo_rollout_material",
    ],
    "multi_agent_handoff": list(_PS_RL),
    "software_execution_event": list(_PS_RL),
    "multimodal_artifact": ["multimodal_grounding", "verifier_training"],
    "ui_interaction_event": list(_PS_ENV),
    "enterprise_app_event": list(_PS_ENV),
    "async_workflow_event": list(_PS_ENV),
    "cross_system_event": list(_PS_ENV),
    "physical_environment_event": ["environment_model_training", "safety_verifier_training"],
    "api_interaction_event": ["tool_use_training", "environment_model_training"],
    "mcp_interaction_event": ["tool_use_training", "environment_model_training"],
    "database_event": ["tool_use_training", "process_supervision"],
    "structured_table_event": ["tool_use_training", "verifier_training"],
    "search_retrieval_event": ["retrieval_grounding", "citation_verifier_training"],
    "collaboration_event": ["process_supervision", "feedback_training"],
    "document_event": ["document_grounding", "verifier_training"],
}
_RL = {"environment_response_pair", "software_execution_event", "api_interaction_event"}


def _targets(t: str) -> dict[str, bool]:
    return {
        "sft_ready": t == "training_example",
        "lora_ready": t == "training_example",
        "reward_ready": t == "reward_model_row",
        "verifier_ready": t in ("verifier_example", "evaluation_example"),
        "preference_ready": t == "preference_pair",
        "process_supervision_ready": t in STEP_TYPES,
        "rl_rollout_ready": t in _RL,
    }


TARGETS = {t: Raw(_targets(t)) for t in ROW_TYPES}


def file_of(data_type: str) -> str:
    """Row file name of a data type (format 5)."""
    return data_type + "s.jsonl"


class Scores:
    """The round's scores (format 7.6), identical for all rows of a round."""

    def __init__(self, r: int) -> None:
        q = min(0.92, 0.58 + 0.11 * r)
        self.quality = q
        self.fidelity = min(1, q + 0.04)
        self.difficulty = min(1, max(0.35, q - 0.08))
        self.learnability = min(1, q + 0.02)
        self.reuse = min(1, q + 0.03)
        self.confidence = min(1, q + 0.02)


def scores(r: int) -> Scores:
    return Scores(r)


def round_time(r: int) -> float:
    """Seconds after the clock start at which round ``r`` stamps its rows."""
    return 6900.571271 + 40.104729 * r


class RowContext:
    """The common block of one round, attempt and acceptance state, encoded once."""

    def __init__(self, ctx: Ctx, ev: Evidence, r: int, rounds: int) -> None:
        sc = ctx.sc
        self.ctx, self.ev, self.r = ctx, ev, r
        s = self.scores = Scores(r)
        gap = round(sc.revised_score - sc.baseline_score, 4)
        lineage = {
            "source_package_id": ctx.pkg,
            "source_task_id": sc.task_id,
            "task_title": sc.title,
            "domain": sc.domain,
            "subdomain": sc.subdomain,
            "workflow_family": sc.family,
        }
        self.lineage = Raw(lineage)
        self.task_safe = derive.safe_id(sc.task_id)
        self.created_at = ctx.clock.at(round_time(r))
        self._head: dict[str, Any] = {
            "schema_version": ctx.v.row,
            "source_package_id": ctx.pkg,
            "source_task_id": sc.task_id,
            "task_lineage": self.lineage,
            "domain": sc.domain,
            "subdomain": sc.subdomain,
            "workflow_family": sc.family,
        }
        self._tail: dict[str, Any] = {
            "source_attempt_ids": Raw([sc.attempt_id(k) for k in ATTEMPTS]),
            "source_artifact_refs": Raw(ev.artifact_refs),
            "source_evaluation_refs": Raw(ev.eval_refs),
            "evidence_refs": Raw(ev.evidence_refs),
            "source_evidence_ref_ids": Raw(ev.evidence_ids),
            "evidence_visibility": "visible_or_public_package_evidence",
            "visible_input_refs": Raw(ev.input_refs),
            "source_content_hashes": Raw(ev.content_hashes),
            "provenance": "derived_from_observed_agent_apprenticeship_package",
            "quality_score": s.quality,
            "fidelity_score": s.fidelity,
            "difficulty_score": s.difficulty,
            "learnability_score": s.learnability,
            "reuse_value_score": s.reuse,
            "confidence": s.confidence,
            "weak_score_proxy": sc.baseline_score,
            "strong_score_proxy": sc.revised_score,
            "solver_gap_proxy": gap,
            "weak_pattern": "; ".join(sc.baseline_failed),
            "strong_pattern": "; ".join(sc.improved),
            "gap_interpretation": "Revised evidence outperformed baseline."
            if gap > 0
            else "Baseline and revised evidence are comparable.",
            "grpo_suitability": "high" if gap >= 0.2 else ("medium" if gap > 0.05 else "low"),
            "generated_by": "Experience Compiler",
            "generator_mode": "codex",
            "tdo_judge_source": "apprentice_self_judge",
            "mentor_audited": False,
            "tdo_round": r,
            "accepted": r == rounds,
            "rejection_reason": None if r == rounds else "superseded_by_later_tdo_round",
            "created_at": self.created_at,
            "self_judge_generation_notes": Raw(
                ["judge_source=apprentice_self_judge", "recommended_future_mentor_audit"]
            ),
            "recommended_future_mentor_audit": True,
        }

    def common(
        self, trace_id: str, step_ids: list[int], rejection: str | None = None
    ) -> dict[str, Any]:
        """The common fields of a row in file order (a fresh dict)."""
        row = dict(self._head)
        row["source_trace_id"] = trace_id
        row["source_step_ids"] = step_ids
        row.update(self._tail)
        if rejection is not None:
            row["accepted"] = False
            row["rejection_reason"] = rejection
        return row
