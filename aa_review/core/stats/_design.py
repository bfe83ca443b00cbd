"""Design effect and effective sample size of a clustered sample (spec 6.1)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["EffectiveSample", "design_effect", "effective_sample", "kish_design_effect"]


@dataclass(frozen=True)
class EffectiveSample:
    """Effective sample of a pool of independent groups.

    Attributes
    ----------
    independent_groups : int
        G, the number of clusters (components) that carry units.
    observation_units : int
        N, the total number of units.
    design_effect : float
        DEFF = 1 + (sum M^2 / sum M - 1) * icc, the size-weighted Kish inflation.
    effective_sample_size : float
        ESS = N / DEFF.
    """

    independent_groups: int
    observation_units: int
    design_effect: float
    effective_sample_size: float


def kish_design_effect(cluster_size: float, icc: float) -> float:
    """Kish's design effect ``1 + (m - 1) * icc`` for clusters of equal size ``m``.

    Parameters
    ----------
    cluster_size : float
        Units per cluster (m, or the mean cluster size).
    icc : float
        Intra-class correlation in [0, 1).

    Returns
    -------
    float
        The variance inflation of a cluster sample against a simple random sample.
    """
    _check_icc(icc)
    if cluster_size < 1:
        raise ValueError(f"cluster size must be at least 1, got {cluster_size!r}")
    return 1.0 + (cluster_size - 1.0) * icc


def design_effect(sizes: Iterable[int], icc: float) -> float:
    """Size-weighted design effect ``1 + (sum M^2 / sum M - 1) * icc`` (spec 6.1).

    With equal sizes this is Kish's ``1 + (m - 1) * icc``; with unequal sizes it
    equals clusterPower's "weighted" inflation ``1 + ((CV^2 + 1) m_bar - 1) icc``.

    Parameters
    ----------
    sizes : iterable of int
        Units per cluster; clusters of size 0 are ignored.
    icc : float
        Intra-class correlation in [0, 1).

    Returns
    -------
    float
        The design effect.

    Raises
    ------
    ValueError
        If no cluster carries units, a size is negative, or ``icc`` is outside [0, 1).
    """
    return effective_sample(sizes, icc).design_effect


def effective_sample(sizes: Iterable[int], icc: float) -> EffectiveSample:
    """G, N, DEFF and ESS of clusters with the given sizes (spec 6.1).

    Parameters
    ----------
    sizes : iterable of int
        Units per cluster (component sizes M_1..M_G).
    icc : float
        Intra-class correlation in [0, 1).

    Returns
    -------
    EffectiveSample
        The four figures; ESS lies between G (icc -> 1, equal sizes) and N (icc = 0).
    """
    _check_icc(icc)
    ms = [int(m) for m in sizes]
    if any(m < 0 for m in ms):
        raise ValueError("cluster sizes must not be negative")
    ms = [m for m in ms if m > 0]
    if not ms:
        raise ValueError("no cluster carries any unit")
    n = sum(ms)
    weighted_mean_size = sum(m * m for m in ms) / n
    deff = 1.0 + (weighted_mean_size - 1.0) * icc
    return EffectiveSample(len(ms), n, deff, n / deff)


def _check_icc(icc: float) -> None:
    if not (isinstance(icc, (int, float)) and math.isfinite(icc) and 0.0 <= icc < 1.0):
        raise ValueError(f"icc must lie in [0, 1), got {icc!r}")
