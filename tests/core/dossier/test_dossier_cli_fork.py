"""Not-applied actions on the command line (spec 10.6, issue 23 item 2): real git, two people.

Ada (the lead) and Cy (the evaluator) each have their own data folder and their own
clone. On the same journal head Ada imports a second dossier (earlier) while Cy checks
the first (later); after ``git pull`` Ada's branch is kept and Cy's check is *not
applied*. ``dossier status`` lists it with its author, key and entry hash; only Cy can
``dossier redo`` or ``dossier withdraw`` it, and the exit codes are those of the other steps.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aa_review.cli import main
from aa_review.core.dossier import Workspace
from aa_review.demo._sample_archive import sample_archive
from aa_review.demo._sample_dossier import sample_dossier

D, D2 = "dos-7f3a9c", "dos-second"
LEAD, EVALUATOR, MAINTAINER = "p-lead-ada", "p-eval-cy", "p-maint-fay"
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

Run = Callable[..., tuple[int, str, str]]


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"git {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Team:
    """Two people, each with a data folder, a clone and a clock offset (the CLI's 'now')."""

    def __init__(
        self,
        root: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        self.root, self.mp, self.capsys = root, monkeypatch, capsys
        self.offset = timedelta(0)
        origin = root / "origin.git"
        git(root, "init", "-q", "--bare", "-b", "main", str(origin))
        for name in ("ada", "cy"):
            clone = root / f"clone-{name}"
            git(root, "clone", "-q", str(origin), str(clone))
            git(clone, "config", "user.name", name)
            git(clone, "config", "user.email", f"{name}@example.org")
            git(clone, "config", "pull.rebase", "false")
        opener = Workspace.open_folder

        def open_folder(path: Any, **kw: Any) -> Workspace:
            kw.setdefault("clock", lambda: datetime.now(UTC) + self.offset)
            return opener(path, **kw)

        monkeypatch.setattr(Workspace, "open_folder", staticmethod(open_folder))

    def ws(self, person: str) -> Path:
        return self.root / f"clone-{person}" / "ws"

    def run(self, person: str, *argv: Any) -> tuple[int, str, str]:
        """``aa-review ARGV`` as ``person`` (their own data folder); ``WS`` is their clone's."""
        self.mp.setenv("AA_REVIEW_DATA_DIR", str(self.root / "people" / person))
        self.capsys.readouterr()
        code = main([str(self.ws(person)) if a == "WS" else str(a) for a in argv])
        out, err = self.capsys.readouterr()
        return code, out, err

    def share(self, person: str, message: str) -> None:
        clone = self.root / f"clone-{person}"
        git(clone, "add", "-A")
        git(clone, "commit", "-q", "-m", message)
        self.pull(person)
        git(clone, "push", "-q", "origin", "HEAD:main")

    def pull(self, person: str) -> str:
        clone = self.root / f"clone-{person}"
        if not git(clone, "ls-remote", "origin", "main").strip():
            return ""
        out = git(clone, "pull", "--no-edit", "origin", "main")
        assert "CONFLICT" not in out
        return out


@pytest.fixture
def forked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[Team, str]:
    """Both clones merged after the fork; returns the team and Cy's not-applied check's hash."""
    t = Team(tmp_path, monkeypatch, capsys)
    archive = sample_archive()
    (tmp_path / "archive.json").write_text(json.dumps(archive))
    first = sample_dossier(archive, expires_at="2099-12-31T00:00:00Z")
    (tmp_path / "d1.json").write_text(json.dumps(first))
    (tmp_path / "d2.json").write_text(json.dumps({**first, "dossier_id": D2}))
    records = []
    for person, pid, role in (
        ("ada", LEAD, "training_research_lead"),
        ("cy", EVALUATOR, "independent_evaluator"),
        ("fay", MAINTAINER, "human_maintainer"),
        ("eve", "p-maint-eve", "human_maintainer"),
    ):
        code, line, err = t.run(person, "keys", "create", pid, "--role", role)
        assert code == 0, err
        records += ["--record", line.strip()]
    code, _, err = t.run(
        "ada", "dossier", "init", "WS", "--archive", tmp_path / "archive.json", *records
    )
    assert code == 0, err
    assert t.run("ada", "dossier", "import", "WS", tmp_path / "d1.json", "--as", LEAD)[0] == 0
    assert t.run("ada", "dossier", "bind", "WS", D, "--as", LEAD)[0] == 0
    t.share("ada", "ada binds")
    t.pull("cy")
    # Cy opens once: what arrived is what Ada did, and Cy's witness now holds that head.
    code, out, err = t.run("cy", "dossier", "status", "WS", "--json")
    assert code == 0, err
    arrived = json.loads(out)["arrived"]
    assert [(a["actor"], a["action"]) for a in arrived] == [(LEAD, None), (LEAD, "bind")]
    # On the same head: Ada imports a second dossier, Cy (an hour later) checks the first.
    code, _, err = t.run("ada", "dossier", "import", "WS", tmp_path / "d2.json", "--as", LEAD)
    assert code == 0, err
    t.offset = timedelta(hours=1)
    code, out, err = t.run("cy", "dossier", "check", "WS", D, "--as", EVALUATOR)
    assert code == 0 and "independently_checked" in out, err
    t.share("cy", "cy checks")
    t.offset = timedelta(hours=2)
    t.share("ada", "ada imports a second dossier")  # git's default merge, no hand edit
    t.pull("cy")
    code, out, err = t.run("cy", "dossier", "status", "WS", "--json")
    assert code == 0, err
    status = json.loads(out)
    assert not status["read_only"], status["read_only_reason"]
    (na,) = status["not_applied"]
    return t, na["entry_hash"]


def test_status_lists_the_not_applied_check_with_its_author_key_and_hash(
    forked: tuple[Team, str],
) -> None:
    t, check = forked
    code, out, err = t.run("ada", "dossier", "status", "WS", "--json")
    assert code == 0, err
    status = json.loads(out)
    (na,) = status["not_applied"]
    assert na["entry_hash"] == check and check.startswith("sha256:")
    assert (na["author"], na["role"], na["action"], na["dossier_id"]) == (
        EVALUATOR,
        "independent_evaluator",
        "check",
        D,
    )
    assert na["status"] == "not_applied" and na["signature"] == "valid"
    cy_key = next(p for p in status["principals"] if p["principal_id"] == EVALUATOR)
    assert cy_key["key"] == "held_elsewhere"
    assert na["author_key_here"] is False  # Ada's machine does not hold Cy's key
    assert na["public_key"].startswith("ed25519:") and na["key"].startswith(na["public_key"][:16])
    assert json.loads(out)["dossiers"][0]["revisions"][0]["state"] == "evidence_bound"
    # What arrived for Ada: Cy's check is on the lost branch, so only the kept import...
    assert all(a["entry_hash"] != check for a in status["arrived"])
    # ...and every history line says who signed it, with which key.
    assert all(e["key"].startswith("ed25519:") for e in status["history"])
    # In words: Ada is told who can resolve it; Cy is told how.
    code, out, _ = t.run("ada", "dossier", "status", "WS")
    assert code == 0
    assert check in out and "only p-eval-cy can redo or withdraw it (key held elsewhere)" in out
    code, out, _ = t.run("cy", "dossier", "status", "WS")
    assert f"{check}  {EVALUATOR} (independent_evaluator) check {D} revision 1" in out
    assert f"--as {EVALUATOR}" in out


def test_only_the_author_redoes_and_the_redo_is_signed_again_on_the_kept_branch(
    forked: tuple[Team, str],
) -> None:
    t, check = forked
    journal = t.ws("cy") / "journal"
    before = sorted(p.name for p in journal.iterdir())
    code, out, err = t.run("ada", "dossier", "redo", "WS", check, "--as", LEAD)
    assert code == 1 and out == ""
    assert "NOT_APPLIED_NOT_AUTHOR" in err and EVALUATOR in err
    code, out, err = t.run("cy", "dossier", "redo", "WS", "sha256:00ff", "--as", EVALUATOR)
    assert code == 2 and "no not-applied action starts with entry sha256:00ff" in err
    assert sorted(p.name for p in journal.iterdir()) == before  # nothing written
    t.offset = timedelta(hours=3)
    # A unique beginning of the hex is enough.
    code, out, err = t.run("cy", "dossier", "redo", "WS", check[7:19], "--as", EVALUATOR)
    assert code == 0, err
    assert out.startswith(f"redone check {D} revision 1 (entry sha256:")
    code, out, err = t.run("cy", "dossier", "status", "WS", "--json")
    status = json.loads(out)
    assert status["dossiers"][0]["revisions"][0]["state"] == "independently_checked"
    assert [(n["status"], n["author"]) for n in status["not_applied"]] == [("redone", EVALUATOR)]
    last = status["history"][-1]
    assert last["who"] == EVALUATOR and last["signature"] == "valid"
    # Resolved once: a second redo or a withdrawal is refused.
    code, _, err = t.run("cy", "dossier", "redo", "WS", check, "--as", EVALUATOR)
    assert code == 1 and "NOT_APPLIED_RESOLVED" in err
    code, _, err = t.run("cy", "dossier", "withdraw", "WS", check, "--as", EVALUATOR)
    assert code == 1 and "NOT_APPLIED_RESOLVED" in err


def test_the_author_withdraws_and_ada_sees_it_arrive_after_pulling(
    forked: tuple[Team, str],
) -> None:
    t, check = forked
    code, _, err = t.run("ada", "dossier", "withdraw", "WS", check, "--as", LEAD)
    assert code == 1 and "NOT_APPLIED_NOT_AUTHOR" in err
    t.offset = timedelta(hours=3)
    code, out, err = t.run("cy", "dossier", "withdraw", "WS", check, "--as", EVALUATOR)
    assert code == 0, err
    assert out.startswith(f"withdrawn check {D} revision 1 (entry sha256:")
    t.share("cy", "cy withdraws the check")
    t.pull("ada")
    code, out, _ = t.run("ada", "dossier", "status", "WS")
    assert code == 0
    assert f"1 entry arrived: withdrawn by {EVALUATOR} since you last opened" in out
    # Opening again: what arrived was seen; the withdrawal stays listed.
    code, out, err = t.run("ada", "dossier", "status", "WS", "--json")
    status = json.loads(out)
    assert not status["read_only"], status["read_only_reason"]
    assert [n["status"] for n in status["not_applied"]] == ["withdrawn"]
    assert status["arrived"] == []
    assert status["dossiers"][0]["revisions"][0]["state"] == "evidence_bound"
    last = status["history"][-1]
    assert (last["who"], last["kind"]) == (EVALUATOR, "withdrawn")
    assert last["key"].startswith("ed25519:") and last["signature"] == "valid"


def test_a_read_only_workspace_refuses_redo_with_exit_2(forked: tuple[Team, str]) -> None:
    t, check = forked
    (t.ws("cy") / "journal" / f"00000099-{'ab' * 32}.jsonl").write_text("{}\n")
    code, out, err = t.run("cy", "dossier", "redo", "WS", check, "--as", EVALUATOR)
    assert code == 2 and out == "" and "read-only" in err
