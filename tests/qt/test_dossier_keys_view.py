"""The Dossier tab offers to act only as principals whose key is here; others are held elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from aa_review.core.dossier import Action, KeyStore, Workspace, init_workspace_folder
from aa_review.demo._sample_archive import LEAD, SAMPLE_PRINCIPALS, sample_archive
from aa_review.demo._sample_dossier import sample_dossier

pytestmark = pytest.mark.gui


def team_workspace(tmp_path: Path) -> Path:
    """A workspace whose lead's key is in this user's store; everyone else's is elsewhere."""
    mine, theirs = KeyStore(), KeyStore(tmp_path / "their-keys")
    principals = []
    for rec in SAMPLE_PRINCIPALS:
        pid = rec["principal_id"]
        if rec["role"] == "system_reducer":
            principals.append(dict(rec))
            continue
        store = mine if pid == LEAD else theirs
        signer = store.signer(pid) or store.create(pid)
        principals.append({**rec, "public_key": signer.public_key})
    folder = init_workspace_folder(tmp_path / "team-ws", principals, sample_archive())
    dossier = sample_dossier(sample_archive(), expires_at="2099-12-31T00:00:00Z")
    with Workspace.open_folder(folder) as ws:
        ws.import_dossier(dossier, LEAD)
    return folder


@pytest.fixture
def panel(window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # This user's own data folder: only the lead's key is created in it.
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data"))
    folder = team_workspace(tmp_path)
    assert window.open_workspace(folder)
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.select_dossier("dos-7f3a9c")
    yield p
    p.close_workspace()


def test_the_tab_says_who_can_act_here_and_who_is_held_elsewhere(panel) -> None:
    panel.set_actor(LEAD)
    assert panel.actor_label.text().endswith(" · 7 held elsewhere")
    tip = panel.actor_label.toolTip()
    assert tip.startswith("You can act as p-lead-ada · held elsewhere: p-lead-bo, p-eval-cy")
    assert "p-reducer-hal" not in tip  # the reducer is nobody's to hold
    assert "p-eval-cy's private key is held elsewhere" in tip


def test_acting_as_offers_only_principals_whose_key_is_here(panel, monkeypatch) -> None:
    from PySide6.QtCore import Qt

    from aa_review.qt.views import dossier_panel

    shown = []
    monkeypatch.setattr(dossier_panel.ActorDialog, "exec", lambda self: shown.append(self) or 0)
    assert panel.choose_actor() is None  # cancelled
    (dialog,) = shown
    items = [dialog.list.item(i) for i in range(dialog.list.count())]
    enabled = [i.text() for i in items if i.flags() & Qt.ItemFlag.ItemIsEnabled]
    assert enabled == ["p-lead-ada — training_research_lead (human)"]
    texts = [i.text() for i in items]
    header = texts.index("Held elsewhere (their keys are on their owners' machines):")
    assert header == 1
    assert "    p-eval-cy — independent_evaluator (human) — held elsewhere" in texts[header:]
    # A held-elsewhere row cannot be chosen, even if selected.
    dialog.list.setCurrentRow(
        texts.index("    p-eval-cy — independent_evaluator (human) — held elsewhere")
    )
    assert dialog.chosen() is None


def test_a_principal_held_elsewhere_cannot_take_a_step(panel) -> None:
    panel.set_actor("p-lead-bo")  # remembered from somewhere else: the key is not here
    assert not panel.buttons[Action.BIND].isEnabled()
    assert "private key is not on this machine" in panel.buttons[Action.BIND].toolTip()
    panel.set_actor(LEAD)
    assert panel.buttons[Action.BIND].isEnabled()


def test_the_demo_says_it_is_several_people_on_one_machine(window, tmp_path: Path) -> None:
    from aa_review.demo import ensure_sample

    demo = ensure_sample(tmp_path / "demo")
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.select_dossier("dos-demo-ready")
    p.set_actor(LEAD)
    assert "demo: every duty's key is here" in p.actor_label.text()
    assert "a demo of several people on one machine" in p.actor_label.toolTip()
    p.close_workspace()


def test_a_team_workspace_is_not_called_a_demo(panel) -> None:
    panel.set_actor(LEAD)
    assert "demo" not in panel.actor_label.text()
