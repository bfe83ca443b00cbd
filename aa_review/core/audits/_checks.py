"""Imports every check module so that each registers itself, and fixes the report order."""

from __future__ import annotations

from aa_review.core.audits import (  # noqa: F401  (imported for registration)
    _chk_contracts,
    _chk_copies,
    _chk_counts,
    _chk_files,
    _chk_hashes,
    _chk_input,
    _chk_links,
    _chk_privacy,
    _chk_quirks,
    _chk_refs,
    _chk_rows,
)
from aa_review.core.audits._registry import CHECKS

__all__ = ["CHECKS", "ORDER"]

ORDER = (
    "input",
    "hashes",
    "refs",
    "links",
    "counts",
    "rows",
    "privacy",
    "contracts",
    "copies",
    "files",
    "quirks",
)
_ordered = {name: CHECKS[name] for name in ORDER}
_ordered.update({k: v for k, v in CHECKS.items() if k not in _ordered})
CHECKS.clear()
CHECKS.update(_ordered)
