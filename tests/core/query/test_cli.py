"""``aa-review rows`` and ``aa-review audit --query``: the core's answers, headless, with
data on stdout, messages on stderr and exit 0 / 1 / 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from aa_review.cli import main
from aa_review.cli._query_arg import join_option_values
from aa_review.core.findings import Finding
from aa_review.core.query import filter_findings, filter_rows

from . import parity


def cli(capsysbinary, *args: str) -> tuple[int, bytes, str]:
    code = main(list(args))
    out = capsysbinary.readouterr()
    return code, out.out, out.err.decode()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "aa_review", *args], capture_output=True, text=True, timeout=300
    )


def cli_positions(pkg, capsysbinary, root: Path, query: str) -> list[int]:
    code, out, err = cli(
        capsysbinary, "rows", str(root), "--query", query, "--csv", "--columns", "file,line"
    )
    assert code in (0, 1), err
    ix = pkg.index
    where = {(ix.files[int(ix.file[i])], int(ix.line[i])): i for i in range(len(ix))}
    return [where[(d["file"], int(d["line"]))] for d in csv.DictReader(io.StringIO(out.decode()))]


@pytest.mark.parametrize("query", parity.ROWS)
def test_rows_parity(pkg, audit_findings, varied_root: Path, capsysbinary, query: str) -> None:
    core = filter_rows(pkg, query, audit_findings)
    want = list(range(len(pkg.index))) if core is None else core.tolist()
    assert query == "" or 0 < len(want) < len(pkg.index), query  # no vacuous entry
    assert cli_positions(pkg, capsysbinary, varied_root, query) == want


@pytest.fixture
def cli_findings(varied_root: Path, capsysbinary) -> list[Finding]:
    code, out, err = cli(capsysbinary, "audit", str(varied_root), "--json")
    assert code in (0, 1), err
    return [Finding.model_validate(f) for f in json.loads(out)["findings"]]


@pytest.mark.parametrize("query", parity.FINDINGS)
def test_audit_query_parity(pkg, varied_root: Path, cli_findings, capsysbinary, query: str) -> None:
    want = [cli_findings[i] for i in filter_findings(cli_findings, query, pkg)]
    assert want, query  # every query of the table selects something
    code, out, err = cli(capsysbinary, "audit", str(varied_root), "--query", query, "--json")
    assert code in (0, 1), err
    got = [Finding.model_validate(f) for f in json.loads(out)["findings"]]
    assert got == want


def test_query_starting_with_a_dash(varied_root: Path, pkg) -> None:
    # Issue: "A query starting with - must be written --query=-quirk:yes".
    out = run("audit", str(varied_root), "--query", "-quirk:yes", "--json")
    assert out.returncode in (0, 1), out.stderr
    findings = json.loads(out.stdout)["findings"]
    assert findings and not any(f["quirk"] for f in findings)
    rows = run(
        "rows", str(varied_root), "--query", "-type:*_event", "--csv", "--columns", "data_type"
    )
    assert rows.returncode == 0, rows.stderr
    types = [d["data_type"] for d in csv.DictReader(io.StringIO(rows.stdout))]
    assert types and not any(t.endswith("_event") for t in types)
    assert len(types) == len(filter_rows(pkg, "-type:*_event"))


def test_join_option_values() -> None:
    assert join_option_values(["p", "--query", "-x", "--csv"], ["--query"]) == [
        "p",
        "--query=-x",
        "--csv",
    ]
    assert join_option_values(["--query=-x"], ["--query"]) == ["--query=-x"]
    assert join_option_values(["--", "--query", "-x"], ["--query"]) == ["--", "--query", "-x"]
    assert join_option_values(["--query"], ["--query"]) == ["--query"]


def test_row_fields_in_audit_query(varied_root: Path, capsysbinary) -> None:
    # Issue: "row fields (type:, confidence<0.7, evidence.visibility:) are rejected".
    for query in ("type:failure_case", "confidence<0.7", "evidence.visibility:hidden_excluded"):
        code, out, err = cli(capsysbinary, "audit", str(varied_root), "--query", query, "--json")
        assert code in (0, 1), (query, err)
        assert json.loads(out)["findings"], query


def test_wrong_query_exits_2_naming_the_column(varied_root: Path, capsysbinary) -> None:
    for cmd in ("rows", "audit"):
        code, out, err = cli(capsysbinary, cmd, str(varied_root), "--query", "type:a OR")
        assert code == 2 and out == b""
        assert "query column 8: OR needs a term on both sides" in err


def test_rows_exit_codes_and_streams(varied_root: Path, tmp_path: Path, capsysbinary) -> None:
    code, out, err = cli(capsysbinary, "rows", str(varied_root), "--query", "type:failure_case")
    assert code == 0 and "of 120 rows match" in err
    lines = out.decode().splitlines()
    assert lines and all(" failure_case " in x for x in lines)
    code, out, err = cli(capsysbinary, "rows", str(varied_root), "--query", "type:nothing_such")
    assert code == 1 and out == b"" and "0 of 120" in err
    code, out, err = cli(capsysbinary, "rows", str(tmp_path / "missing"))
    assert code == 2 and out == b"" and "missing" in err
    (tmp_path / "not_a_package").mkdir()
    code, out, err = cli(capsysbinary, "rows", str(tmp_path / "not_a_package"))
    assert code == 2 and out == b""


def test_rows_formats(varied_root: Path, pkg, tmp_path: Path, capsysbinary) -> None:
    want = filter_rows(pkg, "type:failure_case").tolist()
    code, out, _ = cli(
        capsysbinary, "rows", str(varied_root), "--query", "type:failure_case", "--jsonl"
    )
    assert code == 0 and [json.loads(x) for x in out.splitlines()] == [
        pkg.read_row(i) for i in want
    ]
    code, out, _ = cli(
        capsysbinary,
        "rows",
        str(varied_root),
        "--query",
        "type:failure_case",
        "--json",
        "--columns",
        "row_id",
    )
    doc = json.loads(out)
    assert doc["meta"]["query"] == "type:failure_case"
    assert doc["meta"]["package_digest"].startswith("sha256:")
    assert doc["rows"] == [{"row_id": pkg.index.row_id_str(i)} for i in want]
    target = tmp_path / "rows.csv"
    code, out, err = cli(
        capsysbinary, "rows", str(varied_root), "--query", "type:failure_case", "-o", str(target)
    )
    assert code == 0 and out == b"" and target.exists()
    meta = json.loads((tmp_path / "rows.csv.meta.json").read_text())
    assert meta["count"] == len(want) and meta["package_digest"].startswith("sha256:")
    code, _, err = cli(capsysbinary, "rows", str(varied_root), "-o", str(tmp_path / "x.txt"))
    assert code == 2 and ".csv, .jsonl or .json" in err


def test_rows_with_finding_terms_audits_first(
    varied_root: Path, pkg, audit_findings, capsysbinary
) -> None:
    want = filter_rows(pkg, "finding:privacy", audit_findings).tolist()
    code, out, err = cli(
        capsysbinary,
        "rows",
        str(varied_root),
        "--query",
        "finding:privacy",
        "--csv",
        "--columns",
        "row_id",
    )
    assert code == 0 and "auditing" in err
    assert [d["row_id"] for d in csv.DictReader(io.StringIO(out.decode()))] == [
        pkg.index.row_id_str(i) for i in want
    ]
