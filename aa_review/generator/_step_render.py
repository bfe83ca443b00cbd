"""Rendering of step rows (environment pairs and surface rows) through cached templates."""

from __future__ import annotations

import os
from typing import Any

from ._jsonfast import Raw, content_hash, dumps_line
from ._rows_common import TARGETS, USE_CASES, RowContext
from ._rows_steps import StepIds, env_extras, env_fields, surface_fields
from ._template import RowTemplate

__all__ = ["StepRenderer"]

# Templates are keyed by (type, attempt, step kind, outcome): within one key these
# are the only values that change from row to row. Everything else -- the common
# block, the per-kind constants and outcome-driven scores -- is encoded once.
_ENV_VARS = frozenset(
    {
        "source_step_ids",
        "source_step_id",
        "state_before",
        "agent_action",
        "observed_environment_response",
        "state_after",
        "turn_idx",
        "row_id",
        "candidate_rollout_id",
    }
)
_SURFACE_CONST = frozenset(
    {
        "data_type",
        "environment_domain",
        "interaction_surface",
        "success_signal",
        "failure_mode",
        "training_quality_score",
        "usable_for",
        "training_use_cases",
        "verifier_use",
        "evidence_status",
        "safety_relevance",
        "handoff_quality_score",
    }
)


class StepRenderer:
    """Builds step rows of one round; ``check`` also renders each row field by field, compares."""

    def __init__(self, rc: RowContext, feedback: str) -> None:
        self.rc = rc
        self.feedback = feedback
        self.group = "rollout_" + rc.task_safe
        self._ids: dict[tuple[str, str], StepIds] = {}
        self._tpl: dict[tuple[str, str, str, str], RowTemplate] = {}
        self.check = bool(os.environ.get("AA_REVIEW_GENERATOR_CHECK"))
        # Keys that vary per row in a varied package (see _variation); values come in ``vals``.
        self.varied: frozenset[str] = frozenset()

    def row_id(self, t: str, attempt: str, n: int) -> str:
        ids = self._ids.get((t, attempt))
        if ids is None:
            sc = self.rc.ctx.sc
            ids = self._ids[(t, attempt)] = StepIds(
                t,
                sc.task_id,
                sc.trace_id(attempt),
                [sc.attempt_id(k) for k in ("baseline", "revised")],
                self.rc.r,
            )
        return ids(n)

    def values(
        self, t: str, attempt: str, step: dict[str, Any], prev: str, turns: int, ref: str | None
    ) -> dict[str, Any]:
        """Type fields plus id and extras of one step row (everything not in the common block)."""
        n = step["step"]
        rid = self.row_id(t, attempt, n)
        if t == "environment_response_pair":
            vals = env_fields(step, prev, turns, self.feedback)
            vals.update(env_extras(step, rid, self.group))
        else:
            vals = surface_fields(t, step, ref, self.rc.scores.quality)
        vals["row_id"] = rid
        vals["source_step_ids"] = [n]
        vals["source_trace_id"] = self.rc.ctx.sc.trace_id(attempt)
        return vals

    def full(self, t: str, vals: dict[str, Any], rejection: str | None = None) -> dict[str, Any]:
        """The whole row in file order, content hash slot None."""
        row = self.rc.common(vals["source_trace_id"], vals["source_step_ids"], rejection)
        extras: dict[str, Any] = {}
        for k, v in vals.items():
            if k in ("row_id", "source_step_ids", "source_trace_id", "evidence_confidence"):
                continue
            if k in (
                "rollout_group_id",
                "candidate_rollout_id",
                "scalar_reward",
                "reward_components",
                "termination_reason",
            ):
                extras[k] = v
            else:
                row[k] = v
        row["row_id"] = vals["row_id"]
        if "training_use_cases" not in row:
            row["training_use_cases"] = USE_CASES[t]
        row["quality_signal_source"] = "apprentice_self_judge"
        row["source_trace_ref"] = vals["source_trace_id"]
        row["evidence_confidence"] = vals.get("evidence_confidence", self.rc.scores.confidence)
        row["row_content_hash"] = None
        row["model_training_targets"] = TARGETS[t]
        row.update(extras)
        return row

    def line(self, t: str, attempt: str, vals: dict[str, Any], kind: str) -> str:
        """The JSONL line of a standard (accepted or superseded) step row of a ``kind`` step."""
        key = (t, attempt, kind, vals["success_signal"])
        tpl = self._tpl.get(key)
        if tpl is None:
            proto = self.full(t, vals)
            if t == "environment_response_pair":
                variable = set(_ENV_VARS)
            else:  # a None or pre-encoded value is fixed for the kind; the rest varies per step
                variable = {
                    k
                    for k, v in vals.items()
                    if k not in _SURFACE_CONST and v is not None and not isinstance(v, Raw)
                } | {"source_step_ids", "row_id"}
            variable.discard("source_trace_id")
            variable |= self.varied
            tpl = self._tpl[key] = RowTemplate(
                proto, variable, sorted_keys=self.varied & {"source_content_hashes"}
            )
        out = tpl.render(vals)
        if self.check:
            assert out == generic_line(self.full(t, vals)), f"template drift in {t}"
        return out


def generic_line(row: dict[str, Any]) -> str:
    """Render a full row, computing its content hash when the slot is None."""
    if row.get("row_content_hash", "") is None:
        row["row_content_hash"] = content_hash(row)
    return dumps_line(row)
