"""Compare mode in the window: the open package against a baseline package.

The commands (open, swap and close the baseline, compare findings) are the core's
:class:`~aa_review.core.session.CompareController`; what is listed and said is the
core's too (:func:`~aa_review.core.session.list_changes`). :class:`ComparePanel` shows
the changes the rows query keeps (removed rows from the baseline), and the selected row
or evidence item from both packages side by side, the differing fields marked.
:func:`install_compare` adds the panel's dock, the File menu's commands and the Change
columns of the rows and evidence tables to a window, seen through :class:`CompareHost`.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QMenuBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from aa_review.core.session import (
    MAX_LISTED,
    NO_BASELINE,
    SIDE_LANE,
    CompareController,
    CompareView,
    Comparison,
    OpenPackage,
    PreparedComparison,
    QueryResult,
    ReviewSession,
    Scope,
    Selection,
    SideBySide,
    compare_summary,
    contract_changes,
    evidence_side_by_side,
    list_changes,
    side_by_side,
    side_caption,
)
from aa_review.core.util.errors import AAReviewError
from aa_review.qt.models.rows_table import CHANGE_COLORS, CHANGE_COLUMN
from aa_review.qt.models.tuple_table import TupleTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.session import Runner
    from aa_review.qt.controller import WindowController
    from aa_review.qt.views.contracts_panel import ContractsPanel
    from aa_review.qt.views.evidence_panels import EvidencePanel
    from aa_review.qt.views.rows_panel import RowsPanel

__all__ = [
    "ComparePanel",
    "ChangesModel",
    "SideBySideModel",
    "install_compare",
    "add_compare_actions",
    "CompareHost",
    "MAX_LISTED",
]

log = logging.getLogger(__name__)


class ChangesModel(TupleTableModel):
    """The listed changes; the first column coloured by kind."""

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == 0:
            color = CHANGE_COLORS.get(str(self.items[index.row()][0]))
            return QBrush(QColor(color)) if color else None
        return super().data(index, role)


class SideBySideModel(TupleTableModel):
    """Field | baseline | this package; the differing lines drawn marked."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(("", "Field", "Baseline", "This package"), None, parent)
        self.differs: list[bool] = []

    def show(self, view: SideBySide | None, only_differing: bool = False) -> None:
        lines = view.lines if view is not None else ()
        if only_differing:
            lines = tuple(ln for ln in lines if ln.differs)
        self.differs = [ln.differs for ln in lines]
        self.set_items(
            [
                (
                    "≠" if ln.differs else "",
                    ln.path,
                    "(absent)" if ln.old is None else ln.old,
                    "(absent)" if ln.new is None else ln.new,
                )
                for ln in lines
            ],
            tooltips=[f"{ln.path}\nbaseline: {ln.old}\nthis package: {ln.new}" for ln in lines],
        )

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.BackgroundRole and index.isValid() and self.differs[index.row()]:
            color = QColor(CHANGE_COLORS["changed"])
            color.setAlpha(70)
            return QBrush(color)
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == 0:
            return QBrush(QColor(CHANGE_COLORS["changed"]))
        if role == Qt.ItemDataRole.FontRole and index.isValid() and self.differs[index.row()]:
            font = QGuiApplication.font()
            font.setBold(True)
            return font
        return super().data(index, role)


class ComparePanel(Linked):
    """The changes against the baseline, and the selection from both packages side by side."""

    source = "compare"

    def __init__(self, session: ReviewSession, runner: Runner) -> None:
        super().__init__(session, "Compare")
        self.runner = runner
        self.summary = QLabel(NO_BASELINE)
        self.summary.setObjectName("compare_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        self.close_button = QPushButton("Close Baseline")
        self.close_button.setToolTip("Leave compare mode")
        self.close_button.setEnabled(False)
        self.findings_button = QPushButton("Compare Findings")
        self.findings_button.setToolTip(
            "Audit both packages and list the findings that are new, fixed or persisting"
        )
        self.findings_button.setEnabled(False)
        self.swap_button = QPushButton("Swap")
        self.swap_button.setToolTip(
            "Open the baseline as the package and compare it with the package open now"
        )
        self.swap_button.setEnabled(False)
        buttons = QVBoxLayout()
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.swap_button)
        buttons.addWidget(self.findings_button)
        buttons.addStretch(1)
        bar.addLayout(buttons)
        self.layout_.addLayout(bar)
        # Which folder is which: the package open (the new side) and its baseline.
        self.folders = QLabel("")
        self.folders.setObjectName("compare_folders")
        self.folders.setWordWrap(True)
        self.folders.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addWidget(self.folders)
        self.note = QLabel("")
        self.note.setObjectName("compare_note")
        self.note.setWordWrap(True)
        self.layout_.addWidget(self.note)
        self.model = ChangesModel(
            ("Change", "What", "Id", "Baseline", "This package", "Changed fields")
        )
        self.view = make_table(self.model, name="compare_view")
        self.title = QLabel("")
        self.title.setObjectName("compare_title")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sides = SideBySideModel(self)
        self.side_view = make_table(self.sides, name="compare_side_view")
        self.side_view.setWordWrap(False)
        lower = QWidget()
        lower_lay = QVBoxLayout(lower)
        lower_lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        self.only_differing = QCheckBox("Differing fields only")
        self.only_differing.setToolTip("Show only the fields whose values differ")
        self.only_differing.toggled.connect(
            lambda _on: self.sides.show(self.shown_view, self.only_differing.isChecked())
        )
        head.addWidget(self.only_differing, 0, Qt.AlignmentFlag.AlignTop)
        lower_lay.addLayout(head)
        lower_lay.addWidget(self.side_view, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self.view)
        split.addWidget(lower)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        self.layout_.addWidget(split, 1)
        self._targets: list[tuple[str, int | None, int | None, str]] = []
        # What the list was made from: a comparison change is followed by the rows
        # result it was evaluated with, and the list is made once for both.
        self._listed_from: tuple[Any, ...] = ()
        self._shown: tuple[Any, ...] | None = None
        self._last: Selection = Selection()
        self.shown_view: SideBySide | None = None
        self.commands: CompareController | None = None  # set by install_compare
        self.compare_actions: tuple[QAction, QAction] | None = None
        self._hook_table(self.view, self._pick)
        session.events.baseline_changed.connect(self._on_baseline)
        for col, width in enumerate((90, 70, 260, 150, 150)):
            self.view.setColumnWidth(col, width)
        header = self.side_view.horizontalHeader()
        header.setStretchLastSection(False)
        for col, width in enumerate((22, 200)):
            self.side_view.setColumnWidth(col, width)
        for col in (2, 3):  # both versions share what is left, side by side
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)

    @property
    def prepared(self) -> PreparedComparison | None:
        c = self.session.comparison
        return c.prepared if c is not None and c.version == self.session.version else None

    # -- what the session says -------------------------------------------------------------
    def show_package(self, opened: OpenPackage | None) -> None:
        self._refresh()

    def show_result(self, result: QueryResult) -> None:
        if result.scope is Scope.ROWS:
            self._refresh_list()

    def _on_baseline(self, c: Comparison | None) -> None:
        self._refresh()
        if c is not None and c.baseline_row is not None and self.prepared is not None:
            self._show_row(None, c.baseline_row)

    def _refresh(self) -> None:
        c, p = self.session.comparison, self.prepared
        self.close_button.setEnabled(c is not None)
        self.swap_button.setEnabled(c is not None)
        self.findings_button.setEnabled(p is not None)
        pkg = self.session.package
        self.folders.setText(
            ""
            if c is None or pkg is None
            else f"Open (new): {pkg.root}\nBaseline (old): {c.baseline.root}"
        )
        self.summary.setText(compare_summary(c, p))
        self.summary.setToolTip("" if c is None else f"Baseline: {c.baseline.root}")
        self._refresh_list()
        if c is None or p is None:
            self._show(None, "")

    def _refresh_list(self) -> None:
        p = self.prepared
        if p is None:
            self._targets = []
            self._listed_from = ()
            self.model.set_items([])
            self.note.setText("")
            return
        c = self.session.comparison
        fd = c.findings if c is not None else None
        result = self.session.result(Scope.ROWS)
        made_from = (p, result, fd)
        if len(self._listed_from) == len(made_from) and all(
            a is b for a, b in zip(self._listed_from, made_from, strict=True)
        ):
            self._follow_list(self.session.selection.current)
            return
        listing = list_changes(
            p,
            fd,
            self.session.query(Scope.ROWS),
            result.positions,
            query_failed=result.error is not None,
        )
        note = listing.note
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self._targets = listing.targets
        self._listed_from = made_from
        self.model.set_items(listing.items)
        self._follow_list(self.session.selection.current)

    # -- picking in the list ------------------------------------------------------------
    def _pick(self, table_row: int) -> None:
        if not 0 <= table_row < len(self._targets):
            return
        what, new_pos, old_pos, key = self._targets[table_row]
        pkg = self.session.package
        if what == "row":
            if new_pos is not None:
                self.session.select_row(new_pos, self.source)
                self._show_row(new_pos, old_pos)
            elif old_pos is not None:
                self.session.select_baseline_row(old_pos, self.source)
        elif what == "evidence" and pkg is not None:
            pos = pkg.index.evidence_pos.get(key)
            if pos is not None:
                self.session.select_evidence(pos, self.source)
            self._show_evidence(key)

    # -- following the selection ---------------------------------------------------------------
    def follow(self, sel: Selection) -> None:
        last, self._last = self._last, sel
        if self.prepared is None:
            return
        self._follow_list(sel)
        if sel.source == self.source:
            return
        pkg = self.session.package
        if sel.row is not None and sel.row != last.row:
            self._show_row(sel.row, self.prepared.baseline_row_of(sel.row))
        elif sel.evidence is not None and sel.evidence != last.evidence and pkg is not None:
            self._show_evidence(pkg.index.evidence_ids[sel.evidence])

    def _follow_list(self, sel: Selection) -> None:
        if sel.source == self.source:
            return
        found = None
        if sel.row is not None:
            found = next(
                (i for i, t in enumerate(self._targets) if t[0] == "row" and t[1] == sel.row), None
            )
        select_table_row(self.view, found)

    def _show_row(self, new_pos: int | None, old_pos: int | None) -> None:
        p = self.prepared
        if p is None:
            return
        want = ("row", self.session.version, id(p), new_pos, old_pos)
        if want == self._shown:
            return
        self._shown = want
        self.title.setText("Reading both versions…")

        def done(view: SideBySide) -> None:
            if self._shown == want:
                self._show(view, "row")

        def failed(exc: BaseException) -> None:
            if self._shown != want:
                return
            if not isinstance(exc, (AAReviewError, OSError)):
                log.error("reading a row to compare failed", exc_info=exc)
            self.title.setText(f"Cannot read the row: {exc}")
            self.sides.show(None)

        self.runner.run(
            SIDE_LANE, lambda _job: side_by_side(p, new_pos, old_pos), done=done, failed=failed
        )

    def _show_evidence(self, evidence_id: str) -> None:
        p = self.prepared
        if p is None:
            return
        self._shown = ("evidence", self.session.version, id(p), evidence_id)
        self.runner.cancel(SIDE_LANE)
        view = evidence_side_by_side(p, evidence_id)
        if view is None:
            self.shown_view = None
            self.title.setText(f"Evidence {evidence_id}: the same in the baseline.")
            self.sides.show(None)
            return
        self._show(view, "evidence")

    def _show(self, view: SideBySide | None, what: str) -> None:
        self.shown_view = view
        self.sides.show(view, self.only_differing.isChecked())
        if view is None:
            self.title.setText("")
            return
        self.title.setText(side_caption(view, what))
        first = next((i for i, d in enumerate(self.sides.differs) if d), None)
        if first is None:
            self.side_view.scrollToTop()
        else:  # once laid out: the first differing field at the top
            index = self.sides.index(first, 1)
            QTimer.singleShot(
                0, lambda: self.side_view.scrollTo(index, QTableView.ScrollHint.PositionAtTop)
            )


class CompareHost(CompareView, Protocol):
    """What compare mode needs of the window: its docks (the Compare dock joins them),
    room made for it, the File menu and where the actions live; and, as the
    controller's :class:`~aa_review.core.session.CompareView`, its status bar and
    warnings. The rest comes from the window's controller and the tables it is given."""

    @property
    def docks(self) -> MutableMapping[str, QDockWidget]: ...

    def window(self, /) -> QWidget:
        """The window itself (``QWidget.window``): it owns the dock, actions and dialog."""
        ...

    def width(self, /) -> int: ...

    def menuBar(self, /) -> QMenuBar: ...  # noqa: N802

    def addAction(self, action: QAction, /) -> None: ...  # noqa: N802

    def addDockWidget(  # noqa: N802
        self, area: Qt.DockWidgetArea, dockwidget: QDockWidget, /
    ) -> None: ...

    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget, /) -> None: ...  # noqa: N802

    def resizeDocks(  # noqa: N802
        self, docks: Sequence[QDockWidget], sizes: Sequence[int], orientation: Qt.Orientation, /
    ) -> None: ...


def install_compare(
    win: CompareHost,
    controller: WindowController,
    rows: RowsPanel,
    evidence: EvidencePanel,
    contracts: ContractsPanel,
) -> ComparePanel:
    """The Compare dock (hidden until a baseline is open) and its commands, in ``win``;
    the Change columns of ``rows``, ``evidence`` and ``contracts`` while comparing. The
    commands open packages through ``controller``, and its Cancel stops them too."""
    session, runner = controller.session, controller.runner
    panel = ComparePanel(session, runner)
    panel.setMinimumWidth(180)
    dock = QDockWidget(panel.windowTitle(), win.window())
    dock.setObjectName("dock_compare")
    dock.setWidget(panel)
    win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    win.docks["compare"] = dock
    commands = CompareController(session, win, runner, controller.audit_niceness, controller.open)
    panel.commands = commands
    panel.close_button.clicked.connect(lambda: commands.close_baseline())
    controller.open_gave_up.append(commands.open_gave_up)
    controller.cancel_also.append(commands.cancel)
    panel.swap_button.clicked.connect(commands.swap)
    panel.findings_button.clicked.connect(commands.compare_findings)

    sizes_before: list[int] = []

    def rows_changes(p: PreparedComparison | None) -> None:
        rows.model.set_changes(p.row_kind if p else None, p.masks["linked"] if p else None)
        header = rows.view.horizontalHeader()
        if p is not None and header.visualIndex(CHANGE_COLUMN) > 1:
            header.moveSection(header.visualIndex(CHANGE_COLUMN), 1)  # beside the row id
            rows.view.setColumnWidth(CHANGE_COLUMN, 110)

    def on_baseline(c: Comparison | None) -> None:
        p = c.prepared if c is not None and c.version == session.version else None
        # Each table's Change column waits, as the table does, for its fill (_turns).
        rows.gate.call(rows_changes, p)
        evidence.gate.call(
            evidence.model.set_changes,
            {k: e.kind for k, e in p.evidence.items()} if p else None,
        )
        contracts.gate.call(
            lambda: contracts.show_changes(contract_changes(p, contracts.entries) if p else None)
        )
        if c is not None and not dock.isVisible():
            detail, below = win.docks["detail"], win.docks["row_evidence"]
            sizes_before[:] = [detail.width(), detail.height(), below.height()]
            if not dock.isFloating() and win.docks["detail"].isVisible():
                win.tabifyDockWidget(win.docks["detail"], dock)
            dock.show()
            dock.raise_()
            # both versions side by side need room: most of the right-hand column
            QTimer.singleShot(0, lambda: _make_room(win, dock))
        elif c is None and dock.isVisible():
            dock.hide()
            if sizes_before:  # the right-hand column as it was before comparing
                width, high, low = sizes_before
                detail, below = win.docks["detail"], win.docks["row_evidence"]
                win.resizeDocks([detail], [width], Qt.Orientation.Horizontal)
                win.resizeDocks([detail, below], [high, low], Qt.Orientation.Vertical)
                sizes_before.clear()
                detail.raise_()
        compare_close.setEnabled(c is not None)

    def choose() -> None:
        start = str(controller.prefs.value("last_dir", str(Path.home())))
        path = QFileDialog.getExistingDirectory(
            win.window(), "Compare with a baseline package", start
        )
        if path:
            commands.open_baseline(Path(path))

    compare_open = QAction("Compare &With…", win.window())
    compare_open.setStatusTip("Open a second package as the baseline and show what changed")
    compare_open.triggered.connect(choose)
    compare_close = QAction("Close &Baseline", win.window())
    compare_close.setStatusTip("Leave compare mode")
    compare_close.triggered.connect(lambda: commands.close_baseline())
    compare_close.setEnabled(False)
    panel.compare_actions = (compare_open, compare_close)
    session.events.baseline_changed.connect(on_baseline)
    return panel


def _make_room(win: CompareHost, dock: QDockWidget) -> None:
    h, v = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
    win.resizeDocks([dock], [max(440, int(win.width() * 0.4))], h)
    below = win.docks["row_evidence"]
    if below.isVisible() and not below.isFloating() and not dock.isFloating():
        column = dock.height() + below.height()
        win.resizeDocks([dock, below], [int(column * 0.75), int(column * 0.25)], v)


def add_compare_actions(win: CompareHost, panel: ComparePanel, before: QAction) -> None:
    """Put Compare With… and Close Baseline in the File menu, before ``before`` (the
    window's Cancel stops the baseline's loading too: :func:`install_compare`)."""
    assert panel.compare_actions is not None
    file_menu = next(
        m
        for a in win.menuBar().actions()
        if isinstance(m := a.menu(), QMenu) and before in m.actions()
    )
    for act in panel.compare_actions:
        win.addAction(act)
        file_menu.insertAction(before, act)
    # A layout saved while comparing would show the dock at the next start, with nothing
    # to compare: it is shown when a baseline opens.
    dock = win.docks["compare"]
    QTimer.singleShot(0, lambda: dock.hide() if panel.session.comparison is None else None)
