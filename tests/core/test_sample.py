"""The demo package: generated on first use, complete, deterministic, and clean to load."""

from __future__ import annotations

from pathlib import Path

from aa_review.core.package import open_package, package_digest
from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample


def test_sample_is_made_once_and_loads_cleanly(tmp_path: Path) -> None:
    home = ensure_sample(tmp_path / "a")
    pkg = open_package(home / SAMPLE_PACKAGE_ID)
    assert pkg.problems == [] and len(pkg.index) >= 100
    stamp = (home / SAMPLE_PACKAGE_ID / "experience_compiler/compiler_manifest.json").stat()
    assert ensure_sample(home) == home  # already complete: untouched
    assert (home / SAMPLE_PACKAGE_ID / "experience_compiler/compiler_manifest.json").stat() \
        .st_mtime_ns == stamp.st_mtime_ns
    other = ensure_sample(tmp_path / "b")
    assert package_digest(other / SAMPLE_PACKAGE_ID) == package_digest(home / SAMPLE_PACKAGE_ID)


def test_interrupted_first_run_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    import aa_review.demo as sample

    def boom(folder: Path) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(sample, "_write_workspace", boom)
    try:
        ensure_sample(tmp_path / "c")
    except RuntimeError:
        pass
    assert not (tmp_path / "c").exists()
    assert [p.name for p in tmp_path.iterdir()] == []
