"""Generated packages for the audit tests, made once per session (tests never modify them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from aa_review.generator import GeneratedPackage, generate_package

MakePackage = Callable[..., GeneratedPackage]


@pytest.fixture(scope="session")
def make_package(tmp_path_factory: pytest.TempPathFactory) -> MakePackage:
    """``make_package(rows=60, seed=1, version="v0.2", defects=())``, cached per arguments."""
    cache: dict[tuple[object, ...], GeneratedPackage] = {}

    def make(
        rows: int = 60, seed: int = 1, version: str = "v0.2", defects: tuple[str, ...] = ()
    ) -> GeneratedPackage:
        key = (rows, seed, version, tuple(defects))
        if key not in cache:
            out = tmp_path_factory.mktemp("pkg")
            cache[key] = generate_package(
                out, rows=rows, seed=seed, version=version, defects=list(defects)
            )
        return cache[key]

    return make


@pytest.fixture
def outside_dir(tmp_path: Path) -> Path:
    """A folder outside any package, for files a package must never open."""
    d = tmp_path / "outside"
    d.mkdir()
    return d
