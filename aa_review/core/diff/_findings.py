"""Audit findings of two packages keyed on code and location: new, fixed, persisting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aa_review.core.diff._model import FindingsDiff

__all__ = ["diff_findings", "finding_key", "as_dict"]


def as_dict(finding: Any) -> dict[str, Any]:
    """A finding as plain JSON (a Finding model, or a dict already)."""
    if isinstance(finding, dict):
        return finding
    dumped: dict[str, Any] = finding.model_dump(mode="json", exclude_defaults=True)
    return dumped


def _locations(f: dict[str, Any]) -> list[dict[str, Any]]:
    # A finding names one ``location`` or a list of ``locations``; accept both shapes.
    locs = f.get("locations")
    if isinstance(locs, list):
        return [x for x in locs if isinstance(x, dict)]
    loc = f.get("location")
    return [loc] if isinstance(loc, dict) else []


def _loc_key(loc: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    # A row or evidence item names the place; its line number may shift with other rows.
    named = loc.get("row_id") or loc.get("evidence_id")
    return tuple(
        sorted((k, str(v)) for k, v in loc.items() if v is not None and not (k == "line" and named))
    )


def finding_key(finding: Any) -> tuple[str, tuple[tuple[tuple[str, str], ...], ...]]:
    """``(code, locations)``: what makes two findings the same finding."""
    f = as_dict(finding)
    return str(f.get("code")), tuple(sorted(_loc_key(x) for x in _locations(f)))


def diff_findings(old: Iterable[Any], new: Iterable[Any]) -> FindingsDiff:
    """Findings only in ``new`` (new), only in ``old`` (fixed), in both (persisting).

    Repeated keys count: a finding twice in new and once in old is once new.
    """
    pool: dict[Any, list[dict[str, Any]]] = {}
    for f in map(as_dict, old):
        pool.setdefault(finding_key(f), []).append(f)
    fresh, kept = [], []
    for f in map(as_dict, new):
        bucket = pool.get(finding_key(f))
        if bucket:
            bucket.pop(0)
            kept.append(f)
        else:
            fresh.append(f)
    fixed = [f for bucket in pool.values() for f in bucket]
    return FindingsDiff(tuple(fresh), tuple(fixed), tuple(kept))
