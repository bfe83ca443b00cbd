"""``aa-review diff``: exit codes 0 / 1 / 2, JSON valid against the shipped schema, data on
stdout and messages on stderr, never a traceback."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from aa_review.cli import main
from aa_review.generator import ChangeSpec, derive_package

SCHEMA = Path(__file__).resolve().parents[3] / "aa_review/core/diff/diff_report.schema.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (fast); ``run_process`` runs it as users do."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["diff", *args])
    out.flush()
    return subprocess.CompletedProcess(
        args,
        code,
        out.buffer.getvalue().decode(),  # type: ignore[attr-defined]
        err.getvalue(),
    )


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "aa_review", "diff", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def validate(doc: object) -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].startswith("https://json-schema.org/") and schema["$id"]
    jsonschema.Draft202012Validator(schema).validate(doc)


@pytest.fixture(scope="module")
def changed(base_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli_changed")
    return derive_package(
        base_dir,
        out,
        ChangeSpec(
            rows_added=1,
            rows_removed=1,
            rows_changed=2,
            rows_moved=1,
            rows_reformatted=1,
            evidence_rehashed=1,
            evidence_hidden=1,
            evidence_ref_rewritten=1,
            evidence_added=1,
            evidence_removed=1,
            contract_edits=("column_added", "output_removed"),
        ),
        seed=41,
    ).root


@pytest.fixture(scope="module")
def moved_only(base_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli_moved")
    return derive_package(base_dir, out, ChangeSpec(rows_moved=1), seed=42).root


def test_no_change_exits_0(base_dir: Path, tmp_path: Path) -> None:
    same = derive_package(base_dir, tmp_path, ChangeSpec()).root
    out = run(str(base_dir), str(same), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    validate(doc)
    assert doc["result"] == {
        "changed": False,
        "highest": None,
        "fails": False,
        "fail_on": "moved",
        "levels": dict.fromkeys(("moved", "added", "removed", "changed", "visibility"), 0),
    }
    assert out.stderr == ""


def test_changes_exit_1_with_valid_json(base_dir: Path, changed: Path) -> None:
    out = run_process(str(base_dir), str(changed), "--json")
    assert out.returncode == 1, out.stderr
    doc = json.loads(out.stdout)
    validate(doc)
    assert doc["result"]["highest"] == "visibility"
    assert doc["rows"]["counts"]["added"] == 1 and doc["rows"]["counts"]["removed"] == 1
    assert doc["evidence"]["counts"]["hidden_while_cited"] == 1
    assert doc["links"]["rows"] == len(doc["links"]["row_ids"]) > 0
    assert {c["kind"] for c in doc["contracts"]} == {"changed", "removed"}
    assert out.stderr == ""


@pytest.mark.parametrize(("level", "code"), [("added", 0), ("moved", 1)])
def test_fail_on_threshold(base_dir: Path, moved_only: Path, level: str, code: int) -> None:
    out = run(str(base_dir), str(moved_only), "--fail-on", level)
    assert out.returncode == code, out.stdout + out.stderr
    assert "moved" in out.stdout and out.stderr == ""


@pytest.mark.parametrize(("level", "code"), [("visibility", 1), ("changed", 1)])
def test_fail_on_most_severe(base_dir: Path, changed: Path, level: str, code: int) -> None:
    assert run(str(base_dir), str(changed), "--fail-on", level).returncode == code


def test_not_a_package_exits_2_without_traceback(base_dir: Path, tmp_path: Path) -> None:
    for old, new in ((tmp_path, base_dir), (base_dir, tmp_path / "missing")):
        out = run_process(str(old), str(new), "--json")
        assert out.returncode == 2
        assert out.stdout == ""
        assert "Traceback" not in out.stderr and out.stderr.startswith("aa-review:")


def test_unreadable_fingerprint_exits_2(base_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "fp.npz"
    bad.write_bytes(b"\x00" * 64)
    out = run(str(bad), str(base_dir))
    assert out.returncode == 2 and "fingerprint" in out.stderr and "Traceback" not in out.stderr


def test_bad_query_exits_2(base_dir: Path) -> None:
    for q in (
        '"unclosed',
        "change:sideways",
        "nosuchfield:1",
        "change:re",  # 're' is no value of change: (change:re* is a wildcard for two)
    ):
        out = run(str(base_dir), str(base_dir), "--query", q)
        assert out.returncode == 2, q
        assert "query" in out.stderr and "Traceback" not in out.stderr


def test_query_narrows_rows(base_dir: Path, changed: Path) -> None:
    full = json.loads(run(str(base_dir), str(changed), "--json").stdout)
    some = full["rows"]["changed"][0]
    out = run(
        str(base_dir), str(changed), "--json", "--query", f"id:{some['row_id']} change:changed"
    )
    doc = json.loads(out.stdout)
    validate(doc)
    assert [c["row_id"] for c in doc["rows"]["changed"]] == [some["row_id"]]
    assert not doc["rows"]["added"] and not doc["rows"]["moved"] and not doc["rows"]["removed"]
    assert doc["query"] == f"id:{some['row_id']} change:changed"
    assert doc["evidence"] == full["evidence"]  # evidence changes are not filtered
    removed = full["rows"]["removed"][0]
    out = run(
        str(base_dir),
        str(changed),
        "--json",
        "--query",
        f"type:{removed['data_type']} change:removed",
    )
    assert [r["row_id"] for r in json.loads(out.stdout)["rows"]["removed"]] == [removed["row_id"]]


def test_query_change_excludes(base_dir: Path, moved_only: Path) -> None:
    out = run(str(base_dir), str(moved_only), "--json", "--query=-change:moved")
    doc = json.loads(out.stdout)
    assert doc["rows"]["moved"] == [] and out.returncode == 0  # nothing listed is a change


def test_fingerprint_as_old(base_dir: Path, changed: Path, tmp_path: Path) -> None:
    fp = tmp_path / "bound.npz"
    assert run(str(base_dir), str(base_dir), "--save-fingerprint", str(fp)).returncode == 0
    assert fp.is_file()
    out = run(str(fp), str(changed), "--json")
    assert out.returncode == 1, out.stderr
    doc = json.loads(out.stdout)
    validate(doc)
    assert doc["old"]["source"] == "fingerprint"
    assert all(c["fields"] is None for c in doc["rows"]["changed"])
    same = json.loads(run(str(base_dir), str(changed), "--json").stdout)
    assert doc["evidence"] == same["evidence"] and doc["contracts"] == same["contracts"]
    text = run(str(fp), str(changed)).stdout
    assert "fields unknown (the old side is a fingerprint)" in text


def test_findings_in_json(base_dir: Path, changed: Path) -> None:
    out = run(str(base_dir), str(changed), "--json", "--findings")
    doc = json.loads(out.stdout)
    validate(doc)
    assert any(f["code"] == "link.hidden_cited" for f in doc["findings"]["new"])


def test_text_report_names_each_section(base_dir: Path, changed: Path) -> None:
    out = run(str(base_dir), str(changed))
    assert out.returncode == 1
    for word in (
        "rows",
        "added",
        "removed",
        "changed",
        "moved",
        "evidence",
        "MOST SEVERE",
        "contracts",
        "counts",
        "result",
    ):
        assert word in out.stdout


def test_query_with_a_fingerprint_takes_change_terms_only(
    base_dir: Path, changed: Path, tmp_path: Path
) -> None:
    fp = tmp_path / "bound.npz"
    run(str(base_dir), str(base_dir), "--save-fingerprint", str(fp))
    ok = run(str(fp), str(changed), "--json", "--query", "change:added")
    assert ok.returncode == 1 and len(json.loads(ok.stdout)["rows"]["added"]) == 1
    bad = run(str(fp), str(changed), "--query", "type:training_example")
    assert bad.returncode == 2 and "fingerprint" in bad.stderr and bad.stdout == ""


def test_fingerprint_that_cannot_be_written_exits_2(base_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    out = run(str(base_dir), str(base_dir), "--save-fingerprint", str(tmp_path / "file" / "fp"))
    assert out.returncode == 2 and out.stderr.startswith("aa-review: diff:")
