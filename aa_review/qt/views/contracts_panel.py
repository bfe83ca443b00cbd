"""ContractsPanel: each required output/artifact beside its real file, differences highlighted."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from aa_review.core import contracts
from aa_review.core.session import OpenPackage, ReviewSession, Selection
from aa_review.qt.models import JsonTreeModel
from aa_review.qt.models.artifact_table import ArtifactTableModel
from aa_review.qt.models.tuple_table import TupleTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.tables import make_table

__all__ = ["ContractsPanel"]


def _detail(d: contracts.Diff, group: tuple[str, ...]) -> str:
    """The message, with the line, and the contracts stating it when not all of them do."""
    where = f"line {d.line}: " if d.line else ""
    only = f" (only {', '.join(d.contracts)})" if set(d.contracts) < set(group) else ""
    return where + d.message + only


class ContractsPanel(Linked):
    """Contracts against artifacts. Selecting an entry selects the evidence item it was
    built from; selecting evidence selects the entries it backs."""

    source = "contracts"

    def __init__(self, session: ReviewSession) -> None:
        super().__init__(session, "Contracts")
        self.entries: list[contracts.ContractEntry] = []
        self.previews: list[contracts.Preview] = []
        self.list_model = TupleTableModel(("Entry", "Path", "Format", "Status"), 3)
        self.list_view = make_table(self.list_model, name="contracts_view")
        self.spec_model = JsonTreeModel(self)
        self.spec_view = QTreeView()
        self.spec_view.setModel(self.spec_model)
        self.file_label = QLabel("Select a contract entry.")
        self.file_label.setMinimumWidth(50)
        self.table_model = ArtifactTableModel(self)
        self.table_view = make_table(self.table_model, name="artifact_table_view")
        self.table_view.verticalHeader().setVisible(True)
        self.json_model = JsonTreeModel(self)
        self.json_view = QTreeView()
        self.json_view.setModel(self.json_model)
        self.text_view = QPlainTextEdit()
        self.text_view.setReadOnly(True)
        self.stack = QStackedWidget()
        for w in (self.table_view, self.json_view, self.text_view):
            self.stack.addWidget(w)
        self.diff_model = TupleTableModel(("Difference", "Where", "Detail"))
        self.diff_view = make_table(self.diff_model, name="contract_diffs_view")
        self.check_model = TupleTableModel(("Pre-final check", "Status", "Detail"), 1)
        self.check_view = make_table(self.check_model, name="checklist_view")

        side = QSplitter(Qt.Orientation.Horizontal)
        side.addWidget(self.spec_view)
        right = QWidget()
        right_lay = QVBoxLayout(right)
        right_lay.setContentsMargins(0, 0, 0, 0)
        right_lay.addWidget(self.file_label)
        right_lay.addWidget(self.stack, 1)
        side.addWidget(right)
        side.setSizes([260, 740])
        main = QSplitter(Qt.Orientation.Vertical)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.list_view)
        top.addWidget(side)
        top.setSizes([300, 1000])
        main.addWidget(top)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.diff_view)
        bottom.addWidget(self.check_view)
        main.addWidget(bottom)
        main.setSizes([700, 220])
        self.layout_.addWidget(main)
        self._shown_entry: int | None = None
        self._hook_table(self.list_view, self._picked)

    def show_package(self, opened: OpenPackage | None) -> None:
        view = opened.prepared.contracts if opened is not None else None
        self.entries = list(view.entries) if view else []
        self.previews = list(view.previews) if view else []
        self.show_changes(None)
        results = list(view.checklist) if view else []
        self.check_model.set_items(
            [(c.check_id, c.status, c.detail) for c in results],
            tooltips=[c.detail for c in results],
        )
        self.list_view.resizeColumnsToContents()
        self.check_view.resizeColumnsToContents()
        self._shown_entry = None
        self._show(None)

    def show_changes(self, changes: list[str] | None) -> None:
        """Compare mode: each entry's change against the baseline (None: not comparing)."""
        header = ("Entry", "Path", "Format", "Status", *(("Change",) if changes else ()))
        self.list_model.header = header
        self.list_model.set_items(
            [
                (e.key, e.item.path, p.format, p.status, *((changes[i],) if changes else ()))
                for i, (e, p) in enumerate(zip(self.entries, self.previews, strict=True))
            ],
            tooltips=[p.note for p in self.previews],
        )

    def _picked(self, row: int) -> None:
        self._show(row)
        self.session.select_contract(row, self.source)

    def _show(self, row: int | None) -> None:
        self._shown_entry = row
        if row is None:
            self.spec_model.set_value({})
            self.table_model.set_preview(None)
            self.diff_model.set_items([])
            self.file_label.setText("Select a contract entry.")
            return
        e, pv = self.entries[row], self.previews[row]
        self.spec_model.set_value(e.item.model_dump(exclude_none=True))
        self.spec_view.expandAll()
        verdict = (
            pv.note
            if not pv.compared
            else "matches its contract"
            if pv.ok
            else f"{len(pv.diffs)} difference(s)"
        )
        rows = f", {pv.row_count} data rows" if pv.format in ("csv", "tsv") else ""
        self.file_label.setText(f"{e.artifact_ref or '(no file)'}{rows}: {verdict}")
        self.file_label.setToolTip(self.file_label.text())
        if pv.format in ("csv", "tsv"):
            self.table_model.set_preview(pv)
            self.stack.setCurrentWidget(self.table_view)
        elif pv.format == "json" and not pv.text:
            self.json_model.set_value(pv.value if pv.value is not None else {})
            self.stack.setCurrentWidget(self.json_view)
        else:
            self.text_view.setPlainText(pv.text)
            self.stack.setCurrentWidget(self.text_view)
        self.diff_model.set_items(
            [(str(d.kind), d.field or "", _detail(d, e.group)) for d in pv.diffs]
        )
        self.diff_view.resizeColumnsToContents()

    def follow(self, sel: Selection) -> None:
        view = self.session.contracts
        if sel.source == self.source or view is None:
            return
        target = view.entry_named(sel.contract)
        ev = self.pkg.evidence_at(sel.evidence) if self.pkg and sel.evidence is not None else None
        if ev is not None and (target is None or self.entries[target].artifact_ref != ev.ref):
            # The evidence moved on: show the first entry it backs, if any.
            backed = view.entry_backed_by(ev.ref)
            target = backed if backed is not None else target
        if target is not None and target != self._shown_entry:
            select_table_row(self.list_view, target)
            self._show(target)
