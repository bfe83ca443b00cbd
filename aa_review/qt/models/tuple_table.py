"""TupleTableModel: rows of plain values under fixed headers, with one status column coloured."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

__all__ = ["TupleTableModel", "STATUS_COLORS"]

Index = QModelIndex | QPersistentModelIndex
STATUS_COLORS = {
    "pass": "#2e7d32",
    "ok": "#2e7d32",
    "valid": "#2e7d32",
    "fail": "#c62828",
    "unknown": "#ef6c00",
    "refused": "#c62828",
    "denied": "#c62828",
    "invalid": "#c62828",
}


class TupleTableModel(QAbstractTableModel):
    """A small table (tens to thousands of rows) of tuples; ``status_col`` is coloured by value.

    ``tooltips`` (optional, one per row) explain a row on hover.
    """

    def __init__(
        self, header: tuple[str, ...], status_col: int | None = None, parent: Any = None
    ) -> None:
        super().__init__(parent)
        self.header = header
        self.status_col = status_col
        self.items: list[tuple[Any, ...]] = []
        self.tooltips: list[str] = []

    def set_items(
        self,
        items: list[tuple[Any, ...]],
        status_col: int | None = None,
        tooltips: list[str] | None = None,
    ) -> None:
        self.beginResetModel()
        self.items = list(items)
        if status_col is not None:
            self.status_col = status_col
        self.tooltips = list(tooltips or [])
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.header)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.header[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self.items[index.row()][index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if value is None else value
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == self.status_col:
            color = STATUS_COLORS.get(str(value).split(" ")[0].lower())
            return QBrush(QColor(color)) if color else None
        if role == Qt.ItemDataRole.ToolTipRole and index.row() < len(self.tooltips):
            return self.tooltips[index.row()] or None
        return None
