"""RowsPanel: every training row, filtered by the shared query syntax on the core's columns."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton

from aa_review.core.query import ROW_FIELDS, FindingsIndex, filter_rows
from aa_review.core.session import Selection, SelectionHub
from aa_review.qt.models import RowsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex

__all__ = ["RowsPanel"]

_HELP = fields_help("rows", ROW_FIELDS, "row id, data type, file or task")


class RowsPanel(Linked):
    """The rows; several can be selected together (a finding's rows), drawn highlighted,
    counted above the table, and shown alone with "Only selected"."""

    source = "rows"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Rows")
        self.query = QueryBar('Filter rows: type:preference_pair confidence<0.5 '
                              'evidence.visibility:hidden_excluded "text"', self.apply_query, _HELP)
        self.layout_.addWidget(self.query)
        bar = QHBoxLayout()
        self.selected_label = QLabel("")
        self.selected_label.setObjectName("rows_selected")
        self.only_selected = QCheckBox("Only selected")
        self.only_selected.setToolTip("Show only the rows selected together (a finding's rows)")
        self.only_selected.toggled.connect(lambda _on: self.query.run())
        self.clear_selected = QPushButton("Clear")
        self.clear_selected.setToolTip("Select the current row alone")
        self.clear_selected.clicked.connect(
            lambda: hub.update(rows=None, source=self.source))
        bar.addWidget(self.selected_label, 1)
        bar.addWidget(self.only_selected)
        bar.addWidget(self.clear_selected)
        self.layout_.addLayout(bar)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, sortable=True, name="rows_view")
        self.layout_.addWidget(self.view)
        self.row_findings: Callable[[], FindingsIndex | None] | None = None
        self._marks: np.ndarray | None = None  # the hub's rows the model marks
        self._hook_table(self.view, self._pick)
        self._show_count()

    def _pick(self, table_row: int) -> None:
        pos = self.model.position(table_row)
        # A row of the selected ones keeps them (stepping through); another ends them.
        keep = self.model.is_marked(pos)
        self.hub.update(row=pos, source=self.source, **({} if keep else {"rows": None}))

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self._marks = None
        self.show_index(pkg.index if pkg else None)
        if pkg is not None and (self.query.text() or self.only_selected.isChecked()):
            self.query.run()
        self._show_count()

    def show_index(self, index: RowIndex | None) -> None:
        self.model.set_index(index)
        for col, width in enumerate((400, 200, 220, 60, 160, 70, 90, 80)):
            self.view.setColumnWidth(col, width)

    def apply_query(self, text: str) -> None:
        """Filter with ``text``; raises QueryError (shown by the bar) when it is wrong."""
        if self.pkg is None:
            return
        positions = filter_rows(self.pkg, text, self.row_findings() if self.row_findings else None)
        marked = self.model.marked_positions()
        if self.only_selected.isChecked() and marked is not None:
            positions = marked if positions is None else \
                np.intersect1d(positions, marked, assume_unique=True)
        self.model.set_positions(positions)
        self._show_count()
        self.follow(self.hub.current)

    def follow(self, sel: Selection) -> None:
        if sel.rows is not self._marks:
            self._marks = sel.rows
            self.model.set_marked(sel.rows)
            self._show_count()
            if self.only_selected.isChecked():
                self.query.run()  # shows the new selection; follows again from there
                return
        if sel.source != self.source and sel.row is not None:
            select_table_row(self.view, self.model.table_row_of(sel.row))

    def shown_query(self) -> str:
        """What decides the rows shown: the query, and "Only selected" when it is on."""
        text = self.query.text()
        if self.only_selected.isChecked() and self.model.marked_count:
            only = f"[only the {self.model.marked_count:,} rows selected together]"
            text = f"{text} {only}" if text else only
        return text

    def _show_count(self) -> None:
        n = self.model.marked_count
        if n == 0:
            self.selected_label.setText("One row at a time: pick a finding to select its rows.")
        else:
            hidden = n - self.model.marked_shown()
            self.selected_label.setText(
                f"{n:,} row{'s' if n != 1 else ''} selected"
                + (f", {hidden:,} hidden by the filter" if hidden else ""))
        self.only_selected.setEnabled(n > 0 or self.only_selected.isChecked())
        self.clear_selected.setEnabled(n > 0)
