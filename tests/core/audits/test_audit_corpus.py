"""Corpus mode: packages audited in parallel processes; an unreadable one is reported."""

from __future__ import annotations

import shutil
from pathlib import Path

from audit_helpers import only_low_quirks

from aa_review.core.audits import AuditProgress, audit_corpus, find_packages


def _corpus(tmp_path: Path, make_package) -> Path:  # type: ignore[no-untyped-def]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for seed in (21, 22, 23):
        g = make_package(rows=20, seed=seed)
        shutil.copytree(g.root, corpus / g.root.name)
    bad = corpus / "broken_pkg"
    (bad / "experience_compiler").mkdir(parents=True)
    (bad / "experience_compiler").rmdir()
    (bad / "experience_compiler").write_text("not a folder")  # not a package
    return corpus


def test_parallel_corpus_with_an_unreadable_package(tmp_path: Path, make_package) -> None:
    corpus = _corpus(tmp_path, make_package)
    seen: list[AuditProgress] = []
    report = audit_corpus(corpus, workers=2, progress=seen.append)
    assert [Path(e.path).name for e in report.entries] == sorted(p.name for p in corpus.iterdir())
    broken = [e for e in report.entries if e.report is None]
    assert len(broken) == 1 and "broken_pkg" in broken[0].path and broken[0].error
    good = [e.report for e in report.entries if e.report is not None]
    assert len(good) == 3 and all(only_low_quirks(r) for r in good)
    assert report.totals.packages == 4 and report.totals.failed == 1
    assert report.totals.rows == sum(r.counts.rows for r in good)
    assert report.totals.workers == 2 and report.exit_code() == 2
    assert seen[-1].done == seen[-1].total == 4


def test_serial_corpus_matches_parallel(tmp_path: Path, make_package) -> None:
    corpus = _corpus(tmp_path, make_package)
    shutil.rmtree(corpus / "broken_pkg")
    one = audit_corpus(corpus, workers=1)
    assert one.exit_code() == 0 and one.totals.audited == 3
    assert [e.report.identity.package_digest for e in one.entries if e.report]


def test_a_package_folder_is_its_own_corpus(make_package) -> None:
    g = make_package()
    assert find_packages(g.root) == [g.root]
