"""Exports of rows, evidence and findings: plain CSV with a sidecar, JSON Lines with every
field, a JSON document holding query and digest, and numbers exactly as stored."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from aa_review.core.findings import Finding, Location, Severity, worst_first
from aa_review.core.query import filter_findings, filter_rows
from aa_review.core.query.export import (
    evidence_export,
    export_evidence,
    export_findings,
    export_rows,
    findings_export,
    meta_path,
    rows_export,
    write_export,
)

from .oracles import row_id


def test_csv_has_no_preamble_and_a_sidecar(pkg, tmp_path: Path) -> None:
    # Issue: "The CSV export starts with six # lines, so spreadsheet and csv readers
    # take them for data".
    rows = filter_rows(pkg, "type:failure_case OR type:preference_pair")
    out = tmp_path / "rows.csv"
    assert export_rows(
        pkg, rows, out, query="type:failure_case OR type:preference_pair", digest="sha256:abc"
    ) == len(rows)
    text = out.read_text(encoding="utf-8")
    assert not text.startswith("#")
    data = list(csv.DictReader(io.StringIO(text)))
    assert [d["row_id"] for d in data] == [row_id(pkg.read_row(int(i))) for i in rows]
    assert {d["data_type"] for d in data} == {"failure_case", "preference_pair"}
    meta = json.loads(meta_path(out).read_text())
    assert meta_path(out).name == "rows.csv.meta.json"
    assert meta["query"] == "type:failure_case OR type:preference_pair"
    assert meta["package_digest"] == "sha256:abc" and meta["kind"] == "rows"
    assert (meta["count"], meta["total"]) == (len(rows), len(pkg.index))
    assert meta["columns"] == list(data[0]) and meta["file"] == "rows.csv"
    assert meta["created"].endswith("Z")


def test_numbers_are_the_stored_values_without_added_noise(pkg, tmp_path: Path) -> None:
    # Issue: "values carry float noise (0.9299999999999999)". The shortest form that
    # reads back the same: a stored 0.93 is "0.93"; the package's own
    # 0.9299999999999999 is kept, being the value the row holds.
    out = tmp_path / "rows.csv"
    export_rows(
        pkg,
        range(len(pkg.index)),
        out,
        query="",
        digest=None,
        columns=["row_id", "confidence", "quality_score"],
    )
    data = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    for i, d in enumerate(data):
        stored = pkg.read_row(i).get("confidence")
        assert d["confidence"] == ("" if stored is None else repr(float(stored)))
    cells = {d["confidence"] for d in data}
    assert "0.93" in cells and "0.9299999999999999" in cells and "" in cells
    assert not any(len(c) > 18 for c in cells)


def test_jsonl_holds_every_field(pkg, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    export_rows(pkg, [0, 5], out, query="", digest="sha256:d")
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines == [pkg.read_row(0), pkg.read_row(5)]  # no header object: every line a row
    assert json.loads(meta_path(out).read_text())["columns"] == "all"


def test_json_document_holds_query_and_digest(pkg, tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    n = export_rows(
        pkg, [2, 3], out, query="x", digest="sha256:e", columns=["row_id", "file", "line"]
    )
    doc = json.loads(out.read_text())
    assert n == 2 and doc["meta"]["query"] == "x" and doc["meta"]["package_digest"] == "sha256:e"
    ix = pkg.index
    assert doc["rows"] == [
        {"row_id": ix.row_id_str(i), "file": ix.files[int(ix.file[i])], "line": int(ix.line[i])}
        for i in (2, 3)
    ]
    assert not meta_path(out).exists()


def test_csv_of_every_field(pkg) -> None:
    buf = io.BytesIO()
    write_export(buf, rows_export(pkg, [0, 1]), "csv", ["all"])
    data = list(csv.DictReader(io.StringIO(buf.getvalue().decode())))
    row = pkg.read_row(0)
    assert list(data[0]) == list(dict.fromkeys([*row, *pkg.read_row(1)]))
    assert json.loads(data[0]["task_lineage"]) == row["task_lineage"]  # nested: JSON text


def test_evidence_export(pkg, tmp_path: Path) -> None:
    out = tmp_path / "ev.csv"
    export_evidence(pkg, [0, 1], out, query="", digest=None)
    data = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [d["evidence_id"] for d in data] == pkg.index.evidence_ids[:2]
    assert data[0]["ref"] == pkg.catalog[0].ref and data[0]["catalogued"] == "true"
    assert int(data[0]["cited_by_rows"]) == sum(
        pkg.index.evidence_ids[0] in (pkg.read_row(r).get("source_evidence_ref_ids") or [])
        for r in range(len(pkg.index))
    )
    buf = io.BytesIO()
    write_export(buf, evidence_export(pkg, [0]), "jsonl")
    rec = json.loads(buf.getvalue())
    assert rec["evidence_id"] == pkg.catalog[0].evidence_id
    assert rec["content_hash"] == pkg.catalog[0].content_hash


def test_findings_export(pkg, audit_findings, tmp_path: Path) -> None:
    keep = filter_findings(audit_findings, "code:privacy OR code:quirk")
    out = tmp_path / "findings.csv"
    assert export_findings(
        audit_findings,
        keep,
        out,
        query="code:privacy OR code:quirk",
        digest="sha256:f",
        package_id=pkg.package_id,
    ) == len(keep)
    data = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    # One line per location: a finding about many rows has a line for each; worst first.
    keep = worst_first(audit_findings, keep)
    lines = [i for i in keep for _ in audit_findings[i].locations]
    assert [int(d["finding_index"]) for d in data] == lines
    assert [d["code"] for d in data] == [audit_findings[i].code for i in lines]
    first = audit_findings[keep[0]]
    assert data[0]["severity"] == first.severity.value
    assert data[0]["row_id"] == (first.location.row_id or "")
    meta = json.loads(meta_path(out).read_text())
    assert meta["kind"] == "findings" and meta["package_id"] == pkg.package_id
    buf = io.BytesIO()
    write_export(buf, findings_export(audit_findings, keep[:1]), "jsonl")
    rec = json.loads(buf.getvalue())
    assert rec["code"] == first.code and rec["location"] == first.location.model_dump(mode="json")


def test_a_finding_with_many_locations_is_one_csv_line_per_location() -> None:
    class Many(Finding):
        locations: list[Location] = []  # noqa: RUF012 - pydantic copies field defaults

    f = Many(
        code="row.dup",
        severity=Severity.ERROR,
        message="m",
        locations=[Location(row_id="a"), Location(row_id="b")],
    )
    buf = io.BytesIO()
    write_export(buf, findings_export([f]), "csv")
    data = list(csv.DictReader(io.StringIO(buf.getvalue().decode())))
    assert [(d["finding_index"], d["row_id"]) for d in data] == [("0", "a"), ("0", "b")]


def test_unknown_format_is_refused(pkg, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown export format"):
        export_rows(pkg, [0], tmp_path / "x.txt", query="", digest="d")
    assert not (tmp_path / "x.txt").exists()
