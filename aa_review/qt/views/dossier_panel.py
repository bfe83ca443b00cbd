"""DossierPanel: step a readiness dossier through its states; the validator's gates at every moment.

All decisions are the core's (``aa_review.core.dossier``): this panel asks who the
user acts as, shows what the workspace says, and forwards each request. A button
the acting principal may not use looks disabled but still answers a click: the
workspace refuses (and journals the refusal) and the panel says why.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from aa_review.core import dossier as dz
from aa_review.qt.models.tuple_table import TupleTableModel
from aa_review.qt.views.dossier_dialogs import EditEvidenceDialog, ProjectionDialog
from aa_review.qt.views.dossier_plots import DossierPlots
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport

__all__ = ["DossierPanel"]

log = logging.getLogger(__name__)

_BUTTONS = (
    (dz.Action.BIND, "Bind evidence", "T1 draft → evidence_bound (training research lead)"),
    (dz.Action.CHECK, "Run independent check", "T2 evidence_bound → independently_checked "
     "(independent evaluator); the reducer defers unless every gate passes"),
    (dz.Action.DECIDE_ELIGIBLE, "Decide eligible", "T5 → eligible (human maintainer); "
     "eligible grants nothing: it permits proposing an amendment"),
    (dz.Action.DEFER, "Decide deferred", "T4 → deferred (human maintainer)"),
    (dz.Action.EDIT, "Edit evidence…", "Editing bound evidence creates a new revision and "
     "expires this one (training research lead)"),
)
_STATE_COLORS = {"draft": "#546e7a", "evidence_bound": "#1565c0",
                 "independently_checked": "#6a1b9a", "eligible": "#2e7d32",
                 "deferred": "#ef6c00", "expired": "#c62828"}


class DossierPanel(QWidget):
    """The sign-off view. ``gate_selected(gate_id)`` lets the package views follow a gate."""

    gate_selected = Signal(str)

    def __init__(self, settings: Any) -> None:
        super().__init__()
        self.setWindowTitle("Dossier")
        self.settings = settings
        self.ws: dz.Workspace | None = None
        self.previews: dz.PreviewCache | None = None  # the open workspace's live evaluations
        self.folder: Path | None = None
        self.package_root: Path | None = None
        self.audit: AuditReport | None = None
        self.record: dz.CheckRecord | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self._build_header(lay)
        self.banner = QLabel()
        self.banner.setObjectName("dossier_banner")
        self.banner.setWordWrap(True)
        lay.addWidget(self.banner)
        self._build_buttons(lay)
        split = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        self.gate_model = TupleTableModel(("Gate", "Title", "Status", "Reasons", "Metrics"), 2)
        self.gate_view = make_table(self.gate_model, name="gate_view")
        self.gate_view.selectionModel().currentRowChanged.connect(
            lambda cur, _p: self.gate_selected.emit(self.gate_model.items[cur.row()][0])
            if cur.isValid() else None)
        self.metrics = QLabel()
        self.metrics.setWordWrap(True)
        self.metrics.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top_lay.addWidget(self.gate_view, 1)
        top_lay.addWidget(self.metrics)
        split.addWidget(top)
        self.tabs = QTabWidget()
        self.history_model = TupleTableModel(("Revision", "State", "Created", "By", "Supersedes"),
                                             1)
        self.journal_model = TupleTableModel(("#", "When", "Who", "Role", "What", "Signed by",
                                              "From → to", "Entry digest"), 4)
        self.denial_model = TupleTableModel(("When", "Who", "Operation", "Target", "Decision",
                                             "Reason"), 4)
        self.journal_status = QLabel()
        self.journal_status.setWordWrap(True)
        journal = QWidget()
        jl = QVBoxLayout(journal)
        jl.setContentsMargins(0, 0, 0, 0)
        jl.addWidget(self.journal_status)
        self.journal_view = make_table(self.journal_model, name="journal_view")
        jl.addWidget(self.journal_view)
        self.plots = DossierPlots()
        self.tabs.addTab(make_table(self.history_model, name="history_view"), "Revisions")
        self.tabs.addTab(journal, "Journal")
        self.tabs.addTab(self._denial_tab(), "Denial log")
        self.tabs.addTab(self.plots, "Plots")
        split.addWidget(self.tabs)
        split.setSizes([420, 380])
        self.plots.setMinimumHeight(220)
        lay.addWidget(split, 1)
        self._show_nothing("Open a dossier workspace (File > Open Dossier Workspace).")

    # -- construction -----------------------------------------------------------
    def _build_header(self, lay: QVBoxLayout) -> None:
        grid = QGridLayout()
        self.folder_label = QLabel("No workspace")
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        open_button = QPushButton("Open Workspace…")
        open_button.clicked.connect(self.choose_workspace)
        self.actor_box = QComboBox()
        self.actor_box.setToolTip("Who you act as: transitions are allowed per role (spec 7.2)")
        self.dossier_box = QComboBox()
        self.revision_box = QComboBox()
        grid.addWidget(QLabel("Workspace:"), 0, 0)
        grid.addWidget(self.folder_label, 0, 1, 1, 3)
        grid.addWidget(open_button, 0, 4)
        grid.addWidget(QLabel("Act as:"), 1, 0)
        grid.addWidget(self.actor_box, 1, 1)
        grid.addWidget(QLabel("Dossier:"), 1, 2)
        grid.addWidget(self.dossier_box, 1, 3)
        grid.addWidget(self.revision_box, 1, 4)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        lay.addLayout(grid)
        self.actor_box.currentIndexChanged.connect(lambda _i: self._actor_changed())
        self.dossier_box.currentIndexChanged.connect(lambda _i: self._dossier_changed())
        self.revision_box.currentIndexChanged.connect(lambda _i: self.refresh())

    def _build_buttons(self, lay: QVBoxLayout) -> None:
        # Two rows: the lifecycle steps, then the sign-offs and exports. One long row
        # would force the window's centre to be about 1,000 px wide.
        grid = QGridLayout()
        self.buttons: dict[dz.Action, QPushButton] = {}
        for i, (action, text, tip) in enumerate(_BUTTONS):
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _c=False, a=action: self.request(a))
            grid.addWidget(b, 0 if i < 4 else 1, i % 4)
            self.buttons[action] = b
        self.authorize_button = QPushButton("Authorize amendment proposal…")
        self.authorize_button.setToolTip("G8: a human maintainer authorizes PROPOSING the "
                                         "activation amendment (a sign-off; it grants nothing)")
        self.authorize_button.clicked.connect(lambda: self.authorize())
        grid.addWidget(self.authorize_button, 1, 1)
        self.project_button = QPushButton("Public projection…")
        self.project_button.setToolTip("Preview exactly what leaves, then export it")
        self.project_button.clicked.connect(self.show_projection)
        grid.addWidget(self.project_button, 1, 2)
        lay.addLayout(grid)

    def _denial_tab(self) -> QWidget:
        """The denial log, and a way to ask for a deferred operation (it is always denied)."""
        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QGridLayout()
        self.operation_box = QComboBox()
        for op in sorted(dz.DEFERRED_OPERATIONS):
            self.operation_box.addItem(op.replace("_", " "), op)
        attempt = QPushButton("Request as the acting principal")
        attempt.setToolTip("Every deferred operation is denied and journaled, in every state: "
                           "eligible grants nothing (spec 7.5, 8)")
        attempt.clicked.connect(lambda: self.attempt_operation(self.operation_box.currentData()))
        row.addWidget(QLabel("Deferred operation:"), 0, 0)
        row.addWidget(self.operation_box, 0, 1)
        row.addWidget(attempt, 0, 2)
        row.setColumnStretch(1, 1)
        lay.addLayout(row)
        lay.addWidget(make_table(self.denial_model, name="denial_view"))
        return tab

    def attempt_operation(self, op: str) -> dict[str, Any] | None:
        """Ask the workspace for a deferred operation; it answers with a journaled denial."""
        if self.ws is None:
            return None
        target = self.dossier_box.currentData() or ""
        result = self.ws.attempt_operation(op, self.actor, str(target))
        where = ("The denial is in the journal" if "not_journaled" not in result else
                 f"It was not journaled ({result['not_journaled']})")
        self.inform("Denied", f"{op.replace('_', ' ')} was denied: "
                    f"{dz.humanize_code(result.get('reason_code', ''))}. {where}; nothing in "
                    "this app can perform it.")
        self.refresh()
        return result

    # -- workspace ----------------------------------------------------------------
    def choose_workspace(self) -> bool:
        start = str(self.settings.value("dossier/last_workspace", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open a dossier workspace", start)
        return bool(path) and self.open_workspace(Path(path))

    def open_workspace(self, folder: Path) -> bool:
        """Open (and lock) a workspace folder; a folder another window holds is refused."""
        from aa_review.core.audits import contamination_rows

        self.close_workspace()
        try:
            ws = dz.Workspace.open_folder(folder, package_locator=self._locate,
                                          package_contamination=contamination_rows)
        except dz.WorkspaceLockedError as exc:
            self._show_nothing(f"{exc}\nClose the other aa-review window that has it open.")
            QMessageBox.warning(self, "Workspace in use", str(exc))
            return False
        except (dz.WorkspaceError, dz.DossierError, OSError) as exc:
            self._show_nothing(str(exc))
            QMessageBox.warning(self, "Cannot open the workspace", str(exc))
            return False
        self.ws, self.folder = ws, Path(folder)
        self.settings.setValue("dossier/last_workspace", str(folder))
        self.folder_label.setText(str(folder) + ("  (read-only: " + (ws.journal_fault or "")
                                                 + ")" if ws.read_only else ""))
        self._fill_actors()
        self._fill_dossiers()
        return True

    def close_workspace(self) -> None:
        if self.ws is not None:
            self.ws.close()
        self.ws = None
        self.previews = None

    def _locate(self, package_id: str) -> Path | None:
        """The bound package: the one open in the window, else a folder beside the workspace."""
        if self.package_root is not None and self.package_root.name == package_id:
            return self.package_root
        if self.folder is not None and (self.folder.parent / package_id).is_dir():
            return self.folder.parent / package_id
        return None

    def set_package(self, root: Path | None, audit: AuditReport | None = None) -> None:
        self.package_root, self.audit = root, audit
        if self.ws is not None:
            self.refresh()

    def _fill_actors(self) -> None:
        assert self.ws is not None
        self.actor_box.blockSignals(True)
        self.actor_box.clear()
        for p in self.ws.principals:
            self.actor_box.addItem(f"{p.principal_id} — {p.role.value} ({p.kind.value})",
                                   p.principal_id)
        last = self.settings.value("dossier/actor")
        i = self.actor_box.findData(last)
        self.actor_box.setCurrentIndex(max(i, 0))
        self.actor_box.blockSignals(False)

    def _fill_dossiers(self) -> None:
        assert self.ws is not None
        self.dossier_box.blockSignals(True)
        current = self.dossier_box.currentData()
        self.dossier_box.clear()
        for d in self.ws.dossier_ids():
            self.dossier_box.addItem(d, d)
        i = self.dossier_box.findData(current)
        self.dossier_box.setCurrentIndex(max(i, 0))
        self.dossier_box.blockSignals(False)
        self._dossier_changed()

    def _dossier_changed(self, select_latest: bool = True) -> None:
        if self.ws is None or self.dossier_box.currentData() is None:
            return
        revs = self.ws.revisions(self.dossier_box.currentData())
        self.revision_box.blockSignals(True)
        self.revision_box.clear()
        for r in revs:
            self.revision_box.addItem(f"revision {r}", r)
        self.revision_box.setCurrentIndex(len(revs) - 1 if select_latest else 0)
        self.revision_box.blockSignals(False)
        self.refresh()

    def _actor_changed(self) -> None:
        self.settings.setValue("dossier/actor", self.actor_box.currentData())
        self.refresh()

    # -- what is shown ---------------------------------------------------------------
    @property
    def current(self) -> tuple[str, int] | None:
        d, r = self.dossier_box.currentData(), self.revision_box.currentData()
        return (d, r) if d is not None and r is not None else None

    @property
    def actor(self) -> str:
        return str(self.actor_box.currentData() or "")

    def _show_nothing(self, message: str) -> None:
        self.banner.setText(message)
        self.banner.setStyleSheet("")
        for b in (*self.buttons.values(), self.project_button, self.authorize_button):
            b.setEnabled(False)
        self.gate_model.set_items([])
        self.metrics.setText("")

    def refresh(self) -> None:
        """Re-read the revision and show every gate as evaluated now (nothing is written).

        The gates (and G1's power simulation) are evaluated again only when the
        revision's :class:`~aa_review.core.dossier.PreviewKey` changed; while the
        panel is hidden even that waits until it is shown.
        """
        from aa_review.qt.views.dossier_refresh import refresh_panel

        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        refresh_panel(self)

    _stale = False

    def showEvent(self, event: Any) -> None:  # noqa: N802
        super().showEvent(event)
        if self._stale:
            self.refresh()

    # -- acting ------------------------------------------------------------------------
    def request(self, action: dz.Action) -> dz.TransitionResult | None:
        from aa_review.qt.views.dossier_refresh import perform

        return perform(self, action)

    def authorize(self, ref: str | None = None, digest: str | None = None
                  ) -> dz.TransitionResult | None:
        """Sign the G8 authorization as the acting principal (asks for the amendment)."""
        from aa_review.qt.views.dossier_refresh import authorize

        return authorize(self, ref, digest)

    def show_projection(self) -> None:
        if self.ws is None or self.current is None:
            return
        ProjectionDialog(self, self.ws, *self.current, self.actor).exec()
        self.refresh()

    # Dialog hooks (tests replace them; the core is what decides).
    last_result: dz.TransitionResult | None = None

    def confirm(self, title: str, text: str) -> bool:
        from aa_review.qt.views.dossier_refresh import confirm_box

        return confirm_box(self, title, text)

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    def edit_dialog(self) -> EditEvidenceDialog:
        assert self.ws is not None and self.current is not None
        return EditEvidenceDialog(self, self.ws.revision(*self.current))
