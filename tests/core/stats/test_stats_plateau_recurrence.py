"""Plateau bounds (6.6), recurrence counts (6.7), sensitivity (6.4) and digest binding (6.3)."""

from __future__ import annotations

import pytest
from scipy import stats

from aa_review.core.stats import (
    SensitivityRange,
    family_k_star,
    is_plateau,
    one_sided_upper_bound,
    range_contains_base,
    recurrence_scope,
    simulation_binding,
    worst_case_corner,
)


def test_worked_example_of_section_6_6() -> None:
    assert stats.t.ppf(0.9875, 40) == pytest.approx(2.3289, abs=5e-5)
    assert one_sided_upper_bound(0.03, 0.05, 40, 0.05, 4) == pytest.approx(0.1464, abs=5e-5)
    assert one_sided_upper_bound(0.03, 0.05, 40, 0.05, 1) == pytest.approx(0.1142, abs=5e-5)
    assert one_sided_upper_bound(0.03, 0.05, "inf", 0.05, 4) == pytest.approx(0.1421, abs=5e-5)


def test_k_star_and_strict_plateau() -> None:
    assert family_k_star(2, 4) == 4
    assert family_k_star(0, 0) == 1
    assert is_plateau(0.149, 0.15)
    assert not is_plateau(0.15, 0.15)


def test_bound_refuses_invalid_inputs() -> None:
    with pytest.raises(ValueError):
        one_sided_upper_bound(0.0, -0.1, 10, 0.05)
    with pytest.raises(ValueError):
        one_sided_upper_bound(0.0, 0.1, 0, 0.05)
    with pytest.raises(ValueError):
        one_sided_upper_bound(0.0, 0.1, 10, 1.5)


def test_sensitivity_range() -> None:
    assert range_contains_base([0.05, 0.2], 0.1)
    assert range_contains_base([0.1, 0.1], 0.1)
    assert not range_contains_base([0.15, 0.2], 0.1)
    assert not range_contains_base([0.05, 1.0], 0.1)
    assert not range_contains_base([-0.1, 0.2], 0.1)
    assert not range_contains_base([0.1], 0.1)
    box = SensitivityRange((0.05, 0.2), (0.0, 0.1), (0.0, 0.15))
    assert worst_case_corner(box) == (0.2, 0.1, 0.15)


D = "sha256:" + "a" * 64
E = "sha256:" + "b" * 64


def test_simulation_binding() -> None:
    assert simulation_binding(D, D, D, E, E, True).bound
    assert not simulation_binding(D, E, D, E, E, True).inputs_bound
    assert not simulation_binding(D, D, E, E, E, True).inputs_bound
    assert not simulation_binding(D, D, D, "sha256:XYZ", "sha256:XYZ", True).code_bound
    assert not simulation_binding(D, D, D, E, D, True).code_bound
    assert not simulation_binding(D, D, D, E, E, "true").bound


EPOCHS = {
    "ep1": {"sealed": True, "status": "closed", "preregistered_configurations": ["c1", "c2", "c3"]},
    "ep2": {"sealed": True, "status": "active", "preregistered_configurations": ["c1", "c3"]},
    "ep3": {"sealed": False, "status": "active", "preregistered_configurations": ["c1"]},
}
CONFIGS = {
    "c1": {"model_family": "fam-a", "executor_id": "exec-1", "settings": {"temperature": 0}},
    "c2": {"model_family": "fam-a", "executor_id": "exec-1", "settings": {"temperature": 1}},
    "c3": {"model_family": "fam-b", "executor_id": "exec-1"},
}
COMPONENT = {"g1": "g1", "g2": "g2", "g3": "g2", "g4": "g4", "g5": "g5"}


def _obs(group: str, epoch: str, config: str, status: str = "confirmed", mech: str = "m") -> dict:
    return {
        "mechanism_id": mech,
        "causal_status": status,
        "group_id": group,
        "epoch_id": epoch,
        "config_id": config,
    }


def test_recurrence_counts_components_epochs_and_classes() -> None:
    obs = {
        "o1": _obs("g1", "ep1", "c1"),
        "o2": _obs("g2", "ep1", "c2"),  # c2 differs from c1 only in settings
        "o3": _obs("g3", "ep2", "c1"),  # g3 is in g2's component
        "o4": _obs("g4", "ep2", "c3"),
        "o5": _obs("g5", "ep3", "c1"),  # unsealed epoch: ignored
        "o6": _obs("g5", "ep1", "c1", status="suspected"),
        "o7": _obs("g5", "ep2", "c2"),  # c2 not preregistered in ep2
        "o8": _obs("g5", "ep1", "c1", mech="other"),
    }
    scope = recurrence_scope([*obs, "o404"], "m", obs, EPOCHS, CONFIGS, COMPONENT)
    assert (scope.families, scope.epochs, scope.configuration_classes) == (3, 2, 2)
    assert scope.passes
    assert scope.qualifying == ("o1", "o2", "o3", "o4")
    assert set(scope.ignored) == {"o5", "o6", "o7", "o8"}
    assert scope.unresolved == ("o404",)


def test_recurrence_fails_without_distinct_configuration_classes() -> None:
    obs = {
        "o1": _obs("g1", "ep1", "c1"),
        "o2": _obs("g2", "ep1", "c2"),
        "o3": _obs("g4", "ep2", "c1"),
    }
    scope = recurrence_scope(obs, "m", obs, EPOCHS, CONFIGS, COMPONENT)
    assert (scope.families, scope.epochs, scope.configuration_classes) == (3, 2, 1)
    assert not scope.passes


def test_simulation_binding_compares_only_the_sides_present() -> None:
    # No preregistration: the simulation's digests alone are compared.
    assert simulation_binding(D, D, None, E, None, True, preregistered=False).inputs_bound
    assert simulation_binding(D, D, None, E, None, True, preregistered=False).code_bound
    assert not simulation_binding(D, E, None, E, None, True, preregistered=False).inputs_bound
    assert not simulation_binding(D, D, None, "x", None, True, preregistered=False).code_bound
    # No simulation: the preregistration's inputs digest alone; no code to compare.
    assert simulation_binding(D, None, D, None, E, True, simulated=False).inputs_bound
    assert not simulation_binding(D, None, E, None, E, True, simulated=False).inputs_bound
    assert simulation_binding(D, None, D, None, "x", True, simulated=False).code_bound
    # Neither: the parameters' digest must still be well-formed.
    both_absent = {"simulated": False, "preregistered": False}
    assert simulation_binding(D, None, None, None, None, True, **both_absent).inputs_bound
    assert not simulation_binding("x", None, None, None, None, True, **both_absent).inputs_bound
