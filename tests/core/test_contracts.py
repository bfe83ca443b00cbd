"""Contracts compared with the real artifact files, and the pre-final checklist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aa_review.core import contracts
from aa_review.core.contracts import is_number
from aa_review.core.package import open_package

CSV = "attempts/revised/artifacts/reconciliation_report.csv"
JSON = "attempts/revised/artifacts/audit_summary.json"


def _set_cell(lines: list[str], line: int, column: str, value: str) -> None:
    """Replace one cell of a comma-separated file held as lines (line 0 is the header)."""
    cells = lines[line].split(",")
    cells[lines[0].split(",").index(column)] = value
    lines[line] = ",".join(cells)


def _entry(pkg, ref: str, kind: str = "output"):
    return next(
        e for e in contracts.contract_entries(pkg) if e.artifact_ref == ref and e.kind == kind
    )


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
    _set_cell(lines, 1, "amount", "six hundred")
    drop = header.index("paid_usd")
    rows = [",".join(c for i, c in enumerate(line.split(",")) if i != drop) for line in lines]
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
    assert {c.check_id: c.status for c in contracts.checklist(pkg)}[
        "required_files_exist"
    ] == "fail"


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


def test_unlisted_deliverable_fails_actual_outputs_check(sample_copy: Path) -> None:
    (sample_copy / "attempts/revised/artifacts/extra.csv").write_text("a\n1\n")
    outputs = sample_copy / "attempts/revised/actual_outputs.json"
    doc = json.loads(outputs.read_text())
    for key in ("deliverable_refs", "artifact_refs", "files_created"):
        doc[key] = [r for r in doc[key] if not r.endswith("vendor_totals.csv")]
    outputs.write_text(json.dumps(doc))
    pkg = open_package(sample_copy)
    (check,) = [c for c in contracts.checklist(pkg) if c.check_id == "actual_outputs_lists_files"]
    # the deliverables are the contracted artifacts: an uncontracted extra file is no failure
    assert check.status == "fail" and check.failed == (
        "attempts/revised/artifacts/vendor_totals.csv",
    )
    assert check.detail == (
        "1 artifact(s) not listed by their attempt's actual_outputs.json: "
        "attempts/revised/artifacts/vendor_totals.csv"
    )


@pytest.mark.parametrize(
    ("cell", "number"),
    [
        ("648.26", True),
        ("4,512.20", True),
        ("-1,000", True),
        ("1,000,000.5", True),
        (" 7 ", True),
        ("1e3", True),
        ("nan", True),
        ("inf", True),
        ("0", True),
        ("n/a", False),
        ("$5", False),
        ("12%", False),
        ("1.2.3", False),
        (",5", False),
        ("5,", False),
        ("1,,000", False),
        ("six hundred", False),
        ("", False),
    ],
)
def test_number_semantics(cell: str, number: bool) -> None:
    """float() with commas between digits read as thousands separators."""
    assert is_number(cell) is number


def test_thousands_separators_and_file_lines(sample_copy: Path) -> None:
    path = sample_copy / CSV
    lines = path.read_text().splitlines()
    _set_cell(lines, 1, "amount", '"4,648.26"')  # quoted: the delimiter is a comma
    _set_cell(lines, 3, "amount", "lots")
    # a blank line is no data row; the bad cell is on file line 5, data row 2
    path.write_text("\n".join([*lines[:3], "", *lines[3:]]) + "\n")
    pkg = open_package(sample_copy)
    pv = contracts.preview(pkg, _entry(pkg, CSV))
    assert [(d.kind, d.field, d.line, d.row) for d in pv.diffs] == [("non_numeric", "amount", 5, 2)]
    assert pv.lines[:4] == [2, 3, 5, 6] and pv.rows[0][3] == "4,648.26"
    assert set(pv.diffs[0].contracts) == set(_entry(pkg, CSV).group)


def test_integer_is_a_number_and_not_compared_entries(sample_copy: Path) -> None:
    rlp = sample_copy / "experience_compiler/runtime_learning_package"
    tc = json.loads((rlp / "transfer_checklist.json").read_text())
    i = next(i for i, c in enumerate(tc["artifact_contracts"]) if c["artifact_ref"] == JSON)
    tc["artifact_contracts"][i]["expected_types"]["total_invoices"] = "number"
    tc["artifact_contracts"][0]["read_error"] = "unreadable when compiled"
    (rlp / "transfer_checklist.json").write_text(json.dumps(tc))
    pkg = open_package(sample_copy)
    assert contracts.preview(pkg, _entry(pkg, JSON)).ok
    first = [e for e in contracts.contract_entries(pkg) if e.index == 0]
    assert len(first) == 2 and all(e.artifact_ref is None for e in first)
    pv = contracts.preview(pkg, first[0])
    assert not pv.compared and not pv.ok and pv.status == "not compared"


def test_large_json_artifacts_are_compared_in_a_worker_process(
    sample_copy: Path, monkeypatch
) -> None:
    """Parsing holds the interpreter: a large JSON artifact is compared in another process,
    with the same verdict, and its parsed value is not brought back."""
    from aa_review.core.contracts import _entries

    path = sample_copy / JSON
    doc = json.loads(path.read_text())
    doc.pop(next(iter(doc)))  # a contracted key goes missing
    path.write_text(json.dumps(doc))
    pkg = open_package(sample_copy)
    here = {c.file.ref: c for c in contracts.compare_package(pkg)}
    monkeypatch.setattr(_entries, "LARGE_JSON", 0)  # every JSON artifact counts as large
    there = {c.file.ref: c for c in contracts.compare_package(pkg)}
    assert list(there) == list(here)
    for ref, check in there.items():
        assert check.diffs == here[ref].diffs, ref
        if check.file.format == "json":
            assert check.shape.value is None and check.shape.value_dropped > 0
            assert here[ref].shape.value is not None
    assert any(d.kind == contracts.DiffKind.MISSING_KEY for d in there[JSON].diffs)
    pv = contracts.preview(pkg, _entry(pkg, JSON), checks=list(there.values()))
    assert "compared with its contract in full" in pv.text and not pv.ok
