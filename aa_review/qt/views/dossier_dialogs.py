"""Dialogs of the dossier panel: who you act as, editing evidence, the public projection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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

from aa_review.core.session.dossier_session import write_projection

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


class ActorDialog(QDialog):
    """Choose who you act as: only principals whose private key is on this machine.

    Acting is a deliberate choice (the window remembers it per workspace). Keys are
    personal (spec 10.6): the principals whose key is not here are listed below the
    choices, as held elsewhere, and cannot be chosen.

    ``rows``: ``(principal_id, role, kind, why it cannot sign here or None, key place)``;
    the place is a :class:`KeyPlace` value, or None when not known yet.
    """

    def __init__(
        self,
        parent: QWidget,
        rows: list[tuple[str, str, str, str | None, str | None]],
        current: str,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Act as")
        self.resize(560, 380)
        lay = QVBoxLayout(self)
        note = QLabel(
            "Who are you in this workspace? Each step is allowed only to the role "
            "the readiness contract names (spec 7.2), and everything you do is "
            "signed with that principal's key and journaled. You can act only as a "
            "principal whose private key is on this machine."
        )
        note.setWordWrap(True)
        lay.addWidget(note)
        self.list = QListWidget()
        here = [r for r in rows if r[3] is None]
        elsewhere = [r for r in rows if r[3] is not None]
        for pid, role, kind, _unable, _place in here:
            item = QListWidgetItem(f"{pid} — {role} ({kind})")
            item.setData(Qt.ItemDataRole.UserRole, pid)
            self.list.addItem(item)
            if pid == current:
                self.list.setCurrentItem(item)
        if elsewhere:
            header = QListWidgetItem("Held elsewhere (their keys are on their owners' machines):")
            header.setFlags(Qt.ItemFlag.NoItemFlags)
            font = header.font()
            font.setBold(True)
            header.setFont(font)
            self.list.addItem(header)
        for pid, role, kind, unable, place in elsewhere:
            where = "held elsewhere" if place in (None, "held_elsewhere") else "no usable key here"
            item = QListWidgetItem(f"    {pid} — {role} ({kind}) — {where}")
            item.setData(Qt.ItemDataRole.UserRole, pid)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            item.setToolTip(str(unable))
            self.list.addItem(item)
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
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return None
        pid = item.data(Qt.ItemDataRole.UserRole)
        return None if pid is None else str(pid)
