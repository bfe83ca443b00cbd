"""Exact binomial intervals, Monte-Carlo tolerance and multiplicity adjustment."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

__all__ = [
    "POWER_THRESHOLD",
    "MultiplicityMethod",
    "adjust_pvalues",
    "adjusted_alpha",
    "claim_reproduced",
    "clopper_pearson",
    "mc_tolerance",
]

MultiplicityMethod = Literal["holm", "bonferroni", "none"]
# Power a confirmatory plan must reach at the base point and the worst-case corner (6.4).
POWER_THRESHOLD = 0.80


def clopper_pearson(successes: int, trials: int, level: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided interval for a binomial proportion.

    The bounds are ``Beta(a/2; x, n-x+1)`` and ``Beta(1-a/2; x+1, n-x)`` with
    ``a = 1 - level``, as simr's ``powerSim`` reports by default.

    Parameters
    ----------
    successes : int
        x, the number of rejections.
    trials : int
        n, the number of simulated experiments (> 0).
    level : float
        Confidence level in (0, 1).

    Returns
    -------
    tuple of float
        ``(lower, upper)`` as proportions in [0, 1].
    """
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")
    # scipy.special's inverse regularized incomplete beta is beta.ppf without importing all
    # of scipy.stats (about a second at start-up); imported on first use.
    from scipy.special import betaincinv

    a = 1.0 - level
    x, n = successes, trials
    lower = 0.0 if x == 0 else float(betaincinv(x, n - x + 1, a / 2))
    upper = 1.0 if x == n else float(betaincinv(x + 1, n - x, 1 - a / 2))
    return lower, upper


def mc_tolerance(p_hat: float, n_sim: int) -> float:
    """Allowed distance between a claimed and a recomputed power (spec 6.5).

    ``max(0.015, 4 * sqrt(p_hat (1 - p_hat) / n_sim))``.
    """
    if n_sim <= 0:
        raise ValueError("n_sim must be positive")
    return max(0.015, 4.0 * math.sqrt(p_hat * (1.0 - p_hat) / n_sim))


def claim_reproduced(claimed: float, p_hat: float, n_sim: int) -> bool:
    """Whether a claimed power lies within :func:`mc_tolerance` of the recomputation."""
    return abs(claimed - p_hat) <= mc_tolerance(p_hat, n_sim)


def adjusted_alpha(alpha: float, hypotheses: int, method: MultiplicityMethod) -> float:
    """Per-hypothesis level of the reference power model (spec 6.2).

    ``alpha / K`` for ``holm`` and ``bonferroni`` (for Holm, the threshold of its
    first step: a conservative choice), ``alpha`` for ``none``, which requires K = 1.

    Raises
    ------
    ValueError
        For K < 1, ``none`` with K != 1, or an unknown method.
    """
    if hypotheses < 1:
        raise ValueError("a comparison family needs at least one hypothesis")
    if method == "none":
        if hypotheses != 1:
            raise ValueError("multiplicity method 'none' is only valid for a single hypothesis")
        return alpha
    if method in ("holm", "bonferroni"):
        return alpha / hypotheses
    raise ValueError(f"unknown multiplicity method {method!r}")


def adjust_pvalues(pvalues: Sequence[float], method: MultiplicityMethod) -> list[float]:
    """Family-wise adjusted p-values: Holm step-down, one-step Bonferroni, or none.

    Parameters
    ----------
    pvalues : sequence of float
        Raw p-values in the family's order.
    method : {"holm", "bonferroni", "none"}
        The adjustment.

    Returns
    -------
    list of float
        Adjusted p-values in the input order (capped at 1); a hypothesis is
        rejected at family-wise level alpha iff its adjusted p-value <= alpha.
    """
    p = np.asarray(pvalues, dtype=float)
    k = p.size
    if method == "none":
        return [float(x) for x in p]
    if method == "bonferroni":
        return [float(x) for x in np.minimum(1.0, p * k)]
    if method == "holm":
        order = np.argsort(p, kind="stable")
        stepped = np.maximum.accumulate((k - np.arange(k)) * p[order])
        out = np.empty(k)
        out[order] = np.minimum(1.0, stepped)
        return [float(x) for x in out]
    raise ValueError(f"unknown multiplicity method {method!r}")
