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
    assert (
        home / SAMPLE_PACKAGE_ID / "experience_compiler/compiler_manifest.json"
    ).stat().st_mtime_ns == stamp.st_mtime_ns
    other = ensure_sample(tmp_path / "b")
    assert package_digest(other / SAMPLE_PACKAGE_ID) == package_digest(home / SAMPLE_PACKAGE_ID)


def test_a_new_demo_revision_is_made_beside_the_old_one(tmp_path: Path, monkeypatch) -> None:
    """A demo a user has worked in (journal entries of their own) is never rewritten: a
    changed demo goes to a folder of its own."""
    import aa_review.demo as sample

    monkeypatch.delenv("AA_REVIEW_SAMPLE_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    old = sample.sample_home()
    old.mkdir(parents=True)
    (old / "dossier_workspace").mkdir()
    (old / "dossier_workspace" / "journal.jsonl").write_text("the user's own entries\n")
    monkeypatch.setattr(sample, "DEMO_REVISION", sample.DEMO_REVISION + 1)
    new = sample.sample_home()
    assert new != old and new.parent == old.parent
    assert new.name.startswith(f"sample-{sample.__version__}-r")
    assert sample.ensure_sample() == new and (new / "dossier_workspace").is_dir()
    assert (old / "dossier_workspace" / "journal.jsonl").read_text() == "the user's own entries\n"


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


def test_demo_varies_so_every_linked_view_shows_something(tmp_path: Path) -> None:
    """Rows cite subsets of the catalog, scores spread, and the audit has findings of
    every severity; no row cites hidden evidence (the demo dossier binds this package)."""
    import numpy as np

    from aa_review.core.audits import audit_package

    pkg = open_package(ensure_sample(tmp_path / "v") / SAMPLE_PACKAGE_ID)
    ix = pkg.index
    assert len(ix.sets) > 10 and int(ix.set_size.max()) < len(pkg.catalog)
    assert len(np.unique(ix.confidence)) > 60 and len(np.unique(ix.quality)) > 60
    assert float(ix.confidence.min()) < 0.7 < 0.9 < float(ix.confidence.max())
    hidden = {i for i, e in enumerate(pkg.catalog) if e.visibility == "hidden_excluded"}
    cited = set(np.concatenate(ix.sets).tolist())
    assert hidden and not hidden & cited
    assert cited == set(range(len(pkg.catalog))) - hidden  # every other item is cited
    report = audit_package(pkg)
    assert {f.severity.value for f in report.findings} == {"critical", "error", "warning", "low"}
    assert not any(f.code == "link.hidden_cited" for f in report.findings)
