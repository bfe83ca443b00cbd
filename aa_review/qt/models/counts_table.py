"""CountsTableModel: a name -> count table (rows per data type, findings per code...)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

__all__ = ["CountsTableModel"]

Index = QModelIndex | QPersistentModelIndex


class CountsTableModel(QAbstractTableModel):
    def __init__(self, header: str = "Name", parent: Any = None) -> None:
        super().__init__(parent)
        self._header = header
        self._items: list[tuple[str, int]] = []

    def set_counts(self, counts: dict[str, int]) -> None:
        self.beginResetModel()
        self._items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        self.endResetModel()

    def name(self, row: int) -> str:
        return self._items[row][0]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 2

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return (self._header, "Count")[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        name, count = self._items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return name if index.column() == 0 else count
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
