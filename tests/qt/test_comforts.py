"""Everyday comforts: export, session round trip, palette, theme, reload on disk change."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette

pytestmark = pytest.mark.gui


def test_export_filtered_view(window, sample_copy: Path, tmp_path: Path) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:evaluation_example")
    out = tmp_path / "rows.csv"
    window.controller.export(out)
    meta = json.loads((tmp_path / "rows.csv.meta.json").read_text())
    assert meta["query"] == "type:evaluation_example" and meta["count"] == 6
    from aa_review.core.package import package_digest

    assert meta["package_digest"] == package_digest(sample_copy) == window.session.digest
    data = list(csv.DictReader(out.read_text().splitlines()))  # no comment lines
    assert len(data) == 6 and {d["data_type"] for d in data} == {"evaluation_example"}


def test_session_round_trip(window, sample_copy: Path, tmp_path: Path, settings, qtbot) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:*_event")
    window.session.selection.select(row=3, evidence=5, source="test")
    window.center.setCurrentIndex(1)
    path = window.controller.save_session(tmp_path / "s.aareview.json")
    from aa_review.qt.app import create_window

    other = create_window(settings)
    qtbot.addWidget(other)
    other.show()
    other.controller.reopen_last_session()
    assert (
        other.session.package is not None
        and other.session.package.root.resolve() == sample_copy.resolve()
    )
    assert other.rows.query.text() == "type:*_event"
    assert (
        other.session.selection.current.row == 3 and other.session.selection.current.evidence == 5
    )
    assert other.center.currentIndex() == 1
    assert path is not None and path.exists()


def test_palette_runs_actions_and_goes_to_ids(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    palette = window.show_palette()
    labels = [e.label for e in palette.entries]
    assert any(label.startswith("Export Filtered Rows") for label in labels)
    rid = window.session.package.index.row_id_str(12)
    qtbot.keyClicks(palette.edit, rid)
    assert palette.entries[0].label == f"Go to row {rid}"
    qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
    assert window.session.selection.current.row == 12
    palette = window.show_palette()
    qtbot.keyClicks(palette.edit, "filter rows")
    qtbot.keyClick(palette.edit, Qt.Key.Key_Return)
    assert window.rows.query.edit.hasFocus() or not window.isActiveWindow()


def test_dark_theme_applies_and_is_remembered(window, settings) -> None:
    from PySide6.QtWidgets import QApplication

    window.set_theme("dark")
    base = QApplication.instance().palette().color(QPalette.ColorRole.Base)
    assert base.lightness() < 60
    assert settings.value("theme") == "dark" and window.commands.theme["dark"].isChecked()
    window.set_theme("light")
    assert QApplication.instance().palette().color(QPalette.ColorRole.Base).lightness() > 200


def test_reload_on_disk_change_keeps_view_state(window, sample_copy: Path, qtbot) -> None:
    window.open_package(sample_copy)
    window.rows.query.set_text("type:environment_response_pair")
    rid = window.session.package.index.row_id_str(30)
    window.session.selection.select(row=30, source="test")
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    lines = env.read_bytes().split(b"\n")
    env.write_bytes(b"\n".join(lines[1:]))  # the first row disappears
    qtbot.waitUntil(lambda: len(window.session.package.index) == 59, timeout=5000)
    assert window.rows.query.text() == "type:environment_response_pair"
    assert window.rows.model.rowCount() == 19
    assert window.session.package.index.row_id_str(window.session.selection.current.row) == rid
