"""Recomputing row ids and row content hashes (format 7.5) fast and byte-exactly.

Both hash ``json.dumps(..., sort_keys=True)`` text. Rows repeat large values
(the evidence ref lists, ids and hashes); their sorted text is cached by
value, so only what changes from row to row is serialized again. A cached
value is reused only when it holds nothing but strings and nulls: no other
JSON value compares equal to a string, so equality then implies identical
text (``1 == 1.0 == True`` would not).
"""

from __future__ import annotations

import hashlib
import json
import math
from json.encoder import encode_basestring_ascii as _enc_str  # type: ignore[attr-defined]
from typing import Any

from aa_review.core.derive import PAIR_TYPES, safe_id

__all__ = ["Canon", "key_prefix", "id_from_seed", "sha256_text"]

_KEYS: dict[str, str] = {}
_DROPPED = frozenset({"row_content_hash", "created_at"})
_SLOTS = 4


def key_prefix(key: str) -> str:
    """``"key": `` exactly as ``json.dumps`` writes it."""
    out = _KEYS.get(key)
    if out is None:
        out = _KEYS[key] = _enc_str(key) + ": "
    return out


def _str_leaves(value: Any) -> bool:
    t = type(value)
    if t is str or value is None:
        return True
    if t is list:
        return all(_str_leaves(v) for v in value)
    if t is dict:
        return all(_str_leaves(v) for v in value.values())
    return False


class Canon:
    """Sorted JSON text of row values, with a small per-key cache of repeated values."""

    def __init__(self) -> None:
        self._cache: dict[str, list[tuple[Any, str]]] = {}

    def enc(self, key: str, value: Any) -> str:
        """``json.dumps(value, sort_keys=True)``; ``key`` names the cache slot."""
        t = type(value)
        if t is str:
            return _enc_str(value)  # type: ignore[no-any-return]
        if t is int:
            return int.__repr__(value)
        if t is float:
            return float.__repr__(value) if math.isfinite(value) else json.dumps(value)
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if (t is list or t is dict) and value:
            slot = self._cache.get(key)
            if slot is not None:
                for cached, text in slot:
                    if cached == value:
                        return text
            text = json.dumps(value, sort_keys=True)
            if _str_leaves(value):
                slot = self._cache.setdefault(key, [])
                slot.insert(0, (value, text))
                del slot[_SLOTS:]
            return text
        return json.dumps(value, sort_keys=True)

    def content_hash(self, row: dict[str, Any]) -> str:
        """``row_content_hash`` recomputed from a stored row (same bytes as ``derive``)."""
        return sha256_text(self.content_text(row))

    def content_text(self, row: dict[str, Any]) -> str:
        """The text ``row_content_hash`` hashes: the sorted JSON of the row as it was seeded."""
        keys: list[str] = []
        for k in row:
            if k == "model_training_targets":
                break
            if k not in _DROPPED:
                keys.append(k)
        seed = set(keys)
        seed.update(("accepted", "rejection_reason"))
        parts = []
        for k in sorted(seed):
            if k == "accepted":
                parts.append('"accepted": false')
            elif k == "rejection_reason":
                parts.append('"rejection_reason": null')
            else:
                parts.append(key_prefix(k) + self.enc(k, row[k]))
        return "{" + ", ".join(parts) + "}"

    def seed_text(self, row: dict[str, Any], task_id: str | None) -> tuple[str, str]:
        """``(json.dumps(seed, sort_keys=True), source_task_id used)`` of a row id seed."""
        task = row.get("source_task_id") or task_id or ""
        parts = [
            '"data_type": ' + self.enc("data_type", row.get("data_type")),
            '"input": ' + self.enc("input", row.get("input")),
            '"round": ' + self.enc("tdo_round", row.get("tdo_round")),
            '"source_attempt_ids": ' + self.enc("source_attempt_ids",
                                                row.get("source_attempt_ids") or []),
            '"source_step_ids": ' + self.enc("source_step_ids", row.get("source_step_ids") or []),
            '"source_task_id": ' + self.enc("source_task_id", task),
            '"source_trace_id": ' + self.enc("source_trace_id", row.get("source_trace_id")),
            '"target": ' + self.enc("target", row.get("target")),
        ]
        return "{" + ", ".join(parts) + "}", str(task)


def id_from_seed(seed_text: str, data_type: Any, task: str) -> str:
    """The row (or pair) id for a seed text (format 7.5)."""
    digest = hashlib.sha256(seed_text.encode("utf-8")).hexdigest()[:16]
    prefix = "pair" if data_type in PAIR_TYPES else "row"
    return f"{prefix}_{safe_id(task)}_{safe_id(data_type)}_{digest}"


def sha256_text(text: str) -> str:
    """``"sha256:"`` + hex SHA-256 of the UTF-8 text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
