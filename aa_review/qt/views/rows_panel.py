"""RowsPanel: every training row, filtered by the session's rows query."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton

from aa_review.core.query import ROW_FIELDS
from aa_review.core.session import OpenPackage, QueryResult, ReviewSession, Scope, Selection
from aa_review.qt.models import RowsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.finding_marks import follow_marks
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.query_completion import session_completer
from aa_review.qt.views.table_header import lay_out_now
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    import numpy as np

    from aa_review.core.package import RowIndex, RowSet

__all__ = ["RowsPanel"]

_HELP = fields_help("rows", ROW_FIELDS, "row id, data type, file or task")
_WIDTHS = (400, 200, 220, 60, 160, 70, 90, 80, 110)


class RowsPanel(Linked):
    """The rows; several can be selected together (a finding's rows), drawn highlighted,
    counted above the table, and shown alone with "Only selected"."""

    source = "rows"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Rows")
        self.query = QueryBar(
            "Filter rows: type:preference_pair confidence<0.5 "
            'evidence.visibility:hidden_excluded "text"',
            lambda text: session.set_query(Scope.ROWS, text, typed=True),
            _HELP,
            completer=session_completer(session, Scope.ROWS),
        )
        self.layout_.addWidget(self.query)
        bar = QHBoxLayout()
        self.selected_label = QLabel("")
        self.selected_label.setObjectName("rows_selected")
        self.only_selected = QCheckBox("Only selected")
        self.only_selected.setToolTip("Show only the rows selected together (a finding's rows)")
        self.only_selected.toggled.connect(lambda on: session.set_only(Scope.ROWS, on))
        self.clear_selected = QPushButton("Clear")
        self.clear_selected.setToolTip("Select the current row alone")
        self.clear_selected.clicked.connect(lambda: session.select_rows(None, self.source))
        bar.addWidget(self.selected_label, 1)
        bar.addWidget(self.only_selected)
        bar.addWidget(self.clear_selected)
        self.layout_.addLayout(bar)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, sortable=True, name="rows_view")
        self.layout_.addWidget(self.view)
        self._hook_table(self.view, self._pick)
        self._show_count()
        follow_marks(session, self.model, "rows", self.gate)

    def _pick(self, table_row: int) -> None:
        # While another package loads, its first rows are shown before the session has
        # it: a click there names no row of the package the session holds.
        if self.pkg is not None and self.model.row_index is self.pkg.index:
            self.session.select_row(self.model.position(table_row), self.source)

    def show_package(self, opened: OpenPackage | None) -> None:
        result = self.session.result(Scope.ROWS)
        self.show_index(opened.package.index if opened else None, result.positions)
        self.query.sync(result)

    def show_index(
        self, index: RowIndex | None, positions: np.ndarray | RowSet | None = None
    ) -> None:
        """Show ``index`` (also the first rows while a package loads)."""
        self.model.set_index(index, positions)
        # Laid out once, the widths shrunk to the view: the last columns stay on screen.
        lay_out_now(self.view, _WIDTHS)
        self._show_count()

    def show_result(self, result: QueryResult) -> None:
        if result.scope is not Scope.ROWS:
            return
        self.query.sync(result)
        self.model.set_positions(result.positions)
        self.follow(self.session.selection.current)
        self._show_count()

    def follow(self, sel: Selection) -> None:
        if sel.rows is not self.model.marked:
            self.model.set_marked(sel.rows)
        self._show_count()  # what is selected and why, said by the session
        if sel.source != self.source:
            select_table_row(
                self.view, None if sel.row is None else self.model.table_row_of(sel.row)
            )

    def _show_count(self) -> None:
        n = self.model.marked_count
        hidden = n - self.model.marked_shown() if n else 0
        self.selected_label.setText(self.session.describe_rows(hidden))
        self.only_selected.setEnabled(n > 0 or self.only_selected.isChecked())
        self.clear_selected.setEnabled(n > 0)
