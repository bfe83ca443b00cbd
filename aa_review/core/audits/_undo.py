"""Undoing the sanitizer's replacements, to recognise ids hashed before it ran (12.6)."""

from __future__ import annotations

from aa_review.core.audits._privacy_lists import SANITIZED_MARKERS
from aa_review.core.package.derive import evidence_id

__all__ = ["undo_ref_sanitizer"]


def undo_ref_sanitizer(ref: str, stored_id: str) -> bool:
    """True when ``stored_id`` is the id of ``ref`` before the sanitizer rewrote it.

    A ref whose local path became ``[local path omitted]`` cannot be restored; it is
    accepted as this quirk too, since the rewrite itself shows the sanitizer ran on it.
    """
    if "[local path omitted]" in ref:
        return True
    for dst, src in SANITIZED_MARKERS:
        if dst in ref and evidence_id(ref.replace(dst, src)) == stored_id:
            return True
    return False
