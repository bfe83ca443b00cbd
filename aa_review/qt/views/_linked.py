"""Base of the linked views: follow the SelectionHub, never echo our own selection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex
from PySide6.QtWidgets import QTableView, QVBoxLayout, QWidget

from aa_review.core.session import Selection, SelectionHub

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["Linked", "select_table_row"]


def select_table_row(view: QTableView, table_row: int | None) -> None:
    """Select and scroll to ``table_row`` without emitting a user selection."""
    sm = view.selectionModel()
    if table_row is None:
        sm.clearSelection()
        return
    idx = view.model().index(table_row, 0)
    if sm.currentIndex() == idx and sm.isRowSelected(table_row):
        return  # already there: no repaint, no scroll
    # setCurrentIndex scrolls to the row itself (autoScroll); a second scrollTo would
    # lay the viewport out twice.
    sm.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                       | QItemSelectionModel.SelectionFlag.Rows)
    if not view.hasAutoScroll():
        view.scrollTo(idx)


class Linked(QWidget):
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


