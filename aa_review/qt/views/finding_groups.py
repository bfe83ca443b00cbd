"""FindingGroups: the findings counted per code, check, file or severity, beside the list.

A frequency view: 228 findings of one code are one line. Picking a line shows its
findings alone (the findings query gets ``field=value``); picking it again shows all.
The counts follow the findings query, except its own group term.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QLabel, QTableView, QVBoxLayout, QWidget

from aa_review.core.query import QueryError, set_term
from aa_review.core.session import FindingsState, QueryResult, ReviewSession, Scope
from aa_review.core.session.triage import (
    FindingGroup,
    group_findings,
    open_group,
    open_group_value,
)
from aa_review.qt.models.findings_table import SEVERITY_COLORS
from aa_review.qt.views._linked import select_table_row
from aa_review.qt.views._turns import Gate
from aa_review.qt.views.tables import make_table

__all__ = ["FindingGroups"]

_HEADERS = ("Group", "Findings", "Locations", "Worst")
# The key a header click sorts by: the worst severity by rank (then the findings), counts
# as numbers, the group's name case-blind; never the text shown.
_SORT = Qt.ItemDataRole.UserRole + 1


class FindingGroups(QWidget):
    """The groups of the field chosen in ``chooser`` (hidden while it says "No groups");
    what the session says comes through ``gate`` (the findings panel's)."""

    def __init__(self, session: ReviewSession, chooser: QComboBox, gate: Gate) -> None:
        super().__init__()
        self.session = session
        self.chooser = chooser
        self.groups: list[FindingGroup] = []
        self._syncing = False
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("")
        self.title.setObjectName("groups_title")
        lay.addWidget(self.title)
        self.model = QStandardItemModel(0, len(_HEADERS), self)
        self.model.setSortRole(_SORT)
        self.model.setHorizontalHeaderLabels(list(_HEADERS))
        self.view: QTableView = make_table(self.model, sortable=True, name="groups_view")
        lay.addWidget(self.view)
        self._moved = False  # the current line changed on this click: it opened the group
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.view.clicked.connect(self._clicked)
        chooser.currentIndexChanged.connect(lambda _i: self.refresh())
        session.events.findings_changed.connect(lambda st: gate.call(self._on_findings, st))
        session.events.query_changed.connect(lambda r: gate.call(self._on_result, r))
        self.setVisible(False)

    @property
    def field(self) -> str | None:
        data = self.chooser.currentData()
        return None if data is None else str(data)

    def _on_findings(self, state: FindingsState | None) -> None:
        if state is None or state.version == self.session.version:
            self.refresh()

    def _on_result(self, result: QueryResult) -> None:
        if result.scope is Scope.FINDINGS and result.version == self.session.version:
            self.refresh()

    def refresh(self) -> None:
        """Count the groups again: the findings query without its own group term."""
        field, state = self.field, self.session.findings
        self.setVisible(field is not None)
        if field is None or state is None:
            self._fill([])
            return
        text = set_term(self.session.query(Scope.FINDINGS), field, None)
        try:
            shown = state.prepared.findings.filter(text)
        except QueryError:
            shown = None
        self._fill(group_findings(state.index, shown, field))

    def _fill(self, groups: list[FindingGroup]) -> None:
        self._syncing = True
        try:
            self.groups = groups
            self.view.setSortingEnabled(False)
            self.model.removeRows(0, self.model.rowCount())
            for k, g in enumerate(groups):
                cells = [
                    QStandardItem(g.value),
                    QStandardItem(),
                    QStandardItem(),
                    QStandardItem(g.worst.value),
                ]
                cells[1].setData(g.count, Qt.ItemDataRole.DisplayRole)
                cells[2].setData(g.locations, Qt.ItemDataRole.DisplayRole)
                cells[3].setData(g.worst.rank, Qt.ItemDataRole.UserRole)
                cells[0].setData(g.value.casefold(), _SORT)
                cells[1].setData(g.count, _SORT)
                cells[2].setData(g.locations, _SORT)
                # ``groups`` come worst first (severity, then findings): descending, the
                # Worst column gives that order back; ascending, the least severe first.
                cells[3].setData(g.worst.rank * (len(groups) + 1) + len(groups) - k, _SORT)
                cells[3].setForeground(QBrush(QColor(SEVERITY_COLORS[g.worst])))
                cells[0].setData(k, Qt.ItemDataRole.UserRole)  # which group, however sorted
                cells[0].setToolTip(
                    f"{g.value}: {g.count:,} findings at {g.locations:,} "
                    "locations" + ("" if g.term else " (no query shows this group alone)")
                )
                for c in cells:
                    c.setEditable(False)
                self.model.appendRow(cells)
            self.view.setSortingEnabled(True)
            self.view.resizeColumnsToContents()
            self.view.setColumnWidth(0, min(self.view.columnWidth(0), 220))  # counts in view
            n = sum(g.count for g in groups)
            field = self.field or ""
            self.title.setText(
                f"{len(groups):,} {field} groups" if groups else "No findings to group"
            )
            if groups and field == "file":
                self.title.setText(self.title.text() + f" ({n:,} finding-file pairs)")
            current = open_group_value(self.session.query(Scope.FINDINGS), field)
            row = next(
                (
                    r
                    for r in range(self.model.rowCount())
                    if self.model.item(r, 0).text() == current
                ),
                None,
            )
            select_table_row(self.view, row)
        finally:
            self._syncing = False

    def group_at(self, table_row: int) -> FindingGroup:
        k = self.model.item(table_row, 0).data(Qt.ItemDataRole.UserRole)
        return self.groups[int(k)]

    def _current_changed(self, cur: QModelIndex, _prev: QModelIndex) -> None:
        if not self._syncing and cur.isValid():
            self._pick(cur.row())
            self._moved = True

    def _clicked(self, idx: QModelIndex) -> None:
        if self._moved:
            self._moved = False
            return
        self._pick(idx.row(), toggle=True)

    def _pick(self, table_row: int, toggle: bool = False) -> None:
        field = self.field
        if self._syncing or field is None or not 0 <= table_row < len(self.groups):
            return
        g = self.group_at(table_row)
        text = self.session.query(Scope.FINDINGS)
        if not toggle and open_group_value(text, field) == g.value:
            return  # the keyboard moved onto the open group: nothing to change
        self.session.set_query(Scope.FINDINGS, open_group(text, g, field))
