"""``aa-review dossier check|project|verify-journal``: output on stdout, exit codes 0/1/2."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import DATA, NOW, DossierBuilder, archive, passing, principals, revision_file

from aa_review.cli import dossier_cmd
from aa_review.core.dossier import (
    PrincipalRegistry,
    Workspace,
    evaluate,
    parse_archive,
    parse_dossier,
)
from aa_review.core.package.digest import package_digest

ARCHIVE = str(DATA / "archive.json")
NOW_ARG = ["--now", "2026-03-01T00:00:00Z"]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="aa-review")
    dossier_cmd.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, tree: Any, name: str = "dossier.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(tree))
    return str(path)


def test_check_passing_exits_0_and_prints_the_same_record_as_the_core(capsys) -> None:
    code, out, err = run(
        [
            "dossier",
            "check",
            str(DATA / "dossier_passing.json"),
            "--archive",
            ARCHIVE,
            *NOW_ARG,
            "--json",
        ],
        capsys,
    )
    assert code == 0 and err == ""
    printed = json.loads(out)
    expected = evaluate(
        parse_dossier(passing()),
        parse_archive(archive()),
        PrincipalRegistry(principals()),
        NOW,
        "aa-review-cli",
    ).to_json()
    assert printed == expected
    assert printed["eligible_if_decided"] is True


@pytest.mark.parametrize(
    "name",
    [
        "dossier_failing_contaminated.json",
        "dossier_failing_underpowered.json",
        "dossier_failing_missing.json",
    ],
)
def test_check_failing_exits_1(capsys, name: str) -> None:
    code, out, _ = run(
        ["dossier", "check", str(DATA / name), "--archive", ARCHIVE, *NOW_ARG, "--json"], capsys
    )
    assert code == 1 and json.loads(out)["eligible_if_decided"] is False


def test_check_text_output_lists_every_gate(capsys) -> None:
    code, out, _ = run(
        [
            "dossier",
            "check",
            str(DATA / "dossier_failing_contaminated.json"),
            "--archive",
            ARCHIVE,
            *NOW_ARG,
        ],
        capsys,
    )
    assert code == 1
    lines = out.splitlines()
    assert "result    not eligible" in lines
    assert any(line.startswith("G9   fail     G9_CONTAMINATION_HIDDEN_ITEM") for line in lines)
    assert sum(line[:3].rstrip() in {f"G{i}" for i in range(1, 12)} for line in lines) == 11


def test_check_expired_dossier_exits_1(capsys) -> None:
    code, out, _ = run(
        [
            "dossier",
            "check",
            str(DATA / "dossier_passing.json"),
            "--archive",
            ARCHIVE,
            "--now",
            "2027-01-01T00:00:00Z",
            "--json",
        ],
        capsys,
    )
    assert code == 1
    assert json.loads(out)["dossier_reason_codes"] == ["DOSSIER_EXPIRED_BY_TIME"]


@pytest.mark.parametrize(
    "case", ["missing", "not_json", "schema", "bad_archive", "bad_now", "bad_package"]
)
def test_check_unusable_input_exits_2(tmp_path: Path, capsys, case: str) -> None:
    dossier, arch, extra = str(DATA / "dossier_passing.json"), ARCHIVE, list(NOW_ARG)
    if case == "missing":
        dossier = str(tmp_path / "nope.json")
    elif case == "not_json":
        dossier = str(tmp_path / "bad.json")
        Path(dossier).write_text("{")
    elif case == "schema":
        dossier = write(tmp_path, DossierBuilder().set("activation", "active").build())
    elif case == "bad_archive":
        arch = write(tmp_path, {"groups": "many"}, "archive.json")
    elif case == "bad_now":
        extra = ["--now", "yesterday"]
    else:
        extra += ["--package", "no-equals-sign"]
    code, out, err = run(["dossier", "check", dossier, "--archive", arch, *extra, "--json"], capsys)
    assert code == 2 and out == "" and err.startswith("aa-review: ")


def test_check_without_principals_cannot_be_eligible(tmp_path: Path, capsys) -> None:
    arch = write(tmp_path, archive(), "archive.json")  # no principals.json beside it
    code, out, err = run(
        [
            "dossier",
            "check",
            str(DATA / "dossier_passing.json"),
            "--archive",
            arch,
            *NOW_ARG,
            "--json",
        ],
        capsys,
    )
    assert code == 1 and "no principal registry" in err
    assert json.loads(out)["gates"]["G2"]["status"] == "fail"


def test_check_with_a_bound_package(tmp_path: Path, capsys) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "rows.jsonl").write_text("{}\n")
    tree = (
        DossierBuilder()
        .set(
            "evidence.source_packages",
            [{"package_id": "pkg-1", "package_digest": package_digest(pkg)}],
        )
        .build()
    )
    path = write(tmp_path, tree)
    code, out, _ = run(
        [
            "dossier",
            "check",
            path,
            "--archive",
            ARCHIVE,
            *NOW_ARG,
            "--json",
            "--package",
            f"pkg-1={pkg}",
        ],
        capsys,
    )
    record = json.loads(out)
    # No contamination audit is wired into the command: G9 cannot pass.
    assert code == 1 and record["gates"]["G9"]["reason_codes"] == [
        "G9_PACKAGE_CONTAMINATION_UNVERIFIED"
    ]
    (pkg / "rows.jsonl").write_text("{}\n{}\n")
    tree["state"] = "evidence_bound"
    tree["binding"] = {"evidence_digest": parse_dossier(tree).evidence_digest}
    code, out, _ = run(
        [
            "dossier",
            "check",
            write(tmp_path, tree),
            "--archive",
            ARCHIVE,
            *NOW_ARG,
            "--json",
            "--package",
            f"pkg-1={pkg}",
        ],
        capsys,
    )
    assert code == 1
    assert json.loads(out)["dossier_reason_codes"] == ["DOSSIER_PACKAGE_CHANGED:pkg-1"]


def test_project_prints_only_the_allowlist(capsys) -> None:
    code, out, err = run(
        [
            "dossier",
            "project",
            str(DATA / "dossier_failing_contaminated.json"),
            "--archive",
            ARCHIVE,
            *NOW_ARG,
        ],
        capsys,
    )
    assert code == 0 and err == ""
    p = json.loads(out)
    assert p["outcome"] == "deferred" and p["gates"]["G9"] == "fail"
    assert "G9_CONTAMINATION" not in out and "dos-contam" not in out and "item-" not in out
    code, out, _ = run(["dossier", "project", str(DATA / "dossier_passing.json"), *NOW_ARG], capsys)
    assert code == 0 and set(json.loads(out)["gates"].values()) == {"unknown"}
    code, out, _ = run(
        [
            "dossier",
            "project",
            str(DATA / "dossier_passing.json"),
            "--archive",
            ARCHIVE,
            "--now",
            "2027-01-01T00:00:00Z",
        ],
        capsys,
    )
    assert json.loads(out)["outcome"] == "expired"


def test_verify_journal_exit_codes(tmp_path: Path, capsys, clock) -> None:
    journal = tmp_path / "journal.jsonl"
    ws = Workspace(principals(), archive(), clock, journal)
    ws.import_dossier(passing())
    ws.attempt_operation("export_dataset", "p-agent-gus", "x")
    ws.close()
    # No registry beside the journal and none given: a failed verification (10.5).
    code, out, err = run(["dossier", "verify-journal", str(journal)], capsys)
    assert code == 1 and json.loads(out)["reason"] == "JOURNAL_REGISTRY_UNTRUSTED"
    assert "principals.json" in err
    shutil.copy(DATA / "principals.json", tmp_path / "principals.json")
    code, out, err = run(
        ["dossier", "verify-journal", str(journal), "--principals", str(DATA / "principals.json")],
        capsys,
    )
    assert code == 0 and json.loads(out)["valid"] and err == ""
    head = ws.journal_head()
    code, out, _ = run(
        [
            "dossier",
            "verify-journal",
            str(journal),
            "--anchor-seq",
            "5",
            "--anchor-hash",
            head["entry_hash"],
        ],
        capsys,
    )
    assert code == 1 and json.loads(out)["reason"] == "JOURNAL_HEAD_MISMATCH"
    with open(journal, "ab") as fh:
        fh.write(b'{"seq": 2')
    code, out, err = run(["dossier", "verify-journal", str(journal)], capsys)
    assert code == 0 and json.loads(out)["torn_tail_bytes"] == 9 and "interrupted" in err
    journal.write_text(journal.read_text().replace('"x"', '"y"'))
    code, out, err = run(["dossier", "verify-journal", str(journal)], capsys)
    assert code == 1 and json.loads(out) == {
        "valid": False,
        "first_bad_seq": 1,
        "reason": "JOURNAL_ENTRY_HASH_MISMATCH",
        "torn_tail_bytes": 9,
    }
    code, out, err = run(["dossier", "verify-journal", str(tmp_path / "none.jsonl")], capsys)
    assert code == 2 and out == ""
    code, _, _ = run(["dossier", "verify-journal", str(tmp_path)], capsys)
    assert code == 2


def test_registered_in_the_top_level_command(capsys) -> None:
    from aa_review.cli import main

    with pytest.raises(SystemExit) as info:
        main(["dossier", "check", "--help"])
    assert info.value.code == 0
    assert "--archive" in capsys.readouterr().out
    assert main(["dossier"]) == 2


def test_check_uses_the_audit_for_bound_package_contamination(tmp_path) -> None:
    """A bound package whose rows cite hidden evidence fails G9 from the command line."""
    import json
    import subprocess
    import sys

    from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample
    from aa_review.demo.sample import SAMPLE_DOSSIER_IDS
    from aa_review.generator import generate_package

    home = ensure_sample(tmp_path / "demo")
    ws = home / "dossier_workspace"
    dossier = revision_file(ws, SAMPLE_DOSSIER_IDS[0], 1)
    clean = subprocess.run(
        [
            sys.executable,
            "-m",
            "aa_review",
            "dossier",
            "check",
            str(dossier),
            "--archive",
            str(ws / "archive.json"),
            "--package",
            f"{SAMPLE_PACKAGE_ID}={home / SAMPLE_PACKAGE_ID}",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert json.loads(clean.stdout)["gates"]["G9"]["status"] == "pass", clean.stderr
    # the same id bound to a package with hidden evidence cited by its rows
    bad = generate_package(
        tmp_path / "bad", rows=60, seed=3, package_id=SAMPLE_PACKAGE_ID, defects=["hidden_cited"]
    ).root
    doc = json.loads(dossier.read_text())
    from aa_review.core.package import package_digest

    doc["evidence"]["source_packages"] = [
        {"package_id": SAMPLE_PACKAGE_ID, "package_digest": package_digest(bad)}
    ]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "aa_review",
            "dossier",
            "check",
            str(edited),
            "--archive",
            str(ws / "archive.json"),
            "--package",
            f"{SAMPLE_PACKAGE_ID}={bad}",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    g9 = json.loads(out.stdout)["gates"]["G9"]
    assert out.returncode == 1
    assert (
        g9["status"] == "fail" and "G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE" in g9["reason_codes"]
    )
