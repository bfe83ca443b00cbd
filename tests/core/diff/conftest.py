"""Small generated packages and changed copies of them (generator.derive_package)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from aa_review.core.package import Package, open_package
from aa_review.generator import ChangeSpec, DerivedPackage, derive_package, generate_package


@pytest.fixture(scope="session")
def base_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean 60-row v0.2 package, generated once per session (tests never modify it)."""
    out = tmp_path_factory.mktemp("diff_base")
    return generate_package(out, rows=60, seed=3, package_id="pkg_diff").root


@pytest.fixture(scope="session")
def base(base_dir: Path) -> Package:
    return open_package(base_dir)


@pytest.fixture
def derive(base_dir: Path, tmp_path: Path) -> Callable[..., tuple[DerivedPackage, Package]]:
    """``derive(seed=0, **changes)``: a changed copy of the base package, opened."""
    count = [0]

    def make(
        seed: int = 0, source: Path | None = None, **changes: object
    ) -> tuple[DerivedPackage, Package]:
        count[0] += 1
        out = tmp_path / f"derived{count[0]}"
        d = derive_package(
            source or base_dir,
            out,
            ChangeSpec(**changes),  # type: ignore[arg-type]
            seed=seed,
        )
        return d, open_package(d.root)

    return make


@pytest.fixture
def base_copy(base_dir: Path, tmp_path: Path) -> Path:
    """A writable copy of the base package, for hand-made changes."""
    dest = tmp_path / "copy" / base_dir.name
    shutil.copytree(base_dir, dest, symlinks=True)
    return dest
