"""Unsafe refs (absolute, '..', symlinks out of the package) are reported and never opened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_helpers import located

from aa_review.core.audits import audit_package, contamination_rows
from aa_review.core.package.catalog import MAP_PATH
from aa_review.generator import generate_package
from benchmarks.fuzz._opens import outside, record_opens


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """The real path of every file or folder opened while the test runs (from /proc)."""
    with record_opens() as seen:
        yield seen


def _outside(root: Path, paths: list[str]) -> list[str]:
    return outside(root, paths, near=root.parent)


def test_symlink_out_is_reported_and_not_followed(tmp_path: Path, opened: list[str]) -> None:
    g = generate_package(tmp_path / "out", rows=30, seed=2, defects=["symlink_out"])
    target = Path(g.defects[0].extra["target"])
    assert target.is_file() and (g.root / "input/fx_rates.csv").is_symlink()
    opened.clear()
    report = audit_package(g.root)
    f = located(report.findings, "ref.symlink_out", file=MAP_PATH, ref="input/fx_rates.csv")
    assert f.severity.value == "critical"
    assert str(target.resolve()) not in opened
    assert not _outside(g.root, opened), _outside(g.root, opened)


@pytest.mark.parametrize(
    ("defect", "code"), [("ref_dotdot", "ref.escape"), ("ref_absolute", "ref.absolute")]
)
def test_escaping_refs_are_reported_and_not_opened(
    tmp_path: Path, opened: list[str], defect: str, code: str
) -> None:
    g = generate_package(tmp_path / "out", rows=30, seed=3, defects=[defect])
    bait = g.root.parent / "outside.txt"  # what '../outside.txt' would name
    bait.write_text("not package content\n")
    opened.clear()
    report = audit_package(g.root)
    contamination_rows(g.root)
    ref = g.defects[0].ref
    located(report.findings, code, file=MAP_PATH, ref=ref)
    rows = [f for f in report.findings if f.code == code and f.location.row_id]
    # every row cites it: one finding locating every row
    assert len(rows) == 1 and rows[0].location_count == g.row_count
    assert len({loc.row_id for loc in rows[0].locations}) == g.row_count
    assert str(bait.resolve()) not in opened and "/etc/passwd" not in opened
    assert not _outside(g.root, opened)


def test_a_row_file_symlinked_out_is_not_read(tmp_path: Path, opened: list[str]) -> None:
    g = generate_package(tmp_path / "out", rows=30, seed=4)
    rel = "experience_compiler/training_time_package/task_variants.jsonl"
    outside = tmp_path / "elsewhere.jsonl"
    (g.root / rel).rename(outside)
    (g.root / rel).symlink_to(outside)
    opened.clear()
    report = audit_package(g.root)
    located(report.findings, "input.unsafe_file", file=rel)
    assert str(outside.resolve()) not in opened
