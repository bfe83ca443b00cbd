"""The dossier panel's tabs: gates, the journal as a timeline, denials, revisions, figures,
and the actions a merge left not applied (spec 10.6)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from aa_review.core import dossier as dz
from aa_review.qt.views.dossier_plots import DossierPlots
from aa_review.qt.views.dossier_tables import ThemedTableModel
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.qt.views.dossier_panel import DossierPanel

__all__ = ["DossierTabs"]

GATE_HEADER = ("Gate", "Status", "Title", "What is missing or wrong, and what would satisfy it")
JOURNAL_HEADER = ("When (UTC)", "Who (role)", "What", "Outcome", "State change", "Signed by (key)")
NOT_APPLIED_HEADER = ("When (UTC)", "Who (role)", "What", "Dossier", "Key", "Status")
DENIAL_HEADER = ("When (UTC)", "Who (role)", "Operation", "Target", "Decision", "Reason")
HISTORY_HEADER = ("Revision", "State", "Created", "By", "Supersedes")


def _text_label() -> QLabel:
    """A wrapping label whose text can be selected (and copied)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class _RefitOnResize(QObject):
    """Fits a table's columns to its width again whenever its viewport is resized."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self._view = view
        view.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Resize:
            from aa_review.qt.views.dossier_render import fit_columns

            fit_columns(self._view)
        return False


class DossierTabs(QTabWidget):
    """Gates first; the rest one click away. Models are the panel's to fill."""

    def __init__(self, panel: DossierPanel) -> None:
        super().__init__()
        self.panel = panel
        self.gate_model = ThemedTableModel(GATE_HEADER, 1)
        self.gate_view = make_table(self.gate_model, name="gate_view")
        self.gate_view.selectionModel().currentRowChanged.connect(
            lambda cur, _p: (
                panel.gate_selected.emit(self.gate_model.items[cur.row()][0])
                if cur.isValid()
                else None
            )
        )
        self.addTab(self.gate_view, "Gates")
        self.addTab(self._journal_tab(), "Journal")
        self.addTab(self._denial_tab(), "Denial log")
        self.history_model = ThemedTableModel(HISTORY_HEADER, 1)
        self.addTab(make_table(self.history_model, name="history_view"), "Revisions")
        self.figures = self._figures_tab()
        self.addTab(self.figures, "Figures")
        self.not_applied_tab = self._not_applied_tab()
        self.addTab(self.not_applied_tab, "Not applied")
        # The window must leave the gate table room for all eleven gates (docks yield).
        self.setMinimumHeight(self.gates_height())
        self._pending_plots: tuple[Any, Any] | None = None
        self.currentChanged.connect(lambda _i: self._draw_plots())

    # -- construction ------------------------------------------------------------------
    def _journal_tab(self) -> QWidget:
        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(0, 4, 0, 0)
        self.journal_status = _text_label()
        lay.addWidget(self.journal_status)
        row = QHBoxLayout()
        self.order_box = QComboBox()
        self.order_box.addItem("Newest first", "newest")
        self.order_box.addItem("Oldest first", "oldest")
        self.order_box.setToolTip("Order of the entries")
        self.only_dossier = QCheckBox("Only this dossier")
        self.only_dossier.setChecked(True)
        self.journal_count = QLabel()
        row.addWidget(self.order_box)
        row.addWidget(self.only_dossier)
        row.addWidget(self.journal_count, 1)
        lay.addLayout(row)
        split = QSplitter(Qt.Orientation.Vertical)
        self.journal_model = ThemedTableModel(JOURNAL_HEADER, 3)
        self.journal_view = make_table(self.journal_model, name="journal_view")
        # Every column in view when the tab is narrow (1366x768): the longest give way.
        self._fit_journal = _RefitOnResize(self.journal_view)
        self.journal_view.selectionModel().currentRowChanged.connect(
            lambda cur, _p: self._show_entry(cur.row() if cur.isValid() else -1)
        )
        # New entries (another dossier, a step taken): the detail shows the entry still
        # current, or nothing; never an entry of the rows that were replaced.
        self.journal_model.modelReset.connect(
            lambda: self._show_entry(self.journal_view.currentIndex().row())
        )
        self.entry_detail = QPlainTextEdit()
        self.entry_detail.setReadOnly(True)
        self.entry_detail.setPlaceholderText(
            "Select an entry to see its digest, signature and payload."
        )
        self.journal_view.setMinimumHeight(60)
        self.entry_detail.setMinimumHeight(30)
        split.addWidget(self.journal_view)
        split.addWidget(self.entry_detail)
        split.setSizes([300, 90])
        lay.addWidget(split, 1)
        self.order_box.currentIndexChanged.connect(lambda _i: self.panel._render())
        self.only_dossier.toggled.connect(lambda _b: self.panel._render())
        return tab

    def _denial_tab(self) -> QWidget:
        """The denial log, and an explicit way to ask for a deferred operation (always denied)."""
        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(0, 4, 0, 0)
        row = QGridLayout()
        self.operation_box = QComboBox()
        for op in sorted(dz.DEFERRED_OPERATIONS):
            self.operation_box.addItem(op.replace("_", " "), op)
        self.attempt_button = QPushButton("Request as the acting principal…")
        self.attempt_button.setToolTip(
            "Every deferred operation is denied and journaled, in every state: eligible "
            "grants nothing (spec 7.5, 8). You confirm first; the denial is permanent."
        )
        self.attempt_button.clicked.connect(
            lambda: self.panel.attempt_operation(self.operation_box.currentData())
        )
        self.denials_only_dossier = QCheckBox("Only requests naming this dossier")
        self.denials_only_dossier.setChecked(True)
        self.denials_only_dossier.toggled.connect(lambda _b: self.panel._render())
        row.addWidget(QLabel("Deferred operation:"), 0, 0)
        row.addWidget(self.operation_box, 0, 1)
        row.addWidget(self.attempt_button, 0, 2)
        row.addWidget(self.denials_only_dossier, 1, 0, 1, 3)
        row.setColumnStretch(1, 1)
        lay.addLayout(row)
        self.denial_model = ThemedTableModel(DENIAL_HEADER, 4)
        self.denial_view = make_table(self.denial_model, name="denial_view")
        lay.addWidget(self.denial_view, 1)
        return tab

    def _not_applied_tab(self) -> QWidget:
        """Actions of a concurrent branch that lost a fork, and their author's two ways out."""
        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(0, 4, 0, 0)
        # One line, not wrapped: a wrapping label would make the tabs trade height for
        # width and take the verdict's lines (the whole sentence is in the tooltip).
        self.not_applied_note = QLabel(
            "Kept apart after a merge: every reader keeps the same branch; only an action's "
            "author can redo or withdraw it."
        )
        self.not_applied_note.setToolTip(
            "After a merge of concurrent work, every reader keeps the same branch; the "
            "other branch's actions stay here, never deleted, until their author redoes "
            "or withdraws them, each by an entry of their own (spec 10.6)."
        )
        lay.addWidget(self.not_applied_note)
        self.not_applied_model = ThemedTableModel(NOT_APPLIED_HEADER, 5)
        self.not_applied_view = make_table(self.not_applied_model, name="not_applied_view")
        self._fit_not_applied = _RefitOnResize(self.not_applied_view)
        self.not_applied_view.selectionModel().currentRowChanged.connect(
            lambda _c, _p: self.show_not_applied_choice()
        )
        lay.addWidget(self.not_applied_view, 1)
        row = QHBoxLayout()
        self.redo_button = QPushButton("Redo on the kept branch…")
        self.redo_button.setObjectName("redo_button")
        self.withdraw_button = QPushButton("Withdraw…")
        self.withdraw_button.setObjectName("withdraw_button")
        self.redo_button.clicked.connect(lambda: self._resolve("redo"))
        self.withdraw_button.clicked.connect(lambda: self._resolve("withdraw"))
        self.not_applied_why = QLabel()
        self.not_applied_why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.redo_button)
        row.addWidget(self.withdraw_button)
        row.addWidget(self.not_applied_why, 1)
        lay.addLayout(row)
        self.show_not_applied_choice()
        return tab

    def selected_not_applied(self) -> dz.NotAppliedView | None:
        """The chosen not-applied action (the first when none is chosen), or None."""
        views = self.not_applied_model.payloads
        cur = self.not_applied_view.currentIndex()
        row = cur.row() if cur.isValid() else 0
        found = views[row] if 0 <= row < len(views) else None
        return found if isinstance(found, dz.NotAppliedView) else None

    def show_not_applied_choice(self) -> None:
        """Enable Redo and Withdraw for the chosen action as its view allows, else say why."""
        na = self.selected_not_applied()
        busy = bool(getattr(getattr(self.panel, "worker", None), "busy", False))
        self.redo_button.setEnabled(na is not None and na.can_redo and not busy)
        self.withdraw_button.setEnabled(na is not None and na.can_withdraw and not busy)
        why = "" if na is None else na.why_not
        self.not_applied_why.setText(why)
        for b in (self.redo_button, self.withdraw_button):
            b.setToolTip(why or "Signed by you, as a new entry; the action stays listed.")

    def _resolve(self, how: str) -> None:
        na = self.selected_not_applied()
        if na is not None:
            self.panel.resolve_not_applied(how, na)

    def _figures_tab(self) -> QWidget:
        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(0, 4, 0, 0)
        self.metrics = _text_label()
        lay.addWidget(self.metrics)
        self.plots = DossierPlots()
        self.plots.setMinimumHeight(120)
        lay.addWidget(self.plots, 1)
        return tab

    # -- sizes and contents --------------------------------------------------------------
    def gates_height(self) -> int:
        """Height this widget needs to show all eleven gates without scrolling.

        Its own chrome (tab bar, frames, the table's header) as laid out now, plus
        eleven rows: every page of the tabs has the gate table's size.
        """
        view = self.gate_view
        rows = view.verticalHeader().defaultSectionSize() * 11
        # A hidden page is not laid out again: its viewport keeps an old height.
        if not view.isVisible() or view.viewport().height() <= 0 or self.height() <= 0:
            return (
                rows
                + view.horizontalHeader().sizeHint().height()
                + self.tabBar().sizeHint().height()
                + 2 * view.frameWidth()
                + 14
            )
        return self.height() - view.viewport().height() + rows

    def plot_later(self, power: Any, bounds: Any) -> None:
        """Draw the power curve and the bounds now if the Figures tab shows, else when it does."""
        self._pending_plots = (power, bounds)
        self._draw_plots()

    def _draw_plots(self) -> None:
        if self._pending_plots is None or self.currentWidget() is not self.figures:
            return
        power, (rungs, bounds, useful) = self._pending_plots
        self._pending_plots = None
        self.plots.show_power(power)
        self.plots.show_bounds(list(rungs), list(bounds), useful)

    def clear_all(self) -> None:
        for model in (
            self.gate_model,
            self.journal_model,
            self.denial_model,
            self.history_model,
            self.not_applied_model,
        ):
            model.set_rows([])
        self.show_not_applied_choice()
        self.journal_status.setText("")
        self.journal_count.setText("")
        self.metrics.setText("")
        self.entry_detail.clear()

    def _show_entry(self, row: int) -> None:
        entry: Any = (
            self.journal_model.payloads[row]
            if 0 <= row < len(self.journal_model.payloads)
            else None
        )
        if not isinstance(entry, dz.TimelineEntry):
            self.entry_detail.clear()
            return
        lines = [
            f"entry #{entry.seq}  {entry.kind}  at {entry.at}",
            f"dossier {entry.dossier_id} revision {entry.revision}",
            f"actor {entry.who} ({entry.role})",
            f"signature: {entry.signer} ({entry.signature})"
            + (f", key {entry.key}" if entry.key else ""),
            f"entry_hash {entry.entry_hash}",
            "payload:",
            json.dumps(dict(entry.payload), indent=2, ensure_ascii=False, default=str),
        ]
        self.entry_detail.setPlainText("\n".join(lines))
