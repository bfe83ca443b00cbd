"""Headless commands start without the heavy parts: ``--version`` and every ``COMMAND --help``
import no numpy, pydantic, Qt, generator or dossier core, and the stand-ins of the commands
not asked for read as the real ones."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from aa_review.cli import COMMANDS, SUMMARIES, build_parser
from aa_review.cli import main as cli_main

HEAVY = ("numpy", "pydantic", "PySide6", "aa_review.generator", "aa_review.core.dossier")
LIGHT_COMMANDS = list(COMMANDS)


def imported(*args: str) -> set[str]:
    """The modules ``python -X importtime -m aa_review ARGS`` imported (the real start)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "aa_review", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    assert "aa_review.cli" in names  # the trace is read, not empty
    return names


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))


def test_version_imports_no_command() -> None:
    names = imported("--version")
    assert heavy(names) == []
    assert not any(n.startswith("aa_review.cli.") for n in names)


@pytest.mark.parametrize("command", LIGHT_COMMANDS)
def test_command_help_imports_nothing_heavy(command: str) -> None:
    names = imported(command, "--help")
    assert heavy(names) == []
    # only the command asked for is registered: no other command's module
    others = {m for c, m in COMMANDS.items() if c != command}
    assert not (names & others)


@pytest.mark.parametrize("step", ["check", "status", "verify-journal"])
def test_dossier_step_help_imports_nothing_heavy(step: str) -> None:
    """A dossier sub-command's help (its parser built from plain strings) needs no core."""
    assert heavy(imported("dossier", step, "--help")) == []


def test_top_level_help_imports_no_command() -> None:
    names = imported("--help")
    assert heavy(names) == []
    assert not (names & set(COMMANDS.values()))


def _commands(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help for a in action._choices_actions}
    raise AssertionError("no commands")


def test_stand_ins_read_as_the_commands() -> None:
    full = build_parser()
    stubs = build_parser(only="")
    assert _commands(full) == _commands(stubs) == SUMMARIES
    assert list(_commands(full)) == list(COMMANDS)
    assert full.format_help() == stubs.format_help()
    for command in COMMANDS:  # the one asked for is the real one, the rest stand-ins
        assert build_parser(only=command).format_help() == full.format_help()


def test_top_level_help_and_misspelt_command_name_every_command(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    listed = " ".join(out.split())  # help lines are wrapped to the terminal's width
    assert all(f"{c} {SUMMARIES[c]}" in listed for c in COMMANDS)
    with pytest.raises(SystemExit) as exc:
        cli_main(["keyz"])
    assert exc.value.code == 2
    assert "unknown command 'keyz'; did you mean 'keys'?" in capsys.readouterr().err


def test_fixed_lists_match_the_core() -> None:
    """The choices written out so ``--help`` needs no core are the core's."""
    from aa_review.cli import audit_cmd, keys_cmd
    from aa_review.core.dossier import Role
    from aa_review.core.findings import Severity

    assert [s.value for s in Severity] == audit_cmd._LEVELS
    assert tuple(r.value for r in Role if r is not Role.SYSTEM_REDUCER) == keys_cmd.ROLES


def test_defect_names_are_checked_when_given(capsys, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["generate", str(tmp_path), "--defect", "malformd_line"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (
        "argument --defect: invalid choice 'malformd_line'; did you mean 'malformed_line'?" in err
    )
    assert not any(tmp_path.iterdir())
    out = tmp_path / "out"
    args = ["generate", str(out), "--rows", "30", "--defect", "malformed_line"]
    assert cli_main(args) == 0
    assert "defect malformed_line" in capsys.readouterr().out


def test_completion_offers_the_defect_names(capsys) -> None:
    from aa_review.generator import DEFECT_NAMES

    assert cli_main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    assert all(name in script for name in DEFECT_NAMES)


def test_dossier_parser_strings_equal_the_core_enums() -> None:
    """The dossier parser's plain strings (kept so its help imports no core) are the core's."""
    from aa_review.cli import dossier_steps
    from aa_review.core.dossier import Action, Outcome, Role

    assert (Outcome.APPLIED.value, Outcome.APPLIED_AS_NEW_REVISION.value) == dossier_steps._DONE
    assert tuple(r.value for r in Role if r is not Role.SYSTEM_REDUCER) == dossier_steps._ROLES
    assert {"bind", "check"} <= {a.value for a in Action}


def test_each_dossier_step_runs_in_a_fresh_process(tmp_path: Path) -> None:
    """Found by running one test file alone: ``dossier import`` in a fresh process
    stopped with a NameError (a helper of ``dossier_cmd`` called before that module's
    lazily imported core was loaded); the suite had hidden it, another test having
    loaded it first. Here each command is its own process, as each person runs it."""
    import json
    import os

    from aa_review.demo._sample_archive import sample_archive
    from aa_review.demo._sample_dossier import sample_dossier

    archive = sample_archive()
    (tmp_path / "archive.json").write_text(json.dumps(archive))
    dossier = sample_dossier(archive, expires_at="2099-12-31T00:00:00Z")
    (tmp_path / "dossier.json").write_text(json.dumps(dossier))

    def run(person: str, *argv: object) -> str:
        env = {**os.environ, "AA_REVIEW_DATA_DIR": str(tmp_path / "people" / person)}
        proc = subprocess.run(
            [sys.executable, "-m", "aa_review", *map(str, argv)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert proc.returncode == 0, (argv, proc.stderr[-2000:])
        return proc.stdout

    roles = {
        "ada": ("p-lead-ada", "training_research_lead"),
        "cy": ("p-eval-cy", "independent_evaluator"),
        "fay": ("p-maint-fay", "human_maintainer"),
    }
    records = []
    for person, (pid, role) in roles.items():
        line = run(person, "keys", "create", pid, "--role", role)
        (tmp_path / f"{person}.json").write_text(line)
        records += ["--record", tmp_path / f"{person}.json"]
    ws = tmp_path / "ws"
    run("fay", "dossier", "init", ws, "--archive", tmp_path / "archive.json", *records)
    out = run("ada", "dossier", "import", ws, tmp_path / "dossier.json", "--as", "p-lead-ada")
    assert "revision 1: draft" in out
    status = run("cy", "dossier", "status", ws)
    assert dossier["dossier_id"] in status


def test_audit_without_a_query_imports_no_query_language(generated_sample: Path) -> None:
    """Most audits have no --query: they start without the query language."""
    names = imported("audit", str(generated_sample), "--json")
    assert "aa_review.core.audits._engine" in names  # the audit ran
    assert not any(
        n == "aa_review.core.query" or n.startswith("aa_review.core.query.") for n in names
    )
    assert not any(
        n.startswith(("PySide6", "aa_review.core.dossier", "aa_review.generator")) for n in names
    )
