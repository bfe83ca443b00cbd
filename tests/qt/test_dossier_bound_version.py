"""The Dossier tab checks the bound content (issue 23, item 4), asks before a step that
expires a revision, and starts a new revision from an expired one (spec 7.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aa_review.core.dossier import Action, DossierState
from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample
from aa_review.generator import ChangeSpec, derive_package

pytestmark = pytest.mark.gui

READY = "dos-demo-ready"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return ensure_sample(tmp_path / "demo")


@pytest.fixture
def panel(window, demo: Path):
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.confirms, p.infos, p.answer = [], [], True
    p.confirm = lambda title, text: p.confirms.append(text) or p.answer
    p.inform = lambda title, text: p.infos.append(text)
    p.select_dossier(READY)
    yield p
    p.close_workspace()


def _journal_bytes(folder: Path) -> bytes:
    """The journal folder's action files, names and bytes (one file per action)."""
    return b"".join(
        p.name.encode() + p.read_bytes() for p in sorted((folder / "journal").iterdir())
    )


def act(panel, who: str, action):
    panel.set_actor(who)
    return panel.request(action)


def state(panel, revision: int = 1) -> str:
    return panel.ws.revision(READY, revision)["state"]


def test_another_version_open_says_where_the_bound_one_is(window, panel, demo, tmp_path) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    bound = demo / SAMPLE_PACKAGE_ID
    other = derive_package(bound, tmp_path / "other", ChangeSpec(rows_changed=1), seed=3).root
    window.open_package(other)  # File > Open of a changed copy: same id, another version
    panel.refresh()
    text = panel.verdict.text()
    assert "Another version is open" in text and str(other) in text
    assert f"the bound one is at {bound.resolve()}" in text
    assert "Changed since binding" not in text and "Stale" not in text
    assert not panel.state.stale
    # The check runs on the bound content: applied, no expiry, no expiry question.
    result = act(panel, "p-eval-cy", Action.CHECK)
    assert result.outcome.value == "applied" and state(panel) == "independently_checked"
    assert not any("EXPIRES" in c for c in panel.confirms)


def _changed_in_place(demo: Path) -> None:
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))


def test_a_step_that_would_expire_asks_first_and_a_no_writes_nothing(panel, demo) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    _changed_in_place(demo)
    panel.refresh()
    assert panel.state.stale
    before = _journal(panel.folder)
    panel.answer = False
    assert act(panel, "p-eval-cy", Action.CHECK) is None
    question = panel.confirms[-1]
    assert "EXPIRES dos-demo-ready revision 1" in question and "for good" in question
    assert "package" in question.lower()  # the freshness reason, in words
    assert _journal(panel.folder) == before
    assert state(panel) == "evidence_bound"
    panel.answer = True
    assert act(panel, "p-eval-cy", Action.CHECK).outcome.value == "expired"
    assert state(panel) == "expired"


def test_from_an_expired_revision_a_new_one_in_the_window(panel, demo, qtbot) -> None:
    from PySide6.QtCore import Qt

    act(panel, "p-lead-ada", Action.BIND)
    _changed_in_place(demo)
    panel.refresh()
    act(panel, "p-eval-cy", Action.CHECK)
    assert panel.state.state is DossierState.EXPIRED
    button = panel.revise_button
    assert button.isVisibleTo(panel)
    assert not button.isEnabled() and "training research lead" in button.toolTip()
    assert "new revision from this one" in panel.state.next_step
    panel.set_actor("p-lead-bo")
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert "stays expired" in panel.confirms[-1]
    assert panel.current == (READY, 2) and state(panel, 2) == "draft"
    assert state(panel, 1) == "expired"
    assert panel.ws.revision(READY, 2)["supersedes"]["revision"] == 1
    assert not panel.revise_button.isVisibleTo(panel)  # a draft is edited, not revised
    assert panel.ws.verify_journal()["valid"]


def _journal(folder: Path) -> list[tuple[str, bytes]]:
    """The journal folder's action files, names and bytes: what a "no" must leave."""
    return [(p.name, p.read_bytes()) for p in sorted((folder / "journal").glob("*.jsonl"))]
