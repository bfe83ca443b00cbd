"""A teammate's actions arrive while the Dossier tab has the workspace open (spec 10.5, 10.6).

Ada (the lead) and Cy (the evaluator) each have their own data folder and their own
clone of one git repository holding the workspace. Cy has it open in the window when
Ada's action arrives with ``git pull``. The window notices the journal moved, opens the
workspace again (which verifies what arrived before showing it) and lists the arrival;
Cy's next step is applied, not refused with ``JOURNAL_CONCURRENT_WRITE``, and Ada's
clone verifies it after her own pull.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.dossier import Action, KeyStore, Workspace, init_workspace_folder
from aa_review.demo._sample_archive import EVALUATOR, LEAD, SAMPLE_PRINCIPALS, sample_archive
from aa_review.demo._sample_dossier import sample_dossier

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]
D = "dos-7f3a9c"


def git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}:\n{done.stdout}\n{done.stderr}"


def clone(origin: Path, into: Path, name: str) -> Path:
    git(into.parent, "clone", "-q", str(origin), str(into))
    for key, value in (("user.name", name), ("user.email", f"{name}@example.org")):
        git(into, "config", key, value)
    git(into, "config", "pull.rebase", "false")
    return into


def commit_push(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    git(repo, "push", "-q", "origin", "HEAD:main")


def pull(repo: Path) -> None:
    git(repo, "pull", "-q", "--no-edit", "origin", "main")


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Two clones of a workspace Ada made, imported into and bound; Cy has pulled it."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    ada, cy = clone(origin, tmp_path / "ada", "ada"), clone(origin, tmp_path / "cy", "cy")
    stores = {LEAD: KeyStore(tmp_path / "data-ada" / "keys")}
    stores[EVALUATOR] = KeyStore(tmp_path / "data-cy" / "keys")
    elsewhere = KeyStore(tmp_path / "data-elsewhere" / "keys")
    principals = [
        rec
        if rec["role"] == "system_reducer"
        else {
            **rec,
            "public_key": stores.get(rec["principal_id"], elsewhere)
            .create(rec["principal_id"])
            .public_key,
        }
        for rec in SAMPLE_PRINCIPALS
    ]
    init_workspace_folder(ada / "ws", principals, sample_archive())
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data-ada"))
    with Workspace.open_folder(ada / "ws") as ws:
        ws.import_dossier(sample_dossier(sample_archive(), expires_at="2099-12-31T00:00:00Z"), LEAD)
        assert ws.bind(D, 1, LEAD)["outcome"] == "applied"
    commit_push(ada, "Ada: the dossier, bound")
    pull(cy)
    return {
        "ada": ada,
        "cy": cy,
        "ada_data": tmp_path / "data-ada",
        "cy_data": tmp_path / "data-cy",
    }


def open_as_cy(window: Any, team: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Cy's window, his clone's workspace open on the Dossier tab, acting as himself."""
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(team["cy_data"]))
    assert window.open_workspace(team["cy"] / "ws")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.select_dossier(D)
    p.wait_idle()
    p.set_actor(EVALUATOR)
    p.wait_idle()
    return p


def test_a_pull_while_open_is_verified_and_shown_and_the_next_step_applies(
    window: Any, team: dict[str, Path], monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    p = open_as_cy(window, team, monkeypatch)
    first_ws = p.session.ws
    try:
        assert p.state is not None and p.state.state.value == "evidence_bound"

        # Ada acts in her clone and pushes; Cy pulls with the window open.
        monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(team["ada_data"]))
        with Workspace.open_folder(team["ada"] / "ws") as ws:
            assert ws.attempt_operation("export_dataset", LEAD, D)["decision"] == "denied"
            ada_head = ws.journal_head()
        commit_push(team["ada"], "Ada: a denied export")
        monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(team["cy_data"]))
        assert first_ws is not None and first_ws.journal_moved() is None
        pull(team["cy"])
        assert first_ws.journal_moved() is not None  # the next append would be refused

        # The window opens the workspace again: verified, listed as arrived, writable.
        qtbot.waitUntil(lambda: p.session.ws is not first_ws, timeout=20_000)
        p.wait_idle()
        ws_now = p.session.ws
        assert ws_now is not None and not ws_now.read_only
        assert ws_now.journal_head() == ada_head
        assert f"1 entry arrived: an operation denied to {LEAD}" in p.verdict.text()
        assert window.statusBar().currentMessage() == (
            "The dossier journal changed on disk: opened again (1 entry arrived, verified)"
        )
        assert p.session.current == (D, 1) and p.actor_id == EVALUATOR

        # Cy's check is applied on top of what arrived.
        monkeypatch.setattr(p, "confirm", lambda title, text: True)
        p.buttons[Action.CHECK].click()
        p.wait_idle()
        assert p.session.last_result is not None
        assert "JOURNAL_CONCURRENT_WRITE" not in str(p.session.last_result)
        assert p.state.state.value in ("independently_checked", "deferred")
        assert ws_now.journal_head()["seq"] > ada_head["seq"]  # type: ignore[index]
    finally:
        p.close_workspace()

    # Cy pushes; Ada pulls and her clone verifies Cy's check, signed with Cy's key.
    commit_push(team["cy"], "Cy: the independent check")
    pull(team["ada"])
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(team["ada_data"]))
    with Workspace.open_folder(team["ada"] / "ws") as ws:
        assert not ws.read_only, ws.journal_fault
        after = ws.journal_entries()[ada_head["seq"] + 1 :]  # type: ignore[index]
        assert after and {e["actor"]["principal_id"] for e in after} == {EVALUATOR}
        assert EVALUATOR in str([a["actor"] for a in ws.arrived()])


def test_the_windows_own_steps_do_not_reopen_the_workspace(
    window: Any, team: dict[str, Path], monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    p = open_as_cy(window, team, monkeypatch)
    first_ws = p.session.ws
    try:
        monkeypatch.setattr(p, "confirm", lambda title, text: True)
        p.buttons[Action.CHECK].click()
        p.wait_idle()
        assert first_ws is not None and first_ws.journal_moved() is None
        with qtbot.waitSignal(p.journal_watcher.changed, timeout=20_000):
            pass  # the watcher saw the window's own append
        p.wait_idle()
        assert p.session.ws is first_ws  # nothing arrived: not opened again
    finally:
        p.close_workspace()
