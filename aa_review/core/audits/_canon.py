"""Recomputing row ids and row content hashes (format 7.5) fast and byte-exactly.

Both hash ``json.dumps(..., sort_keys=True)`` text. Rows of one file share
their keys and repeat most values (the evidence ref lists, ids, hashes,
lineage, scores). Per key layout a plan keeps each sorted ``"key": value``
piece of the previous row; a row only re-serializes the values that differ
(found with C-level ``map``/``compress``, not a Python loop). A piece is
reused only when equality implies identical text: same type, and for
containers only strings and nulls inside (``1 == 1.0 == True`` and
``0.0 == -0.0`` would not).
"""

from __future__ import annotations

import hashlib
import json
import math
from json.encoder import c_make_encoder  # type: ignore[attr-defined]  # C part, no stub
from json.encoder import encode_basestring_ascii as _enc_str
from typing import Any

from aa_review.core.audits._rowdiff import RowDiff, Step
from aa_review.core.package.derive import PAIR_TYPES, safe_id

__all__ = ["Canon", "key_prefix", "id_from_seed", "sha256_text", "enc"]

_KEYS: dict[str, str] = {}
_DROPPED = frozenset({"row_content_hash", "created_at"})
_CONST = {"accepted": "false", "rejection_reason": "null"}


# json.dumps(value, sort_keys=True) builds a JSONEncoder per call, and its encode() a C
# encoder per call too; the C encoder itself, made once without the cycle check (a parsed
# row has no cycles), writes the same text with no Python code around it.
def _unserializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_SORTED = (
    c_make_encoder(None, _unserializable, _enc_str, None, ": ", ", ", True, False, True)
    if c_make_encoder is not None
    else None
)
_PY_SORTED = json.JSONEncoder(sort_keys=True, check_circular=False).encode


def _SORTED(value: Any) -> str:
    """``json.dumps(value, sort_keys=True)``."""
    if _C_SORTED is None:  # an interpreter without the json module's C part
        return _PY_SORTED(value)
    return "".join(_C_SORTED(value, 0))


def key_prefix(key: str) -> str:
    """``"key": `` exactly as ``json.dumps`` writes it."""
    out = _KEYS.get(key)
    if out is None:
        out = _KEYS[key] = _enc_str(key) + ": "
    return out


def enc(value: Any) -> str:
    """``json.dumps(value, sort_keys=True)``, with the common scalars done directly."""
    t = type(value)
    if t is str:
        return _enc_str(value)
    if t is int:
        return int.__repr__(value)
    if t is float:
        return float.__repr__(value) if math.isfinite(value) else json.dumps(value)
    if value is None:
        return "null"
    if t is bool:
        return "true" if value else "false"
    if t is list:
        if not value:
            return "[]"
        if len(value) == 1 and type(value[0]) is int:  # source_step_ids: [n]
            return "[" + int.__repr__(value[0]) + "]"
    elif t is dict and not value:
        return "{}"
    return _SORTED(value)


_FLAT = frozenset({str, type(None)})


def _str_leaves(value: Any) -> bool:
    t = type(value)
    if t is str or value is None:
        return True
    if t is list:
        # Lists of strings (ref and id lists) are checked at C speed; others walked.
        return set(map(type, value)) <= _FLAT or all(_str_leaves(v) for v in value)
    if t is dict:
        vals = value.values()
        return set(map(type, vals)) <= _FLAT or all(_str_leaves(v) for v in vals)
    return False


def _reusable(value: Any) -> bool:
    """Whether a later equal value of the same type must have the same text."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return True
    if t is float:
        return value != 0.0 and math.isfinite(value)
    return _str_leaves(value)


class _Plan:
    """The sorted seed layout of one key order, with the previous row's pieces."""

    __slots__ = ("n", "keys", "pos", "prefix", "src", "s_of", "parts", "vals", "unsafe", "index")

    def __init__(self, sig: tuple[str, ...]) -> None:
        keys: list[str] = []
        for k in sig:
            if k == "model_training_targets":
                break
            if k not in _DROPPED:
                keys.append(k)
        seed = sorted(set(keys) | set(_CONST))
        self.keys = [k for k in seed if k not in _CONST]
        self.n = len(self.keys)
        self.pos = [seed.index(k) for k in self.keys]
        self.prefix = [key_prefix(k) for k in self.keys]
        self.parts = [key_prefix(k) + _CONST.get(k, "") for k in seed]
        self.index = {k: i for i, k in enumerate(self.keys)}
        row_index = {k: i for i, k in enumerate(sig)}
        self.src = [row_index[k] for k in self.keys]  # seed key -> position in the row
        self.s_of = [-1] * len(sig)  # position in the row -> seed key (or -1)
        for i, r in enumerate(self.src):
            self.s_of[r] = i
        self.vals: tuple[Any, ...] | None = None  # the row's values (all keys)
        self.unsafe: set[int] = set()


class Canon:
    """Seed texts of rows; keeps one :class:`_Plan` per key order seen."""

    def __init__(self) -> None:
        self._diff = RowDiff()
        self._last: _Plan | None = None

    def content_text(self, row: dict[str, Any], step: Step | None = None) -> str:
        """The text ``row_content_hash`` hashes: the row as seeded, as sorted JSON (7.5).

        ``step`` is the row's diff against the previous row with the same keys (made
        here when not given); only seed values that changed are serialized again.
        """
        if step is None:
            step = self._diff.step(row)
        lay = step.layout
        plan = lay.state.get("canon")
        if plan is None:
            plan = lay.state["canon"] = _Plan(lay.sig)
        vals = step.vals
        if step.changed is None or plan.vals is None:
            changed: Any = range(plan.n)
        else:
            s_of = plan.s_of
            changed = [s for i in step.changed if (s := s_of[i]) >= 0]
            changed.extend(plan.unsafe)
        parts, pos, prefix, src, unsafe = plan.parts, plan.pos, plan.prefix, plan.src, plan.unsafe
        for i in changed:
            v = vals[src[i]]
            parts[pos[i]] = prefix[i] + enc(v)
            if _reusable(v):
                unsafe.discard(i)
            else:
                unsafe.add(i)
        plan.vals = vals
        self._last = plan
        return "{" + ", ".join(parts) + "}"

    def content_hash(self, row: dict[str, Any]) -> str:
        """``row_content_hash`` recomputed from a stored row (same bytes as ``derive``)."""
        return sha256_text(self.content_text(row))

    def _piece(self, row: dict[str, Any], key: str, name: str, empty_list: bool = False) -> str:
        """``"name": <sorted JSON of row[key]>``, reused from the last content text."""
        value = row.get(key)
        if empty_list and not value:
            return f'"{name}": []'
        plan = self._last
        if plan is not None and plan.vals is not None:
            i = plan.index.get(key)
            if i is not None and plan.vals[plan.src[i]] is value:
                part = plan.parts[plan.pos[i]]
                return part if key == name else f'"{name}": ' + part[len(plan.prefix[i]) :]
        return f'"{name}": ' + enc(value)

    def seed_text(self, row: dict[str, Any], task_id: str | None) -> tuple[str, str]:
        """``(json.dumps(seed, sort_keys=True), source_task_id used)`` of a row id seed.

        Call after :meth:`content_text` of the same row: its pieces are reused.
        """
        task = row.get("source_task_id") or task_id or ""
        piece = self._piece
        text = (
            "{"
            + ", ".join(
                (
                    piece(row, "data_type", "data_type"),
                    piece(row, "input", "input"),
                    piece(row, "tdo_round", "round"),
                    piece(row, "source_attempt_ids", "source_attempt_ids", True),
                    piece(row, "source_step_ids", "source_step_ids", True),
                    piece(row, "source_task_id", "source_task_id")
                    if row.get("source_task_id")
                    else '"source_task_id": ' + enc(task),
                    piece(row, "source_trace_id", "source_trace_id"),
                    piece(row, "target", "target"),
                )
            )
            + "}"
        )
        return text, str(task)


def id_from_seed(seed_text: str, data_type: Any, task: str) -> str:
    """The row (or pair) id for a seed text (format 7.5)."""
    digest = hashlib.sha256(seed_text.encode("utf-8")).hexdigest()[:16]
    prefix = "pair" if isinstance(data_type, str) and data_type in PAIR_TYPES else "row"
    return f"{prefix}_{safe_id(task)}_{safe_id(data_type)}_{digest}"


def sha256_text(text: str) -> str:
    """``"sha256:"`` + hex SHA-256 of the UTF-8 text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
