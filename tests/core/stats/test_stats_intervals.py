"""Clopper-Pearson, MC tolerance and multiplicity against spec 6.5/6.8 and statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from aa_review.core.stats import (
    adjust_pvalues,
    adjusted_alpha,
    claim_reproduced,
    clopper_pearson,
    mc_tolerance,
)


@pytest.mark.parametrize(
    ("x", "n", "lo", "hi"),
    [
        (11, 100, 5.62, 18.83),  # simr powerSim print-out
        (95, 100, 88.72, 98.36),
        (486, 500, 95.35, 98.46),
        (966, 1000, 95.28, 97.63),
    ],
)
def test_clopper_pearson_reference(x: int, n: int, lo: float, hi: float) -> None:
    got = clopper_pearson(x, n)
    assert 100 * got[0] == pytest.approx(lo, abs=0.005)
    assert 100 * got[1] == pytest.approx(hi, abs=0.005)


@pytest.mark.parametrize(("x", "n"), [(0, 50), (50, 50), (17, 40), (1999, 2000)])
def test_clopper_pearson_matches_statsmodels_beta_method(x: int, n: int) -> None:
    lo, hi = proportion_confint(x, n, alpha=0.05, method="beta")
    assert clopper_pearson(x, n) == pytest.approx((lo, hi), abs=1e-12)


def test_clopper_pearson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        clopper_pearson(5, 4)
    with pytest.raises(ValueError):
        clopper_pearson(0, 0)


def test_mc_tolerance_floor_and_growth() -> None:
    assert mc_tolerance(0.8, 20_000) == 0.015
    assert mc_tolerance(0.5, 2_000) == pytest.approx(4 * (0.25 / 2000) ** 0.5)
    assert claim_reproduced(0.81, 0.80, 20_000)
    assert not claim_reproduced(0.82, 0.80, 20_000)


def test_adjusted_alpha() -> None:
    assert adjusted_alpha(0.05, 4, "holm") == pytest.approx(0.0125)
    assert adjusted_alpha(0.05, 4, "bonferroni") == pytest.approx(0.0125)
    assert adjusted_alpha(0.05, 1, "none") == 0.05
    with pytest.raises(ValueError):
        adjusted_alpha(0.05, 2, "none")
    with pytest.raises(ValueError):
        adjusted_alpha(0.05, 0, "holm")


PVALS = [0.01, 0.04, 0.03, 0.005]


def test_holm_and_bonferroni_reference_numbers() -> None:
    assert adjust_pvalues(PVALS, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert adjust_pvalues(PVALS, "bonferroni") == pytest.approx([0.04, 0.16, 0.12, 0.02])


@pytest.mark.parametrize("method", ["holm", "bonferroni"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_adjustment_matches_statsmodels_multipletests(method: str, seed: int) -> None:
    pvals = PVALS if seed == 0 else np.random.default_rng(seed).random(9).tolist()
    reject, adjusted, _, _ = multipletests(pvals, alpha=0.05, method=method)
    ours = adjust_pvalues(pvals, method)  # type: ignore[arg-type]
    assert ours == pytest.approx(adjusted.tolist(), abs=1e-12)
    assert [p <= 0.05 for p in ours] == reject.tolist()
    if seed == 0:  # both reject the 1st and the 4th hypothesis
        assert reject.tolist() == [True, False, False, True]
