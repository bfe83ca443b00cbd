"""RowsPanel: every training row, filtered by the shared query syntax on the core's columns."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aa_review.core.query import ROW_FIELDS, FindingsIndex, filter_rows
from aa_review.core.selection import Selection, SelectionHub
from aa_review.qt.models import RowsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex

__all__ = ["RowsPanel"]

_HELP = fields_help("rows", ROW_FIELDS, "row id, data type, file or task")


class RowsPanel(Linked):
    source = "rows"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Rows")
        self.query = QueryBar('Filter rows: type:preference_pair confidence<0.5 '
                              'evidence.visibility:hidden_excluded "text"', self.apply_query, _HELP)
        self.layout_.addWidget(self.query)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, sortable=True, name="rows_view")
        self.layout_.addWidget(self.view)
        self.row_findings: Callable[[], FindingsIndex | None] | None = None
        self._hook_table(self.view, lambda r: hub.update(row=self.model.position(r),
                                                          source=self.source))

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.show_index(pkg.index if pkg else None)
        if pkg is not None and self.query.text():
            self.query.run()

    def show_index(self, index: RowIndex | None) -> None:
        self.model.set_index(index)
        for col, width in enumerate((400, 200, 220, 60, 160, 70, 90, 80)):
            self.view.setColumnWidth(col, width)

    def apply_query(self, text: str) -> None:
        """Filter with ``text``; raises QueryError (shown by the bar) when it is wrong."""
        if self.pkg is None:
            return
        positions = filter_rows(self.pkg, text, self.row_findings() if self.row_findings else None)
        self.model.set_positions(positions)
        self.follow(self.hub.current)

    def follow(self, sel: Selection) -> None:
        if sel.source != self.source and sel.row is not None:
            select_table_row(self.view, self.model.table_row_of(sel.row))
