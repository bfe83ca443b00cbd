"""Reference power model against statsmodels, clusterPower and spec 6.8."""

from __future__ import annotations

import math
import time

import pytest
from statsmodels.stats.power import TTestIndPower

from aa_review.core.stats import (
    PowerDesign,
    analytic_power,
    mc_tolerance,
    simulate_power,
    solve_clusters_per_arm,
)


@pytest.mark.parametrize(
    ("n", "alternative", "expected"),
    [(64, "two-sided", 0.8015), (50, "two-sided", 0.6969), (64, "larger", 0.8787)],
)
def test_analytic_model_is_the_two_sample_t_test_of_statsmodels(
    n: int, alternative: str, expected: float
) -> None:
    live = TTestIndPower().power(effect_size=0.5, nobs1=n, alpha=0.05, alternative=alternative)
    assert live == pytest.approx(expected, abs=5e-5)
    ours = analytic_power(
        0.5, n, 1, 0.0, 0.05, "greater" if alternative == "larger" else "two-sided"
    )
    # statsmodels adds the (negligible) lower tail for two-sided tests.
    assert ours == pytest.approx(live, abs=1e-5)


def test_solve_n_matches_statsmodels() -> None:
    live = TTestIndPower().solve_power(effect_size=0.5, power=0.80, alpha=0.05)
    assert live == pytest.approx(63.77, abs=0.005)
    assert solve_clusters_per_arm(0.5, 1, 0.0, 0.05, 0.80) == pytest.approx(live, abs=1e-3)


def test_clusterpower_cpa_normal_documented_example() -> None:
    # 16 clusters/arm, 10 per cluster, d = 1, sigma_b^2 = 0.5 of total variance 5.
    delta = 1 / math.sqrt(5)
    assert analytic_power(delta, 16, 10, 0.5 / 5, 0.05, "two-sided") == pytest.approx(
        0.801766, abs=5e-7
    )


def test_clusterpower_example_by_simulation() -> None:
    design = PowerDesign(1 / math.sqrt(5), 16, 10, 0.1, alpha=0.05, alternative="two-sided")
    est = simulate_power(design, 20_000, seed=11)
    assert est.power == pytest.approx(0.8023, abs=mc_tolerance(0.8023, 20_000))
    assert est.ci_low < 0.801766 + 0.01 and est.ci_high > 0.801766 - 0.01


def test_reference_point_without_attrition() -> None:
    design = PowerDesign(0.5, 16, 10, 0.10, alpha=0.05 / 2, alternative="greater")
    assert analytic_power(0.5, 16, 10, 0.10, 0.025, "greater") == pytest.approx(0.8808, abs=5e-5)
    est = simulate_power(design, 20_000, seed=3)
    assert est.power == pytest.approx(0.881, abs=mc_tolerance(0.881, 20_000))


def test_reference_point_with_attrition_and_missingness() -> None:
    design = PowerDesign(0.4, 24, 8, 0.05, 0.10, 0.10, alpha=0.05 / 3, alternative="two-sided")
    assert analytic_power(0.4, 24, 8, 0.05, 0.05 / 3, "two-sided") == pytest.approx(0.809, abs=5e-4)
    est = simulate_power(design, 20_000, seed=5)
    assert est.power == pytest.approx(0.712, abs=mc_tolerance(0.712, 20_000))


def test_shortcut_agrees_with_literal_unit_simulation() -> None:
    design = PowerDesign(0.4, 12, 6, 0.08, 0.15, 0.25, alpha=0.025, alternative="two-sided")
    fast = simulate_power(design, 20_000, seed=21)
    slow = simulate_power(design, 20_000, seed=22, per_unit=True)
    # Two independent estimates: their difference has twice the variance of one.
    assert abs(fast.power - slow.power) <= 2 * mc_tolerance(fast.power, 20_000)


def test_seed_reproduces_and_changes() -> None:
    design = PowerDesign(0.5, 8, 5, 0.1, 0.1, 0.1, alpha=0.05)
    a = simulate_power(design, 3000, seed=7)
    assert simulate_power(design, 3000, seed=7) == a
    assert simulate_power(design, 3000, seed=8).rejections != a.rejections


def test_any_integer_seed_is_accepted_and_reproduces() -> None:
    # Spec 2.2 gives ``seed`` no domain: negative and very large seeds are plans too.
    design = PowerDesign(0.5, 8, 5, 0.1, 0.1, 0.1, alpha=0.05)
    for seed in (-1, -(2**70), 2**200 + 3):
        est = simulate_power(design, 2000, seed=seed)
        assert simulate_power(design, 2000, seed=seed) == est
        assert 0.0 <= est.power <= 1.0


def test_power_is_monotone_in_nuisances_and_effect() -> None:
    base = {"delta": 0.5, "clusters_per_arm": 10, "cluster_size": 8, "alpha": 0.05}
    p0 = simulate_power(PowerDesign(icc=0.05, **base), 10_000, 1).power
    assert simulate_power(PowerDesign(icc=0.30, **base), 10_000, 1).power < p0
    lossy = PowerDesign(icc=0.05, cluster_attrition=0.4, **base)
    assert simulate_power(lossy, 10_000, 1).power < p0
    assert simulate_power(PowerDesign(icc=0.05, missing_rate=0.6, **base), 10_000, 1).power < p0
    null = PowerDesign(delta=0.0, clusters_per_arm=10, cluster_size=8, icc=0.05, alpha=0.05)
    assert simulate_power(null, 20_000, 1).power == pytest.approx(0.05, abs=0.01)


def test_arms_with_fewer_than_two_clusters_never_reject() -> None:
    # With 2 clusters per arm and heavy attrition most experiments lose an arm.
    design = PowerDesign(5.0, 2, 50, 0.0, cluster_attrition=0.9, alpha=0.05)
    est = simulate_power(design, 4000, 2)
    assert est.power <= 0.02  # P(both arms keep both clusters) = 0.1^4


def test_invalid_design_is_refused() -> None:
    with pytest.raises(ValueError):
        PowerDesign(0.5, 1, 10, 0.1)
    with pytest.raises(ValueError):
        PowerDesign(0.5, 4, 10, 1.0)
    with pytest.raises(ValueError):
        PowerDesign(0.5, 4, 10, 0.1, alternative="less")  # type: ignore[arg-type]


def test_twenty_thousand_experiments_in_under_two_seconds() -> None:
    design = PowerDesign(0.4, 24, 8, 0.05, 0.10, 0.10, alpha=0.05 / 3, alternative="two-sided")
    start = time.perf_counter()
    simulate_power(design, 20_000, seed=1)
    assert time.perf_counter() - start < 2.0
