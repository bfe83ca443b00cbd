"""Headless commands start without the heavy parts: ``--version`` and every ``COMMAND --help``
import no numpy, pydantic, Qt, generator or dossier core, and the stand-ins of the commands
not asked for read as the real ones."""

from __future__ import annotations

import argparse
import json
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


def _dossier_subcommands() -> list[str]:
    dossier = _subparsers(build_parser(only="dossier"))["dossier"]
    return list(_subparsers(dossier))


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def test_every_dossier_help_imports_no_pydantic() -> None:
    """``dossier --help`` and each sub-command's: the parser is built, and its help
    printed, with no pydantic or dossier core in ``sys.modules``; the heavy modules
    come in only when a sub-command runs."""
    # One process asks for every help in turn, recording what each had imported by then.
    script = (
        "import contextlib, io, json, sys\n"
        "from aa_review.cli import build_parser, main\n"
        f"HEAVY = {(*HEAVY, 'aa_review.cli._dossier')!r}\n"
        "def heavy():\n"
        "    return sorted(m for m in sys.modules if m.startswith(HEAVY))\n"
        "parser = build_parser(only='dossier')\n"
        "sub = next(a for a in parser._actions if a.dest == 'command').choices['dossier']\n"
        "names = list(next(a for a in sub._actions if a.dest == 'dossier_command').choices)\n"
        "seen = {}\n"
        "for argv in [['dossier', '--help'], *(['dossier', n, '--help'] for n in names)]:\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "        main(argv)\n"
        "    seen[' '.join(argv)] = {'heavy': heavy(), 'usage': out.getvalue()[:6]}\n"
        "print(json.dumps(seen))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert set(seen) == {"dossier --help"} | {f"dossier {n} --help" for n in _dossier_subcommands()}
    assert len(seen) >= 16  # every sub-command was asked, and each printed its help
    assert all(v["usage"] == "usage:" for v in seen.values()), seen
    assert {argv: v["heavy"] for argv, v in seen.items() if v["heavy"]} == {}


def test_every_dossier_subcommand_has_an_implementation() -> None:
    """The parser names what runs only by the sub-command's name: each name is in the
    implementation's table, and the table has nothing the parser does not offer."""
    from aa_review.cli import _dossier_run

    assert set(_dossier_run.RUNS) == set(_dossier_subcommands())


def test_a_record_with_an_unknown_role_names_the_core_roles() -> None:
    from aa_review.cli._dossier_input import Unusable
    from aa_review.cli._dossier_steps_run import _record
    from aa_review.core.dossier import Role

    with pytest.raises(Unusable) as exc:
        _record({"principal_id": "p-x", "role": "boss", "kind": "human"}, "x.json")
    roles = ", ".join(r.value for r in Role if r is not Role.SYSTEM_REDUCER)
    assert str(exc.value) == f"x.json: p-x's role must be one of {roles}"


def test_no_command_module_writes_names_into_its_globals() -> None:
    """Each command imports what it uses by name, at the top of the module that runs
    it: no names injected into a module's globals at run time, which type checking
    and readers cannot follow."""
    cli = Path(__file__).resolve().parents[2] / "aa_review" / "cli"
    written = [p.name for p in sorted(cli.glob("*.py")) if "globals()" in p.read_text("utf-8")]
    assert written == []


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
