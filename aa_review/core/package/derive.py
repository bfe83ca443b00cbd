"""The compiler's derivation rules (format section 7): ids, hashes, types, visibility."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

__all__ = [
    "PAIR_TYPES",
    "ALWAYS_RESOLVING_PREFIXES",
    "evidence_id",
    "content_hash_bytes",
    "safe_id",
    "row_id",
    "row_content_hash",
    "evidence_type",
    "visibility",
    "normalize_ref",
]

PAIR_TYPES = frozenset({"preference_pair", "critique_revision_pair", "feedback_revision_pair"})
# Refs under these prefixes count as resolving although no file exists (format 12.4).
ALWAYS_RESOLVING_PREFIXES = ("traces/", "outputs/", "evaluation/")
CONTENT_HASH_LIMIT = 2_000_000

_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9_]+")


def evidence_id(ref: str) -> str:
    """``evidence_`` + first 16 hex of SHA-256(ref) (format 7.1)."""
    return "evidence_" + hashlib.sha256(ref.encode("utf-8")).hexdigest()[:16]


def content_hash_bytes(data: bytes) -> str:
    """Catalog content hash of a file's bytes (format 7.3).

    The compiler reads the file as UTF-8 text with ``errors="replace"`` and
    universal newlines, then hashes the re-encoded text.
    """
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def safe_id(value: object) -> str:
    """Runs outside ``[A-Za-z0-9_]`` become ``_``; stripped; empty -> ``package``."""
    out = _UNSAFE_RUN.sub("_", str(value)).strip("_")
    return out or "package"


def row_id(
    data_type: str,
    source_task_id: str,
    source_trace_id: str | None,
    source_step_ids: list[int] | None,
    source_attempt_ids: list[str] | None,
    input_: Any,
    target: Any,
    round_: int | None,
) -> str:
    """Stable row id (or pair id) of a training row (format 7.5)."""
    seed = {
        "data_type": data_type,
        "source_task_id": source_task_id,
        "source_trace_id": source_trace_id,
        "source_step_ids": source_step_ids or [],
        "source_attempt_ids": source_attempt_ids or [],
        "input": input_,
        "target": target,
        "round": round_,
    }
    digest = hashlib.sha256(json.dumps(seed, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    prefix = "pair" if data_type in PAIR_TYPES else "row"
    return f"{prefix}_{safe_id(source_task_id)}_{safe_id(data_type)}_{digest}"


def row_id_of(row: dict[str, Any], task_id: str | None = None) -> str | None:
    """:func:`row_id` seeded from a stored row's own fields (its ``source_task_id``, else
    ``task_id``); None when the row lacks a data type or task to seed it."""
    data_type, task = row.get("data_type"), row.get("source_task_id") or task_id
    if not isinstance(data_type, str) or not isinstance(task, str):
        return None
    return row_id(
        data_type,
        task,
        row.get("source_trace_id"),
        row.get("source_step_ids"),
        row.get("source_attempt_ids"),
        row.get("input"),
        row.get("target"),
        row.get("tdo_round"),
    )


_HASH_DROPPED = frozenset({"row_content_hash", "created_at"})


def row_content_hash(row: dict[str, Any]) -> str:
    """``row_content_hash`` recomputed from a stored row (format 7.5).

    The compiler hashes the row before ``model_training_targets`` and the
    per-type extras are appended, so every key from ``model_training_targets``
    on (in file order) is left out.
    """
    seed: dict[str, Any] = {}
    for key, value in row.items():
        if key == "model_training_targets":
            break
        if key not in _HASH_DROPPED:
            seed[key] = value
    seed["accepted"] = False
    seed["rejection_reason"] = None
    return "sha256:" + hashlib.sha256(json.dumps(seed, sort_keys=True).encode("utf-8")).hexdigest()


def evidence_type(ref: str) -> str:
    """Catalog ``evidence_type`` of a ref, first match wins (format 7.2)."""
    if ref.startswith(("task/", "source_task/")):
        return "task_spec"
    if ref.startswith("rubric/"):
        return "rubric"
    if ref.startswith("attempts/") and ref.endswith("agent_trace.json"):
        return "trace"
    if ref.startswith("attempts/") and ref.endswith("actual_outputs.json"):
        return "actual_outputs"
    if "/artifacts/" in ref or ref.startswith("artifacts/"):
        return "artifact"
    if ref.startswith("grading/") and "grader" in ref:
        return "grader"
    if ref.startswith("grading/") and "verifier" in ref:
        return "verifier"
    if ref.startswith("feedback/"):
        return "feedback"
    if ref.startswith("signals/"):
        return "training_signal"
    if ref.startswith("loops/"):
        if ref.endswith("review_packet.json"):
            return "review_packet"
        if ref.endswith("revision_plan.json"):
            return "revision_plan"
        if ref.endswith("loop_decision.json"):
            return "loop_decision"
        if "contract_" in ref:
            return "contract_verification_or_repair"
        return "loop_evidence"
    return "package_file"


def visibility(ref: str) -> str:
    """``hidden_excluded`` for hidden material, else ``visible`` (format 7.2)."""
    return "hidden_excluded" if ref.startswith("hidden") or "/hidden" in ref else "visible"


def normalize_ref(ref: str) -> str | None:
    """Normalize a ref as the compiler does (format 2.4); ``None`` when it is dropped."""
    out = ref.replace("\\", "/").strip()
    while out.startswith("./"):
        out = out[2:]
    if not out or out.startswith("/") or ".." in out.split("/"):
        return None
    return out
