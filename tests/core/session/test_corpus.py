"""The corpus view's lines, from the report `aa-review audit DIR --json` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aa_review.core.session.corpus import audit_folder, read_corpus_report
from aa_review.core.util.errors import AAReviewError


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Three packages (one clean, one with a critical finding) and a folder that is none."""
    from aa_review.generator import generate_package

    root = tmp_path_factory.mktemp("corpus")
    clean = generate_package(root, rows=30, seed=1, package_id="a_clean")
    bad = generate_package(root, rows=30, seed=2, package_id="b_bad", defects=["hidden_cited"])
    (root / "c_not_a_package").mkdir()
    return root, clean, bad


def _report(root: Path, out: Path) -> Path:
    """The report as the command line prints it."""
    import subprocess
    import sys

    res = subprocess.run(
        [sys.executable, "-m", "aa_review", "audit", str(root), "--json", "--workers", "1"],
        capture_output=True,
        check=False,
    )
    assert res.returncode in (1, 2), res.stderr
    out.write_bytes(res.stdout)
    return out


def test_a_report_of_the_command_line_makes_one_line_per_package(corpus, tmp_path) -> None:
    root, clean, bad = corpus
    view = read_corpus_report(_report(root, tmp_path / "corpus.json"))
    by_name = {Path(x.path).name: x for x in view.lines}
    assert set(by_name) == {clean.root.name, bad.root.name, "c_not_a_package"}
    b = by_name[bad.root.name]
    assert b.worst is not None and b.worst.value == "critical"
    assert b.by_check.get("links", 0) >= 1 and b.rows == 30
    assert b.findings == sum(b.by_check.values())
    assert by_name["c_not_a_package"].error
    assert by_name[clean.root.name].worst_rank < b.worst_rank
    assert Path(b.path) == bad.root  # opens where it was audited
    assert "3 packages" in view.summary() and "1 could not be audited" in view.summary()


def test_auditing_a_folder_gives_the_same_lines(corpus, tmp_path) -> None:
    root, _clean, _bad = corpus
    seen: list[object] = []
    view = audit_folder(root, workers=1, progress=seen.append)
    from_file = read_corpus_report(_report(root, tmp_path / "c.json"))
    assert [(x.package_id, x.findings, x.worst) for x in view.lines] == [
        (x.package_id, x.findings, x.worst) for x in from_file.lines
    ]
    assert len(seen) == 3


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b'{"kind": "corpus"}', b"[1, 2]", b'{"kind": "package", "tool": 3}'],
)
def test_what_is_not_a_report_is_refused_with_its_name(tmp_path, content: bytes) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(AAReviewError, match=r"bad\.json"):
        read_corpus_report(bad)
    with pytest.raises(AAReviewError, match="cannot be read"):
        read_corpus_report(tmp_path / "missing.json")
