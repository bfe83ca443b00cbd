"""RowsTableModel: training rows straight from the RowIndex columns."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette

from aa_review.qt.models._subset_mark import SubsetMark
from aa_review.qt.models.findings_table import finding_mark, mark_keys

if TYPE_CHECKING:
    from aa_review.core.package import RowIndex, RowSet

__all__ = [
    "RowsTableModel",
    "ROW_COLUMNS",
    "FINDINGS_COLUMN",
    "CHANGE_KINDS",
    "CHANGE_COLORS",
    "CHANGE_COLUMN",
]

ROW_COLUMNS = (
    "Row id",
    "Data type",
    "File",
    "Line",
    "Source task",
    "Evidence",
    "Confidence",
    "Quality",
    "Findings",
)
_NUMERIC = {3, 5, 6, 7}
FINDINGS_COLUMN = 8
CHANGE_COLUMN = len(ROW_COLUMNS)  # shown while the package is compared with a baseline
CHANGE_KINDS = ("", "added", "changed", "moved", "reformatted")
CHANGE_COLORS = {
    "added": "#2e7d32",
    "removed": "#c62828",
    "changed": "#ef6c00",
    "visibility": "#c62828",
    "moved": "#607d8b",
    "reformatted": "#607d8b",
    "linked": "#1565c0",
    "new": "#c62828",
    "fixed": "#2e7d32",
}
Index = QModelIndex | QPersistentModelIndex


class RowsTableModel(QAbstractTableModel):
    """Rows of a :class:`RowIndex`, all of them or a subset of positions.

    Filtering and sorting happen on the core's numpy columns; the model only
    maps a table row to an index position, so scrolling costs the same for
    100 rows and for millions. Rows selected together (a finding's rows) are a
    boolean mask over the index, drawn with the selection colour.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._index: RowIndex | None = None
        self._positions: np.ndarray | RowSet | None = None
        self._marked: np.ndarray | None = None
        self._marked_from: np.ndarray | None = None
        self._n_marked = 0
        self._marks: tuple[np.ndarray, np.ndarray] | None = None
        self._change: np.ndarray | None = None  # per row: index into CHANGE_KINDS
        self._linked: np.ndarray | None = None
        self._subset = SubsetMark()  # the active subset's rows

    # -- feeding ---------------------------------------------------------
    def set_index(
        self, index: RowIndex | None, positions: np.ndarray | RowSet | None = None
    ) -> None:
        self.beginResetModel()
        if index is not self._index:
            self._marked, self._marked_from, self._n_marked = None, None, 0
            self._subset.mask = None
        self._index = index
        self._positions = positions
        self.endResetModel()

    def set_finding_marks(self, count: np.ndarray | None, worst: np.ndarray | None) -> None:
        """Per index position, how many findings locate the row and the worst severity's
        rank (-1: none); None before any findings are known."""
        self._marks = None if count is None or worst is None else (count, worst)
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, FINDINGS_COLUMN), self.index(self.rowCount() - 1, FINDINGS_COLUMN)
            )

    def set_changes(self, kind: np.ndarray | None, linked: np.ndarray | None = None) -> None:
        """Compare mode: per row its kind of change (codes into ``CHANGE_KINDS``) and
        whether it cites changed evidence; None hides the Change column."""
        if kind is None and linked is None and self._change is None and self._linked is None:
            return  # not comparing, before or after: nothing to show anew
        self.beginResetModel()
        self._change, self._linked = kind, linked
        self.endResetModel()

    def change_of(self, position: int) -> str:
        """The Change column's text for index ``position``."""
        if self._change is None or not 0 <= position < len(self._change):
            return ""
        parts = [CHANGE_KINDS[int(self._change[position])]]
        if self._linked is not None and self._linked[position]:
            parts.append("linked")
        return ", ".join(p for p in parts if p)

    def set_marked(self, positions: np.ndarray | None) -> None:
        """Select the rows at index ``positions`` together (None: none); no loop per row."""
        mask = None
        if positions is not None and self._index is not None:
            n = len(self._index)
            pos = np.asarray(positions, dtype=np.int64)
            mask = np.zeros(n, dtype=bool)
            mask[pos[(pos >= 0) & (pos < n)]] = True
        self._marked, self._marked_from = mask, positions
        self._n_marked = 0 if mask is None else int(np.count_nonzero(mask))
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(self.rowCount() - 1, len(ROW_COLUMNS) - 1),
                [Qt.ItemDataRole.BackgroundRole],
            )

    def set_subset(self, rows: np.ndarray | None, color: str | None = None) -> None:
        """Mark the active subset's rows (a coloured square before the id); None: none."""
        mask = None
        if rows is not None and self._index is not None:
            n = len(self._index)
            mask = np.zeros(n, dtype=bool)
            mask[rows[(rows >= 0) & (rows < n)]] = True
        self._subset.set(self, mask, color)

    def in_subset(self, position: int) -> bool:
        return position in self._subset

    @property
    def marked(self) -> np.ndarray | None:
        """The positions last given to :meth:`set_marked` (the same object)."""
        return self._marked_from

    @property
    def marked_count(self) -> int:
        """How many rows are selected together (0 when none are)."""
        return self._n_marked

    def marked_shown(self) -> int:
        """How many of them the current filter shows."""
        if self._marked is None:
            return 0
        shown = self.positions_array()
        return self._n_marked if shown is None else int(np.count_nonzero(self._marked[shown]))

    def is_marked(self, position: int) -> bool:
        return (
            self._marked is not None
            and 0 <= position < len(self._marked)
            and bool(self._marked[position])
        )

    def marked_positions(self) -> np.ndarray | None:
        return None if self._marked is None else np.flatnonzero(self._marked)

    def set_positions(self, positions: np.ndarray | RowSet | None) -> None:
        """Show the rows at ``positions``; the same positions again reset nothing."""
        if positions is self._positions:
            return
        self.set_index(self._index, positions)

    @property
    def row_index(self) -> RowIndex | None:
        return self._index

    def position(self, table_row: int) -> int:
        """Index position shown at ``table_row``."""
        return table_row if self._positions is None else int(self._positions[table_row])

    def positions_array(self) -> np.ndarray | None:
        """The shown positions as an array, None when every row is shown in package order."""
        if self._positions is None:
            return None
        return (
            self._positions
            if isinstance(self._positions, np.ndarray)
            else self._positions.to_array()
        )

    def table_row_of(self, position: int) -> int | None:
        """Table row showing index ``position``, or None when it is filtered out."""
        if self._index is None:
            return None
        if self._positions is None:
            return position if 0 <= position < len(self._index) else None
        arr = (
            self._positions
            if isinstance(self._positions, np.ndarray)
            else self._positions.to_array()
        )
        hits = np.flatnonzero(arr == position)
        return int(hits[0]) if len(hits) else None

    # -- Qt API ------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._index is None:
            return 0
        return len(self._index) if self._positions is None else len(self._positions)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(ROW_COLUMNS) + (self._change is not None)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ROW_COLUMNS[section] if section < CHANGE_COLUMN else "Change"
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self._index is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.BackgroundRole:
            if self._marked is not None and self._marked[self.position(index.row())]:
                color = QGuiApplication.palette().color(QPalette.ColorRole.Highlight)
                color.setAlpha(90)  # lighter than the current row, in both schemes
                return QBrush(color)
            return None
        if role == Qt.ItemDataRole.DecorationRole:
            return self._subset.decoration(col, self.position(index.row()))
        if col == FINDINGS_COLUMN:
            return finding_mark(self._marks, self.position(index.row()), role)
        if col == CHANGE_COLUMN:
            text = self.change_of(self.position(index.row()))
            if role == Qt.ItemDataRole.ForegroundRole and text:
                return QBrush(QColor(CHANGE_COLORS[text.split(",")[0]]))
            return (
                text if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) else None
            )
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return (
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col in _NUMERIC
                else None
            )
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        ix, pos = self._index, self.position(index.row())
        if col == 0:
            return ix.row_id_str(pos) or "(no row id)"
        if col == 1:
            return ix.data_types[int(ix.data_type[pos])] or "(none)"
        if col == 2:
            rel = ix.files[int(ix.file[pos])]
            return rel if role == Qt.ItemDataRole.ToolTipRole else rel.rsplit("/", 1)[1]
        if col == 3:
            return int(ix.line[pos])
        if col == 4:
            return ix.tasks[int(ix.task[pos])]
        if col == 5:
            return int(ix.n_evidence[pos])
        value = float(ix.confidence[pos] if col == 6 else ix.quality[pos])
        return "" if math.isnan(value) else f"{value:.3f}"

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if self._index is None or not len(self._index):
            return
        ix = self._index
        if column == FINDINGS_COLUMN:
            keys = mark_keys(self._marks, len(ix))
        elif column == CHANGE_COLUMN:
            if self._change is None:
                return
            linked = 0 if self._linked is None else self._linked.astype(np.int64)
            keys = self._change.astype(np.int64) * 2 + linked
        else:
            keys = {
                0: ix.row_id,
                1: ix.data_type,
                2: ix.file,
                3: ix.line,
                4: ix.task,
                5: ix.n_evidence,
                6: ix.confidence,
                7: ix.quality,
            }[column]
        base = (
            np.arange(len(ix))
            if self._positions is None
            else (
                self._positions
                if isinstance(self._positions, np.ndarray)
                else self._positions.to_array()
            )
        )
        if column in (1, 4):  # sort codes by their names
            table = ix.data_types if column == 1 else ix.tasks
            rank = np.argsort(np.argsort(np.array(table, dtype=object)))
            keys = rank[keys]
        order_ = np.argsort(keys[base], kind="stable")
        if order == Qt.SortOrder.DescendingOrder:
            order_ = order_[::-1]
        self.layoutAboutToBeChanged.emit()
        self._positions = base[order_]
        self.layoutChanged.emit()
