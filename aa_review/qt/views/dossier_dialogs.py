"""Dialogs of the dossier panel: who you act as, editing evidence, the public projection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from aa_review.core.util.atomic import atomic_write

__all__ = ["ActorDialog", "EditEvidenceDialog", "ProjectionDialog", "write_projection"]


class EditEvidenceDialog(QDialog):
    """Pick a path inside ``evidence`` and type its new JSON value."""

    def __init__(self, parent: QWidget, revision: dict[str, Any]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit evidence")
        self.resize(560, 380)
        self._evidence = revision.get("evidence") or {}
        lay = QVBoxLayout(self)
        state = revision.get("state")
        note = QLabel(
            "Edits apply to this draft in place."
            if state == "draft"
            else f"This revision is {state}: saving creates a NEW revision in draft and "
            "EXPIRES this one."
        )
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
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
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
        if (
            self._touched
            and QMessageBox.question(
                self, "Discard the edit?", "The new value has not been saved. Discard it?"
            )
            != QMessageBox.StandardButton.Yes
        ):
            return
        super().reject()


class ProjectionDialog(QDialog):
    """Shows exactly what the public projection holds; "Export…" asks where to write it.

    The panel exports (in its worker, journaled) once the dialog is accepted with a path.
    """

    def __init__(self, parent: QWidget, preview: dict[str, Any], default_name: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Public projection")
        self.resize(640, 520)
        self.preview = preview
        self.path: Path | None = None
        self._default = default_name
        lay = QVBoxLayout(self)
        note = QLabel(
            "This is everything that leaves: the allowlisted fields only (the id "
            "and date are fixed when you export, and the export is journaled)."
        )
        note.setWordWrap(True)
        lay.addWidget(note)
        text = QPlainTextEdit(json.dumps(preview, indent=2, ensure_ascii=False))
        text.setReadOnly(True)
        lay.addWidget(text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = buttons.addButton("Export…", QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.clicked.connect(lambda: self.choose())
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def choose(self, path: Path | None = None) -> Path | None:
        """Ask where to write (or take ``path``), then close accepted."""
        if path is None:
            name, _ = QFileDialog.getSaveFileName(
                self, "Export the public projection", self._default, "JSON (*.json)"
            )
            if not name:
                return None
            path = Path(name)
        self.path = path
        self.accept()
        return path


def write_projection(path: Path, projection: dict[str, Any]) -> None:
    """Write an exported projection atomically (called in the panel's worker)."""
    atomic_write(
        path, lambda fh: fh.write(orjson.dumps(projection, option=orjson.OPT_INDENT_2)), "wb"
    )


class ActorDialog(QDialog):
    """Choose who you act as: every principal with its role, kind and whether it can sign here.

    Acting is a deliberate choice (the window remembers it per workspace); a principal
    whose private key is not on this machine is listed but cannot be chosen.
    """

    def __init__(
        self, parent: QWidget, rows: list[tuple[str, str, str, str | None]], current: str
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Act as")
        self.resize(560, 380)
        lay = QVBoxLayout(self)
        note = QLabel(
            "Who are you in this workspace? Each step is allowed only to the role "
            "the readiness contract names (spec 7.2), and everything you do is "
            "signed with that principal's key and journaled."
        )
        note.setWordWrap(True)
        lay.addWidget(note)
        self.list = QListWidget()
        for pid, role, kind, unable in rows:
            item = QListWidgetItem(
                f"{pid} — {role} ({kind})" + ("" if unable is None else "  — cannot sign here")
            )
            item.setData(Qt.ItemDataRole.UserRole, pid)
            if unable is not None:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(unable)
            self.list.addItem(item)
            if pid == current:
                self.list.setCurrentItem(item)
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        lay.addWidget(self.list, 1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Act as this principal")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))
