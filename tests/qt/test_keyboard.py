"""The whole sign-off by keyboard (issue 25, item 5): focus leaves tables, Ctrl+Tab goes
from view to view, every page and "act as" have a key and a palette command, the
palette says why a step is unavailable, Help lists every key."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

pytestmark = pytest.mark.gui

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _active(window: Any, qtbot: Any) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())


def _press(
    qtbot: Any, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    # where the key goes: the focus, else the active window (a step's button that
    # became disabled gives the focus up; the window's keys still reach the window)
    target = QApplication.focusWidget() or QApplication.activeWindow()
    assert target is not None
    qtbot.keyClick(target, key, modifier=modifier)


def _palette(window: Any, qtbot: Any, text: str) -> Any:
    """Ctrl+Shift+P, type ``text``: the palette shown (not yet run)."""
    from aa_review.qt.views.palette import CommandPalette

    _press(qtbot, Qt.Key.Key_P, CTRL | SHIFT)
    shown = [p for p in window.findChildren(CommandPalette) if p.isVisible()]
    assert len(shown) == 1
    qtbot.keyClicks(shown[0].edit, text)
    return shown[0]


def _answer_next_box(key: Qt.Key) -> list[str]:
    """Press ``key`` in the next message box that opens (a confirmation), as a user would."""
    seen: list[str] = []

    def look() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            from PySide6.QtTest import QTest

            QTest.keyClick(box, key)
        elif not seen:
            QTimer.singleShot(0, look)

    QTimer.singleShot(0, look)
    return seen


def test_tab_leaves_a_table(window, qtbot) -> None:
    from aa_review.demo import bundled_package

    window.open_package(bundled_package())
    _active(window, qtbot)
    view = window.rows.view
    assert view.tabKeyNavigation() is False
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    _press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not view
    for panel in (window.findings, window.evidence):
        assert panel.view.tabKeyNavigation() is False


def test_ctrl_tab_goes_from_view_to_view(window, qtbot) -> None:
    from aa_review.demo import bundled_package

    window.open_package(bundled_package())
    _active(window, qtbot)
    window.rows.view.setFocus()
    qtbot.waitUntil(window.rows.view.hasFocus)
    ring = window.view_ring()
    holders = [h for h, _w in ring]
    assert window.center.widget(0) in holders and window.docks["findings"] in holders
    visited = []
    for _ in range(len(ring)):
        _press(qtbot, Qt.Key.Key_Tab, CTRL)
        focus = QApplication.focusWidget()
        visited.append(next(h for h in holders if h.isAncestorOf(focus)))
    # every page and open dock once, back where it started
    assert len(set(map(id, visited))) == len(ring)
    assert window.center.widget(0).isAncestorOf(QApplication.focusWidget())
    _press(qtbot, Qt.Key.Key_Backtab, CTRL | SHIFT)
    assert visited[-2].isAncestorOf(QApplication.focusWidget())


def test_the_keyboard_reference_is_read_from_the_actions(window) -> None:
    from PySide6.QtGui import QAction

    box = window.show_keyboard_reference()
    listed = {(cmd, keys) for _menu, rows in box.groups for cmd, keys in rows}
    text = box.text.toPlainText()
    keyed = [a for a in window.findChildren(QAction) if a.shortcuts() and a.text()]
    assert keyed
    for a in keyed:
        cmd = a.text().replace("&", "").rstrip("…")
        assert any(c == cmd for c, _k in listed), cmd
        assert a.shortcut().toString() in text
    menus = [m for m, _rows in box.groups]
    assert menus[:3] == ["File", "Go", "View"] or "Go" in menus
    assert ("Show Dossier", "Ctrl+6") in listed and ("Act As", "Ctrl+Shift+U") in listed
    assert "Help" in [a.text().replace("&", "") for a in window.menuBar().actions()]


def test_the_demo_sign_off_by_keys_only(window, qtbot) -> None:
    """Bind, check and decide eligible on the demo dossier with key presses alone."""
    from aa_review.demo import bundled_package, bundled_workspace

    window.open_package(bundled_package())
    assert window.open_workspace(bundled_workspace())
    panel = window.dossier
    panel.wait_idle()
    _active(window, qtbot)
    window.rows.view.setFocus()
    qtbot.waitUntil(window.rows.view.hasFocus)

    def state() -> str:
        return panel.ws.revision(*panel.current)["state"]

    # Ctrl+6: the Dossier page, the focus on which dossier; the arrows pick the ready one
    _press(qtbot, Qt.Key.Key_6, CTRL)
    assert window.center.currentIndex() == 2
    assert QApplication.focusWidget() is panel.dossier_box
    for _ in range(panel.dossier_box.count()):
        if panel.dossier_box.currentData() == "dos-demo-ready":
            break
        _press(qtbot, Qt.Key.Key_Down)
        qtbot.waitUntil(lambda: panel.snapshot.dossier_id == panel.dossier_box.currentData())
        panel.wait_idle()
    assert panel.snapshot.dossier_id == "dos-demo-ready" and state() == "draft"

    def run_in_palette(text: str, confirm: bool = False) -> list[str]:
        palette = _palette(window, qtbot, text)
        seen = _answer_next_box(Qt.Key.Key_Return) if confirm else []
        qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
        panel.wait_idle()
        # a desktop gives the window back its activation when a box closes; offscreen
        # Qt does not, so the test does what the window manager would
        _active(window, qtbot)
        return seen

    # act as the author: through the palette
    run_in_palette("act as p-lead-ada")
    assert panel.actor_id == "p-lead-ada"
    # a step the author may not take is listed with why, and taking it only says why
    palette = _palette(window, qtbot, "run independent check")
    first = palette.entries[0].label
    assert "unavailable:" in first and "evidence_bound" in first
    before = len(panel.ws.journal_entries())
    qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
    assert "is not available now" in window.statusBar().currentMessage()
    assert len(panel.ws.journal_entries()) == before and state() == "draft"
    # bind, confirmed with Enter in the sign-off box that names the digest
    seen = run_in_palette("dossier bind evidence", confirm=True)
    assert seen and "evidence digest" in seen[0]
    qtbot.waitUntil(lambda: state() == "evidence_bound")
    # the evaluator checks
    run_in_palette("act as p-eval-cy")
    run_in_palette("dossier run independent check")
    qtbot.waitUntil(lambda: state() == "independently_checked")
    # a human maintainer decides eligible; Ctrl+Shift+U is "act as" too (its chooser)
    opened: list[bool] = []
    panel.choose_actor = lambda: opened.append(
        True
    )  # the chooser itself: tests/qt/test_dossier_view.py
    _press(qtbot, Qt.Key.Key_U, CTRL | SHIFT)
    assert opened == [True]
    run_in_palette("act as p-maint-eve")
    seen = run_in_palette("dossier decide eligible", confirm=True)
    assert seen and "Decide eligible" in seen[0]
    qtbot.waitUntil(lambda: state() == "eligible")
    assert "eligible" in panel.verdict.text()
