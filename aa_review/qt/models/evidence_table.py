"""EvidenceTableModel: the evidence catalog, every field of every item."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from aa_review.core.query.export import EVIDENCE_FIELDS
from aa_review.qt.models._subset_mark import SubsetMark
from aa_review.qt.models.findings_table import finding_mark
from aa_review.qt.models.rows_table import CHANGE_COLORS

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["EvidenceTableModel"]

_FIXED = EVIDENCE_FIELDS
Index = QModelIndex | QPersistentModelIndex


class EvidenceTableModel(QAbstractTableModel):
    """Catalog items (and ids rows cite that the catalog lacks) as a table.

    Columns are the catalog's fields, any unknown field found in the catalog, how the
    catalogued hash stands against the file now (``hash_now``: computed in the
    background by the session, "checking…" until then) and how many rows cite the item.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._pkg: Package | None = None
        self._positions: np.ndarray | None = None
        self._columns: list[str] = list(_FIXED)
        self._cited: np.ndarray = np.zeros(0, np.int64)
        self._hashes: tuple[str, ...] | None = None
        self._marks: tuple[np.ndarray, np.ndarray] | None = None
        self._changes: dict[str, str] | None = None
        self._subset = SubsetMark()  # the evidence the active subset's rows cite

    def set_finding_marks(self, count: np.ndarray | None, worst: np.ndarray | None) -> None:
        """Per evidence position, how many findings locate it and the worst rank (-1: none)."""
        self._marks = None if count is None or worst is None else (count, worst)
        if self.rowCount():
            col = self._columns.index("findings")
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    def set_changes(self, kinds: dict[str, str] | None) -> None:
        """Compare mode: evidence id -> its change against the baseline (added, changed,
        visibility); None removes the ``change`` column."""
        self.beginResetModel()
        self._changes = kinds
        self._columns = [c for c in self._columns if c != "change"]
        if kinds is not None:
            self._columns.append("change")
        self.endResetModel()

    def set_subset(self, cited: np.ndarray | None, color: str | None = None) -> None:
        """Mark the evidence items the active subset's rows cite (a mask; None: none)."""
        self._subset.set(self, cited, color)

    def in_subset(self, position: int) -> bool:
        return position in self._subset

    def set_package(self, pkg: Package | None) -> None:
        self.beginResetModel()
        self._pkg = pkg
        self._positions = None
        self._subset.mask = None
        extra: list[str] = []
        if pkg is not None:
            for e in pkg.catalog:
                for k in e.extras():
                    if k not in extra:
                        extra.append(k)
            self._cited = pkg.index.cited_counts()
        self._columns = [
            *_FIXED,
            "hash_now",
            *extra,
            "cited_by_rows",
            "findings",
            *(["change"] if self._changes is not None else []),
        ]
        self._hashes = None
        self.endResetModel()

    def set_hashes(self, statuses: tuple[str, ...] | None) -> None:
        """The live hash status of every catalog item (None: not known yet)."""
        self._hashes = statuses
        if self.rowCount():
            col = self._columns.index("hash_now")
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    def _hash_now(self, pos: int) -> str:
        if self._hashes is None:
            return "checking…"
        return self._hashes[pos] if pos < len(self._hashes) else ""

    def set_positions(self, positions: np.ndarray | None) -> None:
        self.beginResetModel()
        self._positions = positions
        self.endResetModel()

    def position(self, table_row: int) -> int:
        return table_row if self._positions is None else int(self._positions[table_row])

    def table_row_of(self, position: int) -> int | None:
        if self._positions is None:
            return position if 0 <= position < self.rowCount() else None
        hits = np.flatnonzero(self._positions == position)
        return int(hits[0]) if len(hits) else None

    @property
    def columns(self) -> list[str]:
        return list(self._columns)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._pkg is None:
            return 0
        return (
            len(self._pkg.index.evidence_ids) if self._positions is None else len(self._positions)
        )

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section].replace("_", " ")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self._pkg is None:
            return None
        pos = self.position(index.row())
        name = self._columns[index.column()]
        if name == "findings":
            return finding_mark(self._marks, pos, role)
        item = self._pkg.evidence_at(pos)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._subset.decoration(index.column(), pos)
        if name == "change":
            kind = (self._changes or {}).get(self._pkg.index.evidence_ids[pos], "")
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor(CHANGE_COLORS[kind])) if kind else None
            return kind if role == Qt.ItemDataRole.DisplayRole else None
        if role == Qt.ItemDataRole.ForegroundRole:
            if item is None or (item.visibility or "") == "hidden_excluded":
                return QBrush(QColor("#c62828"))
            if name == "hash_now" and item is not None:
                status = self._hash_now(pos)
                return QBrush(
                    QColor(
                        "#2e7d32"
                        if status == "ok"
                        else "#c62828"
                        if status in ("changed", "missing", "unsafe ref", "unhashable (over 2 MB)")
                        else "#607d8b"
                    )
                )
            return None
        if role == Qt.ItemDataRole.ToolTipRole and item is None:
            return "Cited by rows but absent from the evidence catalog (orphan id)"
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        if name == "hash_now":
            return self._hash_now(pos) if item is not None else ""
        if name == "cited_by_rows":
            return int(self._cited[pos]) if pos < len(self._cited) else 0
        if item is None:
            return (
                self._pkg.index.evidence_ids[pos]
                if name == "evidence_id"
                else ("(not in catalog)" if name == "ref" else "")
            )
        value = getattr(item, name, None) if name in _FIXED else item.extras().get(name)
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        return value if isinstance(value, (int, float)) else str(value)
