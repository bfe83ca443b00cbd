"""JSON text byte-identical to the compiler's ``json.dumps``, built fast from cached pieces.

Rows repeat a large constant evidence block; it is encoded once (as :class:`Raw`)
and spliced into every line and every content-hash seed. Values that change per
row are encoded with the C string encoder, so a 9 KB row costs a few
microseconds instead of a full ``json.dumps``.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring_ascii as _enc_str
from typing import Any

__all__ = ["Raw", "enc", "dumps_line", "content_hash", "dumps_file", "key_prefix"]

_KEYS: dict[str, str] = {}


class Raw:
    """A value encoded once: ``plain`` as ``json.dumps``, ``sort`` with ``sort_keys``."""

    __slots__ = ("value", "plain", "sort")

    def __init__(self, value: Any, plain: str | None = None, sort: str | None = None) -> None:
        self.value = value
        self.plain = json.dumps(value) if plain is None else plain
        self.sort = (
            (json.dumps(value, sort_keys=True) if plain is None else plain)
            if sort is None
            else sort
        )


def key_prefix(key: str) -> str:
    """``"key": `` as json.dumps writes it (cached)."""
    out = _KEYS.get(key)
    if out is None:
        out = _KEYS[key] = _enc_str(key) + ": "
    return out


def enc(value: Any, sort: bool = False) -> str:
    """Encode one value exactly as ``json.dumps(value, sort_keys=sort)``."""
    t = type(value)
    if t is str:
        return _enc_str(value)
    if t is Raw:
        raw: str = value.sort if sort else value.plain
        return raw
    if t is int:
        return int.__repr__(value)
    if t is float:
        return float.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if t is list and len(value) == 1 and type(value[0]) is int:
        return "[" + int.__repr__(value[0]) + "]"
    return json.dumps(_unraw(value), sort_keys=sort)


def _unraw(value: Any) -> Any:
    if isinstance(value, Raw):
        return value.value
    if isinstance(value, dict):
        return {k: _unraw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unraw(v) for v in value]
    return value


def dumps_line(row: dict[str, Any]) -> str:
    """One JSONL line (no newline) equal to ``json.dumps(row)``."""
    return "{" + ", ".join([key_prefix(k) + enc(v) for k, v in row.items()]) + "}"


_HASH_DROPPED = frozenset({"row_content_hash", "created_at"})


def content_hash(row: dict[str, Any]) -> str:
    """``row_content_hash`` of a row (format 7.5), same bytes as ``derive.row_content_hash``."""
    parts: dict[str, Any] = {}
    for k, v in row.items():
        if k == "model_training_targets":
            break
        if k not in _HASH_DROPPED:
            parts[k] = v
    parts["accepted"] = False
    parts["rejection_reason"] = None
    body = ", ".join([key_prefix(k) + enc(parts[k], True) for k in sorted(parts)])
    return "sha256:" + hashlib.sha256(("{" + body + "}").encode("utf-8")).hexdigest()


def dumps_file(obj: Any) -> str:
    """A JSON file as the compiler writes it: ``indent=2`` plus a final newline."""
    return json.dumps(_unraw(obj), indent=2) + "\n"
