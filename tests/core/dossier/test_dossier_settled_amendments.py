"""Readings the amended contract settles (spec 10.5, 15) that had no test, or no code.

Each test is named after the spec's sentence. One the code does not follow yet is
marked ``xfail(strict=True)`` with the clause in its reason: it turns into a failure
of its own the day the code follows the contract, and the mark is removed then.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from dossier_builder import (
    LEAD,
    Clock,
    DossierBuilder,
    archive,
    keyed_principals,
    passing,
    run_gate,
)

from aa_review.core import dossier as dz
from aa_review.core.dossier import (
    ArchiveSchemaError,
    GateStatus,
    Workspace,
    init_workspace_folder,
)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", ["principals.json", "archive.json"])
def test_an_unsafe_workspace_file_makes_the_workspace_open_read_only_with_its_reason(
    tmp_path: Path, name: str
) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only
        assert ws.journal_fault is not None and name in ws.journal_fault


def test_the_code_section_15_adds_is_traced_to_section_15() -> None:
    assert dz.explain("G1_POWER_BEYOND_VALIDATOR_LIMIT").section == "spec 15"


@pytest.mark.parametrize("section", ["simulation", "preregistration"])
def test_an_empty_simulation_or_preregistration_is_absent_unknown_with_the_missing_code(
    section: str,
) -> None:
    tree = DossierBuilder().evidence(f"power_analysis.{section}", {}).build()
    r = run_gate("G1", tree, None)
    assert r.status is GateStatus.UNKNOWN, r.reason_codes
    assert all(c.endswith("_MISSING") for c in r.reason_codes), r.reason_codes


def test_creating_a_plain_workspace_refuses_an_archive_that_does_not_parse(
    tmp_path: Path,
) -> None:
    # 15: "Import (and workspace creation for an archive) refuses, naming the JSON path".
    bad = archive()
    bad["groups"][0]["split"] = "holdout"
    with pytest.raises(ArchiveSchemaError) as err:
        Workspace(keyed_principals(), bad, Clock(), tmp_path / "journal.jsonl")
    assert any("groups[0].split" in p for p in err.value.problems), err.value.problems
    assert not (tmp_path / "journal.jsonl").exists()


def test_creating_a_workspace_folder_refuses_an_archive_that_does_not_parse(
    tmp_path: Path,
) -> None:
    bad = archive()
    bad["groups"][0]["split"] = "holdout"
    with pytest.raises(ArchiveSchemaError) as err:
        init_workspace_folder(tmp_path / "ws", keyed_principals(), bad)
    assert any("groups[0].split" in p for p in err.value.problems), err.value.problems
    assert not (tmp_path / "ws" / "archive.json").exists()


def test_a_standard_error_of_zero_is_within_its_domain_and_gives_a_bound() -> None:
    # 15: "An experiment's standard_error must be >= 0; a negative one gives no bound".
    # Zero is in the domain: the bound is the estimate itself.
    tree, arch = passing(), archive()
    rung = next(
        r
        for r in tree["evidence"]["lower_rungs"]["rungs"]
        if r["basis"] == "confirmatory_experiment"
    )
    exp = next(
        e for e in arch["experiments"] if e["experiment_id"] == rung["experiment"]["experiment_id"]
    )
    exp["standard_error"] = 0.0
    rung["experiment"]["claimed_upper_bound"] = exp["estimate"]
    r = run_gate("G4", tree, arch)
    assert r.status is GateStatus.PASS, r.reason_codes
    assert r.metrics["upper_bounds"][str(rung["rung"])] == pytest.approx(exp["estimate"])
