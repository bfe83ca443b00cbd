"""The 64-bit digest of a row's link fields, shared by the row pass and the map scan.

Both run in worker processes: this module needs the standard library and orjson only.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

__all__ = ["link_fingerprint"]


def link_fingerprint(trace: Any, steps: Any, artifact_refs: Any) -> int:
    """A 64-bit digest of the link fields the row index does not hold."""
    data = orjson.dumps([trace, steps or [], artifact_refs or []])
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
