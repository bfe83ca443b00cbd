"""Canonical JSON bytes and ``sha256:`` digests of parsed JSON values (spec 1.3)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aa_review.core.stats import DIGEST_PATTERN, is_digest

__all__ = ["DIGEST_PATTERN", "ZERO_DIGEST", "canonical_json", "is_digest", "json_digest"]

ZERO_DIGEST = "sha256:" + "0" * 64


def canonical_json(value: Any) -> bytes:
    """Canonical UTF-8 bytes of a JSON value: sorted keys, no spaces, no NaN.

    Parameters
    ----------
    value : Any
        A tree as produced by ``json.loads`` (dict, list, str, int, float, bool, None).
        Never pass a re-serialised pydantic model: it would not reproduce the parsed bytes.

    Returns
    -------
    bytes
        ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
        allow_nan=False)`` encoded as UTF-8.
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def json_digest(value: Any) -> str:
    """``"sha256:" + hex`` of :func:`canonical_json` of ``value``."""
    return "sha256:" + hashlib.sha256(canonical_json(value)).hexdigest()
