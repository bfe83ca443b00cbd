"""Sensitivity box of a power plan and its worst-case corner (spec 6.4)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SensitivityRange", "range_contains_base", "worst_case_corner"]


@dataclass(frozen=True)
class SensitivityRange:
    """The sealed box of assumptions a plan claims robustness over.

    Each attribute is a ``(lo, hi)`` pair; power is monotone non-increasing in
    all three, so the ``hi`` corner bounds power over the whole box.
    """

    icc: tuple[float, float]
    cluster_attrition: tuple[float, float]
    missing_rate: tuple[float, float]


def range_contains_base(bounds: Sequence[float], base: float) -> bool:
    """``0 <= lo <= base <= hi < 1`` for a two-number range (spec G1).

    Parameters
    ----------
    bounds : sequence of float
        ``[lo, hi]``; anything else (wrong length, non-numbers) does not contain the base.
    base : float
        The base-point value.
    """
    if len(bounds) != 2:
        return False
    lo, hi = bounds
    if not all(_is_number(v) for v in (lo, hi, base)):
        return False
    return 0.0 <= lo <= base <= hi < 1.0


def worst_case_corner(box: SensitivityRange) -> tuple[float, float, float]:
    """``(icc hi, attrition hi, missing hi)``: the corner with the lowest power."""
    return box.icc[1], box.cluster_attrition[1], box.missing_rate[1]


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
