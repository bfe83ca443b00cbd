"""Whether a stored row's id and content hash still recompute from its fields (format 7.5)."""

from __future__ import annotations

from typing import Any

from aa_review.core.package import derive

__all__ = ["id_recomputes", "content_hash_recomputes", "hashed_fields", "SEED_FIELDS"]

# The fields the compiler seeds a row id with (format 7.5), before sanitizing (12.6).
SEED_FIELDS = (
    "data_type",
    "source_task_id",
    "source_trace_id",
    "source_step_ids",
    "source_attempt_ids",
    "input",
    "target",
    "tdo_round",
)


def id_recomputes(row: dict[str, Any], task_id: str | None) -> bool | None:
    """True/False: the stored id equals the one seeded from the row; None: cannot tell."""
    stored = row.get("row_id") or row.get("pair_id")
    if not isinstance(stored, str):
        return None
    try:
        again = derive.row_id_of(row, task_id)
    except (TypeError, ValueError):
        return None
    return None if again is None else again == stored


def content_hash_recomputes(row: dict[str, Any]) -> bool | None:
    """True/False: ``row_content_hash`` equals the recomputed one; None: the row has none."""
    stored = row.get("row_content_hash")
    if not isinstance(stored, str):
        return None
    try:
        return derive.row_content_hash(row) == stored
    except (TypeError, ValueError):
        return None


def hashed_fields(row: dict[str, Any]) -> set[str]:
    """Top-level fields ``row_content_hash`` covers: those before ``model_training_targets``."""
    out: set[str] = set()
    for key in row:
        if key == "model_training_targets":
            break
        out.add(key)
    return out - {"row_content_hash", "created_at"}
