"""Lower-rung plateau: Bonferroni-adjusted one-sided upper bounds (spec 6.6)."""

from __future__ import annotations

import math
from typing import Literal

__all__ = ["UCB_TOLERANCE", "family_k_star", "is_plateau", "one_sided_upper_bound"]

# A claimed bound may differ from the recomputed one by at most this much.
UCB_TOLERANCE = 0.001


def family_k_star(family_size: int, confirmatory_entries: int) -> int:
    """``K* = max(family_size, number of confirmatory entries, 1)``."""
    return max(family_size, confirmatory_entries, 1)


def one_sided_upper_bound(
    estimate: float,
    standard_error: float,
    df: int | float | Literal["inf"],
    family_alpha: float,
    k_star: int = 1,
) -> float:
    """Bonferroni-adjusted one-sided upper confidence bound.

    ``UCB = estimate + q * SE`` with ``q = t_df(1 - family_alpha / K*)``, or the
    normal quantile when ``df`` is ``"inf"``. Valid simultaneously over the
    family under any dependence; used for Holm and Bonferroni alike.

    Parameters
    ----------
    estimate, standard_error : float
        The experiment's effect estimate and its standard error (>= 0).
    df : int, float or "inf"
        Degrees of freedom (> 0).
    family_alpha : float
        Family-wise level in (0, 1).
    k_star : int
        Number of bounds in the family (>= 1).

    Returns
    -------
    float
        The upper bound.
    """
    if not 0.0 < family_alpha < 1.0 or k_star < 1:
        raise ValueError("need family_alpha in (0, 1) and k_star >= 1")
    if standard_error < 0 or not math.isfinite(standard_error):
        raise ValueError("standard_error must be finite and non-negative")
    from scipy import stats as _st  # on first use: journal-only paths start without scipy

    level = 1.0 - family_alpha / k_star
    if df == "inf" or (isinstance(df, float) and math.isinf(df)):
        q = float(_st.norm.ppf(level))
    else:
        if isinstance(df, str) or df <= 0:
            raise ValueError(f"df must be positive or 'inf', got {df!r}")
        q = float(_st.t.ppf(level, df))
    return estimate + q * standard_error


def is_plateau(upper_bound: float, useful_effect: float) -> bool:
    """A rung has plateaued iff its upper bound is strictly below the useful effect."""
    return upper_bound < useful_effect
