"""Evidence views: the catalog, the evidence a row cites, the rows an item is cited by."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from PySide6.QtWidgets import QLabel

from aa_review.core.query import EVIDENCE_FIELDS
from aa_review.core.session import (
    HashStatus,
    OpenPackage,
    QueryResult,
    ReviewSession,
    Scope,
    Selection,
)
from aa_review.qt.models import EvidenceTableModel, RowsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.finding_marks import follow_marks
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.query_completion import session_completer
from aa_review.qt.views.tables import make_table

__all__ = ["EvidencePanel", "RowEvidencePanel", "EvidenceRowsPanel"]

_HELP = fields_help("evidence", EVIDENCE_FIELDS, "evidence id or ref")
_NONE = np.empty(0, np.int64)


def _follow_hashes(session: ReviewSession, panel: EvidencePanel | RowEvidencePanel) -> None:
    """The catalog's live hash statuses in ``panel``'s evidence table, for the package it
    shows, told through the panel's gate (they wait for the table's fill)."""

    def show(status: HashStatus | None) -> None:
        if status is None or status.version == panel.version:
            panel.model.set_hashes(status.statuses if status else None)

    session.events.hashes_changed.connect(lambda status: panel.gate.call(show, status))


class EvidencePanel(Linked):
    """The evidence catalog, with every field of every item."""

    source = "evidence"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Evidence catalog")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        self.layout_.addWidget(self.note)
        self.query = QueryBar(
            'Filter evidence: type:artifact visibility:hidden_excluded cited<10 "text"',
            lambda text: session.set_query(Scope.EVIDENCE, text, typed=True),
            _HELP,
            completer=session_completer(session, Scope.EVIDENCE),
        )
        self.layout_.addWidget(self.query)
        self.model = EvidenceTableModel(self)
        self.view = make_table(self.model, name="evidence_view")
        self.layout_.addWidget(self.view)
        # Sized to the first rows' contents: measuring thousands of cells costs frames.
        self.view.horizontalHeader().setResizeContentsPrecision(40)
        self._hook_table(
            self.view, lambda r: session.select_evidence(self.model.position(r), self.source)
        )
        _follow_hashes(session, self)
        follow_marks(session, self.model, "evidence", self.gate)
        # Who fits the columns to a package shown: None, at once; the window spreads the
        # fitting over turns of its event loop (_turns): tens of ms for every column.
        self.fit_later: Callable[[Callable[[], Iterator[None]]], object] | None = None

    def show_package(self, opened: OpenPackage | None) -> None:
        pkg = opened.package if opened else None
        self.model.set_package(pkg)
        self.model.set_positions(self.session.result(Scope.EVIDENCE).positions)
        derived = bool(pkg and pkg.catalog_derived)
        self.note.setVisible(derived)
        if derived:
            self.note.setText(
                "This is a v0.1 package: its evidence map has no catalog or link "
                "table, so both were derived from the rows' evidence_refs the way "
                "the compiler would."
            )
        if self.fit_later is None:
            self.view.resizeColumnsToContents()
        else:
            self.fit_later(self._fit_columns)

    def _fit_columns(self) -> Iterator[None]:
        """Each column as wide as its first rows' contents, a few columns at a time."""
        for col in range(self.model.columnCount()):
            self.view.resizeColumnToContents(col)
            if col % 4 == 3:
                yield

    def show_result(self, result: QueryResult) -> None:
        if result.scope is Scope.EVIDENCE:
            self.query.sync(result)
            self.model.set_positions(result.positions)
            self.follow(self.session.selection.current)

    def follow(self, sel: Selection) -> None:
        if sel.source != self.source:
            select_table_row(
                self.view, None if sel.evidence is None else self.model.table_row_of(sel.evidence)
            )


class RowEvidencePanel(Linked):
    """The evidence the selected row cites."""

    source = "row_evidence"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Evidence cited by the row")
        self.caption = QLabel("Select a row.")
        self.caption.setWordWrap(True)
        self.layout_.addWidget(self.caption)
        self.model = EvidenceTableModel(self)
        self.view = make_table(self.model, name="row_evidence_view")
        self.layout_.addWidget(self.view)
        self._hook_table(
            self.view, lambda r: session.select_evidence(self.model.position(r), self.source)
        )
        _follow_hashes(session, self)
        self._row: int | None = None

    def show_package(self, opened: OpenPackage | None) -> None:
        self.model.set_package(opened.package if opened else None)
        self.model.set_positions(_NONE)
        self.caption.setText("Select a row.")
        self._row = None

    def follow(self, sel: Selection) -> None:
        pkg = self.pkg
        if pkg is None:
            return
        if sel.row != self._row:
            old_set = self._set_code(self._row)
            self._row = sel.row
            if sel.row is None:
                self.model.set_positions(_NONE)
                self.caption.setText("Select a row.")
            else:
                ev = pkg.index.evidence_of_row(sel.row)
                if self._set_code(sel.row) != old_set:  # rows often share one evidence set
                    self.model.set_positions(ev.astype(np.int64))
                self.caption.setText(
                    f"{len(ev)} evidence items cited by {pkg.index.row_id_str(sel.row)}"
                )
        if sel.source != self.source:
            select_table_row(
                self.view, None if sel.evidence is None else self.model.table_row_of(sel.evidence)
            )

    def _set_code(self, row: int | None) -> int | None:
        return None if row is None or self.pkg is None else int(self.pkg.index.set_code[row])


class EvidenceRowsPanel(Linked):
    """The rows that cite the selected evidence item."""

    source = "evidence_rows"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Rows citing the evidence")
        self.caption = QLabel("Select an evidence item.")
        self.caption.setWordWrap(True)
        self.layout_.addWidget(self.caption)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, name="evidence_rows_view")
        follow_marks(session, self.model, "rows", self.gate)
        self.layout_.addWidget(self.view)
        self._hook_table(
            self.view, lambda r: session.select_row(self.model.position(r), self.source)
        )
        self._ev: int | None = None

    def show_package(self, opened: OpenPackage | None) -> None:
        self._ev = None
        self.caption.setText("Select an evidence item.")
        self.model.set_index(opened.package.index if opened else None, _NONE)

    def follow(self, sel: Selection) -> None:
        pkg = self.pkg
        if pkg is None:
            return
        if sel.evidence != self._ev:
            self._ev = sel.evidence
            if sel.evidence is None:
                self.model.set_positions(_NONE)
                self.caption.setText("Select an evidence item.")
            else:
                rows = pkg.index.rows_citing(sel.evidence)
                self.model.set_positions(rows)
                self.caption.setText(
                    f"{len(rows):,} rows cite {pkg.index.evidence_ids[sel.evidence]}"
                )
        if sel.source != self.source and self.model.rowCount() < 100_000:
            select_table_row(
                self.view, None if sel.row is None else self.model.table_row_of(sel.row)
            )
