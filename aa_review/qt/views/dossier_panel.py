"""DossierPanel: sign-off as a guided workflow over a core panel state.

The core decides everything (``aa_review.core.dossier``): :func:`take_snapshot`
runs in the panel's worker once per change, :func:`panel_state` words it for the
acting principal. This widget shows the verdict first (state, every unmet gate in
one sentence, the next step named), offers only the steps the acting principal
may take (a disabled step says why and writes nothing), and forwards requests to
the worker. Asking for a step one may not take, so that the refusal is journaled,
is its own explicit, confirmed action (spec 12).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
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
from aa_review.qt.views.dossier_actions import DossierActions
from aa_review.qt.views.dossier_dialogs import ActorDialog, EditEvidenceDialog
from aa_review.qt.views.dossier_render import render
from aa_review.qt.views.dossier_tabs import DossierTabs
from aa_review.qt.views.dossier_worker import DossierWorker

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport

__all__ = ["DossierPanel"]

log = logging.getLogger(__name__)

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


class DossierPanel(DossierActions, QWidget):
    """The sign-off view. ``gate_selected(gate_id)`` lets the package views follow a gate."""

    gate_selected = Signal(str)

    def __init__(self, settings: Any) -> None:
        super().__init__()
        self.setWindowTitle("Dossier")
        self.settings = settings
        self.ws: dz.Workspace | None = None
        self.folder: Path | None = None
        self.cache: dz.PreviewCache | None = None  # used in the worker only
        self.snapshot: dz.Snapshot | None = None
        self.state: dz.PanelState | None = None
        self.actor_id = ""
        self.last_result: Any = None
        self._facts: dz.PackageFacts | None = None
        self._package_key: tuple[Any, ...] | None = None
        # The window's way to compute the open package's digest (it then calls
        # set_package again with it); None: the workspace hashes the package itself.
        self.request_digest: Any = None
        self._digest_wanted = False
        self._digest_asked: tuple[Any, ...] | None = None
        self._want: tuple[str, int | None] | None = None  # the revision asked for
        self._generation = 0  # bumped per workspace: results of a closed one are dropped
        self._stale = True
        self._working = ""
        self.worker = DossierWorker(self)
        self.worker.done.connect(self._job_done)
        self.worker.failed.connect(self._job_failed)
        self.worker.busy_changed.connect(lambda _b: self._show_busy())
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
        self._build_progress(lay)
        self._build_buttons(lay)
        self.tabs = DossierTabs(self)
        lay.addWidget(self.tabs, 1)
        self.banner = self.verdict  # the verdict is what used to be the banner
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
        self.actor_label = QLabel()
        self.actor_label.setTextFormat(Qt.TextFormat.RichText)
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

    # -- the workspace --------------------------------------------------------------
    def choose_workspace(self) -> bool:
        start = str(self.settings.value("dossier/last_workspace", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open a dossier workspace", start)
        return bool(path) and self.open_workspace(Path(path))

    def open_workspace(self, folder: Path) -> bool:
        """Open (and lock) a workspace folder; a folder another window holds is refused.

        Opening verifies the journal (on this thread: it reads the journal, never a
        package); the gates are evaluated in the worker when the tab is shown.
        """
        from aa_review.core.session.dossier_hooks import DiffFingerprints

        self.close_workspace()
        try:
            ws = dz.Workspace.open_folder(
                folder,
                package_facts=self._facts_for,
                package_contamination=self._contamination,
                fingerprint_hooks=DiffFingerprints(),
            )
        except dz.WorkspaceLockedError as exc:
            self._show_nothing(f"{exc}\nClose the other aa-review window that has it open.")
            QMessageBox.warning(self, "Workspace in use", str(exc))
            return False
        except (dz.WorkspaceError, dz.DossierError, OSError) as exc:
            self._show_nothing(str(exc))
            QMessageBox.warning(self, "Cannot open the workspace", str(exc))
            return False
        self.ws, self.folder = ws, Path(folder).resolve()
        self.cache = dz.PreviewCache(ws)
        self._generation += 1
        self.settings.setValue("dossier/last_workspace", str(folder))
        self.folder_label.setText(
            str(folder)
            + ("  (read-only: " + (ws.journal_fault or "") + ")" if ws.read_only else "")
        )
        self.folder_label.setToolTip(str(folder))
        ids = ws.dossier_ids()  # no job runs for this workspace yet
        self._restore_actor(ws)
        remembered = self.settings.value(self._key("dossier"))
        first = remembered if remembered in ids else (ids[0] if ids else None)
        self._fill_dossiers(ids, first)
        self._want = (first, None) if first is not None else None
        self._stale = True
        if first is None:
            self._show_nothing("This workspace holds no dossier yet.")
        elif self.isVisible():
            self._load()
        return True

    def close_workspace(self) -> None:
        """Finish the worker's jobs (and end its thread), then release the journal's lock."""
        self.worker.stop()
        if self.ws is not None:
            self.ws.close()
        self._generation += 1
        self.ws = None
        self.cache = None
        self.snapshot = self.state = None

    def _key(self, what: str) -> str:
        """A settings key of this workspace (its folder, hashed)."""
        where = hashlib.sha256(str(self.folder).encode("utf-8")).hexdigest()[:16]
        return f"dossier/{what}/{where}"

    # -- the bound package ----------------------------------------------------------
    def set_package_facts(self, facts: dz.PackageFacts | None) -> None:
        """What the window holds of the open package (call it when the package or its
        audit changes): the workspace takes its digest and hidden citations from it and
        never hashes or re-reads that package."""
        self._facts = facts
        if self.ws is not None and self._want is not None:
            self._stale = True
            if self.isVisible():
                self._load()

    def set_package(
        self,
        root: Path | None,
        audit: AuditReport | None = None,
        package: Any = None,
        digest: str | None = None,
    ) -> None:
        """The open package, its audit and its digest, as the window knows them: made
        into facts in the worker (reading the audit's findings is no work for the GUI
        thread). Call it whenever one of them changes; the same values twice do nothing.

        ``digest``: the package's digest when the window computed it without an audit.
        """
        key = (None if root is None else str(root), id(audit), id(package), digest)
        if key == self._package_key:
            return
        self._package_key = key
        if root is None:
            self._digest_wanted = False
            self.set_package_facts(None)
            return
        if package is None:
            if (
                audit is not None
                and audit.complete
                and audit.identity.package_id == Path(root).name
            ):
                digest = audit.identity.package_digest or digest
            self._digest_wanted = False
            self.set_package_facts(dz.PackageFacts(Path(root).name, Path(root), digest))
            return
        from aa_review.core.session.dossier_hooks import package_facts

        audited = audit is not None and audit.complete and bool(audit.identity.package_digest)
        # Without a digest the window can compute one: ask it rather than hash twice.
        self._digest_wanted = digest is None and not audited and self.request_digest is not None
        self.worker.submit(
            ("facts", self._generation), lambda: package_facts(package, audit, digest)
        )

    def _facts_for(self, package_id: str) -> dz.PackageFacts | None:
        facts = self._facts  # read in the worker: one immutable value, swapped whole
        return facts if facts is not None and facts.package_id == package_id else None

    def _contamination(self, root: Path) -> list[str]:
        """The audit engine's G9 hook; the open package is read from its index, not again."""
        from aa_review.core.audits import contamination_rows

        facts = self._facts
        if facts is not None and facts.package is not None and Path(facts.root) == Path(root):
            return contamination_rows(facts.package)
        return contamination_rows(root)

    # -- who acts ---------------------------------------------------------------------
    def _restore_actor(self, ws: dz.Workspace) -> None:
        remembered = self.settings.value(self._key("actor"))
        self._actor_note = ""
        if remembered and ws.principals.get(remembered) is not None:
            self.actor_id = str(remembered)
        else:
            if remembered:
                self._actor_note = (
                    f"{remembered}, remembered for this workspace, is not in "
                    "its principal registry any more."
                )
            self.actor_id = ""
        self._show_actor()

    def choose_actor(self) -> str | None:
        """Ask who the user acts as (a deliberate act, remembered for this workspace)."""
        if self.ws is None:
            return None
        snap = self.snapshot
        holdings = {h.principal.principal_id: h for h in snap.holdings} if snap else {}
        rows = [
            (
                p.principal_id,
                p.role.value,
                p.kind.value,
                snap.signable.get(p.principal_id) if snap is not None else None,
                holdings[p.principal_id].place.value if p.principal_id in holdings else None,
            )
            for p in self.ws.principals
            if p.role is not dz.Role.SYSTEM_REDUCER
        ]
        dialog = ActorDialog(self, rows, self.actor_id)
        if not dialog.exec() or dialog.chosen() is None:
            return None
        self.set_actor(str(dialog.chosen()))
        return self.actor_id

    def set_actor(self, principal_id: str) -> None:
        """Act as ``principal_id`` from now on (remembered for this workspace).

        Nothing is read or evaluated: the panel words the snapshot it holds for them.
        """
        self.actor_id = principal_id
        self._actor_note = ""
        if self.folder is not None:
            self.settings.setValue(self._key("actor"), principal_id)
        self._show_actor()
        self._render()

    @property
    def actor(self) -> str:
        return self.actor_id

    def _show_actor(self) -> None:
        p = self.ws.principals.get(self.actor_id) if self.ws and self.actor_id else None
        if p is None:
            note = getattr(self, "_actor_note", "")
            text = "Acting as: <b>nobody</b> — choose who you act as" + (
                f" ({note})" if note else ""
            )
        else:
            text = f"Acting as: <b>{p.principal_id}</b> — {p.role.value} ({p.kind.value})"
        # Keys are personal (spec 10.6): who can act from here, who is held elsewhere.
        snap = getattr(self, "snapshot", None)
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

    # -- what is shown ----------------------------------------------------------------
    @property
    def current(self) -> tuple[str, int] | None:
        s = self.snapshot
        return (s.dossier_id, s.revision) if s is not None else None

    @property
    def record(self) -> dz.CheckRecord | None:
        return self.snapshot.record if self.snapshot is not None else None

    @property
    def busy(self) -> bool:
        return self.worker.busy

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

    def _fill_dossiers(self, ids: list[str] | tuple[str, ...], current: str | None) -> None:
        self.dossier_box.blockSignals(True)
        self.dossier_box.clear()
        for d in ids:
            self.dossier_box.addItem(d, d)
        self.dossier_box.setCurrentIndex(max(self.dossier_box.findData(current), 0))
        self.dossier_box.blockSignals(False)

    def select_dossier(self, dossier_id: str, revision: int | None = None) -> None:
        """Show a dossier (its latest revision unless ``revision``); remembered."""
        self.dossier_box.blockSignals(True)
        self.dossier_box.setCurrentIndex(self.dossier_box.findData(dossier_id))
        self.dossier_box.blockSignals(False)
        self._want = (dossier_id, revision)
        if self.folder is not None:
            self.settings.setValue(self._key("dossier"), dossier_id)
        self._stale = True
        self._load()

    def _dossier_chosen(self) -> None:
        d = self.dossier_box.currentData()
        if d is not None:
            self.select_dossier(str(d))

    def _revision_chosen(self) -> None:
        r = self.revision_box.currentData()
        if r is not None and self._want is not None and self.current != (self._want[0], r):
            self._want = (self._want[0], int(r))
            self._load()

    def refresh(self) -> None:
        """Verify again: bound packages are hashed and audited anew (the window's digest
        and audit of the open one are set aside), the journal re-read, every gate
        re-evaluated."""
        if self.ws is None or self._want is None:
            return
        if self._facts is not None:
            self._facts = dataclasses.replace(self._facts, digest=None, hidden_rows=None)
        self._stale = True
        if self.isVisible():
            self._load(reverify=True)

    def _load(self, reverify: bool = False) -> None:
        """Take a snapshot of the wanted revision in the worker."""
        if self.ws is None or self._want is None:
            return
        if not self.isVisible():
            self._stale = True
            return
        if self._digest_wanted and not reverify:
            # The window computes the open package's digest: wait for it (Verify again
            # does not wait) instead of hashing the package a second time.
            self._stale = True
            if self._digest_asked != self._package_key:
                self._digest_asked = self._package_key
                self.request_digest()  # set_package comes back with the digest
            if self._digest_wanted:
                self.progress_row.setVisible(True)
                self.progress_label.setText("Waiting for the package digest…")
            return
        self._stale = False
        ws, cache = self.ws, self.cache
        d, r = self._want

        def job() -> dz.Snapshot:
            if reverify:
                ws.forget_package_facts()
                assert cache is not None
                cache.clear()
            rev = r if r is not None and r in ws.revisions(d) else ws.revisions(d)[-1]
            return dz.take_snapshot(ws, d, rev, cache)

        self._working = "Evaluating the gates…"
        self.worker.submit(("snapshot", self._generation), job)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._stale and self.ws is not None:
            self._load()

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        # The window shows the tab in a scroll area, which would otherwise make it as
        # tall as its wrapped texts prefer; it gets the page's height, and what does not
        # fit scrolls inside (the verdict, the tables), down to the panel's minimum.
        return -1

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._label_buttons(compact=self.step_row.width() < self._full_width)
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
        least = min(text_h, 4 * self.fontMetrics().lineSpacing() + 4)
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

    def _show_nothing(self, message: str) -> None:
        self.verdict.setText(message)
        for b in (*self.buttons.values(), self.project_button, self.revise_button):
            b.setEnabled(False)
        self.revise_button.setVisible(False)
        self.refusal_button.setEnabled(False)
        self.tabs.clear_all()

    def _show_busy(self) -> None:
        busy = self.worker.busy
        self.progress_row.setVisible(busy)
        self.progress_label.setText(self._working if busy else "")
        self._render_buttons()

    # -- worker results -----------------------------------------------------------------
    def _job_done(self, token: Any, result: Any) -> None:
        kind, generation = token[0], token[1]
        if kind == "facts":  # the window's package: whatever workspace is open
            self.set_package_facts(result)
            return
        if generation != self._generation:
            return  # a job of a workspace closed since
        if kind == "snapshot":
            self._take(result)
            return
        self._action_done(token, result)

    def _job_failed(self, token: Any, message: str) -> None:
        if token[1] != self._generation:
            return
        self.inform("Dossier", f"The dossier could not be updated: {message}")

    def _take(self, snap: dz.Snapshot) -> None:
        if self._want is not None and snap.dossier_id != self._want[0]:
            return  # the user moved on to another dossier meanwhile
        self.snapshot = snap
        self._fill_dossiers(snap.dossiers, snap.dossier_id)
        self.revision_box.blockSignals(True)
        self.revision_box.clear()
        for r in snap.revisions:
            self.revision_box.addItem(f"revision {r}", r)
        self.revision_box.setCurrentIndex(self.revision_box.findData(snap.revision))
        self.revision_box.blockSignals(False)
        self._render()

    def _render(self) -> None:
        if self.snapshot is None:
            return
        self.state = dz.panel_state(self.snapshot, self.actor_id)
        render(self, self.state)
        self._show_actor()
        self._render_buttons()
        self._fit_verdict()

    def _render_buttons(self) -> None:
        st = self.state
        if st is None:
            return
        busy = self.worker.busy
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

    # -- overridable prompts (tests replace them) ---------------------------------------
    def confirm(self, title: str, text: str) -> bool:
        return QMessageBox.question(self, title, text) == QMessageBox.StandardButton.Yes

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    def edit_dialog(self) -> EditEvidenceDialog:
        assert self.snapshot is not None
        return EditEvidenceDialog(self, self.snapshot.parsed.raw)

    def wait_idle(self, timeout_ms: int = 600_000) -> None:
        """Process events until every queued job has been shown (scripts and tests)."""
        import time

        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout_ms / 1000
        while self.worker.busy and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.002)
