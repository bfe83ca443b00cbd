"""The top-level command line: misspelt commands, closed pipes, completion, option names."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aa_review import __version__
from aa_review.__main__ import main
from aa_review.cli import main as cli_main
from aa_review.generator import generate_package


def run_module(
    *args: str, stdout: int | None = subprocess.PIPE, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "aa_review", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["audt", "PKG"], "audit"),
        (["audt"], "audit"),
        (["inof", "--json", "PKG"], "info"),
        (["dosier", "check"], "dossier"),
        (["generat", "out"], "generate"),
    ],
)
def test_misspelt_command_is_named_with_the_closest(
    argv: list[str], meant: str, capsys, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)  # nothing of that name on disk
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == (
        f"aa-review: unknown command {argv[0]!r}; did you mean {meant!r}?"
    )


def test_word_that_is_neither_command_nor_folder(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert "'frobnicate' is neither a command" in err and "audit" in err and "did you" not in err


def test_misspelt_command_from_the_installed_entry_point(tmp_path: Path) -> None:
    """The real process: message on stderr, exit 2, and no window started."""
    proc = run_module("audt", "PKG", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "aa-review: unknown command 'audt'; did you mean 'audit'?"
    assert proc.stdout == ""


def test_existing_folder_named_like_a_command_is_still_a_path(tmp_path: Path, monkeypatch) -> None:
    """A package folder may be called anything; only words naming nothing are commands."""
    from aa_review.__main__ import _not_a_command

    monkeypatch.chdir(tmp_path)
    (tmp_path / "audt").mkdir()
    assert _not_a_command("audt") is None
    assert _not_a_command("--screenshot") is None
    assert _not_a_command("audi") is not None


def test_misspelt_subcommand_and_option(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["dossier", "chek", "d.json"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "aa-review dossier: error: unknown command 'chek'; did you mean 'check'?" in err
    with pytest.raises(SystemExit) as exc:
        cli_main(["audit", "--jsn", "PKG"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --jsn; did you mean '--json'?" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli_main(["audit", "PKG", "--fail-on", "eror"])
    assert "invalid choice 'eror'; did you mean 'error'?" in capsys.readouterr().err


def test_version_is_the_programs_everywhere(capsys, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"aa-review {__version__}"
    # generate's format version has its own name; the old spelling says where each lives
    with pytest.raises(SystemExit) as exc:
        cli_main(["generate", str(tmp_path), "--version", "v0.1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "'aa-review --version'" in err and "'--format-version'" in err
    assert not any(tmp_path.iterdir())
    assert cli_main(["generate", str(tmp_path), "--rows", "40", "--format-version", "v0.1"]) == 0
    assert "(v0.1, seed 0)" in capsys.readouterr().out


@pytest.fixture(scope="module")
def defective(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A package that loads with a problem: info and audit both exit 1 on it."""
    return generate_package(
        tmp_path_factory.mktemp("pipe"), rows=60, seed=3, defects=["malformed_line"]
    ).root


@pytest.mark.parametrize("args", [["info"], ["info", "--json"], ["audit"], ["audit", "--json"]])
def test_closed_pipe_keeps_the_result_exit_code(defective: Path, args: list[str]) -> None:
    """``aa-review audit PKG | head -0``: the reader is gone before anything is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = run_module(args[0], str(defective), *args[1:], stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    assert "Exception ignored" not in proc.stderr


def test_closed_pipe_on_a_clean_result_exits_0(generated_sample: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = run_module("info", str(generated_sample), stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == ""


BASH_COMPLETE = r"""
source "$1"
complete_line() {
    COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<< "$1"
    [[ "$1" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    COMPREPLY=()
    _shtab_aa_review aa-review "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" \
        2>/dev/null
    printf '%s\n' "${COMPREPLY[@]}" | sort
    echo "--"
}
complete_line "aa-review au"
complete_line "aa-review audit --f"
complete_line "aa-review audit pk"
complete_line "aa-review info "
complete_line "aa-review dossier verify-journal jo"
complete_line "aa-review generate --format-version v0."
complete_line "aa-review dossier "
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_of_commands_options_and_paths(tmp_path: Path) -> None:
    script = tmp_path / "aa-review.bash"
    proc = run_module("completion", "bash")
    assert proc.returncode == 0, proc.stderr
    script.write_text(proc.stdout)
    work = tmp_path / "work"
    (work / "pkgs" / "pkg_one").mkdir(parents=True)
    (work / "journal.jsonl").write_text("")
    (work / "pkg_notes.txt").write_text("")
    out = subprocess.run(
        ["bash", "-c", BASH_COMPLETE, "bash", str(script)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    answers = [block.split() for block in out.stdout.split("--\n")[:-1]]
    assert answers[0] == ["audit"]
    assert answers[1] == ["--fail-on"]
    assert answers[2] == ["pkgs"]  # a package is a folder: the text file is not offered
    assert answers[3] == ["pkgs"]
    assert answers[4] == ["journal.jsonl"]  # a journal is a file
    assert answers[5] == ["v0.1", "v0.2"]
    assert answers[6] == [
        "add-principal",
        "bind",
        "change-registry",
        "check",
        "decide",
        "forget-witness",
        "import",
        "init",
        "project",
        "publish",
        "redo",
        "revise",
        "status",
        "verify-journal",
        "withdraw",
    ]


def test_zsh_and_tcsh_scripts_name_the_commands(capsys) -> None:
    assert cli_main(["completion", "zsh"]) == 0
    zsh = capsys.readouterr().out
    assert zsh.startswith("#compdef aa-review")
    for word in ("audit", "dossier", "generate", "--format-version", "_files -/"):
        assert word in zsh
    assert cli_main(["completion", "tcsh"]) == 0
    assert "complete aa-review" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        cli_main(["completion", "fish-and-chips"])
    assert exc.value.code == 2
