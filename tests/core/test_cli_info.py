"""``aa-review info``: identity and counts, data on stdout, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "aa_review", "info", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_clean_package_json(sample_copy: Path) -> None:
    out = run(str(sample_copy), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    ident, counts = doc["identity"], doc["counts"]
    assert ident["package_id"] == sample_copy.name
    assert ident["schema_versions"]["row"] == "aa-training-row-v0.2"
    assert ident["package_digest"].startswith("sha256:") and len(ident["package_digest"]) == 71
    assert counts["rows"] == 60 and counts["links"] == 60 and counts["evidence_items"] == 33
    assert counts["rows_by_data_type"]["environment_response_pair"] == 20
    assert counts["rows_by_file"]["failure_cases.jsonl"] == 3
    assert counts["evidence_by_visibility"] == {"visible": 33}
    assert out.stderr == ""


def test_digest_changes_with_any_file(sample_copy: Path) -> None:
    before = json.loads(run(str(sample_copy), "--json").stdout)["identity"]["package_digest"]
    (sample_copy / "input" / "task_brief.md").write_text("changed\n") if (
        sample_copy / "input" / "task_brief.md"
    ).exists() else (sample_copy / "README.md").write_text("changed\n")
    after = json.loads(run(str(sample_copy), "--json").stdout)["identity"]["package_digest"]
    assert before != after


def test_problems_exit_1_and_are_listed(sample_copy: Path) -> None:
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    lines = env.read_bytes().split(b"\n")
    lines[2] = b"{broken"
    env.write_bytes(b"\n".join(lines))
    out = run(str(sample_copy))
    assert out.returncode == 1
    assert (
        "input.malformed_line" in out.stdout and "environment_response_pairs.jsonl:3" in out.stdout
    )


def test_not_a_package_exit_2(tmp_path: Path) -> None:
    out = run(str(tmp_path))
    assert out.returncode == 2 and out.stdout == ""
    assert "not a compiled package" in out.stderr and str(tmp_path) in out.stderr
