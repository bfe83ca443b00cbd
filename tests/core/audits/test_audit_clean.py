"""Clean packages (generated and the real sample) audit to recognised quirks only."""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_helpers import only_low_quirks

from aa_review.core.audits import audit_package
from aa_review.core.package import open_package, package_digest


@pytest.mark.parametrize(
    ("rows", "seed", "version"),
    [
        (7, 0, "v0.2"),
        (60, 1, "v0.2"),
        (300, 3, "v0.2"),
        (2500, 4, "v0.2"),
        (60, 2, "v0.1"),
        (400, 5, "v0.1"),
    ],
)
def test_clean_generated_package(make_package, rows: int, seed: int, version: str) -> None:
    g = make_package(rows=rows, seed=seed, version=version)
    report = audit_package(g.root)
    assert only_low_quirks(report), [
        (f.code, f.location.short(), f.message) for f in report.findings if not f.quirk
    ]
    assert report.complete and report.exit_code() == 0 and report.exit_code("warning") == 0
    assert report.counts.rows == g.row_count
    assert report.identity.format_version == version
    assert report.identity.package_digest == package_digest(g.root)
    assert report.checks[0] == "input" and len(report.summary) == len(report.checks)
    if version == "v0.2":  # 0.1.x compilers list no recipe
        assert "quirk.recipe_absent" in {f.code for f in report.findings}


def test_real_sample_is_clean(real_sample: Path) -> None:
    """Beside the real sample (else skipped; on every clone the stand-in is held to its
    recorded findings: test_real_sample_facts.py)."""
    report = audit_package(real_sample)
    assert only_low_quirks(report), [(f.code, f.message) for f in report.findings if not f.quirk]
    assert report.counts.rows == 60 and report.counts.links == 60
    found = {f.code for f in report.findings}
    assert {
        "quirk.recipe_absent",
        "quirk.tdo_compiler_id",
        "quirk.trajectory_traces_ref",
        "quirk.shared_contract_path",
        "quirk.checklist_ref_prefix",
    } <= found
    for f in report.findings:  # a quirk says why it is not a defect
        assert "(format 12." in f.message


def test_opened_package_and_path_give_the_same_report(make_package) -> None:
    g = make_package()
    a = audit_package(g.root)
    b = audit_package(open_package(g.root))
    assert a.findings == b.findings and a.identity == b.identity and a.counts == b.counts
