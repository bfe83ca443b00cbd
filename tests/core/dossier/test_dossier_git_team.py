"""A team signs off through git (spec 10.6): three people, three clones, real merges.

Each person has their own data folder (``AA_REVIEW_DATA_DIR``) holding only their own
private key and their own witness store; the workspace lives in a git repository that
each clones, pulls and pushes. Two actions on the same journal head, in two clones,
are merged with git's default merge -- nobody edits a file -- and every clone settles
the fork the same way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import DECIDER, EVALUATOR, LEAD, NOW, Clock, archive, passing, principals

from aa_review.core.dossier import KeyStore, Workspace, init_workspace_folder

D = "dos-7f3a9c"
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"git {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Person:
    """One person: their data folder (key, witness), their clone, their clock."""

    def __init__(self, root: Path, name: str, principal_id: str, origin: Path) -> None:
        self.name, self.principal_id = name, principal_id
        self.data = root / f"data-{name}"
        self.clone = root / f"clone-{name}"
        self.clock = Clock(NOW)
        git(root, "clone", "-q", str(origin), str(self.clone))
        git(self.clone, "config", "user.name", name)
        git(self.clone, "config", "user.email", f"{name}@example.org")
        git(self.clone, "config", "pull.rebase", "false")
        self.public_key = KeyStore(self.data / "keys").create(principal_id).public_key

    @property
    def ws_folder(self) -> Path:
        return self.clone / "ws"

    def open(self, monkeypatch: pytest.MonkeyPatch) -> Workspace:
        monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(self.data))
        return Workspace.open_folder(self.ws_folder, clock=self.clock)

    def commit(self, message: str) -> None:
        git(self.clone, "add", "-A")
        git(self.clone, "commit", "-q", "-m", message)

    def push(self) -> None:
        git(self.clone, "push", "-q", "origin", "HEAD:main")

    def commit_push(self, message: str) -> None:
        self.commit(message)
        self.push()

    def pull(self) -> str:
        """``git pull`` with the default merge; returns git's output (never a conflict)."""
        return git(self.clone, "pull", "--no-edit", "origin", "main")


@pytest.fixture
def team(tmp_path: Path) -> dict[str, Person]:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    people = {
        "ada": Person(tmp_path, "ada", LEAD, origin),
        "cy": Person(tmp_path, "cy", EVALUATOR, origin),
        "fay": Person(tmp_path, "fay", DECIDER, origin),
    }
    # Everyone else in the registry has a key held by nobody here.
    spare = KeyStore(tmp_path / "data-spare" / "keys")
    keys = {p.principal_id: p.public_key for p in people.values()}
    registry = [
        {
            **rec,
            "public_key": keys.get(rec["principal_id"])
            or spare.create(rec["principal_id"]).public_key,
        }
        if rec["kind"] == "human" or rec["principal_id"] in keys
        else rec
        for rec in principals()
    ]
    ada = people["ada"]
    init_workspace_folder(ada.ws_folder, registry, archive())
    git(ada.clone, "add", "-A")
    git(ada.clone, "commit", "-q", "-m", "a workspace")
    git(ada.clone, "push", "-q", "origin", "HEAD:main")
    for p in people.values():
        if p is not ada:
            p.pull()
    return people


def verify_journal_cli(journal: Path) -> int:
    import argparse

    from aa_review.cli import dossier_cmd

    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    args = parser.parse_args(["dossier", "verify-journal", str(journal)])
    code: int = args.func(args)
    return code


def snapshot(ws: Workspace) -> dict[str, Any]:
    return {
        "entries": [e["entry_hash"] for e in ws.journal_entries()],
        "not_applied": [(n["entry_hash"], n["author"], n["status"]) for n in ws.not_applied()],
        "state": ws.revision(D, 1)["state"],
    }


def test_bind_check_decide_in_three_clones_with_a_merged_fork(
    team: dict[str, Person], monkeypatch: pytest.MonkeyPatch
) -> None:
    ada, cy, fay = team["ada"], team["cy"], team["fay"]

    # Ada imports and binds in her clone.
    with ada.open(monkeypatch) as ws:
        assert ws.can_act(EVALUATOR) is not None  # Cy's key is not on Ada's machine
        ws.import_dossier(passing(), LEAD)
        assert ws.bind(D, 1, LEAD)["outcome"] == "applied"
    ada.commit_push("ada binds")
    cy.pull()
    fay.pull()

    # Concurrently, on the same head: Ada (earlier) records a denied operation, Cy checks.
    ada.clock.now = NOW + timedelta(hours=1)
    with ada.open(monkeypatch) as ws:
        assert ws.attempt_operation("export_dataset", LEAD, D)["decision"] == "denied"
    ada.commit("ada asks for an export (denied)")  # not pushed yet
    cy.clock.now = NOW + timedelta(hours=2)
    with cy.open(monkeypatch) as ws:
        arrived = ws.arrived()  # Cy's first opening: everything is new to Cy
        assert [a["actor"] for a in arrived] == [LEAD, LEAD]
        assert arrived[1]["action"] == "bind" and arrived[1]["signature"] == "valid"
        assert arrived[1]["public_key"] == ada.public_key
        assert ws.check(D, 1, EVALUATOR)["outcome"] == "applied"
        assert ws.revision(D, 1)["state"] == "independently_checked"
    cy.commit_push("cy checks")

    # Ada merges Cy's push with git's default merge: no conflict, nothing edited by hand.
    out = ada.pull()
    assert "CONFLICT" not in out
    assert len(git(ada.clone, "rev-list", "--parents", "-n1", "HEAD").split()) == 3  # a merge
    assert git(ada.clone, "status", "--porcelain") == ""
    with ada.open(monkeypatch) as ws:
        assert not ws.read_only, ws.journal_fault
        na = ws.not_applied()
        assert len(na) == 1 and na[0]["author"] == EVALUATOR and na[0]["action"] == "check"
        assert na[0]["status"] == "not_applied" and na[0]["public_key"] == cy.public_key
        assert ws.revision(D, 1)["state"] == "evidence_bound"  # Ada's branch is kept
        status = ws.journal_status()
        assert status["verdict"]["valid"] and status["not_applied"] == na
        ada_view = snapshot(ws)
        check_hash = na[0]["entry_hash"]
    assert git(ada.clone, "status", "--porcelain") == ""  # opening wrote nothing to share
    ada.push()

    # Cy pulls: the same branch is kept in Cy's clone, although Cy witnessed the other one.
    cy.pull()
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(cy.data))
    assert verify_journal_cli(cy.ws_folder / "journal") == 0  # Cy's witnessed head is reached
    with cy.open(monkeypatch) as ws:
        assert not ws.read_only, ws.journal_fault  # a witnessed head on the lost branch
        assert snapshot(ws) == ada_view
        assert [a["kind"] for a in ws.arrived()] == ["operation_denied"]
        # Cy redoes the check on the kept branch: validated there, signed again.
        cy.clock.now = NOW + timedelta(hours=3)
        redone = ws.redo(check_hash, EVALUATOR)
        assert redone["outcome"] == "applied"
        assert ws.revision(D, 1)["state"] == "independently_checked"
        assert ws.journal_entries()[-1]["payload"]["redoes"] == check_hash
        assert ws.not_applied()[0]["status"] == "redone"
    cy.commit_push("cy redoes the check")

    # Fay pulls, sees what arrived and who did it, and decides.
    fay.pull()
    fay.clock.now = NOW + timedelta(hours=4)
    with fay.open(monkeypatch) as ws:
        assert not ws.read_only, ws.journal_fault
        who = {(a["actor"], a["kind"], a["action"]) for a in ws.arrived()}
        assert (EVALUATOR, "transition", "check") in who
        assert all(a["signature"] == "valid" for a in ws.arrived())
        assert ws.decide_eligible(D, 1, DECIDER)["outcome"] == "applied"
        fay_view = snapshot(ws)
    fay.commit_push("fay decides")

    # Everyone pulls: one journal, one verdict, the not-applied check still kept, all writable.
    for p in (ada, cy):
        p.pull()
    for p in (ada, cy, fay):
        with p.open(monkeypatch) as ws:
            assert not ws.read_only, (p.name, ws.journal_fault)
            assert snapshot(ws) == fay_view
            assert ws.revision(D, 1)["state"] == "eligible"
            assert len(ws.not_applied()) == 1  # nothing lost
        assert git(p.clone, "status", "--porcelain") == ""
        names = {f.name for f in (p.ws_folder / "journal").iterdir()}
        assert any(check_hash.split(":")[1] in n for n in names)
