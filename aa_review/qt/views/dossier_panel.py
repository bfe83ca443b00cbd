"""DossierPanel: the Dossier tab, a view of a Qt-free :class:`DossierSession`.

The session (``aa_review.core.session.dossier_session``) owns the tab's state and
actions: the workspace open, who acts, the revision shown, its snapshot and panel
state, busy, the last result and the confirmations a step asks for. This widget
renders the session's events (the verdict first, every unmet gate in one sentence,
the next step named; only the steps the acting principal may take enabled, a
disabled one saying why) and forwards the user's intents to it. It answers the
session's questions (:class:`~aa_review.core.session.dossier_session.DossierView`:
confirmations, the evidence editor, the projection's preview) with dialogs, and its
worker runs the session's jobs off the GUI thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from aa_review.core import dossier as dz
from aa_review.core.session.dossier_session import DossierSession
from aa_review.qt.views.dossier_dialogs import ActorDialog, EditEvidenceDialog, ProjectionDialog
from aa_review.qt.views.dossier_render import render
from aa_review.qt.views.dossier_tabs import DossierTabs
from aa_review.qt.watcher import DiskWatcher
from aa_review.qt.workers import SerialRunner, SerialWorker

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport

__all__ = ["DossierPanel"]

_BUTTON_ORDER = (
    dz.Action.BIND,
    dz.Action.CHECK,
    dz.Action.DECIDE_ELIGIBLE,
    dz.Action.DEFER,
    dz.Action.EDIT,
    dz.AUTHORIZE,
)


class _VerdictArea(QScrollArea):
    """The verdict's scroll area; it prefers the height the panel worked out for it."""

    want = 0
    on_width: Any = None  # called when its width changes: the text's height does too

    def sizeHint(self) -> QSize:  # noqa: N802
        hint = super().sizeHint()
        return QSize(hint.width(), self.want) if self.want else hint

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width() and self.on_width is not None:
            self.on_width()


def _session_value(name: str, doc: str) -> Any:
    return property(lambda self: getattr(self.session, name), doc=doc)


class DossierPanel(QWidget):
    """The sign-off view. ``gate_selected(gate_id)`` lets the package views follow a gate."""

    gate_selected = Signal(str)
    findings_wanted = Signal()  # "Show findings": the window brings its Findings view forward

    def __init__(self, settings: Any) -> None:
        super().__init__()
        self.setWindowTitle("Dossier")
        self.settings = settings
        self.worker = SerialWorker(self)
        self.session = DossierSession(self, SerialRunner(self.worker), settings)
        # A teammate's actions arriving (a git pull while the workspace is open) are
        # verified by opening it again, not refused at the next step.
        self.journal_watcher = DiskWatcher(self)
        self.journal_watcher.changed.connect(self._journal_changed)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)
        self._build_header(lay)
        self.verdict = QLabel()
        self.verdict.setObjectName("dossier_verdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.verdict_area = _VerdictArea()
        self.verdict_area.setWidgetResizable(True)
        self.verdict_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.verdict_area.setWidget(self.verdict)
        self.verdict_area.on_width = self._fit_verdict
        lay.addWidget(self.verdict_area)
        self._build_audit_line(lay)
        self._build_progress(lay)
        self._build_buttons(lay)
        self.tabs = DossierTabs(self)
        lay.addWidget(self.tabs, 1)
        self.banner = self.verdict  # the verdict is what used to be the banner
        ev = self.session.events
        ev.workspace_changed.connect(self._show_workspace)
        ev.nothing_shown.connect(self._show_nothing)
        ev.snapshot_changed.connect(self._show_revisions)
        ev.state_changed.connect(lambda _st: self._render())
        ev.actor_changed.connect(lambda _a: self._show_actor())
        ev.busy_changed.connect(lambda _b: self._render_buttons())
        ev.progress_changed.connect(self._show_progress)
        ev.audit_changed.connect(self._show_audit)
        self._show_nothing("Open a dossier workspace (File > Open Dossier Workspace).")

    # -- construction ---------------------------------------------------------------
    def _build_header(self, lay: QVBoxLayout) -> None:
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.folder_label = QLabel("No workspace")
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # A long path is clipped, never widening the window (the tooltip has it whole).
        self.folder_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        open_button = QPushButton("Open Workspace…")
        open_button.clicked.connect(self.choose_workspace)
        self.dossier_box = QComboBox()
        self.dossier_box.setToolTip("The dossier shown (remembered for this workspace)")
        self.revision_box = QComboBox()
        # Sized to its items each time they change: first shown empty, it read "revision"
        # for "revision 1".
        self.revision_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.actor_label = QLabel()
        self.actor_label.setTextFormat(Qt.TextFormat.RichText)
        # Wrapped when the row is narrow: a long line (the demo's note) squeezed the
        # revision box back to "revision".
        self.actor_label.setWordWrap(True)
        self.actor_button = QPushButton("Change…")
        self.actor_button.setToolTip(
            "Choose who you act as: each step is allowed to one role "
            "(spec 7.2); the choice is remembered for this workspace"
        )
        self.actor_button.clicked.connect(lambda: self.choose_actor())
        self.verify_button = QPushButton("Verify again")
        self.verify_button.setToolTip(
            "Hash and audit the bound packages again (even the one "
            "the window holds), re-read and verify the journal, "
            "and evaluate every gate again"
        )
        self.verify_button.clicked.connect(lambda: self.refresh())
        grid.addWidget(QLabel("Workspace:"), 0, 0)
        grid.addWidget(self.folder_label, 0, 1, 1, 3)
        grid.addWidget(self.verify_button, 0, 4)
        grid.addWidget(open_button, 0, 5)
        grid.addWidget(QLabel("Dossier:"), 1, 0)
        grid.addWidget(self.dossier_box, 1, 1)
        grid.addWidget(self.revision_box, 1, 2)
        grid.addWidget(self.actor_label, 1, 3, 1, 2)
        grid.addWidget(self.actor_button, 1, 5)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 2)
        lay.addLayout(grid)
        self.dossier_box.currentIndexChanged.connect(lambda _i: self._dossier_chosen())
        self.revision_box.currentIndexChanged.connect(lambda _i: self._revision_chosen())

    def _build_audit_line(self, lay: QVBoxLayout) -> None:
        # Beside the verdict, never in it: the bound package's audit, one line (elided,
        # whole in the tooltip) and a link to its findings. No gate reads it.
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        self.audit_label = QLabel()
        self.audit_label.setObjectName("dossier_audit")
        self.audit_label.setTextFormat(Qt.TextFormat.PlainText)
        self.audit_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.audit_link = QLabel('<a href="findings">Show findings</a>')
        self.audit_link.setTextFormat(Qt.TextFormat.RichText)
        self.audit_link.setToolTip("The audit's findings, worst first (the Findings view)")
        self.audit_link.linkActivated.connect(lambda _href: self.findings_wanted.emit())
        row.addWidget(self.audit_label, 1)
        row.addWidget(self.audit_link)
        self.audit_row = QWidget()
        self.audit_row.setLayout(row)
        self.audit_row.setVisible(False)
        self._audit_text = ""
        lay.addWidget(self.audit_row)

    def _show_audit(self, text: str) -> None:
        self._audit_text = text
        self.audit_row.setVisible(bool(text))
        self.audit_label.setToolTip(
            f"{text}\n\nInformation beside the verdict: the contract's gates decide it."
            if text
            else ""
        )
        self.audit_link.setVisible(bool(text) and self.session.audit_told)
        self._elide_audit()
        self._fit_verdict()

    def _elide_audit(self) -> None:
        width = max(40, self.audit_label.width())
        fm = self.audit_label.fontMetrics()
        self.audit_label.setText(
            fm.elidedText(self._audit_text, Qt.TextElideMode.ElideRight, width)
        )

    def _build_progress(self, lay: QVBoxLayout) -> None:
        row = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumHeight(12)
        self.progress.setTextVisible(False)
        self.progress_label = QLabel()
        row.addWidget(self.progress_label)
        row.addWidget(self.progress, 1)
        self.progress_row = QWidget()
        self.progress_row.setLayout(row)
        row.setContentsMargins(0, 0, 0, 0)
        self.progress_row.setVisible(False)
        lay.addWidget(self.progress_row)

    def _build_buttons(self, lay: QVBoxLayout) -> None:
        # One row: the lifecycle steps, the sign-offs, the export, and the explicit request
        # of a refused step. Short labels when the centre is narrow (the tooltips say all).
        row = QHBoxLayout()
        row.setSpacing(4)
        self.buttons: dict[Any, QPushButton] = {}
        for step in _BUTTON_ORDER:
            b = QPushButton(dz.STEPS[step].label)
            b.clicked.connect(lambda _c=False, s=step: self.request(s))
            row.addWidget(b)
            self.buttons[step] = b
        self.authorize_button = self.buttons[dz.AUTHORIZE]
        self.project_button = QPushButton("Public projection…")
        self.project_button.clicked.connect(lambda: self.show_projection())
        row.addWidget(self.project_button)
        # From an expired revision, the next one (spec 7.3); shown only then.
        self.revise_button = QPushButton("New revision from this one…")
        self.revise_button.clicked.connect(lambda: self.request_revise())
        self.revise_button.setVisible(False)
        row.addWidget(self.revise_button)
        self.import_button = QPushButton("Import…")
        self.import_button.setToolTip(
            "Import a dossier file into this workspace as who you act as (T0); a file that "
            "does not parse is refused with each place, rule and remedy, and nothing changes"
        )
        self.import_button.clicked.connect(lambda: self.choose_import())
        row.addWidget(self.import_button)
        self.refusal_button = QToolButton()
        self.refusal_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.refusal_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.refusal_button.setToolTip(
            "Ask for a step you may not take, so that the workspace refuses it and the refusal "
            "is written, signed, to the journal (spec 7.2, 12). You confirm first."
        )
        self.refusal_menu = QMenu(self.refusal_button)
        self.refusal_button.setMenu(self.refusal_menu)
        row.addWidget(self.refusal_button)
        row.addStretch(1)
        row.setContentsMargins(0, 0, 0, 0)
        self.step_row = QWidget()
        self.step_row.setLayout(row)
        lay.addWidget(self.step_row)
        # The full labels' width decides when the short ones are used; the row never
        # asks for more than the short labels need, so the window can always shrink.
        self._compact: bool | None = None
        self._label_buttons(compact=False)
        self._full_width = row.sizeHint().width() + 24
        self._label_buttons(compact=True)
        self.step_row.setMinimumWidth(row.minimumSize().width())

    _SHORT: ClassVar[dict[Any, str]] = {
        dz.Action.BIND: "Bind",
        dz.Action.CHECK: "Run check",
        dz.Action.DECIDE_ELIGIBLE: "Eligible",
        dz.Action.DEFER: "Defer",
        dz.Action.EDIT: "Edit…",
        dz.AUTHORIZE: "Authorize…",
    }

    def _label_buttons(self, compact: bool) -> None:
        if compact == self._compact:
            return
        self._compact = compact
        for step, b in self.buttons.items():
            view = self.state.steps.get(step) if self.state is not None else None
            shown = view.step if view is not None else step
            b.setText(
                self._SHORT.get(shown if shown in self._SHORT else step, "")
                if compact
                else dz.STEPS[shown].label
            )
        self.project_button.setText("Projection…" if compact else "Public projection…")
        self.refusal_button.setText("Refused step ▾" if compact else "Request a refused step ▾")

    def step_commands(self) -> list[tuple[str, QPushButton]]:
        """Each step by its full name, with its button (the window's command palette):
        the buttons show short names when the tab is narrow."""
        st = self.state
        out = [
            (dz.STEPS[st.steps[step].step if st is not None else step].label, b)
            for step, b in self.buttons.items()
        ]
        return [*out, ("Public projection…", self.project_button)]

    # -- the session's state, by the names the window, the tests and benchmarks use ---
    ws = _session_value("ws", "The workspace open, or None.")
    folder = _session_value("folder", "Its folder, resolved.")
    snapshot = _session_value("snapshot", "The last snapshot taken.")
    state = _session_value("state", "What the tab draws, for the acting principal.")
    actor_id = _session_value("actor_id", 'Who acts ("" for nobody).')
    actor = actor_id
    last_result = _session_value("last_result", "The last step's outcome.")
    last_projection_preview = _session_value("last_projection_preview", "What would leave.")
    current = _session_value("current", "(dossier id, revision) shown.")
    record = _session_value("record", "The check record of the revision shown.")
    busy = _session_value("busy", "True until the last job's result is in place.")

    @property
    def request_digest(self) -> Any:
        return self.session.request_digest

    @request_digest.setter
    def request_digest(self, fn: Any) -> None:
        self.session.request_digest = fn

    # -- intents, forwarded ------------------------------------------------------------
    def open_workspace(self, folder: Path) -> bool:
        """Open (and lock) a workspace folder (see :meth:`DossierSession.open_workspace`)."""
        return self.session.open_workspace(folder)

    def close_workspace(self) -> None:
        self.journal_watcher.clear()
        self.session.close_workspace()

    def _journal_changed(self) -> None:
        if QApplication.activeModalWidget() is not None:  # a question is being asked
            self.journal_watcher.retry()
            return
        self.session.journal_changed()

    def set_open_package(
        self, facts: dz.PackageFacts | None, audit: AuditReport | None = None
    ) -> None:
        self.session.set_open_package(facts, audit)

    def set_package_facts(self, facts: dz.PackageFacts | None) -> None:
        self.session.set_package_facts(facts)

    def set_actor(self, principal_id: str) -> None:
        self.session.set_actor(principal_id)

    def select_dossier(self, dossier_id: str, revision: int | None = None) -> None:
        """Show a dossier (its latest revision unless ``revision``); remembered."""
        self._fill_dossiers(self.session.dossiers, dossier_id)
        self.session.select_dossier(dossier_id, revision)

    def refresh(self) -> None:
        self.session.refresh()

    def request(self, step: Any) -> Any:
        return self.session.request(step)

    def request_refusal(self, step: Any) -> Any:
        return self.session.request_refusal(step)

    def request_revise(self) -> Any:
        return self.session.request_revise()

    def resolve_not_applied(self, how: str, na: Any) -> Any:
        return self.session.resolve_not_applied(how, na)

    def authorize(self, ref: str | None = None, digest: str | None = None) -> Any:
        return self.session.authorize(ref, digest)

    def attempt_operation(self, op: str) -> Any:
        return self.session.attempt_operation(op)

    def show_projection(self, path: Path | None = None) -> Any:
        return self.session.show_projection(path)

    def choose_workspace(self) -> bool:
        start = str(self.settings.value("dossier/last_workspace", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open a dossier workspace", start)
        return bool(path) and self.open_workspace(Path(path))

    def choose_import(self) -> Any:
        start = str(self.settings.value("dossier/last_import", str(Path.home())))
        path, _ = QFileDialog.getOpenFileName(
            self, "Import a dossier file", start, "Dossier files (*.json);;All files (*)"
        )
        if not path:
            return None
        self.settings.setValue("dossier/last_import", str(Path(path).parent))
        return self.import_file(Path(path))

    def import_file(self, path: Path) -> Any:
        return self.session.import_file(path)

    def choose_actor(self) -> str | None:
        """Ask who the user acts as (a deliberate act, remembered for this workspace)."""
        if self.ws is None:
            return None
        dialog = ActorDialog(self, self.session.actor_choices(), self.actor_id)
        if not dialog.exec() or dialog.chosen() is None:
            return None
        self.set_actor(str(dialog.chosen()))
        return self.session.actor_id

    def _key(self, what: str) -> str:
        """A settings key of this workspace (the session's)."""
        return self.session.key(what)

    def _dossier_chosen(self) -> None:
        d = self.dossier_box.currentData()
        if d is not None:
            self.session.select_dossier(str(d))

    def _revision_chosen(self) -> None:
        r = self.revision_box.currentData()
        if r is not None:
            self.session.select_revision(int(r))

    # The tabs' widgets, by the names the window and the tests use.
    gate_model = property(lambda self: self.tabs.gate_model)
    gate_view = property(lambda self: self.tabs.gate_view)
    journal_model = property(lambda self: self.tabs.journal_model)
    journal_view = property(lambda self: self.tabs.journal_view)
    journal_status = property(lambda self: self.tabs.journal_status)
    denial_model = property(lambda self: self.tabs.denial_model)
    history_model = property(lambda self: self.tabs.history_model)
    metrics = property(lambda self: self.tabs.metrics)
    plots = property(lambda self: self.tabs.plots)

    # -- rendering the session's events ------------------------------------------------
    def _show_workspace(self, folder: Path | None) -> None:
        ws = self.ws
        if folder is None or ws is None:
            self.journal_watcher.clear()
            return
        self.journal_watcher.watch_paths([ws.journal_path])
        self.folder_label.setText(
            str(folder)
            + ("  (read-only: " + (ws.journal_fault or "") + ")" if ws.read_only else "")
        )
        self.folder_label.setToolTip(str(folder))
        self._fill_dossiers(self.session.dossiers, self.session.wanted_dossier)

    def _show_actor(self) -> None:
        p = self.ws.principals.get(self.actor_id) if self.ws and self.actor_id else None
        if p is None:
            note = self.session.actor_note
            text = "Acting as: <b>nobody</b> — choose who you act as" + (
                f" ({note})" if note else ""
            )
        else:
            text = f"Acting as: <b>{p.principal_id}</b> — {p.role.value} ({p.kind.value})"
        # Keys are personal (spec 10.6): who can act from here, who is held elsewhere.
        snap = self.snapshot
        holdings = snap.holdings if snap is not None else ()
        elsewhere = sum(1 for h in holdings if not h.here)
        demo = dz.one_machine_note(holdings)
        if elsewhere:
            text += f" · {elsewhere} held elsewhere"
        if demo is not None:
            text += " · <i>demo: every duty's key is here</i>"
        self.actor_label.setText(text)
        self.actor_label.setToolTip(
            "\n".join(
                [*([demo] if demo else []), dz.holdings_line(holdings)]
                + [h.detail for h in holdings]
            )
            if holdings
            else ""
        )

    def _fill_dossiers(self, ids: list[str] | tuple[str, ...], current: str | None) -> None:
        self.dossier_box.blockSignals(True)
        self.dossier_box.clear()
        for d in ids:
            self.dossier_box.addItem(d, d)
        self.dossier_box.setCurrentIndex(max(self.dossier_box.findData(current), 0))
        self.dossier_box.blockSignals(False)

    def _show_revisions(self, snap: dz.Snapshot) -> None:
        self._fill_dossiers(snap.dossiers, snap.dossier_id)
        self.revision_box.blockSignals(True)
        self.revision_box.clear()
        for r in snap.revisions:
            self.revision_box.addItem(f"revision {r}", r)
        self.revision_box.setCurrentIndex(self.revision_box.findData(snap.revision))
        self.revision_box.setMinimumWidth(self.revision_box.sizeHint().width())
        self.revision_box.blockSignals(False)

    def _show_progress(self, text: str) -> None:
        self.progress_row.setVisible(bool(text))
        self.progress_label.setText(text)

    def _show_nothing(self, message: str) -> None:
        self.verdict.setText(message)
        self._show_audit("")
        for b in (*self.buttons.values(), self.project_button, self.revise_button):
            b.setEnabled(False)
        self.revise_button.setVisible(False)
        self.refusal_button.setEnabled(False)
        self._enable_import()
        self.tabs.clear_all()

    def _enable_import(self) -> None:
        """Import needs a writable workspace open, and nothing running (a workspace with
        no dossier yet is exactly where a first one is imported)."""
        ws = self.ws
        self.import_button.setEnabled(ws is not None and not ws.read_only and not self.busy)

    def _render(self) -> None:
        """Draw the session's panel state (again: the tabs' options and the palette
        change how it is drawn, never what it says)."""
        st = self.state
        if st is None:
            return
        render(self, st)
        self._show_actor()
        self._render_buttons()
        self._fit_verdict()

    def _render_buttons(self) -> None:
        self._enable_import()
        st = self.state
        if st is None:
            return
        busy = self.busy
        for step, button in self.buttons.items():
            view = st.steps[step]
            button.setEnabled(view.enabled and not busy)
            button.setProperty(
                "blocked", None if view.enabled else view.refusal.value if view.refusal else ""
            )
            label = self._SHORT.get(step) if self._compact else dz.STEPS[view.step].label
            button.setText(label or dz.STEPS[view.step].label)
            button.setToolTip(view.note if view.enabled else f"Not now. {view.why_not}")
        self.project_button.setEnabled(st.may_project.enabled and not busy)
        self.project_button.setToolTip(
            st.may_project.note if st.may_project.enabled else f"Not now. {st.may_project.why_not}"
        )
        self.revise_button.setVisible(st.state is dz.DossierState.EXPIRED)
        self.revise_button.setEnabled(st.may_revise.enabled and not busy)
        self.revise_button.setToolTip(
            st.may_revise.note if st.may_revise.enabled else f"Not now. {st.may_revise.why_not}"
        )
        self.refusal_menu.clear()
        for step in _BUTTON_ORDER:
            view = st.steps[step]
            if view.journals_refusal:
                act = self.refusal_menu.addAction(
                    f"{dz.STEPS[view.step].label.rstrip('…')} (refused, journaled)"
                )
                act.setToolTip(view.why_not)
                act.triggered.connect(lambda _c=False, s=step: self.request_refusal(s))
        self.refusal_button.setEnabled(bool(self.refusal_menu.actions()) and not busy)
        self.tabs.show_not_applied_choice()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.session.shown()

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        # The window shows the tab in a scroll area, which would otherwise make it as
        # tall as its wrapped texts prefer; it gets the page's height, and what does not
        # fit scrolls inside (the verdict, the tables), down to the panel's minimum.
        return -1

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._label_buttons(compact=self.step_row.width() < self._full_width)
        self._elide_audit()
        self._fit_verdict()

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._render()  # the colours of the verdict and the tables follow the scheme

    def _fit_verdict(self) -> None:
        """Give the verdict what the gate table does not need to show all eleven gates.

        Runs after each layout pass: the table's surplus (or shortfall) moves to (or
        from) the verdict, which never takes more than its text needs.
        """
        if not self._fitting:
            self._fitting = True
            QTimer.singleShot(0, self._fit_now)

    _fitting = False

    def _fit_now(self) -> None:
        self._fitting = False
        area = self.verdict_area
        text_h = self.verdict.heightForWidth(max(100, area.viewport().width())) + 4
        # At least four lines of verdict (the state and the next step), so that with the
        # gate table the tab fits the centre of a 1366x768 window; beyond that the
        # verdict takes what the table leaves, and scrolls only when even that is short.
        # The audit line under the verdict comes out of those four lines, not the table's.
        audit_h = self.audit_row.sizeHint().height() + 4 if self.audit_row.isVisible() else 0
        least = min(text_h, 4 * self.fontMetrics().lineSpacing() + 4 - audit_h)
        need = self.tabs.gates_height()
        if self.tabs.isVisible() and self.tabs.minimumHeight() != need:
            self.tabs.setMinimumHeight(need)  # as laid out now: exact
        spare = area.height() + self.tabs.height() - need
        height = max(least, min(text_h, spare))
        if (height, least) != (area.maximumHeight(), area.minimumHeight()):
            area.setMinimumHeight(least)
            area.setMaximumHeight(height)
            area.want = height  # preferred: the layout gives it when there is room
            area.updateGeometry()

    # -- the session's questions (DossierView; tests replace confirm, inform, edit_dialog)
    def showing(self) -> bool:
        return self.isVisible()

    def confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    def warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def edit_dialog(self) -> EditEvidenceDialog:
        assert self.snapshot is not None
        return EditEvidenceDialog(self, self.snapshot.parsed.raw)

    def ask_text(self, title: str, label: str, text: str) -> str | None:
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return str(value) if ok else None

    def projection_path(self, preview: dict[str, Any], suggested: str) -> Path | None:
        dialog = ProjectionDialog(self, preview, suggested)
        if not dialog.exec():
            return None
        return dialog.path

    def wait_idle(self, timeout_ms: int = 600_000) -> None:
        """Process events until every queued job has been shown (scripts and tests)."""
        import time

        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout_ms / 1000
        while self.busy and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.002)
