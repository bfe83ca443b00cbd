"""Subsets in the window: made from rows picked in a table or brushed on a plot, shown in
every rows table and plot, used in the rows query, exported.

The subsets live in the session (``session.subsets``, Qt-free); this module only adapts:
a bar of commands above the rows, multi-selection in the tables turned into rows
selected together, and the active subset drawn in the rows tables. The bar talks to the
session and the runner; the window is seen only through :class:`SubsetHost`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from PySide6.QtCore import QItemSelection
from PySide6.QtGui import QAction, QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QTableView,
    QToolButton,
    QWidget,
)

from aa_review.core.query import QueryError
from aa_review.core.session import ReviewSession, Scope, Subset, run_export
from aa_review.core.session._subsets import evidence_cited_by, sorted_unique
from aa_review.qt.models import EvidenceTableModel, RowsTableModel

if TYPE_CHECKING:
    from aa_review.core.session import Runner
    from aa_review.qt.views._turns import Gate

__all__ = [
    "SubsetBar",
    "SubsetHost",
    "table_positions",
    "link_row_table",
    "link_evidence_table",
    "link_evidence_subset",
    "export_subset",
]

EXPORT_LANE = "export"


class SubsetHost(Protocol):
    """What the subsets need of the window: where their actions live, and its status
    bar and warnings."""

    def window(self, /) -> QWidget:
        """The window itself (``QWidget.window``): it owns the actions and dialogs."""
        ...

    def addAction(self, action: QAction, /) -> None: ...  # noqa: N802

    def status(self, text: str, ms: int = 6000) -> None: ...

    def warn(self, title: str, text: str) -> None: ...


def _swatch(color: str) -> QIcon:
    pix = QPixmap(12, 12)
    pix.fill(QColor(color))
    return QIcon(pix)


def several_picked(view: QTableView) -> bool:
    """Whether more than one table row is selected (without counting them)."""
    ranges = view.selectionModel().selection()
    n = ranges.size()
    return n > 1 or (n == 1 and ranges.at(0).bottom() > ranges.at(0).top())


def table_positions(view: QTableView, position: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The positions of the table rows selected in ``view``, sorted, from the selection's
    ranges: a range of a million rows is one slice of a mask, not a million Python
    calls. ``position`` maps table rows to positions, vectorised."""
    n = view.model().rowCount()
    mask = np.zeros(n, dtype=bool)
    ranges = view.selectionModel().selection()
    for i in range(ranges.size()):
        r = ranges.at(i)
        mask[max(0, r.top()) : min(n, r.bottom() + 1)] = True
    return sorted_unique(position(np.flatnonzero(mask)))


def _rows_of_table(model: RowsTableModel) -> Callable[[np.ndarray], np.ndarray]:
    def convert(table_rows: np.ndarray) -> np.ndarray:
        shown = model.positions_array()
        return table_rows if shown is None else np.asarray(shown)[table_rows]

    return convert


def link_row_table(
    session: ReviewSession, view: QTableView, model: RowsTableModel, source: str, gate: Gate
) -> None:
    """Several rows picked together (Ctrl/Shift+click) in a rows table are the rows
    selected together, shown in every view; the active subset is marked in the table
    (told through ``gate``, the table's panel's: the marks wait for the table's fill)."""
    view.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)

    def changed(_new: QItemSelection, _old: QItemSelection) -> None:
        if (
            model.row_index is None
            or session.package is None
            or model.row_index is not session.package.index
            or not several_picked(view)
        ):
            return
        rows = table_positions(view, _rows_of_table(model))
        if len(rows) > 1:
            session.select_rows(rows, source)

    view.selectionModel().selectionChanged.connect(changed)

    def show(_subsets: object = None) -> None:
        active = session.subsets.active
        model.set_subset(
            None if active is None else active.rows, None if active is None else active.color
        )

    session.subsets.changed.connect(lambda subsets: gate.call(show, subsets))
    model.modelReset.connect(show)


def link_evidence_table(
    session: ReviewSession, view: QTableView, position: Callable[[int], int], source: str
) -> None:
    """Several evidence items picked together select the rows citing any of them."""
    view.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)

    def changed(_new: QItemSelection, _old: QItemSelection) -> None:
        if session.package is None or not several_picked(view):
            return
        items = table_positions(view, np.vectorize(position, otypes=[np.int64]))
        if len(items) > 1:
            session.select_evidence_items(items, source)

    view.selectionModel().selectionChanged.connect(changed)


def link_evidence_subset(session: ReviewSession, model: EvidenceTableModel, gate: Gate) -> None:
    """Mark, in an evidence table, the items the active subset's rows cite (told
    through ``gate``, the table's panel's)."""
    cache: dict[int, np.ndarray] = {}

    def show(_subsets: object = None) -> None:
        pkg, active = session.package, session.subsets.active
        if pkg is None or active is None:
            model.set_subset(None)
            return
        key = id(active.rows)
        if key not in cache:
            cache.clear()
            cache[key] = evidence_cited_by(pkg.index, active.rows)
        model.set_subset(cache[key], active.color)

    session.subsets.changed.connect(lambda subsets: gate.call(show, subsets))
    model.modelReset.connect(show)


def export_subset(
    session: ReviewSession, runner: Runner, win: SubsetHost, name: str, path: Path | None = None
) -> None:
    """Write the rows of subset ``name`` (CSV or JSON Lines, query ``subset:name`` and
    the digest in the sidecar), in the background."""
    plan = session.subset_export_plan(name)
    if plan is None:
        return
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            win.window(),
            f"Export subset {name}",
            f"{plan.package.package_id}-{name}.csv",
            "CSV (*.csv);;JSON Lines (*.jsonl)",
        )
        if not chosen:
            return
        path = Path(chosen)
    target, version = Path(path), session.version

    def done(result: tuple[int, str]) -> None:
        n, digest = result
        session.set_digest(version, digest)
        win.status(f"Exported {n:,} rows of subset {name} to {target}", 8000)

    def failed(exc: BaseException) -> None:
        win.warn("Export failed", f"{target}: {exc}")

    runner.run(
        EXPORT_LANE, lambda job: run_export(plan, target, job.cancelled), done=done, failed=failed
    )


class SubsetBar(QWidget):
    """One line above the rows: the active subset, and the commands on subsets."""

    def __init__(self, session: ReviewSession, runner: Runner, win: SubsetHost) -> None:
        super().__init__()
        self.win = win
        self.session = s = session
        self.runner = runner
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Subset:"))
        self.combo = QComboBox()
        self.combo.setMinimumContentsLength(14)
        self.combo.setToolTip("The active subset, marked in the rows tables and the plots")
        self.combo.activated.connect(lambda i: s.subsets.activate(self.combo.itemData(i)))
        lay.addWidget(self.combo)
        self.actions_: dict[str, QAction] = {}
        for key, text, tip, slot in (
            (
                "new",
                "New Subset from Selected Rows",
                "Name the rows selected together (Ctrl/Shift+click in a table, a brush on "
                "the rows map, a finding's rows)",
                lambda: self.new_from_selection(),
            ),
            (
                "query",
                "New Subset from Filtered Rows",
                "Name the rows the query keeps",
                lambda: self.new_from_query(),
            ),
            (
                "select",
                "Select Subset Rows",
                "Select the subset's rows together",
                lambda: self._with_active(lambda n: s.select_subset(n, "subsets")),
            ),
            (
                "filter",
                "Filter Rows by Subset",
                "Set the rows query to subset:name",
                lambda: self._with_active(self.filter_by),
            ),
            (
                "export",
                "Export Subset…",
                "Write the subset's rows to CSV or JSON Lines",
                lambda: self._with_active(self.export),
            ),
            (
                "delete",
                "Delete Subset",
                "Forget the active subset",
                lambda: self._with_active(s.subsets.remove),
            ),
        ):
            act = QAction(text, win.window())
            act.setStatusTip(tip)
            act.setToolTip(tip)
            act.triggered.connect(slot)
            win.addAction(act)
            self.actions_[key] = act
            act.setIconText(
                {
                    "new": "New",
                    "query": "From query",
                    "select": "Select",
                    "filter": "Filter",
                    "export": "Export…",
                    "delete": "Delete",
                }[key]
            )  # what the button says
            button = QToolButton()
            button.setDefaultAction(act)
            button.setAutoRaise(True)
            lay.addWidget(button)
        lay.addStretch(1)
        s.subsets.changed.connect(self.refresh)
        self.refresh()

    def refresh(self, _subsets: object = None) -> None:
        subsets = self.session.subsets
        self.combo.blockSignals(True)
        self.combo.clear()
        for sub in subsets.all():
            self.combo.addItem(_swatch(sub.color), f"{sub.name} ({len(sub):,})", sub.name)
        if not len(subsets):
            self.combo.addItem("none: pick rows, then New", None)
        active = subsets.active
        if active is not None:
            self.combo.setCurrentIndex(subsets.names().index(active.name))
        self.combo.blockSignals(False)
        has = active is not None
        for key in ("select", "filter", "export", "delete"):
            self.actions_[key].setEnabled(has)

    def export(self, name: str, path: Path | None = None) -> None:
        """Write the rows of subset ``name`` (:func:`export_subset`)."""
        export_subset(self.session, self.runner, self.win, name, path)

    def _with_active(self, fn: Callable[[str], object]) -> None:
        active = self.session.subsets.active
        if active is not None:
            fn(active.name)

    def _ask_name(self, default: str) -> str | None:
        name, ok = QInputDialog.getText(
            self.win.window(), "New subset", "Name (used as subset:name):", text=default
        )
        return name.strip() if ok and name.strip() else None

    def new_from_selection(self, name: str | None = None) -> Subset | None:
        sel = self.session.selection.current
        if sel.rows is None and sel.row is None:
            self.win.status("Pick rows first: Ctrl/Shift+click in a table, or brush the rows map")
            return None
        return self._make(lambda n: self.session.make_subset(None, n), name)

    def new_from_query(self, name: str | None = None) -> Subset | None:
        return self._make(self.session.subset_from_query, name)

    def _make(self, make: Callable[[str], Subset | None], name: str | None) -> Subset | None:
        if self.session.package is None:
            return None
        if name is None:
            name = self._ask_name(self.session.subsets.next_name())
            if name is None:
                return None
        try:
            sub = make(name)
        except ValueError as exc:
            QMessageBox.warning(self.win.window(), "Subset name", str(exc))
            return None
        if sub is not None:
            self.win.status(f"Subset {sub.name}: {len(sub):,} rows (subset:{sub.name})")
        return sub

    def filter_by(self, name: str) -> None:
        try:
            self.session.set_query(Scope.ROWS, f"subset:{name}")
        except QueryError as exc:  # pragma: no cover - the name is one the store holds
            self.win.status(str(exc))
