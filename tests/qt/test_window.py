"""The window: opening a package and following row -> evidence -> rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

pytestmark = pytest.mark.gui


def _click_row(qtbot, view, row: int) -> None:
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_open_and_navigate_row_evidence_rows(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    pkg = window.session.package
    assert pkg is not None and window.rows.model.rowCount() == 60
    assert window.count_label.text() == "60 of 60 rows"
    # row -> the evidence it cites
    _click_row(qtbot, window.rows.view, 4)
    row_pos = window.rows.model.position(4)
    assert window.session.selection.current.row == row_pos
    cited = pkg.read_row(row_pos)["source_evidence_ref_ids"]
    ev_model = window.row_evidence.model
    assert [ev_model.data(ev_model.index(r, 0)) for r in range(ev_model.rowCount())] == cited
    assert window.detail.model.rowCount() == len(pkg.read_row(row_pos))
    # evidence -> the rows citing it
    _click_row(qtbot, window.row_evidence.view, 2)
    ev_pos = pkg.index.evidence_pos[cited[2]]
    assert window.session.selection.current.evidence == ev_pos
    citing = window.evidence_rows.model
    expected = {i for i in range(60) if cited[2] in pkg.read_row(i)["source_evidence_ref_ids"]}
    assert {citing.position(r) for r in range(citing.rowCount())} == expected
    # the catalog follows the selection
    assert window.evidence.view.currentIndex().row() == window.evidence.model.table_row_of(ev_pos)
    # rows -> back to a row; the main rows view follows
    _click_row(qtbot, window.evidence_rows.view, 7)
    new_row = citing.position(7)
    assert window.session.selection.current.row == new_row
    assert window.rows.model.position(window.rows.view.currentIndex().row()) == new_row
    # history
    window.commands.back.trigger()
    assert window.session.selection.current.row == row_pos


def test_query_and_facets_filter_rows(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:failure_case")
    assert window.rows.model.rowCount() == 3
    assert window.count_label.text() == "3 of 60 rows"
    rid = window.session.package.index.row_id_str(10)
    qtbot.keyClicks(window.rows.query.edit, f' "{rid[-8:]}"')
    qtbot.waitUntil(lambda: window.rows.model.rowCount() == 0)  # failure_case AND that id
    window.rows.query.set_text(f'"{rid[-8:]}"')
    assert [window.rows.model.position(0)] == [10]
    # a wrong query is shown where it is wrong and keeps the previous result
    window.rows.query.set_text("confidence<high")
    assert window.rows.query.error.isVisible() or not window.isVisible()
    assert "Column 1" in window.rows.query.error.text()
    assert window.rows.model.rowCount() == 1
    # facets: clicking a data type sets the term, clicking again clears it
    window.rows.query.set_text("")
    fm = window.facets.model
    group = fm.index(0, 0)
    value = fm.index(0, 0, group)
    window.facets._pick(value)
    assert window.rows.query.text() == f"type:{fm.data(value)}"
    assert window.rows.model.rowCount() == 20
    window.facets._pick(value)
    assert window.rows.query.text() == ""
    assert window.rows.model.rowCount() == 60


def test_recent_packages_remembered(window, sample_copy: Path, settings, qtbot) -> None:
    window.open_package(sample_copy)
    assert window.controller.recent()[0] == str(sample_copy)
    from aa_review.qt.app import create_window

    second = create_window(settings)
    qtbot.addWidget(second)
    actions = second.commands.recent_menu.actions()
    assert actions and str(sample_copy) in actions[0].text()
    actions[0].trigger()
    assert second.session.package is not None and second.session.package.root == sample_copy


def test_drop_folder_opens_it(window, sample_copy: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sample_copy))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert window.session.package is not None and window.session.package.root == sample_copy


def test_not_a_package_shows_message(window, tmp_path: Path, monkeypatch) -> None:
    shown = []
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    window.open_package(tmp_path)
    assert shown and "not a compiled package" in shown[0] and str(tmp_path) in shown[0]
    assert window.session.package is None


def test_loading_problems_listed(window, sample_copy: Path) -> None:
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    lines = env.read_bytes().split(b"\n")
    lines[1] = b"{not json"
    env.write_bytes(b"\n".join(lines))
    window.open_package(sample_copy)
    m = window.findings.model
    assert m.rowCount() == 1
    assert m.data(m.index(0, 1)) == "input.malformed_line"
    assert m.data(m.index(0, 2)) == "1"  # its locations
    assert m.data(m.index(0, 3)).endswith("environment_response_pairs.jsonl:2")


def test_one_visible_tab_bar_per_tabbed_dock_group(window, qtbot, sample_copy) -> None:
    from PySide6.QtWidgets import QTabBar

    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    bars = [
        b
        for b in window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
        if b.isVisible() and b.count()
    ]
    groups = sorted(tuple(sorted(b.tabText(i) for i in range(b.count()))) for b in bars)
    assert groups == [
        ("Evidence catalog", "Findings", "Rows citing the evidence"),
        ("Evidence cited by the row", "Plots", "Row detail"),
    ]
