"""Reference power model ``cluster_two_arm_mean_ttest/v1`` (spec 6.2), seeded and vectorised."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from aa_review.core.stats._intervals import clopper_pearson

__all__ = [
    "METHOD_ID",
    "Alternative",
    "PowerDesign",
    "PowerEstimate",
    "analytic_power",
    "simulate_power",
    "solve_clusters_per_arm",
]

METHOD_ID = "cluster_two_arm_mean_ttest/v1"
Alternative = Literal["greater", "two-sided"]
# Random draws per chunk: bounds memory whatever n_sim and k are.
_CHUNK_ELEMENTS = 1 << 21
# Seeds are reduced modulo this (identity for 0 <= seed < 2**128) before seeding the RNG.
_SEED_MODULUS = 1 << 128


@dataclass(frozen=True)
class PowerDesign:
    """One point of the reference model: a two-arm cluster comparison.

    Attributes
    ----------
    delta : float
        Effect in total-SD units, added in the treatment arm.
    clusters_per_arm : int
        k (>= 2).
    cluster_size : int
        m, planned units per cluster (>= 1).
    icc : float
        rho in [0, 1): cluster variance; unit variance is 1 - rho.
    cluster_attrition : float
        Probability in [0, 1) that a whole cluster is lost.
    missing_rate : float
        Probability in [0, 1) that a unit's outcome is missing (MCAR).
    alpha : float
        The per-hypothesis level alpha' (already adjusted for multiplicity).
    alternative : {"greater", "two-sided"}
        One-sided upper tail, or twice the upper tail of |t|.
    """

    delta: float
    clusters_per_arm: int
    cluster_size: int
    icc: float
    cluster_attrition: float = 0.0
    missing_rate: float = 0.0
    alpha: float = 0.05
    alternative: Alternative = "greater"

    def __post_init__(self) -> None:
        if self.clusters_per_arm < 2 or self.cluster_size < 1:
            raise ValueError("need clusters_per_arm >= 2 and cluster_size >= 1")
        for name in ("icc", "cluster_attrition", "missing_rate"):
            value = getattr(self, name)
            if not 0.0 <= value < 1.0:
                raise ValueError(f"{name} must lie in [0, 1), got {value!r}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha!r}")
        if self.alternative not in ("greater", "two-sided"):
            raise ValueError(f"unsupported alternative {self.alternative!r}")


@dataclass(frozen=True)
class PowerEstimate:
    """Monte-Carlo power with its exact 95% interval.

    Attributes
    ----------
    power : float
        rejections / n_sim.
    rejections, n_sim, seed : int
        The raw count, the number of simulated experiments and the RNG seed.
    ci_low, ci_high : float
        95% Clopper-Pearson interval of ``power``.
    """

    power: float
    rejections: int
    n_sim: int
    seed: int
    ci_low: float
    ci_high: float


def simulate_power(
    design: PowerDesign, n_sim: int, seed: int, *, per_unit: bool = False
) -> PowerEstimate:
    """Estimate power by simulating ``n_sim`` experiments of the reference model.

    Each experiment keeps every cluster with probability ``1 - attrition``,
    draws a cluster effect ``N(0, rho)`` and unit errors ``N(0, 1 - rho)``,
    observes each unit with probability ``1 - missing_rate``, averages each
    contributing cluster's observed units, and runs a pooled two-sample t-test
    on the cluster means (fewer than 2 clusters in an arm: not rejected).

    By default the mean of a cluster's ``c`` observed units is drawn directly
    as ``u + N(0, (1 - rho) / c)`` with ``c ~ Binomial(m, 1 - missing_rate)``:
    under MCAR this has exactly the distribution of the unit-level average and
    costs O(k) instead of O(k m) per experiment. ``per_unit=True`` simulates
    every unit literally (a cross-check, slower).

    Parameters
    ----------
    design : PowerDesign
        The point to evaluate.
    n_sim : int
        Number of simulated experiments (> 0).
    seed : int
        Any integer (the spec's ``seed`` has no domain): ``numpy.random.default_rng``
        is seeded with ``seed mod 2**128``, so the same inputs give the same count.
    per_unit : bool
        Simulate individual units instead of the exact cluster-mean shortcut.

    Returns
    -------
    PowerEstimate
        Power, rejection count and the 95% Clopper-Pearson interval.
    """
    if n_sim <= 0:
        raise ValueError("n_sim must be positive")
    rng = np.random.default_rng(seed % _SEED_MODULUS)  # default_rng refuses negative seeds
    per_experiment = 2 * design.clusters_per_arm * (design.cluster_size if per_unit else 1)
    chunk = max(1, _CHUNK_ELEMENTS // per_experiment)
    rejections = 0
    done = 0
    while done < n_sim:
        size = min(chunk, n_sim - done)
        means, contributes = (_cluster_means_units if per_unit else _cluster_means)(
            rng, design, size
        )
        rejections += int(_rejections(means, contributes, design))
        done += size
    lo, hi = clopper_pearson(rejections, n_sim)
    return PowerEstimate(rejections / n_sim, rejections, n_sim, seed, lo, hi)


def _cluster_means(
    rng: np.random.Generator, d: PowerDesign, n: int
) -> tuple[np.ndarray, np.ndarray]:
    shape = (n, 2, d.clusters_per_arm)
    kept = rng.random(shape) >= d.cluster_attrition
    if d.missing_rate > 0.0:
        observed = rng.binomial(d.cluster_size, 1.0 - d.missing_rate, size=shape)
    else:
        observed = np.full(shape, d.cluster_size)
    u = rng.standard_normal(shape) * math.sqrt(d.icc)
    z = rng.standard_normal(shape)
    means = u + z * np.sqrt((1.0 - d.icc) / np.maximum(observed, 1))
    means[:, 1, :] += d.delta
    return means, kept & (observed >= 1)


def _cluster_means_units(
    rng: np.random.Generator, d: PowerDesign, n: int
) -> tuple[np.ndarray, np.ndarray]:
    shape = (n, 2, d.clusters_per_arm)
    kept = rng.random(shape) >= d.cluster_attrition
    u = rng.standard_normal(shape) * math.sqrt(d.icc)
    e = rng.standard_normal((*shape, d.cluster_size)) * math.sqrt(1.0 - d.icc)
    seen = rng.random(e.shape) >= d.missing_rate
    count = seen.sum(axis=3)
    means = u + np.where(seen, e, 0.0).sum(axis=3) / np.maximum(count, 1)
    means[:, 1, :] += d.delta
    return means, kept & (count >= 1)


def _rejections(means: np.ndarray, contributes: np.ndarray, d: PowerDesign) -> int:
    from scipy import special as _sp  # on first use: journal-only paths start without scipy

    w = contributes.astype(float)
    n_arm = w.sum(axis=2)  # (n, 2): contributing clusters per arm
    valid = (n_arm >= 2).all(axis=1)
    safe_n = np.maximum(n_arm, 1.0)
    xbar = (w * means).sum(axis=2) / safe_n
    ss = (w * (means - xbar[..., None]) ** 2).sum(axis=2).sum(axis=1)
    df = np.maximum(n_arm.sum(axis=1) - 2.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(ss / df * (1.0 / safe_n[:, 0] + 1.0 / safe_n[:, 1]))
        t = (xbar[:, 1] - xbar[:, 0]) / se
    t = np.nan_to_num(t, nan=0.0)
    if d.alternative == "greater":
        p = _sp.stdtr(df, -t)
    else:
        p = 2.0 * _sp.stdtr(df, -np.abs(t))
    return int(np.count_nonzero(valid & (p <= d.alpha)))


def analytic_power(
    delta: float,
    clusters_per_arm: float,
    cluster_size: float,
    icc: float,
    alpha: float,
    alternative: Alternative = "two-sided",
) -> float:
    """Analytic power of the cluster-mean t-test (clusterPower ``cpa.normal``).

    ``ncp = sqrt(k m / (2 DEFF)) delta``, ``df = 2 (k - 1)``, power
    ``P(T'(df, ncp) > t_{1-alpha}(df))``; two-sided uses ``t_{1-alpha/2}`` and
    ignores the lower tail. No attrition, no missingness.

    Parameters
    ----------
    delta : float
        Effect in total-SD units.
    clusters_per_arm : float
        k; a float is allowed so that :func:`solve_clusters_per_arm` can search.
    cluster_size : float
        m, units per cluster.
    icc : float
        rho in [0, 1).
    alpha : float
        Per-hypothesis level.
    alternative : {"greater", "two-sided"}
        Test direction.

    Returns
    -------
    float
        The power.
    """
    from scipy import stats as _st

    deff = 1.0 + (cluster_size - 1.0) * icc
    ncp = math.sqrt(clusters_per_arm * cluster_size / (2.0 * deff)) * delta
    df = 2.0 * (clusters_per_arm - 1.0)
    tail = alpha if alternative == "greater" else alpha / 2.0
    crit = _st.t.ppf(1.0 - tail, df)
    return float(_st.nct.sf(crit, df, ncp))


def solve_clusters_per_arm(
    delta: float,
    cluster_size: float,
    icc: float,
    alpha: float,
    power: float,
    alternative: Alternative = "two-sided",
) -> float:
    """Smallest (continuous) k at which :func:`analytic_power` reaches ``power``.

    With ``cluster_size=1`` and ``icc=0`` this is the per-group n of an
    ordinary two-sample t-test (statsmodels ``TTestIndPower.solve_power``).
    """

    from scipy import optimize as _opt

    def gap(k: float) -> float:
        return analytic_power(delta, k, cluster_size, icc, alpha, alternative) - power

    lo, hi = 1.5, 4.0
    while gap(hi) < 0:
        lo, hi = hi, hi * 2
        if hi > 1e9:
            raise ValueError("power is not reachable with any number of clusters")
    return float(_opt.brentq(gap, lo, hi, xtol=1e-10))
