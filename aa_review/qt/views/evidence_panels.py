"""Evidence views: the catalog, the evidence a row cites, the rows an item is cited by."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtWidgets import QLabel

from aa_review.core.package import Package
from aa_review.core.query import EVIDENCE_FIELDS, FindingsIndex, filter_evidence
from aa_review.core.session import Selection, SelectionHub
from aa_review.qt.models import EvidenceTableModel, RowsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.tables import make_table

__all__ = ["EvidencePanel", "RowEvidencePanel", "EvidenceRowsPanel"]

_HELP = fields_help("evidence", EVIDENCE_FIELDS, "evidence id or ref")


class EvidencePanel(Linked):
    """The evidence catalog, with every field of every item."""

    source = "evidence"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Evidence catalog")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        self.layout_.addWidget(self.note)
        self.query = QueryBar("Filter evidence: type:artifact visibility:hidden_excluded "
                              "cited<10 \"text\"", self.apply_query, _HELP)
        self.layout_.addWidget(self.query)
        self.model = EvidenceTableModel(self)
        self.view = make_table(self.model, name="evidence_view")
        self.layout_.addWidget(self.view)
        self.evidence_findings: Callable[[], FindingsIndex | None] | None = None
        self._hook_table(self.view, lambda r: hub.update(evidence=self.model.position(r),
                                                          source=self.source))

    def apply_query(self, text: str) -> None:
        if self.pkg is None:
            return
        findings = self.evidence_findings() if self.evidence_findings else None
        self.model.set_positions(filter_evidence(self.pkg, text, self.model.cited_counts(),
                                                 findings))
        self.follow(self.hub.current)

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.model.set_package(pkg)
        if self.query.text():
            self.query.run()
        derived = bool(pkg and pkg.catalog_derived)
        self.note.setVisible(derived)
        if derived:
            self.note.setText("This is a v0.1 package: its evidence map has no catalog or link "
                              "table, so both were derived from the rows' evidence_refs the way "
                              "the compiler would.")
        self.view.resizeColumnsToContents()

    def follow(self, sel: Selection) -> None:
        if sel.source != self.source and sel.evidence is not None:
            select_table_row(self.view, self.model.table_row_of(sel.evidence))


class RowEvidencePanel(Linked):
    """The evidence the selected row cites."""

    source = "row_evidence"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Evidence cited by the row")
        self.caption = QLabel("Select a row.")
        self.caption.setWordWrap(True)
        self.layout_.addWidget(self.caption)
        self.model = EvidenceTableModel(self)
        self.view = make_table(self.model, name="row_evidence_view")
        self.layout_.addWidget(self.view)
        self._hook_table(self.view, lambda r: hub.update(evidence=self.model.position(r),
                                                          source=self.source))
        self._row: int | None = None

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.model.set_package(pkg)
        self.model.set_positions(np.empty(0, np.int64))
        self._row = None

    def follow(self, sel: Selection) -> None:
        if self.pkg is None:
            return
        if sel.row != self._row:
            old_set = self._set_code(self._row)
            self._row = sel.row
            if sel.row is None:
                self.model.set_positions(np.empty(0, np.int64))
                self.caption.setText("Select a row.")
            else:
                ev = self.pkg.index.evidence_of_row(sel.row)
                if self._set_code(sel.row) != old_set:  # rows often share one evidence set
                    self.model.set_positions(ev.astype(np.int64))
                self.caption.setText(f"{len(ev)} evidence items cited by "
                                     f"{self.pkg.index.row_id_str(sel.row)}")
        if sel.evidence is not None:
            select_table_row(self.view, self.model.table_row_of(sel.evidence))


    def _set_code(self, row: int | None) -> int | None:
        return None if row is None or self.pkg is None else int(self.pkg.index.set_code[row])


class EvidenceRowsPanel(Linked):
    """The rows that cite the selected evidence item."""

    source = "evidence_rows"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Rows citing the evidence")
        self.caption = QLabel("Select an evidence item.")
        self.caption.setWordWrap(True)
        self.layout_.addWidget(self.caption)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, name="evidence_rows_view")
        self.layout_.addWidget(self.view)
        self._hook_table(self.view, lambda r: hub.update(row=self.model.position(r),
                                                          source=self.source))
        self._ev: int | None = None

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self._ev = None
        self.model.set_index(pkg.index if pkg else None, np.empty(0, np.int64))

    def follow(self, sel: Selection) -> None:
        if self.pkg is None:
            return
        if sel.evidence != self._ev:
            self._ev = sel.evidence
            if sel.evidence is None:
                self.model.set_positions(np.empty(0, np.int64))
                self.caption.setText("Select an evidence item.")
            else:
                rows = self.pkg.index.rows_citing(sel.evidence)
                self.model.set_positions(rows)
                self.caption.setText(f"{len(rows)} rows cite "
                                     f"{self.pkg.index.evidence_ids[sel.evidence]}")
        if sel.row is not None and sel.source != self.source and len(self.model.row_index or []) \
                and self.model.rowCount() < 100_000:
            select_table_row(self.view, self.model.table_row_of(sel.row))
