"""ArtifactTableModel: a CSV/TSV artifact with the contract's differences highlighted."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from aa_review.core.contracts import Preview

__all__ = ["ArtifactTableModel"]

Index = QModelIndex | QPersistentModelIndex
BAD = QColor(229, 115, 115, 140)
EXTRA = QColor(255, 183, 77, 140)


class ArtifactTableModel(QAbstractTableModel):
    """The file's header and first rows; contract columns missing from the file are shown
    as empty red columns at the end, extra ones in amber, bad cells in red."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._header: list[str] = []
        self._rows: list[list[str]] = []
        self._lines: list[int] = []
        self._missing: list[str] = []
        self._extra: set[str] = set()
        self._empty: dict[str, str] = {}  # non-empty columns blank in the judged rows
        self._bad: dict[tuple[int, str], str] = {}

    def set_preview(self, pv: Preview | None) -> None:
        self.beginResetModel()
        self._header = list(pv.header) if pv else []
        self._rows = list(pv.rows) if pv else []
        self._lines = list(pv.lines) if pv else []
        diffs = pv.diffs if pv else []
        self._missing = [d.field for d in diffs if d.kind == "missing_column" and d.field]
        self._extra = {d.field for d in diffs if d.kind == "extra_column" and d.field}
        self._empty = {d.field: d.message for d in diffs if d.kind == "empty" and d.field}
        self._bad = {
            (d.row, d.field): d.message
            for d in diffs
            if d.kind == "non_numeric" and d.row is not None and d.field
        }
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._header) + len(self._missing)

    def _name(self, col: int) -> str:
        return (
            self._header[col] if col < len(self._header) else self._missing[col - len(self._header)]
        )

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Vertical:
            if role != Qt.ItemDataRole.DisplayRole:
                return None
            # the file line: blank lines are not rows, and a quoted cell may span lines
            return self._lines[section] if section < len(self._lines) else None
        name = self._name(section)
        missing = section >= len(self._header)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{name} (missing)" if missing else name
        if role == Qt.ItemDataRole.BackgroundRole and (
            missing or name in self._extra or name in self._empty
        ):
            return QBrush(EXTRA if name in self._extra else BAD)
        if role == Qt.ItemDataRole.ToolTipRole:
            if missing:
                return "In the contract, not in the file"
            if name in self._extra:
                return "In the file, not in the contract"
            if name in self._empty:
                return self._empty[name]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if c >= len(self._header):
            return QBrush(BAD) if role == Qt.ItemDataRole.BackgroundRole else None
        name = self._header[c]
        row = self._rows[r]
        if role == Qt.ItemDataRole.DisplayRole:
            return row[c] if c < len(row) else ""
        bad = self._bad.get((r, name))
        if role == Qt.ItemDataRole.BackgroundRole and bad:
            return QBrush(BAD)
        if role == Qt.ItemDataRole.ToolTipRole and bad:
            return bad
        return None
