"""FindingsTableModel: findings (loading problems or audit results) with their locations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from aa_review.core.findings import Finding, Severity, worst_first
from aa_review.core.session.triage import severity_of_rank, sort_findings

__all__ = ["FindingsTableModel", "LOCATIONS_COLUMN", "SEVERITY_COLORS", "finding_mark", "mark_keys"]

Index = QModelIndex | QPersistentModelIndex
_COLUMNS = ("Severity", "Code", "Locations", "First location", "Message")
LOCATIONS_COLUMN = 2
SEVERITY_COLORS = _COLORS = {
    Severity.CRITICAL: "#b71c1c",
    Severity.ERROR: "#d84315",
    Severity.WARNING: "#f9a825",
    Severity.LOW: "#607d8b",
    Severity.INFO: "#607d8b",
}


class FindingsTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[Finding] = []
        self._shown: list[int] = []
        self._sort: tuple[int, bool] | None = None  # (column, descending); None: worst first

    def set_findings(self, findings: list[Finding], shown: Iterable[int] | None = None) -> None:
        """``findings``, of which the positions ``shown`` (None: all), in the order of the
        column last sorted by (worst first until a header is clicked)."""
        self.beginResetModel()
        self._all = list(findings)
        self._shown = self._ordered(None if shown is None else [int(i) for i in shown])
        self.endResetModel()

    def _ordered(self, shown: list[int] | None) -> list[int]:
        if self._sort is not None:
            pos = list(range(len(self._all))) if shown is None else shown
            return sort_findings(self._all, pos, *self._sort)
        return worst_first(self._all, shown)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column < 0 or column >= len(_COLUMNS):
            self._sort = None
            shown = worst_first(self._all, self._shown)
        else:
            self._sort = (column, order == Qt.SortOrder.DescendingOrder)
            shown = sort_findings(self._all, self._shown, *self._sort)
        self.layoutAboutToBeChanged.emit()
        self._shown = shown
        self.layoutChanged.emit()

    def set_shown(self, shown: Iterable[int] | None) -> None:
        self.set_findings(self._all, shown)

    def finding(self, table_row: int) -> Finding:
        return self._all[self._shown[table_row]]

    def position(self, table_row: int) -> int:
        return self._shown[table_row]

    def table_row_of(self, position: int) -> int | None:
        try:
            return self._shown.index(position)
        except ValueError:
            return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        f = self.finding(index.row())
        col = index.column()
        if role == Qt.ItemDataRole.ForegroundRole and col == 0:
            return QBrush(QColor(_COLORS[f.severity]))
        if role == Qt.ItemDataRole.TextAlignmentRole and col == LOCATIONS_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == LOCATIONS_COLUMN:
                n = len(f.locations)
                return (
                    f"{n:,} locations: selecting the finding selects its rows; step "
                    "through them with Next / Previous (F8 / Shift+F8)"
                    if n > 1
                    else "One location"
                )
            return f.message + ("\n(known compiler quirk)" if f.quirk else "")
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if col == 0:
            return f.severity.value + (" (quirk)" if f.quirk else "")
        if col == 1:
            return f.code
        if col == LOCATIONS_COLUMN:
            return f"{len(f.locations):,}"
        if col == 3:
            return f.location.short()
        return f.message


def finding_mark(marks: tuple[np.ndarray, np.ndarray] | None, pos: int, role: int) -> Any:
    """The findings cell of a row or evidence item: "2 · error" in the worst one's colour."""
    if marks is None or pos >= len(marks[0]):
        return None
    n, worst = int(marks[0][pos]), severity_of_rank(int(marks[1][pos]))
    if n == 0 or worst is None:
        return None
    if role == Qt.ItemDataRole.DisplayRole:
        return f"{n:,} · {worst.value}"
    if role == Qt.ItemDataRole.ForegroundRole:
        return QBrush(QColor(SEVERITY_COLORS[worst]))
    if role == Qt.ItemDataRole.ToolTipRole:
        return (
            f"{n:,} finding{'s' if n != 1 else ''} locate this, the worst {worst.value} "
            "(Only the selection in Findings lists them)"
        )
    return None


def mark_keys(marks: tuple[np.ndarray, np.ndarray] | None, n: int) -> np.ndarray:
    """Sort keys of the findings column: worst severity, then how many."""
    if marks is None:
        return np.zeros(n, dtype=np.int64)
    count, worst = marks
    return (worst.astype(np.int64) + 1) * (1 << 32) + count.astype(np.int64)
