"""Contracts compared with the real artifact files, and the pre-final checklist."""

from __future__ import annotations

import json
from pathlib import Path

from aa_review.core import contracts
from aa_review.core.package import open_package

CSV = "attempts/revised/artifacts/reconciliation_report.csv"
JSON = "attempts/revised/artifacts/audit_summary.json"


def _entry(pkg, ref: str, kind: str = "output"):
    return next(e for e in contracts.contract_entries(pkg)
                if e.artifact_ref == ref and e.kind == kind)


def test_clean_sample_has_no_differences(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    entries = contracts.contract_entries(pkg)
    assert len(entries) == 18 and all(e.artifact_ref for e in entries)
    assert all(contracts.preview(pkg, e).ok for e in entries)
    assert [c.status for c in contracts.checklist(pkg)] == ["pass"] * 4


def test_csv_drift_is_named(sample_copy: Path) -> None:
    path = sample_copy / CSV
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    drop = header.index("paid_usd")
    rows = [",".join(c for i, c in enumerate(line.split(",")) if i != drop) for line in lines]
    rows[1] = rows[1].replace("648.26", "six hundred", 1)
    path.write_text("\n".join(rows[:3]) + "\n")
    pkg = open_package(sample_copy)
    pv = contracts.preview(pkg, _entry(pkg, CSV))
    kinds = {(d.kind, d.field, d.line) for d in pv.diffs}
    assert ("missing_column", "paid_usd", None) in kinds
    assert ("non_numeric", "amount", 2) in kinds
    assert pv.row_count == 2 and pv.header == [h for h in header if h != "paid_usd"]
    status = {c.check_id: c.status for c in contracts.checklist(pkg)}
    assert status["csv_tsv_headers_match"] == "fail" and status["required_files_exist"] == "pass"


def test_min_rows_and_missing_file(sample_copy: Path) -> None:
    path = sample_copy / CSV
    path.write_text(path.read_text().splitlines()[0] + "\n")
    pkg = open_package(sample_copy)
    assert {d.kind for d in contracts.preview(pkg, _entry(pkg, CSV)).diffs} == {"too_few_rows"}
    path.unlink()
    pkg = open_package(sample_copy)
    assert [d.kind for d in contracts.preview(pkg, _entry(pkg, CSV)).diffs] == ["missing_file"]
    assert {c.check_id: c.status for c in contracts.checklist(pkg)}["required_files_exist"] == \
        "fail"


def test_json_keys_and_types(sample_copy: Path) -> None:
    path = sample_copy / JSON
    doc = json.loads(path.read_text())
    del doc["assumptions"]
    doc["total_invoices"] = "twelve"
    path.write_text(json.dumps(doc))
    pkg = open_package(sample_copy)
    diffs = {(d.kind, d.field) for d in contracts.preview(pkg, _entry(pkg, JSON)).diffs}
    assert diffs == {("missing_key", "assumptions"), ("wrong_type", "total_invoices")}
    path.write_text("{broken")
    pkg = open_package(sample_copy)
    (d,) = contracts.preview(pkg, _entry(pkg, JSON)).diffs
    assert d.kind == "unreadable" and d.line == 1
    assert {c.check_id: c.status for c in contracts.checklist(pkg)}["json_outputs_parse"] == "fail"


def test_unlisted_artifact_fails_actual_outputs_check(sample_copy: Path) -> None:
    (sample_copy / "attempts/revised/artifacts/extra.csv").write_text("a\n1\n")
    pkg = open_package(sample_copy)
    (check,) = [c for c in contracts.checklist(pkg) if c.check_id == "actual_outputs_lists_files"]
    assert check.status == "fail" and "extra.csv" in check.detail
