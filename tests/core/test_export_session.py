"""Export of a filtered view, and session files with relative paths."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from aa_review.core.errors import AAReviewError
from aa_review.core.export import export_rows
from aa_review.core.package import open_package
from aa_review.core.query import filter_rows
from aa_review.core.session import SessionState, load_session, save_session


def test_csv_export_records_filter_and_digest(sample_copy: Path, tmp_path: Path) -> None:
    pkg = open_package(sample_copy)
    rows = filter_rows(pkg, "type:failure_case")
    out = tmp_path / "out.csv"
    assert export_rows(pkg, rows, out, query="type:failure_case", digest="sha256:abc") == 3
    lines = out.read_text().splitlines()
    meta = dict(line[2:].split(": ", 1) for line in lines if line.startswith("# "))
    assert meta["query"] == "type:failure_case" and meta["package_digest"] == "sha256:abc"
    data = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    assert [d["row_id"] for d in data] == [pkg.index.row_id_str(int(i)) for i in rows]
    assert {d["data_type"] for d in data} == {"failure_case"}


def test_jsonl_export_full_rows(sample_copy: Path, tmp_path: Path) -> None:
    pkg = open_package(sample_copy)
    out = tmp_path / "out.jsonl"
    export_rows(pkg, [0, 5], out, query="", digest="sha256:d", full_rows=True)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["aa_review_export"]["package_digest"] == "sha256:d"
    assert lines[1] == pkg.read_row(0) and lines[2] == pkg.read_row(5)
    with pytest.raises(ValueError, match="unknown export format"):
        export_rows(pkg, [0], tmp_path / "x.txt", query="", digest="d")


def test_session_round_trip_relative(sample_copy: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    state = SessionState(rows_query="type:x", selected_row_id="row_1", central_tab=1)
    save_session(sessions / "s.aareview.json", state, sample_copy)
    doc = json.loads((sessions / "s.aareview.json").read_text())
    assert doc["package"] == f"../{sample_copy.name}"
    # moving both together keeps the link
    moved = tmp_path / "moved"
    moved.mkdir()
    (sessions / "s.aareview.json").rename(moved / "s.aareview.json")
    sample_copy.rename(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").rename(tmp_path / sample_copy.name)
    loaded, pkg = load_session(moved / "s.aareview.json")
    assert loaded.rows_query == "type:x" and loaded.central_tab == 1
    assert pkg == (tmp_path / sample_copy.name).resolve()
    (moved / "bad.aareview.json").write_text("{")
    with pytest.raises(AAReviewError, match="bad.aareview.json"):
        load_session(moved / "bad.aareview.json")
