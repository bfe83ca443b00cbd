"""FacetsPanel: counts per data type, evidence type, visibility and finding code.

Click a count to filter.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTreeView, QVBoxLayout, QWidget

from aa_review.core.query import QueryError, set_term, term_value
from aa_review.core.session import ReviewSession, Scope
from aa_review.qt.views._turns import Gate

__all__ = ["FacetsPanel"]

FIELD_ROLE = Qt.ItemDataRole.UserRole + 1
VALUE_ROLE = Qt.ItemDataRole.UserRole + 2


class FacetsPanel(QWidget):
    """Facet values with their row counts (the session's). Clicking one sets that term in
    the rows query; clicking it again clears it."""

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.setWindowTitle("Facets")
        self.session = session
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
        self.gate = Gate()  # held by the window while the facets' fill waits (_turns)
        session.events.findings_changed.connect(lambda st: self.gate.call(self._refresh, st))
        session.events.baseline_changed.connect(lambda c: self.gate.call(self._refresh, c))

    def _refresh(self, _state: object = None) -> None:
        self.model.removeRows(0, self.model.rowCount())
        prepared, findings = self.session.prepared, self.session.findings
        if prepared is None:
            return
        c = self.session.comparison
        if c is not None and c.prepared is not None:  # compare mode: rows by change first
            counts = c.prepared.counts()
            self._group(
                "Change (vs baseline)",
                "change",
                tuple((k, n) for k, n in counts.items() if k != "removed"),
            )
        for group in prepared.facets:
            self._group(group.title, group.field, group.counts)
        if findings is not None and findings.audited and len(findings.index):
            self._group(
                "Finding code",
                "finding",
                tuple((c, n or 0) for c, n in findings.index.code_counts()),
            )
        self.view.expandAll()

    def _group(self, title: str, field: str, counts: tuple[tuple[str, int], ...]) -> None:
        head = QStandardItem(title)
        font = QFont(head.font())
        font.setBold(True)
        head.setFont(font)
        head.setSelectable(False)
        total = QStandardItem("")
        for name, n in counts:
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
        query = self.session.query(Scope.ROWS)
        new_value = None if term_value(query, field) == value else value
        with contextlib.suppress(QueryError):  # the bar shows what is wrong with the rest
            self.session.set_query(Scope.ROWS, set_term(query, field, new_value))
