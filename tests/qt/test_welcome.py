"""The welcome page: shown while no package is open, with recent packages and
workspaces (path, when opened, missing ones marked), open buttons and a drop hint."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


def test_welcome_shown_until_a_package_opens(window, sample_copy: Path, qtbot) -> None:
    qtbot.waitExposed(window)
    assert window.stack.currentWidget() is window.welcome and window.welcome.isVisible()
    assert not window.rows.isVisible()  # no empty tables
    assert not any(d.isVisible() for d in window.docks.values())
    assert "drop" in window.welcome.hint.text().lower()
    assert set(window.welcome.buttons) == {"package", "workspace", "session", "demo"}
    window.open_package(sample_copy)
    assert window.stack.currentWidget() is window.center and window.rows.isVisible()
    assert window.docks["findings"].isVisible() and window.docks["detail"].isVisible()
    window.session.close()
    assert window.stack.currentWidget() is window.welcome
    assert not any(d.isVisible() for d in window.docks.values())


def test_recent_packages_listed_with_time_and_missing_marked(
    window, sample_copy: Path, tmp_path: Path, qtbot
) -> None:
    gone = tmp_path / "gone_pkg"
    gone.mkdir()
    window.places.add("package", gone, datetime(2026, 1, 2, 3, 4, tzinfo=UTC))
    shutil.rmtree(gone)
    window.open_package(sample_copy)
    window.session.close()
    tree = window.welcome.lists["package"]
    rows = [
        [tree.topLevelItem(i).text(c) for c in range(3)] for i in range(tree.topLevelItemCount())
    ]
    assert rows[0][0] == sample_copy.name and rows[0][2] == str(sample_copy)
    assert rows[0][1].startswith(str(datetime.now().year))
    assert rows[1][0] == "gone_pkg  (missing)" and rows[1][2] == str(gone)
    assert rows[1][1].startswith("2026-01-0")
    assert tree.topLevelItem(1).isDisabled()
    # opening from the list (Enter / double-click): the package opens
    tree.itemActivated.emit(tree.topLevelItem(0), 0)
    assert window.session.package is not None
    assert window.session.package.root == sample_copy


def test_recent_workspaces_listed(window, tmp_path: Path) -> None:
    from aa_review.demo import bundled_workspace

    ws = bundled_workspace()
    assert window.open_workspace(ws)
    tree = window.welcome.lists["workspace"]
    assert tree.topLevelItem(0).text(2) == str(ws)
    assert window.places.items("workspace")[0].path == str(ws)
    window.dossier.close_workspace()
    # the list keeps each path once, the newest first
    window.places.add("workspace", tmp_path)
    window.places.add("workspace", ws)
    assert [r.path for r in window.places.items("workspace")] == [str(ws), str(tmp_path)]


def test_welcome_demo_button_opens_the_demo(window, qtbot, monkeypatch) -> None:
    monkeypatch.setattr(window.dossier, "open_workspace", lambda folder: False)
    qtbot.mouseClick(window.welcome.buttons["demo"], Qt.MouseButton.LeftButton)
    assert window.session.package is not None
    assert window.stack.currentWidget() is window.center
