"""Findings of both audits keyed on code and location: new, fixed, persisting."""

from __future__ import annotations

from pathlib import Path

from aa_review.core.diff import diff, diff_findings, finding_key
from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package import Package, open_package
from aa_review.generator import ChangeSpec, derive_package, generate_package


def _f(code: str, **loc: object) -> Finding:
    return Finding(code=code, severity=Severity.ERROR, message="m", location=Location(**loc))


def test_key_is_code_and_location() -> None:
    a = [_f("x.a", file="f.jsonl", line=3, row_id="r1"), _f("x.b", file="f.jsonl", line=9)]
    b = [
        _f("x.a", file="f.jsonl", line=5, row_id="r1"),  # same row, its line shifted
        _f("x.b", file="f.jsonl", line=10),  # a line-only location moved: another place
        _f("x.c", evidence_id="e1"),
    ]
    d = diff_findings(a, b)
    assert [f["code"] for f in d.persisting] == ["x.a"]
    assert sorted(f["code"] for f in d.new) == ["x.b", "x.c"]
    assert [f["code"] for f in d.fixed] == ["x.b"]


def test_repeated_findings_count() -> None:
    one = _f("x.a", ref="r")
    d = diff_findings([one], [one, one])
    assert len(d.persisting) == 1 and len(d.new) == 1 and not d.fixed


def test_a_list_of_locations_is_understood() -> None:
    # Findings may name several locations; the key takes them all, in any order.
    a = {"code": "x", "locations": [{"row_id": "r1", "line": 3}, {"row_id": "r2"}]}
    b = {"code": "x", "locations": [{"row_id": "r2"}, {"row_id": "r1", "line": 7}]}
    c = {"code": "x", "locations": [{"row_id": "r2"}]}
    assert finding_key(a) == finding_key(b) != finding_key(c)


def test_new_fixed_and_persisting_on_generated_pairs(tmp_path: Path) -> None:
    # A defect in both packages persists; hiding cited evidence adds findings.
    src = generate_package(
        tmp_path / "a", rows=40, seed=8, package_id="pkg_f", defects=["private_path"]
    ).root
    made = derive_package(src, tmp_path / "b", ChangeSpec(evidence_hidden=1), seed=1)
    old, new = open_package(src), open_package(made.root)
    d = diff(old, new, audit=True)
    assert d.findings is not None
    assert {f["code"] for f in d.findings.new} == {"link.hidden_cited", "evidence.field_mismatch"}
    assert any(f["code"].startswith("privacy") for f in d.findings.persisting)
    assert not d.findings.fixed
    back = diff(new, old, audit=True)
    assert {f["code"] for f in back.findings.fixed} == {f["code"] for f in d.findings.new}
    assert len(back.findings.fixed) == len(d.findings.new) and not back.findings.new


def test_findings_are_optional(base: Package) -> None:
    assert diff(base, base).findings is None
