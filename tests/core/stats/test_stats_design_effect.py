"""Design effect and effective sample size against spec 6.1 and 6.8."""

from __future__ import annotations

import pytest

from aa_review.core.stats import design_effect, effective_sample, kish_design_effect


def test_worked_example_of_section_6_1() -> None:
    # A(6), {B,C}=14, D(10), E(10) after merging B and C through a shared template.
    es = effective_sample([6, 14, 10, 10], icc=0.2)
    assert es.independent_groups == 4
    assert es.observation_units == 40
    assert es.design_effect == pytest.approx(2.96)
    assert es.effective_sample_size == pytest.approx(13.51, abs=0.005)


@pytest.mark.parametrize(("m", "icc", "deff"), [(20, 0.05, 1.95), (12, 0.03, 1.33)])
def test_kish_reference_values(m: int, icc: float, deff: float) -> None:
    assert kish_design_effect(m, icc) == pytest.approx(deff)
    assert design_effect([m] * 7, icc) == pytest.approx(deff)


def test_equal_clusters_give_reference_effective_n() -> None:
    es = effective_sample([12] * 100, 0.03)
    assert es.observation_units == 1200
    assert es.effective_sample_size == pytest.approx(902.3, abs=0.05)


def test_unequal_sizes_match_clusterpower_weighted_inflation() -> None:
    sizes = [3, 9, 14, 22, 2]
    icc = 0.15
    n = len(sizes)
    mean = sum(sizes) / n
    cv2 = (sum((s - mean) ** 2 for s in sizes) / n) / mean**2  # population CV
    assert design_effect(sizes, icc) == pytest.approx(1 + ((cv2 + 1) * mean - 1) * icc)


def test_ess_lies_between_groups_and_units() -> None:
    assert effective_sample([10] * 5, 0.0).effective_sample_size == pytest.approx(50)
    near_one = effective_sample([10] * 5, 0.999999).effective_sample_size
    assert 5 <= near_one < 5.001


def test_empty_clusters_are_ignored_and_invalid_input_refused() -> None:
    assert effective_sample([0, 5, 5], 0.1).independent_groups == 2
    with pytest.raises(ValueError):
        effective_sample([], 0.1)
    with pytest.raises(ValueError):
        effective_sample([5], 1.0)
    with pytest.raises(ValueError):
        effective_sample([5, -1], 0.1)
