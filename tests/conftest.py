"""Shared fixtures: small packages built in tmp_path; no Qt here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[1].parent / "shared" / "samples" / "pkg_sample_small"


@pytest.fixture(autouse=True, scope="session")
def _demo_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The demo package, keys and witness store live under the test run's tmp folder."""
    import os

    os.environ["AA_REVIEW_SAMPLE_DIR"] = str(tmp_path_factory.mktemp("demo") / "sample")
    # Private keys and witnessed journal heads too: never the user's own key store.
    os.environ["AA_REVIEW_DATA_DIR"] = str(tmp_path_factory.mktemp("data") / "aa-review")


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    """A writable copy of the shared real-shaped sample package."""
    if not SAMPLE.is_dir():
        pytest.skip("the shared sample package is not beside this checkout")
    dest = tmp_path / SAMPLE.name
    shutil.copytree(SAMPLE, dest, symlinks=True)
    for p in [dest, *dest.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    return dest
