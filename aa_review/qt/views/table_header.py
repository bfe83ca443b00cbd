"""Every table's header menu: fit the columns, choose the columns shown; widths that fit.

Ids of one kind share a long prefix (``row-failure_case-000…``), so the tables elide
text in the middle: the distinguishing end stays visible.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtWidgets import QMenu, QTableView

__all__ = ["install_header_menu", "header_menu", "fit_columns", "fit_widths", "lay_out_now"]


def install_header_menu(view: QTableView) -> None:
    """Right-click on the header: fit columns, and a check per column to show or hide it."""
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    header = view.horizontalHeader()
    # The header draws each section knowing whether its column is selected, which Qt
    # answers by asking every row: seconds once half a million rows are picked. Rows
    # are selected, never columns: the header gets a selection model of its own.
    if view.model() is not None:
        header.setSelectionModel(QItemSelectionModel(view.model(), header))
    header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    header.customContextMenuRequested.connect(
        lambda pos: header_menu(view).exec(header.mapToGlobal(QPoint(pos)))
    )


def header_menu(view: QTableView) -> QMenu:
    """The header's menu (built when asked: the columns are the model's now)."""
    menu = QMenu(view)
    menu.addAction("Fit Columns to Contents", lambda: fit_columns(view))
    menu.addAction("Fit Columns to Width", lambda: fit_widths(view))
    menu.addSeparator()
    header = view.horizontalHeader()
    model = view.model()
    n = model.columnCount() if model is not None else 0
    shown = sum(not header.isSectionHidden(c) for c in range(n))
    for col in range(n):
        title = str(
            model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
            or f"Column {col + 1}"
        )
        act = menu.addAction(title)
        act.setCheckable(True)
        visible = not header.isSectionHidden(col)
        act.setChecked(visible)
        act.setEnabled(not (visible and shown == 1))  # the last column shown stays
        act.toggled.connect(lambda on, c=col: _show_column(view, c, on))
    return menu


def _show_column(view: QTableView, col: int, on: bool) -> None:
    header = view.horizontalHeader()
    header.setSectionHidden(col, not on)
    if on and header.sectionSize(col) < 30:
        view.resizeColumnToContents(col)


def fit_columns(view: QTableView) -> None:
    """Each shown column as wide as its header and its first rows' contents."""
    header = view.horizontalHeader()
    header.setResizeContentsPrecision(40)  # measuring every row of a million costs seconds
    for col in range(header.count()):
        if not header.isSectionHidden(col):
            view.resizeColumnToContents(col)


def fit_widths(view: QTableView, widths: Sequence[int] | None = None, min_width: int = 48) -> None:
    """Shrink the shown columns (``widths``, else their present widths) in proportion so
    they fit the view's width; a column is never narrower than ``min_width`` or its
    header's text. Nothing grows: columns that already fit keep their widths."""
    header = view.horizontalHeader()
    cols = [c for c in range(header.count()) if not header.isSectionHidden(c)]
    want = {
        c: (widths[c] if widths is not None and c < len(widths) else header.sectionSize(c))
        for c in cols
    }
    bar = view.verticalScrollBar()
    # The scroll bar may appear only once the rows are laid out: leave room for it.
    avail = view.viewport().width() - 4 - (0 if bar.isVisible() else bar.sizeHint().width())
    total = sum(want.values())
    if not cols or total <= avail or avail <= 0:
        for c, w in want.items():
            header.resizeSection(c, w)
        return
    fm = header.fontMetrics()
    model = view.model()
    floor = {
        c: max(
            min_width,
            fm.horizontalAdvance(
                str(
                    model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                    or ""
                )
            )
            + 16,
        )
        for c in cols
    }
    slack = sum(max(0, want[c] - floor[c]) for c in cols)
    excess = total - avail
    for c in cols:
        give = max(0, want[c] - floor[c])
        cut = -(-excess * give // slack) if slack else 0  # rounded up: the sum fits
        header.resizeSection(c, max(floor[c], want[c] - cut))


def lay_out_now(view: QTableView, widths: Sequence[int] | None = None) -> None:
    """After a reset of ``view``'s model: lay it out and fit its columns (:func:`fit_widths`)
    at once, so that the next paint is its only one.

    Left to Qt, the reset's layout runs inside the first paint, and the ``update()`` it
    calls there asks for a second paint; each column resized (by the fitting, or by the
    stretched last column once the scroll bar's range is known) starts the table's
    zero-timer that repaints the whole viewport after that paint, a third. A paint of a
    table of many rows costs tens of milliseconds of the GUI thread.
    """
    view.doItemsLayout()  # the reset's layout now: the scroll bars are known before fitting
    header = view.horizontalHeader()
    was = header.blockSignals(True)  # no column-resize timer: updated below, once
    try:
        fit_widths(view, widths)
        view.updateGeometries()  # the stretched last column, the scroll bars
    finally:
        header.blockSignals(was)
    view.viewport().update()
