"""Shared fixtures: packages made by the project's own generator; no Qt here.

Every test runs from a bare clone. The package the tests open and damage is the
generator's stand-in for the real-shaped sample (same id, rows and seed), made once
per generator version and copied per test. The real sample beside the checkout
(``../shared/samples``, or ``$AA_REVIEW_SAMPLES``) is only read by the tests that
check the generator is faithful to it; they skip when it is absent.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE_ID = "pkg_sample_small"
# The generator's arguments that reproduce the real sample's shapes (60 rows, seed 0).
SAMPLE_ARGS = {"rows": 60, "seed": 0, "package_id": SAMPLE_ID}
_COMPLETE = ".complete"


def real_samples_dir() -> Path:
    """Where the real sample packages are looked for."""
    env = os.environ.get("AA_REVIEW_SAMPLES")
    return Path(env) if env else REPO.parent / "shared" / "samples"


def generator_version() -> str:
    """A digest of the generator and everything it can import: the Qt-free core."""
    h = hashlib.sha256()
    top = REPO / "aa_review"
    for part in ("core", "generator"):
        for path in sorted((top / part).rglob("*.py")):
            h.update(path.relative_to(top).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _cache_base(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pytest's cache folder (kept between runs), or this run's tmp folder without it."""
    cache = getattr(config, "cache", None)
    if cache is not None:
        return Path(cache.mkdir("generated-packages"))
    return tmp_path_factory.mktemp("generated-packages")


@pytest.fixture(autouse=True, scope="session")
def _demo_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The demo package, keys and witness store live under the test run's tmp folder."""
    os.environ["AA_REVIEW_SAMPLE_DIR"] = str(tmp_path_factory.mktemp("demo") / "sample")
    # Private keys and witnessed journal heads too: never the user's own key store.
    os.environ["AA_REVIEW_DATA_DIR"] = str(tmp_path_factory.mktemp("data") / "aa-review")
    # The file hash cache of `aa-review info`: never the user's cache folder.
    os.environ["AA_REVIEW_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache") / "aa-review")


@pytest.fixture(scope="session")
def generated_sample(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The generator's stand-in for the real sample, read-only for tests (copy to change it).

    Cached per generator version; written into a temporary sibling and renamed, so an
    interrupted run never leaves half a package to be reused.
    """
    from aa_review.generator import generate_package

    base = _cache_base(request.config, tmp_path_factory)
    home = base / f"{SAMPLE_ID}-{generator_version()}"
    if not (home / _COMPLETE).exists():
        tmp = Path(tempfile.mkdtemp(prefix=".gen-", dir=base))
        try:
            generate_package(tmp, **SAMPLE_ARGS)
            (tmp / _COMPLETE).touch()
            shutil.rmtree(home, ignore_errors=True)
            os.replace(tmp, home)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for stale in base.glob(f"{SAMPLE_ID}-*"):  # earlier generator versions
            if stale != home:
                shutil.rmtree(stale, ignore_errors=True)
    return home / SAMPLE_ID


@pytest.fixture
def sample_copy(tmp_path: Path, generated_sample: Path) -> Path:
    """A writable copy of the generated sample package."""
    dest = tmp_path / SAMPLE_ID
    shutil.copytree(generated_sample, dest, symlinks=True)
    return dest


@pytest.fixture
def real_sample(tmp_path: Path) -> Path:
    """A writable copy of the real-shaped sample beside the checkout; skips without it."""
    src = real_samples_dir() / SAMPLE_ID
    if not src.is_dir():
        pytest.skip(
            f"the real sample is not beside this checkout ({src.parent}); "
            "set AA_REVIEW_SAMPLES to check the generator against it"
        )
    dest = tmp_path / "real" / SAMPLE_ID
    shutil.copytree(src, dest, symlinks=True)
    for p in [dest, *dest.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    return dest
