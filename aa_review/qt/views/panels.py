"""The linked package views: rows, evidence catalog, row detail, links, counts, problems."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from aa_review.core.errors import AAReviewError
from aa_review.core.selection import Selection, SelectionHub
from aa_review.qt.models import CountsTableModel, EvidenceTableModel, JsonTreeModel, RowsTableModel
from aa_review.qt.models.findings_table import FindingsTableModel
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["RowsPanel", "EvidencePanel", "RowDetailPanel", "RowEvidencePanel",
           "EvidenceRowsPanel", "TypeCountsPanel", "ProblemsPanel", "select_table_row"]


def select_table_row(view: QTableView, table_row: int | None) -> None:
    """Select and scroll to ``table_row`` without emitting a user selection."""
    sm = view.selectionModel()
    if table_row is None:
        sm.clearSelection()
        return
    idx = view.model().index(table_row, 0)
    sm.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                       | QItemSelectionModel.SelectionFlag.Rows)
    view.scrollTo(idx)


class _Linked(QWidget):
    """A panel bound to the hub; ``_syncing`` guards against echoing our own selection."""

    source = ""

    def __init__(self, hub: SelectionHub, title: str) -> None:
        super().__init__()
        self.hub = hub
        self.pkg: Package | None = None
        self._syncing = False
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(4, 4, 4, 4)
        hub.changed.connect(self._on_hub)

    def set_package(self, pkg: Package | None) -> None:
        self.pkg = pkg

    def _on_hub(self, sel: Selection) -> None:
        self._syncing = True
        try:
            self.follow(sel)
        finally:
            self._syncing = False

    def follow(self, sel: Selection) -> None:  # pragma: no cover - overridden
        pass

    def _hook_table(self, view: QTableView, on_pick: Any) -> None:
        def changed(current: QModelIndex, _prev: QModelIndex) -> None:
            if not self._syncing and current.isValid():
                on_pick(current.row())
        view.selectionModel().currentRowChanged.connect(changed)


class RowsPanel(_Linked):
    """All training rows, with a data-type filter and an id/text filter over the index."""

    source = "rows"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Rows")
        bar = QHBoxLayout()
        self.type_box = QComboBox()
        self.type_box.setToolTip("Show only rows of one data type")
        self.id_filter = QLineEdit()
        self.id_filter.setPlaceholderText("Filter by row id (substring)…")
        self.id_filter.setClearButtonEnabled(True)
        bar.addWidget(QLabel("Data type:"))
        bar.addWidget(self.type_box)
        bar.addWidget(self.id_filter, 1)
        self.layout_.addLayout(bar)
        self.model = RowsTableModel(self)
        self.view = make_table(self.model, sortable=True, name="rows_view")
        self.layout_.addWidget(self.view)
        self._hook_table(self.view, lambda r: hub.update(row=self.model.position(r),
                                                          source=self.source))
        self.type_box.currentIndexChanged.connect(self.apply_filter)
        self.id_filter.textChanged.connect(self.apply_filter)

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.show_index(pkg.index if pkg else None)

    def show_index(self, index: Any) -> None:
        self.type_box.blockSignals(True)
        self.type_box.clear()
        self.type_box.addItem("All types", None)
        if index is not None:
            for name, n in sorted(index.counts_by("data_type").items()):
                self.type_box.addItem(f"{name} ({n})", name)
        self.type_box.blockSignals(False)
        self.model.set_index(index)
        for col, width in enumerate((400, 200, 220, 60, 160, 70, 90, 80)):
            self.view.setColumnWidth(col, width)

    def set_type(self, name: str | None) -> None:
        i = self.type_box.findData(name)
        self.type_box.setCurrentIndex(max(i, 0))

    def apply_filter(self) -> None:
        ix = self.model.row_index
        if ix is None:
            return
        mask = np.ones(len(ix), dtype=bool)
        name = self.type_box.currentData()
        if name is not None and name in ix.data_types:
            mask &= ix.data_type == ix.data_types.index(name)
        text = self.id_filter.text().strip().encode("utf-8")
        if text:
            mask &= np.char.find(ix.row_id, text) >= 0
        self.model.set_positions(None if mask.all() else np.flatnonzero(mask))
        self.follow(self.hub.current)

    def follow(self, sel: Selection) -> None:
        if sel.source != self.source and sel.row is not None:
            select_table_row(self.view, self.model.table_row_of(sel.row))


class EvidencePanel(_Linked):
    """The evidence catalog, with every field of every item."""

    source = "evidence"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Evidence catalog")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        self.layout_.addWidget(self.note)
        self.model = EvidenceTableModel(self)
        self.view = make_table(self.model, name="evidence_view")
        self.layout_.addWidget(self.view)
        self._hook_table(self.view, lambda r: hub.update(evidence=self.model.position(r),
                                                          source=self.source))

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.model.set_package(pkg)
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


class RowDetailPanel(_Linked):
    """The selected row in full, read from disk by offset, as a JSON tree."""

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Row detail")
        self.title = QLabel("Select a row to see it in full.")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addWidget(self.title)
        self.model = JsonTreeModel(self)
        self.view = QTreeView()
        self.view.setObjectName("row_detail_view")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.layout_.addWidget(self.view)
        self._shown: int | None = None

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self._shown = None
        self.model.set_value({})
        self.title.setText("Select a row to see it in full.")

    def follow(self, sel: Selection) -> None:
        if self.pkg is None or sel.row is None or sel.row == self._shown:
            return
        self._shown = sel.row
        ix = self.pkg.index
        where = f"{ix.files[int(ix.file[sel.row])]}:{int(ix.line[sel.row])}"
        try:
            row = self.pkg.read_row(sel.row)
        except (AAReviewError, OSError) as exc:
            self.title.setText(f"{where}: cannot be read: {exc}")
            self.model.set_value({})
            return
        self.title.setText(f"{ix.row_id_str(sel.row)}  —  {where}")
        self.model.set_value(row)
        self.view.resizeColumnToContents(0)


class RowEvidencePanel(_Linked):
    """The evidence the selected row cites."""

    source = "row_evidence"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Evidence cited by the row")
        self.caption = QLabel("Select a row.")
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
            self._row = sel.row
            if sel.row is None:
                self.model.set_positions(np.empty(0, np.int64))
                self.caption.setText("Select a row.")
            else:
                ev = self.pkg.index.evidence_of_row(sel.row)
                self.model.set_positions(ev.astype(np.int64))
                self.caption.setText(f"{len(ev)} evidence items cited by "
                                     f"{self.pkg.index.row_id_str(sel.row)}")
        if sel.evidence is not None:
            select_table_row(self.view, self.model.table_row_of(sel.evidence))


class EvidenceRowsPanel(_Linked):
    """The rows that cite the selected evidence item."""

    source = "evidence_rows"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Rows citing the evidence")
        self.caption = QLabel("Select an evidence item.")
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


class TypeCountsPanel(QWidget):
    """Rows per data type; clicking one filters the rows view."""

    def __init__(self, rows: RowsPanel) -> None:
        super().__init__()
        self.setWindowTitle("Data types")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.model = CountsTableModel("Data type", self)
        self.view = make_table(self.model, name="type_counts_view")
        lay.addWidget(self.view)
        self.view.selectionModel().currentRowChanged.connect(
            lambda cur, _p: rows.set_type(self.model.name(cur.row())) if cur.isValid() else None)

        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)

    def set_counts(self, counts: dict[str, int]) -> None:
        self.model.set_counts(counts)


class ProblemsPanel(QWidget):
    """Loading problems (and, once audited, findings), each with its location."""

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__()
        self.setWindowTitle("Problems")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.model = FindingsTableModel(self)
        self.view = make_table(self.model, name="problems_view")
        lay.addWidget(self.view)

    def set_package(self, pkg: Package | None) -> None:
        self.model.set_findings(pkg.problems if pkg else [])
        self.view.resizeColumnsToContents()
