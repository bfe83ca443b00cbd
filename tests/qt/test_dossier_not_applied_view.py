"""The Dossier tab after a merge of concurrent work (spec 10.6, issue 23 items 1-2).

Ada (the lead) and Cy (the evaluator) each have their own data folder. On the same
head Ada records a denied operation (earlier) and Cy checks (later), in two copies of
the workspace; the copies are merged as git's default merge does (every file of both,
none rewritten). The kept branch is Ada's: Cy's check is *not applied*. The tab lists
it with who, what, when and from which key; Redo and Withdraw are offered to Cy only.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.dossier import KeyStore, Workspace, init_workspace_folder
from aa_review.demo._sample_archive import (
    EVALUATOR,
    LEAD,
    SAMPLE_PRINCIPALS,
    sample_archive,
)
from aa_review.demo._sample_dossier import sample_dossier

pytestmark = pytest.mark.gui
D = "dos-7f3a9c"
T0 = datetime.now(UTC).replace(microsecond=0)


def _merge(theirs: Path, ours: Path) -> None:
    """What git's default merge gives when both sides only added files: the union."""
    for src in theirs.rglob("*"):
        dst = ours / src.relative_to(theirs)
        if src.is_dir():
            dst.mkdir(exist_ok=True)
        elif not dst.exists():
            shutil.copy2(src, dst)


def forked_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Ada's merged copy; Cy's check (on the same head as Ada's denied request) not applied."""
    ada_data, cy_data = tmp_path / "data-ada", tmp_path / "data-cy"
    ada, cy, rest = (
        KeyStore(ada_data / "keys"),
        KeyStore(cy_data / "keys"),
        KeyStore(tmp_path / "elsewhere" / "keys"),
    )
    principals = []
    for rec in SAMPLE_PRINCIPALS:
        pid = rec["principal_id"]
        if rec["role"] == "system_reducer":
            principals.append(dict(rec))
            continue
        store = ada if pid == LEAD else cy if pid == EVALUATOR else rest
        principals.append({**rec, "public_key": store.create(pid).public_key})
    ours = init_workspace_folder(tmp_path / "ada" / "ws", principals, sample_archive())
    dossier = sample_dossier(sample_archive(), expires_at="2099-12-31T00:00:00Z")

    def clock(at: datetime) -> Any:
        return lambda: at

    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(ada_data))
    with Workspace.open_folder(ours, clock=clock(T0)) as ws:
        ws.import_dossier(dossier, LEAD)
        assert ws.bind(D, 1, LEAD)["outcome"] == "applied"
    theirs = tmp_path / "cy" / "ws"
    shutil.copytree(ours, theirs)  # Cy pulls
    with Workspace.open_folder(ours, clock=clock(T0 + timedelta(minutes=1))) as ws:
        assert ws.attempt_operation("export_dataset", LEAD, D)["decision"] == "denied"
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(cy_data))
    with Workspace.open_folder(theirs, clock=clock(T0 + timedelta(minutes=2))) as ws:
        assert ws.check(D, 1, EVALUATOR)["outcome"] == "applied"
    _merge(theirs, ours)
    return ours


def _open(window: Any, folder: Path, actor: str) -> Any:
    assert window.open_workspace(folder)
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.select_dossier(D)
    p.wait_idle()
    p.set_actor(actor)
    p.wait_idle()
    return p


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return forked_workspace(tmp_path, monkeypatch)


def test_the_lead_sees_the_evaluators_not_applied_check_but_cannot_resolve_it(
    window: Any, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data-ada"))
    p = _open(window, folder, LEAD)
    try:
        tabs = p.tabs
        index = tabs.indexOf(tabs.not_applied_tab)
        assert tabs.isTabVisible(index) and tabs.tabText(index) == "Not applied (1)"
        (row,) = tabs.not_applied_model.items
        when, who, what, dossier, key, status = row
        assert who == f"{EVALUATOR} (independent_evaluator)" and what == "independent check"
        assert dossier == f"{D} revision 1" and status == "not applied"
        assert when.startswith((T0 + timedelta(minutes=2)).strftime("%Y-%m-%d %H:%M"))
        cy_key = next(
            q.public_key for q in p.state.snapshot.principals if q.principal_id == EVALUATOR
        )
        assert key == cy_key[:16] + "…"  # the start of the key Cy handed over
        # Not Ada's to resolve, and the tab says why.
        assert not tabs.redo_button.isEnabled() and not tabs.withdraw_button.isEnabled()
        assert tabs.not_applied_why.text() == (
            f"only its author {EVALUATOR} can redo or withdraw it; their key is held elsewhere"
        )
        # The verdict names it; the kept branch is Ada's.
        verdict = p.verdict.text()
        assert "Not applied" in verdict and f"(by {EVALUATOR})" in verdict
        assert "only their author can redo or withdraw them" in verdict
        assert p.state.state.value == "evidence_bound"
        # Nobody here can check, but the evaluators can on their own machines: say so.
        assert p.state.next_step.endswith(
            "nobody with a key on this machine; held elsewhere: p-eval-cy or p-eval-dee."
        )
        # The timeline says who signed each entry, with which key.
        signed = [r[5] for r in tabs.journal_model.items]
        assert all(" · ed25519:" in s for s in signed), signed
        # Ada's last opening witnessed her own head: nothing arrived from Cy's lost branch.
        assert "Since you last opened" not in verdict
    finally:
        p.close_workspace()


def test_the_evaluator_sees_what_arrived_and_redoes_the_check(
    window: Any, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data-cy"))
    p = _open(window, folder, EVALUATOR)
    try:
        verdict = p.verdict.text()
        assert f"1 entry arrived: an operation denied to {LEAD}" in verdict
        assert "1 yours to redo or withdraw" in verdict
        tabs = p.tabs
        assert tabs.redo_button.isEnabled() and tabs.withdraw_button.isEnabled()
        assert tabs.not_applied_why.text() == ""
        asked: list[str] = []
        monkeypatch.setattr(p, "confirm", lambda title, text: asked.append(text) or True)
        tabs.redo_button.click()
        p.wait_idle()
        assert asked and "signed again by p-eval-cy" in asked[0]
        assert p.state.state.value == "independently_checked"
        (row,) = tabs.not_applied_model.items
        assert row[5] == "redone"
        assert not tabs.redo_button.isEnabled() and not tabs.withdraw_button.isEnabled()
        assert tabs.not_applied_why.text().startswith("redone by entry sha256:")
        assert tabs.tabText(tabs.indexOf(tabs.not_applied_tab)) == "Not applied"
    finally:
        p.close_workspace()


def test_the_evaluator_withdraws_instead_and_nothing_is_redone(
    window: Any, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data-cy"))
    p = _open(window, folder, EVALUATOR)
    try:
        monkeypatch.setattr(p, "confirm", lambda title, text: True)
        p.tabs.withdraw_button.click()
        p.wait_idle()
        assert p.state.state.value == "evidence_bound"
        assert p.tabs.not_applied_model.items[0][5] == "withdrawn"
        assert p.state.snapshot.journal.entries[-1].kind == "withdrawn"
    finally:
        p.close_workspace()


def test_a_workspace_without_a_fork_shows_no_not_applied_tab(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.qt.test_dossier_keys_view import team_workspace

    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data"))
    p = _open(window, team_workspace(tmp_path), LEAD)
    try:
        assert not p.tabs.isTabVisible(p.tabs.indexOf(p.tabs.not_applied_tab))
        assert "Not applied" not in p.verdict.text()
    finally:
        p.close_workspace()
