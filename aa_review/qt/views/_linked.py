"""Base of the panels: follow the review session, never echo our own selection.

A panel shows what the session holds and sends it intents. It keeps the ``version``
of the package it shows and ignores a value computed for another one, so it never
indexes one package's rows with another's positions. What the session says reaches
it through its :class:`~aa_review.qt.views._turns.Gate`, which the window holds while
the panel's fill waits for its turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex
from PySide6.QtWidgets import QTableView, QVBoxLayout, QWidget

from aa_review.core.session import OpenPackage, QueryResult, ReviewSession, Selection
from aa_review.qt.views._turns import Gate

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["Linked", "select_table_row"]


def select_table_row(view: QTableView, table_row: int | None) -> None:
    """Select and scroll to ``table_row`` without emitting a user selection; None clears."""
    sm = view.selectionModel()
    if table_row is None:
        if sm.hasSelection() or sm.currentIndex().isValid():
            sm.clear()
        return
    idx = view.model().index(table_row, 0)
    if sm.currentIndex() == idx and sm.isRowSelected(table_row):
        return  # already there: no repaint, no scroll
    # setCurrentIndex scrolls to the row itself (autoScroll); a second scrollTo would
    # lay the viewport out twice.
    sm.setCurrentIndex(
        idx,
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    if not view.hasAutoScroll():
        view.scrollTo(idx)


class Linked(QWidget):
    """A panel bound to a session; ``_syncing`` guards against echoing our own selection.

    Subclasses override :meth:`show_package` (a package opened or closed),
    :meth:`show_result` (a query result for this version) and :meth:`follow`
    (the selection changed).
    """

    source = ""

    def __init__(self, session: ReviewSession, title: str) -> None:
        super().__init__()
        self.session = session
        self.pkg: Package | None = None
        self.version = 0
        self._syncing = False
        self.gate = Gate()
        self.setWindowTitle(title)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(4, 4, 4, 4)
        session.events.package_changed.connect(self._on_package)
        session.events.query_changed.connect(self._on_result)
        session.selection.changed.connect(self._on_selection)

    def _on_package(self, opened: OpenPackage | None) -> None:
        self.gate.call(self._package, opened)

    def _on_result(self, result: QueryResult) -> None:
        self.gate.call(self._result, result)

    def _on_selection(self, sel: Selection) -> None:
        self.gate.call(self._selection, sel)

    def _package(self, opened: OpenPackage | None) -> None:
        self.pkg = opened.package if opened is not None else None
        self.version = opened.version if opened is not None else self.session.version
        self._syncing = True
        try:
            self.show_package(opened)
        finally:
            self._syncing = False

    def _result(self, result: QueryResult) -> None:
        if result.version == self.version:
            self._syncing = True
            try:
                self.show_result(result)
            finally:
                self._syncing = False

    def _selection(self, sel: Selection) -> None:
        if self.session.version != self.version:
            return  # the package this selection is about is not shown here yet
        self._syncing = True
        try:
            self.follow(sel)
        finally:
            self._syncing = False

    def show_package(self, opened: OpenPackage | None) -> None:  # pragma: no cover
        pass

    def show_result(self, result: QueryResult) -> None:
        pass

    def follow(self, sel: Selection) -> None:  # pragma: no cover - overridden
        pass

    def _hook_table(self, view: QTableView, on_pick: Any) -> None:
        def changed(current: QModelIndex, _prev: QModelIndex) -> None:
            if not self._syncing and current.isValid():
                on_pick(current.row())

        view.selectionModel().currentRowChanged.connect(changed)
