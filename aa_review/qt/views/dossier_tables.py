"""Item models of the dossier panel, with status colours legible in both themes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from aa_review.qt.models.tuple_table import TupleTableModel

__all__ = ["ThemedTableModel", "is_dark", "tone"]

Index = QModelIndex | QPersistentModelIndex

# Status words -> (colour on a light background, colour on a dark one): each at least
# 4.5:1 against the table's base colour of its scheme.
_TONES = {
    "good": ("#1b5e20", "#81c784"),
    "bad": ("#b71c1c", "#ef9a9a"),
    "warn": ("#bf360c", "#ffb74d"),
    "info": ("#0d47a1", "#90caf9"),
    "muted": ("#455a64", "#b0bec5"),
}
_STATUS_TONE = {
    "pass": "good",
    "valid": "good",
    "applied": "good",
    "every": "good",
    "✓": "good",
    "fail": "bad",
    "refused": "bad",
    "denied": "bad",
    "invalid": "bad",
    "✗": "bad",
    "unknown": "warn",
}
STATE_TONE = {
    "draft": "muted",
    "evidence_bound": "info",
    "independently_checked": "info",
    "eligible": "good",
    "deferred": "warn",
    "expired": "bad",
}


def is_dark() -> bool:
    """Whether the application palette is dark (its base is dark)."""
    return QApplication.palette().color(QPalette.ColorRole.Base).lightness() < 128


def tone(name: str) -> str:
    """The colour of a tone (``good``, ``bad``, ``warn``, ``info``, ``muted``) in this scheme."""
    pair = _TONES.get(name, _TONES["muted"])
    return pair[1] if is_dark() else pair[0]


class ThemedTableModel(TupleTableModel):
    """A :class:`TupleTableModel` whose status colours follow the scheme; ``bold_rows``
    are drawn bold (the unmet gates)."""

    def __init__(
        self, header: tuple[str, ...], status_col: int | None = None, parent: Any = None
    ) -> None:
        super().__init__(header, status_col, parent)
        self.bold_rows: set[int] = set()
        self.payloads: list[Any] = []

    def set_rows(
        self,
        items: list[tuple[Any, ...]],
        tooltips: list[str] | None = None,
        bold: set[int] | None = None,
        payloads: list[Any] | None = None,
    ) -> None:
        self.bold_rows = set(bold or ())
        self.payloads = list(payloads or [])
        self.set_items(items, tooltips=tooltips)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == self.status_col:
            word = str(self.items[index.row()][index.column()]).split(" ")[0].lower()
            name = _STATUS_TONE.get(word) or _STATUS_TONE.get(word[:1])
            return QBrush(QColor(tone(name))) if name else None
        if role == Qt.ItemDataRole.FontRole and index.row() in self.bold_rows:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.UserRole:
            return self.payloads[index.row()] if index.row() < len(self.payloads) else None
        return super().data(index, role)
