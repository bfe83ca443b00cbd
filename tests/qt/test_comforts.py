"""Everyday comforts: export, session round trip, palette, theme, reload on disk change."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

from aa_review.qt.views import window_actions as wa

pytestmark = pytest.mark.gui


def test_export_filtered_view(window, sample_copy: Path, tmp_path: Path) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:evaluation_example")
    out = tmp_path / "rows.csv"
    assert wa.export_view(window, out) == 6
    meta = json.loads((tmp_path / "rows.csv.meta.json").read_text())
    assert meta["query"] == "type:evaluation_example"
    assert meta["package_digest"] == window.package_digest()
    data = list(csv.DictReader(out.read_text().splitlines()))  # no comment lines
    assert len(data) == 6 and {d["data_type"] for d in data} == {"evaluation_example"}


def test_session_round_trip(window, sample_copy: Path, tmp_path: Path, settings, qtbot) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:*_event")
    window.hub.select(row=3, evidence=5, source="test")
    window.center.setCurrentIndex(1)
    path = wa.save_session_as(window, tmp_path / "s.aareview.json")
    from aa_review.qt.app import create_window

    other = create_window(settings)
    qtbot.addWidget(other)
    other.show()
    other.reopen_last_session()
    assert other.package is not None and other.package.root.resolve() == sample_copy.resolve()
    assert other.rows.query.text() == "type:*_event"
    assert other.hub.current.row == 3 and other.hub.current.evidence == 5
    assert other.center.currentIndex() == 1
    assert path is not None and path.exists()


def test_palette_runs_actions_and_goes_to_ids(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    palette = window.show_palette()
    labels = [e.label for e in palette.entries]
    assert any(label.startswith("Export Filtered Rows") for label in labels)
    rid = window.package.index.row_id_str(12)
    qtbot.keyClicks(palette.edit, rid)
    assert palette.entries[0].label == f"Go to row {rid}"
    qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
    assert window.hub.current.row == 12
    palette = window.show_palette()
    qtbot.keyClicks(palette.edit, "filter rows")
    qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
    assert window.rows.query.edit.hasFocus() or not window.isActiveWindow()


def test_dark_theme_applies_and_is_remembered(window, settings) -> None:
    from PySide6.QtWidgets import QApplication

    window.set_theme("dark")
    base = QApplication.instance().palette().color(QPalette.ColorRole.Base)
    assert base.lightness() < 60
    assert settings.value("theme") == "dark" and window.theme_actions["dark"].isChecked()
    window.set_theme("light")
    assert QApplication.instance().palette().color(QPalette.ColorRole.Base).lightness() > 200


def test_reload_on_disk_change_keeps_view_state(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:environment_response_pair")
    rid = window.package.index.row_id_str(30)
    window.hub.select(row=30, source="test")
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    lines = env.read_bytes().split(b"\n")
    env.write_bytes(b"\n".join(lines[1:]))  # the first row disappears
    qtbot.waitUntil(lambda: len(window.package.index) == 59, timeout=5000)
    assert window.rows.query.text() == "type:environment_response_pair"
    assert window.rows.model.rowCount() == 19
    assert window.package.index.row_id_str(window.hub.current.row) == rid
