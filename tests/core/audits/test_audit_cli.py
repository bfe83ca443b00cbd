"""``aa-review audit``: exit codes, one JSON document on stdout, corpus folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from aa_review.cli import main
from aa_review.core.audits import AuditDocument, CorpusReport


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["audit", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_package_json(make_package, capsys) -> None:
    g = make_package()
    code, out, err = run(capsys, str(g.root), "--json")
    assert code == 0
    doc = json.loads(out)  # exactly one document
    assert doc["kind"] == "package"
    ident = doc["identity"]
    assert ident["package_id"] == g.package_id and ident["task_id"]
    assert ident["package_digest"].startswith("sha256:")
    assert set(ident["schema_versions"]) == {"compiler", "row", "evidence_map"}
    assert doc["counts"]["rows"] == g.row_count
    for f in doc["findings"]:
        assert {"code", "severity", "location", "message"} <= set(f)
    assert "passed" not in out and err == ""  # --json: nothing but the document


def test_findings_exit_1_and_text_output(make_package, capsys) -> None:
    g = make_package(defects=("row_hash_mismatch",))
    code, out, err = run(capsys, str(g.root))
    assert code == 1
    assert "row.hash_mismatch" in out and g.defects[0].row_id in out
    assert "failed" in err


def test_fail_on_threshold(make_package, capsys) -> None:
    g = make_package(defects=("uncited_evidence",))  # a warning
    assert run(capsys, str(g.root))[0] == 0
    assert run(capsys, str(g.root), "--fail-on", "warning")[0] == 1
    assert run(capsys, str(g.root), "--fail-on", "critical")[0] == 0


def test_check_selection(make_package, capsys) -> None:
    g = make_package(defects=("hidden_cited",))
    code, out, _ = run(capsys, str(g.root), "--json", "--check", "hash", "--check", "copies")
    assert code == 0 and json.loads(out)["checks"] == ["hashes", "copies"]
    code, out, _ = run(capsys, str(g.root), "--json", "--check", "link.hidden_cited")
    doc = json.loads(out)
    assert code == 1 and {f["severity"] for f in doc["findings"]} == {"critical"}
    code, _, err = run(capsys, str(g.root), "--check", "nonsense")
    assert code == 2 and "unknown check" in err


def test_not_a_package_exits_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "file.txt").write_text("x")
    code, out, err = run(capsys, str(tmp_path / "file.txt"))
    assert code == 2 and out == "" and "not a folder" in err
    code, out, err = run(capsys, str(tmp_path / "missing"))
    assert code == 2 and out == "" and "no such" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(capsys, str(empty))
    assert code == 2 and out == "" and "no package" in err


def test_corpus_folder(make_package, tmp_path: Path, capsys) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for g in (make_package(seed=11), make_package(seed=12, defects=("private_path",))):
        shutil.copytree(g.root, corpus / g.root.name)
    (corpus / "zz_not_a_package").mkdir()
    code, out, _err = run(capsys, str(corpus), "--json", "--workers", "1")
    assert code == 2  # one folder could not be evaluated
    doc = AuditDocument.model_validate_json(out).root
    assert isinstance(doc, CorpusReport)
    assert doc.totals.packages == 3 and doc.totals.audited == 2 and doc.totals.failed == 1
    assert doc.totals.codes.get("privacy.private_path") == 1
    by_name = {Path(e.path).name: e for e in doc.entries}
    assert by_name["zz_not_a_package"].error and by_name["zz_not_a_package"].report is None
    code, out, _ = run(capsys, str(corpus), "--workers", "1")
    assert code == 2 and "UNREADABLE" in out and "total" in out
    shutil.rmtree(corpus / "zz_not_a_package")
    assert run(capsys, str(corpus), "--workers", "1")[0] == 1


def test_query_filters_findings_and_decides_exit(tmp_path) -> None:
    import json
    import subprocess
    import sys

    from aa_review.generator import generate_package

    root = generate_package(tmp_path, rows=60, seed=5, defects=["private_path"]).root
    base = [sys.executable, "-m", "aa_review", "audit", str(root), "--json"]
    full = subprocess.run(base, capture_output=True, text=True, timeout=300)
    assert full.returncode == 1
    assert any(f["code"] == "privacy.private_path" for f in json.loads(full.stdout)["findings"])
    quirks = subprocess.run(
        [*base, "--query", "quirk:yes"], capture_output=True, text=True, timeout=300
    )
    codes = {f["code"] for f in json.loads(quirks.stdout)["findings"]}
    assert quirks.returncode == 0 and codes and all(c.startswith("quirk.") for c in codes)
    only = subprocess.run(
        [*base, "--query", "code:privacy"], capture_output=True, text=True, timeout=300
    )
    assert only.returncode == 1
    assert {f["code"] for f in json.loads(only.stdout)["findings"]} == {"privacy.private_path"}
    bad = subprocess.run(
        [*base, "--query", "sevrity:error"], capture_output=True, text=True, timeout=300
    )
    assert bad.returncode == 2 and "did you mean 'severity'" in bad.stderr and bad.stdout == ""
