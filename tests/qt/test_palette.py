"""The command palette offers every action of the window, each with its key."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

pytestmark = pytest.mark.gui


def _menu_actions(menu: QMenu) -> list[QAction]:
    out = []
    for a in menu.actions():
        if a.menu() is not None:
            out += _menu_actions(a.menu())
        elif a.text() and not a.isSeparator():
            out.append(a)
    return out


def test_every_menu_action_is_in_the_palette_with_its_key(window, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    palette = window.show_palette()
    labels = [e.label for e in palette.entries]
    text = "\n".join(labels)
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    for act in (a for m in menus for a in _menu_actions(m)):
        if not act.isEnabled():
            continue
        name = act.text().replace("&", "")
        assert name in text, name
        keys = act.shortcut().toString()
        if keys:
            assert any(name in label and label.endswith(keys) for label in labels), name
    # the View menu's docks, the themes, the recent packages, the window's keyed actions
    assert any(label.startswith("View: Facets") for label in labels)
    assert any(label.startswith("Theme: Dark (") for label in labels)
    assert any(label.startswith("Theme: Light (") for label in labels)
    assert any(label.startswith("Open Recent: ") and str(sample_copy) in label for label in labels)
    assert any(
        label.startswith("Next location of the finding") and label.endswith("F8")
        for label in labels
    )
    palette.reject()


def test_palette_switches_theme_and_docks(window, qtbot) -> None:
    palette = window.show_palette()
    qtbot.keyClicks(palette.edit, "theme dark")
    assert palette.entries[0].label == "Theme: Dark (off)"
    palette.run_current()
    assert window.commands.theme["dark"].isChecked()
    window.set_theme("light")
    before = window.docks["plots"].toggleViewAction().isChecked()
    palette = window.show_palette()
    qtbot.keyClicks(palette.edit, "view: plots")
    palette.run_current()
    assert window.docks["plots"].toggleViewAction().isChecked() is not before


def test_dossier_steps_are_in_the_palette_once_a_workspace_is_open(window) -> None:
    labels = [e.label for e in window.show_palette().entries]
    assert not any(label.startswith("Dossier: ") for label in labels)
    commands = [e.label for e in window.dossier_commands()]
    assert "Dossier: Public projection…" in commands
    assert any(c.startswith("Dossier: Bind") for c in commands)
