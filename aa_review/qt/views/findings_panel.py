"""FindingsPanel: loading problems and audit findings, filterable, each one navigable.

A finding may concern many rows: picking it selects all of them in the Rows view,
and the location bar steps through its locations one by one. The session works
out where each location points; this panel shows it and sends the intents.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QToolButton,
)

from aa_review.core.audits import findings_line
from aa_review.core.query import FINDING_FIELDS
from aa_review.core.session import (
    FindingsState,
    OpenPackage,
    QueryResult,
    ReviewSession,
    Scope,
    Selection,
)
from aa_review.core.session.triage import GROUP_FIELDS
from aa_review.qt.models.findings_table import FindingsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.finding_groups import FindingGroups
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.query_completion import session_completer
from aa_review.qt.views.shortcuts import SHORTCUTS
from aa_review.qt.views.tables import make_table

__all__ = ["FindingsPanel"]

_HELP = fields_help("findings", FINDING_FIELDS, "code, message or location")


class FindingsPanel(Linked):
    source = "findings"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Findings")
        self.summary = QLabel("No package.")
        self.summary.setWordWrap(True)
        self.layout_.addWidget(self.summary)
        self.query = QueryBar(
            'Filter findings: severity:error code:privacy file:… "text"',
            lambda text: session.set_query(Scope.FINDINGS, text, typed=True),
            _HELP,
            completer=session_completer(session, Scope.FINDINGS),
        )
        self.only_selection = QCheckBox("Only the selection")
        self.only_selection.setToolTip(
            "Show only findings about the selected row, evidence item or contract entry"
        )
        self.only_selection.toggled.connect(lambda on: session.set_only(Scope.FINDINGS, on))
        bar = QHBoxLayout()
        bar.addWidget(self.query, 1)
        bar.addWidget(self.only_selection)
        self.group_by = QComboBox()
        self.group_by.setObjectName("findings_group_by")
        self.group_by.addItem("No groups", None)
        for name in GROUP_FIELDS:
            self.group_by.addItem(f"Group by {name}", name)
        self.group_by.setToolTip(
            "Count the findings per code, check, file or severity; "
            "picking a group shows its findings alone"
        )
        bar.addWidget(self.group_by)
        self._location_bar(bar)  # on the same line: the table keeps the height
        self.layout_.addLayout(bar)
        self.model = FindingsTableModel(self)
        self.view = make_table(self.model, sortable=True, name="findings_view")
        self.groups = FindingGroups(session, self.group_by, self.gate)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("findings_split")
        split.addWidget(self.groups)
        split.addWidget(self.view)
        split.setStretchFactor(1, 3)
        split.setChildrenCollapsible(False)
        self.layout_.addWidget(split)
        self.split = split
        self.group_by.currentIndexChanged.connect(self._size_groups)
        self.state: FindingsState | None = None
        self.location_text = ""
        self._told: tuple[int, int] | None = None  # the location last put in the status bar
        self._hook_table(
            self.view, lambda r: session.select_finding(self.model.position(r), 0, self.source)
        )
        session.events.findings_changed.connect(
            lambda state: self.gate.call(self._on_findings, state)
        )
        session.events.auditing_changed.connect(lambda _on: self.gate.call(self._show_summary))
        self._show_location(session.selection.current)

    def _location_bar(self, bar: QHBoxLayout) -> None:
        self.prev_button = QToolButton()
        self.prev_button.setArrowType(Qt.ArrowType.LeftArrow)
        self.next_button = QToolButton()
        self.next_button.setArrowType(Qt.ArrowType.RightArrow)
        self.where = QLabel("")
        self.where.setObjectName("finding_location")
        self.all_button = QPushButton("Select its rows")
        s = self.session
        for button, name, tip, slot in (
            (
                self.prev_button,
                "finding_previous",
                "Previous location of the finding",
                lambda: s.step_location(-1, self.source),
            ),
            (
                self.next_button,
                "finding_next",
                "Next location of the finding",
                lambda: s.step_location(1, self.source),
            ),
            (
                self.all_button,
                None,
                "Select every row of the finding in the Rows view",
                lambda: s.select_finding_rows(self.source),
            ),
        ):
            button.clicked.connect(slot)
            key = SHORTCUTS[name] if name else None
            button.setToolTip(tip + (f" ({key})" if key else ""))
            if name:  # window-wide, so stepping works while the Rows view has the focus
                act = QAction(tip, self)
                act.setShortcut(QKeySequence(str(key)))
                act.setProperty("shortcut_name", name)
                act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
                act.triggered.connect(slot)
                self.addAction(act)
        for w in (self.prev_button, self.where, self.next_button, self.all_button):
            bar.addWidget(w)

    def _size_groups(self, _index: int) -> None:
        """Groups shown: a third of the width (at least what their counts need)."""
        if self.group_by.currentData() is not None:
            w = max(self.split.width(), 300)
            self.split.setSizes([max(w // 3, 260), w - max(w // 3, 260)])

    # -- what the session says --------------------------------------------------------
    def show_package(self, opened: OpenPackage | None) -> None:
        if opened is None:
            self._on_findings(None)

    def _on_findings(self, state: FindingsState | None) -> None:
        if state is not None and state.version != self.session.version:
            return
        self.state = state
        self.model.set_findings(
            state.findings if state else [], self.session.result(Scope.FINDINGS).positions
        )
        self.view.resizeColumnsToContents()
        self.view.setColumnWidth(3, min(self.view.columnWidth(3), 420))
        self._show_summary()
        self._show_location(self.session.selection.current)

    def show_result(self, result: QueryResult) -> None:
        if result.scope is not Scope.FINDINGS or self.state is None:
            return
        self.query.sync(result)
        self.model.set_shown(result.positions)
        self._show_summary()
        sel = self.session.selection.current
        if sel.finding is not None:
            select_table_row(self.view, self.model.table_row_of(sel.finding))

    def _base_summary(self) -> str:
        state = self.state
        if state is None:
            return "No package."
        if state.audited:
            return state.summary()
        if self.session.auditing:  # said while it runs, not "run Audit"
            loading = f" Loading: {findings_line(state.findings)}." if state.findings else ""
            return "Auditing… the findings show when every check has run." + loading
        if not state.findings:
            return "Loaded without problems. Run Audit (Ctrl+Shift+R) for a full check."
        return f"Loading: {findings_line(state.findings)}."

    def _show_summary(self) -> None:
        text = self._base_summary()
        state, result = self.state, self.session.result(Scope.FINDINGS)
        if (
            state is not None
            and result.positions is not None
            and result.count != len(state.findings)
        ):
            start = state.index.start
            locs = int((start[result.positions + 1] - start[result.positions]).sum())
            text += (
                f" Shown: {result.count:,} of {len(state.findings):,} findings, "
                f"at {locs:,} locations."
            )
        self.summary.setText(text)

    def follow(self, sel: Selection) -> None:
        self._show_location(sel)
        if sel.source != self.source and sel.finding is not None:
            select_table_row(self.view, self.model.table_row_of(sel.finding))

    def _show_location(self, sel: Selection) -> None:
        state = self.state
        i = sel.finding
        f = (
            state.findings[i]
            if state is not None and i is not None and i < len(state.findings)
            else None
        )
        n = len(f.locations) if f is not None else 0
        rows = (
            len(state.index.rows_of_finding(i)) if f is not None and state and i is not None else 0
        )
        for button in (self.prev_button, self.next_button):
            button.setEnabled(n > 1)
        self.all_button.setEnabled(rows > 0)
        self.all_button.setText(f"Select all {rows:,} rows" if rows > 1 else "Select its row")
        if f is None or i is None:
            self.where.setText("No finding picked")
            self.where.setToolTip(
                "Picking a finding selects all its rows; the arrows (F8, "
                "Shift+F8) step through its locations"
            )
            return
        k = sel.location or 0
        where = f.locations[k].short() or "(the package)"
        self.where.setText(f"Location {k + 1:,} of {n:,}")
        self.where.setToolTip(where)
        self.location_text = f"{f.code}, location {k + 1:,} of {n:,}: {where}"
        bar = getattr(self.window(), "statusBar", None)
        if bar is not None and self.window() is not self and self._told != (i, k):
            self._told = (i, k)  # the full place, where it fits
            bar().showMessage(self.location_text, 15000)
