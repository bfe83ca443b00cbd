"""Hostile packages get a result: a property-based test over package mutations, and the
symlink-swap race, with small fixed budgets (``./dev fuzz`` runs the long campaign).

Whatever operators change a package (FIFOs, sockets, symlinks out, deep nesting, huge
integers, NaN, over-long and non-UTF-8 names, corrupt indexes, edited manifests,
injected rows...), ``info`` and ``audit`` must exit 0, 1 or 2 with JSON output, never
raise, and never open a file outside the package.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aa_review.generator import generate_package
from benchmarks.fuzz import _mutants
from benchmarks.fuzz._mutants import CLASSES, OPERATORS, apply, plant_bait
from benchmarks.fuzz._race import race
from benchmarks.fuzz._run import run_one


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    sizes = _mutants.HUGE_MB
    _mutants.HUGE_MB = (1,)  # the campaign writes 20 and 40 MB; the same code path
    yield generate_package(tmp_path_factory.mktemp("fuzzbase"), rows=30, seed=11).root
    _mutants.HUGE_MB = sizes


def test_every_class_the_issue_names_has_an_operator() -> None:
    named = {
        "FIFO",
        "socket",
        "unreadable file",
        "long path",
        "symlink swap",
        "deep nesting",
        "huge ints",
        "NaN",
        "huge header string",
        "long component",
        "non-UTF-8 names",
        "corrupt artifacts_index",
        "edited manifest",
        "injected rows",
        "hard link",
    }
    assert named <= set(CLASSES.values())


@settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    ops=st.lists(st.sampled_from(sorted(OPERATORS)), min_size=1, max_size=2),
    seed=st.integers(0, 2**16),
)
def test_a_mutated_package_gets_a_result(
    base: Path, tmp_path_factory: pytest.TempPathFactory, ops: list[str], seed: int
) -> None:
    work = tmp_path_factory.mktemp("mutant")
    root = work / base.name
    shutil.copytree(base, root, symlinks=True)
    outside = plant_bait(work / "outside")
    rng = random.Random(seed)
    for name in ops:
        try:
            root, _ = apply(root, name, rng, outside)
        except (OSError, ValueError):
            pass  # an operator that found nothing to change
    result = run_one(str(root), audit_hook=False)
    assert result["failures"] == [], (ops, seed)
    assert result["info"] in (0, 1, 2) and result["audit"] in (0, 1, 2)
    shutil.rmtree(work, ignore_errors=True)


def test_a_symlink_swapped_in_while_loading_is_never_followed(tmp_path: Path) -> None:
    root = generate_package(tmp_path / "pkgs", rows=30, seed=12).root
    result = race(root, tmp_path, loads=40, audit_every=10)
    assert result.loads == 40 and result.audits == 4 and result.swaps > 0
    assert result.outside_opens == [] and result.bait_seen == []
