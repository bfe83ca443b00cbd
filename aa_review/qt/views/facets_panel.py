"""FacetsPanel: counts per data type, evidence type, visibility and finding code; click to filter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTreeView, QVBoxLayout, QWidget

from aa_review.core.query import set_term, term_value

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package
    from aa_review.core.package.records import Evidence

__all__ = ["FacetsPanel"]

FIELD_ROLE = Qt.ItemDataRole.UserRole + 1
VALUE_ROLE = Qt.ItemDataRole.UserRole + 2


class FacetsPanel(QWidget):
    """Facet values with their counts. Clicking one sets that term in the rows query;
    clicking it again clears it."""

    def __init__(self, get_query: Callable[[], str], set_query: Callable[[str], None]) -> None:
        super().__init__()
        self.setWindowTitle("Facets")
        self._get, self._set = get_query, set_query
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.model = QStandardItemModel(0, 2, self)
        self.model.setHorizontalHeaderLabels(["Facet", "Rows"])
        self.view = QTreeView()
        self.view.setObjectName("facets_view")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)
        self.view.header().setStretchLastSection(False)
        self.view.header().setSectionResizeMode(0, self.view.header().ResizeMode.Stretch)
        self.view.header().setSectionResizeMode(1, self.view.header().ResizeMode.ResizeToContents)
        lay.addWidget(self.view)
        self.view.activated.connect(self._pick)
        self.view.clicked.connect(self._pick)

    def set_package(self, pkg: Package | None, findings: list[Finding] | None = None) -> None:
        self.model.removeRows(0, self.model.rowCount())
        if pkg is None:
            return
        ix = pkg.index
        self._group("Data type", "type", ix.counts_by("data_type"))
        self._group("Cites evidence of type", "evidence.type",
                    _rows_citing_by(pkg, lambda e: e.evidence_type))
        self._group("Cites evidence with visibility", "evidence.visibility",
                    _rows_citing_by(pkg, lambda e: e.visibility))
        if findings:
            self._group("Finding code", "finding", dict(Counter(f.code for f in findings)))
        self.view.expandAll()

    def _group(self, title: str, field: str, counts: dict[str, int]) -> None:
        head = QStandardItem(title)
        font = QFont(head.font())
        font.setBold(True)
        head.setFont(font)
        head.setSelectable(False)
        total = QStandardItem("")
        for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            item = QStandardItem(name)
            item.setData(field, FIELD_ROLE)
            item.setData(name, VALUE_ROLE)
            num = QStandardItem(f"{n:,}")
            num.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            head.appendRow([item, num])
        self.model.appendRow([head, total])

    def _pick(self, index: QModelIndex) -> None:
        item = self.model.itemFromIndex(index.siblingAtColumn(0))
        field = item.data(FIELD_ROLE) if item else None
        if not field:
            return
        value = item.data(VALUE_ROLE)
        query = self._get()
        new_value = None if term_value(query, field) == value else value
        self._set(set_term(query, field, new_value))


def _rows_citing_by(pkg: Package, attr: Callable[[Evidence], str | None]) -> dict[str, int]:
    """For each attribute value, how many rows cite at least one item having it."""
    ix = pkg.index
    per_set = np.diff(ix.set_ptr)
    sets_by_value: dict[str, set[int]] = {}
    for pos, e in enumerate(pkg.catalog):
        sets_by_value.setdefault(attr(e) or "?", set()).update(ix.sets_with[pos].tolist())
    return {v: int(per_set[sorted(codes)].sum()) for v, codes in sets_by_value.items()}
