"""The selected row in full, read from disk by offset, as a JSON tree."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTreeView

from aa_review.core.package import Package
from aa_review.core.session import Selection, SelectionHub
from aa_review.core.util.errors import AAReviewError
from aa_review.qt.models import JsonTreeModel
from aa_review.qt.views._linked import Linked

__all__ = ["RowDetailPanel"]


class RowDetailPanel(Linked):
    """The selected row in full, read from disk by offset, as a JSON tree."""

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Row detail")
        self.title = QLabel("Select a row to see it in full.")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.title.setMinimumWidth(100)
        self.layout_.addWidget(self.title)
        self.model = JsonTreeModel(self)
        self.view = QTreeView()
        self.view.setObjectName("row_detail_view")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setColumnWidth(0, 240)  # fixed: measuring on every selection costs a frame
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
