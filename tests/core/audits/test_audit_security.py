"""Unsafe refs (absolute, '..', symlinks out of the package) are reported and never opened."""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path

import pytest
from audit_helpers import located

from aa_review.core.audits import audit_package, contamination_rows
from aa_review.core.generator import generate_package
from aa_review.core.package.catalog import MAP_PATH


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path opened while the test runs (builtins/io/os level), resolved."""
    seen: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, bytes, os.PathLike)):
            seen.append(os.path.realpath(file))
        return real_open(file, *args, **kwargs)

    def spy_os_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(os.path.realpath(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    return seen


def _outside(root: Path, paths: list[str]) -> list[str]:
    base = os.path.realpath(root.parent)
    inside = os.path.realpath(root) + os.sep
    return [p for p in paths if p.startswith(base + os.sep) and not p.startswith(inside)]


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


@pytest.mark.parametrize(("defect", "code"), [("ref_dotdot", "ref.escape"),
                                               ("ref_absolute", "ref.absolute")])
def test_escaping_refs_are_reported_and_not_opened(tmp_path: Path, opened: list[str],
                                                   defect: str, code: str) -> None:
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
