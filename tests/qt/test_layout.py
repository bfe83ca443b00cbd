"""The layout shows the data: a focused default that fits 1366x768, maximise and back,
fit and choose columns, ids elided in the middle, named layouts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QTableView

pytestmark = pytest.mark.gui


def _shown_docks(window) -> set[str]:
    return {n for n, d in window.docks.items() if d.isVisible()}


def test_focused_default_two_tab_groups_facets_closed(window, qtbot, sample_copy) -> None:
    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    assert "facets" not in _shown_docks(window)
    # the docks shown at once: one tab of each group
    assert {"findings", "detail"} <= _shown_docks(window)
    assert window.docks["facets"].toggleViewAction().isChecked() is False


@pytest.mark.parametrize("size", [(1366, 768), (1280, 800), (1600, 1000)])
def test_default_layout_fits_small_screens_and_shows_every_column(
    qtbot, tmp_path: Path, sample_copy: Path, size
) -> None:
    from aa_review.qt.app import create_window

    s = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    s.setValue("audit/auto", "false")
    w = create_window(s)
    qtbot.addWidget(w)
    # a 1366x768 screen with a panel and a title bar leaves about 1366x700
    assert w.minimumSizeHint().width() <= 1366 and w.minimumSizeHint().height() <= 700
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.open_package(sample_copy)
    qtbot.wait(20)
    view = w.rows.view
    header = view.horizontalHeader()
    right = header.sectionViewportPosition(header.count() - 1) + header.sectionSize(
        header.count() - 1
    )
    assert right <= view.viewport().width() + 2  # Confidence and Quality on screen
    assert (
        w.findings.view.viewport().height() >= 4 * w.findings.view.rowHeight(0)
        if w.findings.model.rowCount()
        else True
    )


def test_maximise_a_dock_and_restore(window, qtbot, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    qtbot.waitExposed(window)
    before = _shown_docks(window)
    window.focus_view(window.findings.view)
    window.findings.view.setFocus()
    qtbot.wait(10)
    window.layouts.last_view = "findings"  # offscreen focus may not follow
    assert window.layouts.toggle_maximise() is True
    qtbot.wait(10)
    assert _shown_docks(window) == {"findings"}
    assert not window.centralWidget().isVisible()
    assert "Restore layout" in window.layouts.button.text()
    assert window.layouts.toggle_maximise() is False
    qtbot.wait(10)
    assert _shown_docks(window) == before
    assert window.centralWidget().isVisible()


def test_maximise_centre_by_key_and_button(window, qtbot, sample_copy) -> None:
    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    before = _shown_docks(window)
    window.layouts.last_view = "centre"
    assert window.layouts.maximise_action.shortcut().toString() == "Ctrl+Shift+M"
    window.layouts.maximise_action.trigger()
    qtbot.wait(10)
    assert before and _shown_docks(window) == set() and window.centralWidget().isVisible()
    qtbot.mouseClick(window.layouts.button, Qt.MouseButton.LeftButton)
    qtbot.wait(10)
    assert _shown_docks(window) == before


def test_column_chooser_and_fit(window, qtbot, sample_copy: Path) -> None:
    from aa_review.qt.views.table_header import header_menu

    window.open_package(sample_copy)
    view = window.rows.view
    menu = header_menu(view)
    titles = [a.text() for a in menu.actions() if a.isCheckable()]
    assert titles[:3] == ["Row id", "Data type", "File"] and "Quality" in titles
    line = next(a for a in menu.actions() if a.text() == "Line")
    line.setChecked(False)
    assert view.horizontalHeader().isSectionHidden(3)
    menu = header_menu(view)
    next(a for a in menu.actions() if a.text() == "Line").setChecked(True)
    assert not view.horizontalHeader().isSectionHidden(3)
    # fit to contents: the Line column becomes about as wide as its values
    view.setColumnWidth(3, 400)
    next(a for a in menu.actions() if a.text() == "Fit Columns to Contents").trigger()
    assert view.columnWidth(3) < 200
    # the last shown column cannot be hidden
    for c in range(1, view.model().columnCount()):
        view.horizontalHeader().setSectionHidden(c, True)
    last = next(a for a in header_menu(view).actions() if a.text() == "Row id")
    assert not last.isEnabled()


def test_every_table_elides_ids_in_the_middle(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    tables = window.findChildren(QTableView)
    assert len(tables) >= 8
    for t in tables:
        assert t.textElideMode() == Qt.TextElideMode.ElideMiddle, t.objectName()
    # two row ids of one type differ in their end, which the elided text keeps
    view = window.rows.view
    view.setColumnWidth(0, 160)
    fm = view.fontMetrics()
    ids = [window.rows.model.data(window.rows.model.index(r, 0)) for r in (0, 1)]
    elided = [fm.elidedText(i, Qt.TextElideMode.ElideMiddle, 150) for i in ids]
    assert elided[0] != elided[1] and elided[0][-4:] == ids[0][-4:]


def test_named_layouts_saved_and_restored(window, qtbot, settings, sample_copy) -> None:
    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    window.docks["facets"].show()
    window.docks["findings"].hide()
    window.layouts.save("triage")
    assert window.layouts.names() == ["triage"]
    labels = [a.text() for a in window.layouts.menu.actions()]
    assert "triage" in labels
    window.layouts.reset()
    qtbot.wait(10)
    assert window.docks["findings"].isVisible()
    assert window.layouts.apply("triage")
    qtbot.wait(10)
    assert window.docks["facets"].isVisible() and not window.docks["findings"].isVisible()
    assert not window.layouts.apply("nothing by that name")
    # kept in the settings: another window of the same settings has it
    from aa_review.qt.app import create_window

    other = create_window(settings)
    qtbot.addWidget(other)
    assert "triage" in other.layouts.names()
    window.layouts.delete("triage")
    assert window.layouts.names() == []


def test_centre_corner_button_maximises_and_restores(window, qtbot, sample_copy) -> None:
    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    window.layouts.last_view = "findings"  # the corner button acts on the centre anyway
    before = _shown_docks(window)
    qtbot.mouseClick(window.layouts.corner, Qt.MouseButton.LeftButton)
    qtbot.wait(10)
    assert window.layouts.maximised == "centre" and _shown_docks(window) == set()
    qtbot.mouseClick(window.layouts.corner, Qt.MouseButton.LeftButton)
    qtbot.wait(10)
    assert window.layouts.maximised is None and _shown_docks(window) == before
