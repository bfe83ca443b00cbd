"""Dialogs of the dossier panel: editing evidence, previewing and exporting the projection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from aa_review.core import dossier as dz
from aa_review.core.util.atomic import atomic_write

__all__ = ["EditEvidenceDialog", "ProjectionDialog"]


class EditEvidenceDialog(QDialog):
    """Pick a path inside ``evidence`` and type its new JSON value."""

    def __init__(self, parent: QWidget, revision: dict[str, Any]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit evidence")
        self.resize(560, 380)
        self._evidence = revision.get("evidence") or {}
        lay = QVBoxLayout(self)
        state = revision.get("state")
        note = QLabel("Edits apply to this draft in place." if state == "draft" else
                      f"This revision is {state}: saving creates a NEW revision in draft and "
                      "EXPIRES this one.")
        note.setWordWrap(True)
        lay.addWidget(note)
        lay.addWidget(QLabel("Path inside evidence (dots; list positions as numbers):"))
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("power_analysis.parameters.clusters_per_arm")
        lay.addWidget(self.path_edit)
        self.current = QLabel()
        self.current.setWordWrap(True)
        lay.addWidget(self.current)
        lay.addWidget(QLabel("New value (JSON):"))
        self.value_edit = QPlainTextEdit()
        lay.addWidget(self.value_edit, 1)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.path_edit.textChanged.connect(self._show_current)
        self._touched = False
        self.value_edit.textChanged.connect(lambda: setattr(self, "_touched", True))

    def path(self) -> list[str]:
        return [p for p in self.path_edit.text().strip().split(".") if p]

    def value(self) -> Any:
        return json.loads(self.value_edit.toPlainText())

    def _show_current(self) -> None:
        node: Any = self._evidence
        for part in self.path():
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                self.current.setText("Current value: (not present; saving adds it)")
                return
        text = json.dumps(node, ensure_ascii=False)
        self.current.setText("Current value: " + (text if len(text) < 400 else text[:400] + "…"))
        if not self._touched:
            self.value_edit.blockSignals(True)
            self.value_edit.setPlainText(json.dumps(node, indent=2, ensure_ascii=False))
            self.value_edit.blockSignals(False)

    def _accept(self) -> None:
        if not self.path():
            self.error.setText("Name a path inside evidence.")
            return
        try:
            self.value()
        except json.JSONDecodeError as exc:
            self.error.setText(f"Not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}")
            return
        self.accept()

    def reject(self) -> None:
        if self._touched and QMessageBox.question(
                self, "Discard the edit?", "The new value has not been saved. Discard it?") \
                != QMessageBox.StandardButton.Yes:
            return
        super().reject()


class ProjectionDialog(QDialog):
    """Shows exactly what the public projection holds, then exports it (journaled)."""

    def __init__(self, parent: QWidget, ws: dz.Workspace, dossier_id: str, revision: int,
                 actor: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Public projection")
        self.resize(640, 520)
        self.ws, self.d, self.r, self.actor = ws, dossier_id, revision, actor
        parsed = ws._get(dossier_id, revision)
        self.preview = dz.build_projection(parsed.model.state, parsed.model.check, ws._now(),
                                           journal_head=ws.journal_head())
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("This is everything that leaves: the allowlisted fields only "
                             "(the id and date are fixed when you export)."))
        text = QPlainTextEdit(json.dumps(self.preview, indent=2, ensure_ascii=False))
        text.setReadOnly(True)
        lay.addWidget(text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = buttons.addButton("Export…", QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.clicked.connect(lambda: self.export())
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def export(self, path: Path | None = None) -> dict[str, Any] | None:
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Export the public projection",
                                                  f"{self.d}-projection.json", "JSON (*.json)")
            if not name:
                return None
            path = Path(name)
        try:
            projection = self.ws.project(self.d, self.r, self.actor)
        except (dz.ProjectionError, dz.WorkspaceReadOnlyError) as exc:
            QMessageBox.warning(self, "Not exported", str(exc))
            return None
        atomic_write(path, lambda fh: fh.write(orjson.dumps(projection,
                                                              option=orjson.OPT_INDENT_2)), "wb")
        return projection
