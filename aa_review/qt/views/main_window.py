"""MainWindow: the review window. Docks of linked views, menus, status; nothing decided here.

What is open lives in the window's :class:`~aa_review.core.session.ReviewSession`;
what the window's commands do lives in its
:class:`~aa_review.qt.controller.WindowController`. The window builds the views, shows
what the controller tells it (the :class:`~aa_review.qt.controller.WindowView`
methods below) and keeps its own layout.
"""

from __future__ import annotations

import logging
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from aa_review.core.session import QueryResult, ReviewSession, Scope
from aa_review.core.util.procpool import set_worker_niceness, start_tracker
from aa_review.qt.controller import WindowController, decode_layout, encode_layout
from aa_review.qt.theme import apply_theme
from aa_review.qt.views._turns import Gate, Turns
from aa_review.qt.views.compare_panel import add_compare_actions, install_compare
from aa_review.qt.views.contracts_panel import ContractsPanel
from aa_review.qt.views.detail_panel import RowDetailPanel
from aa_review.qt.views.dossier_panel import DossierPanel
from aa_review.qt.views.evidence_panels import EvidencePanel, EvidenceRowsPanel, RowEvidencePanel
from aa_review.qt.views.facets_panel import FacetsPanel
from aa_review.qt.views.findings_panel import FindingsPanel
from aa_review.qt.views.keyref import KeyboardReference, key_reference
from aa_review.qt.views.layout import WindowLayouts
from aa_review.qt.views.menus import build_actions
from aa_review.qt.views.offer import OfferButton
from aa_review.qt.views.palette import CommandPalette, PaletteEntry, action_entries
from aa_review.qt.views.plots_panel import PlotsPanel
from aa_review.qt.views.rows_panel import RowsPanel
from aa_review.qt.views.subsets import (
    SubsetBar,
    link_evidence_subset,
    link_evidence_table,
    link_row_table,
)
from aa_review.qt.views.welcome import RecentPlaces, WelcomePage
from aa_review.qt.watcher import PackageWatcher
from aa_review.qt.workers import ThreadRunner, synchronous

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex

__all__ = ["MainWindow"]

log = logging.getLogger(__name__)

# (name, area, tabbed onto): the docks around the central tabs, in the order they are added.
# The focused default: one set of tabs on the right, one below, Facets closed (layout.py).
_DOCKS = (
    ("facets", Qt.DockWidgetArea.LeftDockWidgetArea, None),
    ("findings", Qt.DockWidgetArea.BottomDockWidgetArea, None),
    ("evidence", Qt.DockWidgetArea.BottomDockWidgetArea, "findings"),
    ("evidence_rows", Qt.DockWidgetArea.BottomDockWidgetArea, "findings"),
    ("detail", Qt.DockWidgetArea.RightDockWidgetArea, None),
    ("plots", Qt.DockWidgetArea.RightDockWidgetArea, "detail"),
    ("row_evidence", Qt.DockWidgetArea.RightDockWidgetArea, "detail"),
)
_PAGES = {"rows": 0, "contracts": 1, "dossier": 2}
WORKER_NICENESS = 10
GIL_SWITCH_S = 0.001  # the interpreter lock handed to a waiting thread after 1 ms, not 5


class MainWindow(QMainWindow):
    """The review window. It shows and asks; the session holds, the controller acts."""

    # Bumped whenever the set of docks changes, so an old saved layout is not misapplied.
    LAYOUT_VERSION = 4

    def __init__(self, settings: QSettings) -> None:
        super().__init__()
        # The worker processes of loading and auditing yield the processor to this window.
        set_worker_niceness(WORKER_NICENESS)
        # Qt calls into Python many times per paint, each call taking the interpreter
        # lock; a worker thread running Python gives it up only when asked and after the
        # switch interval (5 ms by default), so a paint of many cells could wait that long
        # per cell. Asked sooner, it gives it up sooner.
        sys.setswitchinterval(GIL_SWITCH_S)
        self.settings = settings
        self.session = ReviewSession()
        self.runner = ThreadRunner(self)
        # A package opened fills one view per turn of the event loop (_turns.py).
        self.turns = Turns(self, at_once=synchronous())
        # The audit runs in a process of its own, out of this window's interpreter (tests
        # run it in their thread, AA_REVIEW_SYNCHRONOUS).
        self.controller = WindowController(
            self.session,
            self,
            self.runner,
            settings,
            audit_niceness=None if synchronous() else WORKER_NICENESS,
        )
        self.watcher = PackageWatcher(self)
        self.watcher.changed.connect(self.controller.on_disk_change)
        self.setWindowTitle("aa-review")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self._build_views()
        # compare mode: its dock, hidden until used
        self.compare = install_compare(
            self, self.controller, self.rows, self.evidence, self.contracts
        )
        self._build_subsets()
        self.commands = build_actions(
            self,
            self.controller,
            self.session,
            (
                self.rows.view,
                self.evidence.view,
                self.findings.view,
                self.contracts.list_view,
                self.detail.view,
            ),
        )
        self.layouts = WindowLayouts(self, settings)
        self.layouts.install_menu(self._menu("View"))
        self._build_status()
        add_compare_actions(self, self.compare, self.commands.workspace)
        self.refresh_recent(self.controller.recent())
        self.session.selection.changed.connect(
            lambda _s: self.commands.update_history(
                self.session.selection.can_go_back(), self.session.selection.can_go_forward()
            )
        )
        self.commands.update_history(False, False)
        self._restore_layout()

    # -- construction ------------------------------------------------------
    def _build_views(self) -> None:
        s = self.session
        self.rows = RowsPanel(s)
        self.contracts = ContractsPanel(s)
        # The two wide views share the centre; everything else docks around them.
        self.center = _Pages()
        self.center.setObjectName("center_tabs")
        self.center.setDocumentMode(True)
        self.center.addTab(self.rows, "Rows")
        self.center.addTab(self.contracts, "Contracts")
        self.dossier = DossierPanel(self.settings)
        self.dossier.gate_selected.connect(self.controller.gate_selected)
        self.dossier.findings_wanted.connect(self.show_findings)
        self.dossier.session.events.notice.connect(lambda text: self.status(text, 15000))
        self.dossier.request_digest = self.controller.ensure_digest
        self.controller.digest_gave_up.append(self.dossier.session.digest_unavailable)
        s.events.facts_changed.connect(self._dossier_facts)
        s.events.auditing_changed.connect(self._audit_ended)
        # Scrolled: its gates, plots and tabs would otherwise make the window's minimum
        # height more than a 1366x768 screen with a panel has.
        self.center.addTab(_scrolled(self.dossier), "Dossier")
        self.center.currentChanged.connect(self._page_changed)
        # No package open: the welcome page stands in the centre (welcome.py).
        self.places = RecentPlaces(self.settings)
        self.welcome = WelcomePage(
            self.places,
            self.open_package,
            self.open_workspace,
            {
                "package": self.choose_package,
                "workspace": self.choose_workspace,
                "session": lambda: self.controller.open_session(),
                "demo": self.open_demo,
            },
        )
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.center)
        self._docks_state: QByteArray | None = None  # the docks hidden behind the welcome
        self.center.wanted.connect(lambda: self.show_welcome(False))
        s.events.package_changed.connect(self._package_shown)
        self.setCentralWidget(self.stack)
        self.evidence = EvidencePanel(s)
        self.detail = RowDetailPanel(s, self.runner)
        self.row_evidence = RowEvidencePanel(s)
        self.evidence_rows = EvidenceRowsPanel(s)
        self.facets = FacetsPanel(s)
        self.findings = FindingsPanel(s)
        self.plots = PlotsPanel(s)
        self.plots.evidence_filtered.connect(lambda: self.focus_view(self.evidence.view))
        widgets = {
            "facets": self.facets,
            "evidence": self.evidence,
            "evidence_rows": self.evidence_rows,
            "findings": self.findings,
            "detail": self.detail,
            "plots": self.plots,
            "row_evidence": self.row_evidence,
        }
        self.docks: dict[str, QDockWidget] = {}
        for name, where, _onto in _DOCKS:
            widget = widgets[name]
            dock = QDockWidget(widget.windowTitle(), self)
            dock.setObjectName(f"dock_{name}")
            dock.setWidget(widget)
            widget.setMinimumWidth(180)
            # Tabbed docks are tabbed once the window is first laid out (or by a saved
            # layout): tabbing them now leaves Qt an unused tab bar that a restored layout
            # then shows over another dock.
            self.addDockWidget(where, dock)
            self.docks[name] = dock
        # Opening fills the views one per turn, those in front first: each is painted
        # before the next fills. The window holds them all before any view is told.
        self._gates: tuple[tuple[str, Gate], ...] = (
            ("rows", self.rows.gate),
            ("findings", self.findings.gate),
            ("detail", self.detail.gate),
            ("evidence", self.evidence.gate),
            ("evidence_rows", self.evidence_rows.gate),
            ("row_evidence", self.row_evidence.gate),
            ("plots", self.plots.gate),
            ("contracts", self.contracts.gate),
            ("facets", self.facets.gate),
        )
        s.events.package_changed.connect(self._fill_in_turns, priority=1)
        self.evidence.fit_later = lambda fit: self.turns.add("evidence_widths", fit)
        # The plots draw a selection only when seen: catch up when their tab comes forward.
        self.docks["plots"].visibilityChanged.connect(
            lambda shown: QTimer.singleShot(0, self.plots.catch_up) if shown else None
        )

    def _build_subsets(self) -> None:
        """Subsets (subsets.py): a bar above the rows; several rows or evidence items
        picked in a table are rows selected together; the active subset marked."""
        s = self.session
        self.subset_bar = SubsetBar(s, self.runner, self)
        self.rows.layout_.insertWidget(2, self.subset_bar)
        for panel in (self.rows, self.evidence_rows):
            link_row_table(s, panel.view, panel.model, panel.source, panel.gate)
        for ev in (self.evidence, self.row_evidence):
            link_evidence_table(s, ev.view, ev.model.position, ev.source)
            link_evidence_subset(s, ev.model, ev.gate)

    def _menu(self, title: str) -> QMenu:
        for act in self.menuBar().actions():
            menu = act.menu()
            if isinstance(menu, QMenu) and act.text().replace("&", "") == title:
                return menu
        return self.menuBar().addMenu(title)

    def _default_layout(self) -> None:
        self.arrange_default()
        self.layouts.close_at_first()

    def arrange_default(self) -> None:
        """The focused arrangement: two sets of tabbed docks, the centre as wide as the
        window allows (sizes in proportion to the window, so it fits 1366x768 too)."""
        for name, where, onto in _DOCKS:
            if self.dockWidgetArea(self.docks[name]) != where:
                self.addDockWidget(where, self.docks[name])
            if onto is not None:
                self.tabifyDockWidget(self.docks[onto], self.docks[name])
        self.docks["detail"].raise_()
        self.docks["findings"].raise_()
        h, v = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        self.resizeDocks([self.docks["facets"]], [240], h)
        self.resizeDocks([self.docks["detail"]], [min(460, max(300, self.width() // 4))], h)
        self.resizeDocks([self.docks["findings"]], [max(200, int(self.height() * 0.3))], v)

    def _build_status(self) -> None:
        self.count_label = QLabel("No package")
        self.state_label = QLabel("")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setRange(0, 1000)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.controller.cancel)
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)
        bar = self.statusBar()
        bar.addWidget(self.count_label)
        bar.addWidget(self.state_label, 1)
        self.offer_button = OfferButton()
        bar.addPermanentWidget(self.offer_button)
        bar.addPermanentWidget(self.layouts.button)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self.session.events.query_changed.connect(self._show_count)

    def _show_count(self, result: QueryResult) -> None:
        if result.scope is Scope.ROWS and self.session.package is not None:
            self.count_label.setText(f"{result.count:,} of {result.total:,} rows")

    # -- what the controller shows (WindowView) --------------------------------------------
    def show_busy(self, text: str, fraction: float | None = None) -> None:
        self.state_label.setText(text)
        if fraction is not None:
            self.progress.setValue(int(fraction * 1000))
        for w in (self.progress, self.cancel_button):
            w.setVisible(True)

    def show_idle(self, text: str) -> None:
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)
        self.state_label.setText(text)

    def show_partial(self, index: RowIndex) -> None:
        self.show_welcome(False)
        self.rows.gate.call(self.rows.show_index, index)  # after the open still to fill

    def show_opened(self, pkg: Package) -> None:
        self.rows.gate.call(self._rows_show, pkg)
        self.setWindowTitle(f"{pkg.package_id} — aa-review")
        if pkg.problems:
            self.docks["findings"].raise_()

    def _rows_show(self, pkg: Package) -> None:
        if self.rows.model.row_index is not pkg.index:  # loading was cancelled midway
            self.rows.show_package(self.session.opened)

    def _fill_in_turns(self, _opened: object) -> None:
        """A package opened or closed: hold every view, then let one fill per turn (what
        a package opened before and not shown yet is dropped: this one replaces it)."""
        if self.turns.at_once:
            return
        self.turns.cancel()
        for name, gate in self._gates:
            gate.hold()
            self.turns.add(name, gate.release)

    def show_findings(self) -> None:
        """Bring the Findings view forward, focused (the Dossier tab's "Show findings")."""
        dock = self.docks["findings"]
        dock.show()
        dock.raise_()
        self.findings.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_page(self, name: str) -> None:
        """Bring a central page (rows, contracts, dossier) to the front, tab and all."""
        self.center.setCurrentIndex(_PAGES[name])
        self.show_welcome(False)

    def status(self, text: str, ms: int = 6000) -> None:
        self.statusBar().showMessage(text, ms)

    def warn(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    def ask_save_path(self, title: str, suggested: str, filters: str) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(self, title, suggested, filters)
        return Path(name) if name else None

    def ask_open_path(self, title: str, filters: str) -> Path | None:
        name, _ = QFileDialog.getOpenFileName(self, title, "", filters)
        return Path(name) if name else None

    def watch(self, root: Path | None) -> None:
        self.watcher.watch(root)

    def refresh_recent(self, paths: list[str]) -> None:
        menu = self.commands.recent_menu
        menu.clear()
        for i, p in enumerate(paths):
            act = menu.addAction(f"&{i + 1} {p}" if i < 9 else p)
            act.triggered.connect(lambda _c=False, p=p: self.open_package(Path(p)))
        menu.setEnabled(bool(paths))

    def layout_state(self) -> tuple[int, str]:
        return self.center.currentIndex(), encode_layout(
            bytes(self.saveState(self.LAYOUT_VERSION).data())
        )

    def restore_layout_state(self, tab: int, layout: str | None) -> None:
        state = decode_layout(layout)
        if state is not None:
            self.restoreState(QByteArray(state), self.LAYOUT_VERSION)
        self.center.setCurrentIndex(tab)

    def offer(self, label: str | None, take: Any = None) -> None:
        self.offer_button.offer(label, take)

    def show_corpus(self) -> Any:
        """The corpus window (one per review window), brought forward."""
        from aa_review.qt.views.corpus_view import CorpusWindow

        if getattr(self, "corpus", None) is None:
            self.corpus = CorpusWindow(self.runner, self.open_package, self.settings)
        self.corpus.show()
        self.corpus.raise_()
        return self.corpus

    def _audit_ended(self, on: bool) -> None:
        if not on:
            self._dossier_facts(self.session.facts)

    def _dossier_facts(self, facts: Any) -> None:
        """The session's facts of the open package, its audit and the package itself:
        the dossier takes the digest the window computed and never hashes it again.
        While an audit runs the dossier waits for it (told once, at its end)."""
        s = self.session
        if s.auditing:
            return
        self.dossier.set_open_package(facts, s.report)

    # -- the window's own commands -----------------------------------------------------
    def open_package(self, path: Path) -> None:
        self.controller.open(Path(path))

    def choose_package(self) -> None:
        start = str(self.settings.value("last_dir", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open a compiled package", start)
        if path:
            self.open_package(Path(path))

    def open_workspace(self, folder: Path) -> bool:
        """Open a dossier workspace; its gates are evaluated when the Dossier tab is shown."""
        ok = self.dossier.open_workspace(folder)
        if ok:
            self._remember("workspace", folder)
        return ok

    def choose_workspace(self) -> None:
        if self.dossier.choose_workspace():
            if self.dossier.folder is not None:
                self._remember("workspace", self.dossier.folder)
            self.show_page("dossier")

    def open_demo(self) -> None:
        """The sample package and, beside it, its dossier workspace (made in the
        background the first time)."""

        def opened(package: Path, workspace: Path) -> None:
            self.open_package(package)
            self.open_workspace(workspace)

        self.controller.open_demo(opened)

    def _remember(self, kind: str, path: Path) -> None:
        self.places.add(kind, Path(path))
        self.welcome.refresh()

    def _package_shown(self, opened: Any) -> None:
        if opened is None:
            self.welcome.refresh()
            if self.center.currentIndex() != _PAGES["dossier"]:
                self.show_welcome(True)
        else:
            self._remember("package", opened.package.root)
            self.show_welcome(False)

    def show_welcome(self, on: bool) -> None:
        """The welcome page in the centre, the docks (empty tables) out of the way; or the
        pages with the docks as they were."""
        if on:
            if self._docks_state is None:
                self.layouts.restore()
                self._docks_state = self.saveState(self.LAYOUT_VERSION)
                for dock in self.docks.values():
                    dock.hide()
            self.stack.setCurrentWidget(self.welcome)
            self.layouts.button.setEnabled(False)
            return
        self.layouts.button.setEnabled(True)
        self.stack.setCurrentWidget(self.center)
        if self._docks_state is not None:
            state, self._docks_state = self._docks_state, None
            self.restoreState(state, self.LAYOUT_VERSION)

    def _page_changed(self, index: int) -> None:
        if index == _PAGES["dossier"]:
            self.controller.ensure_digest()  # the dossier compares it with its binding
        self.controller.page_shown(next((n for n, i in _PAGES.items() if i == index), ""))

    def palette_commands(self) -> list[PaletteEntry]:
        """Every action of the window for the palette: the menus' (submenus too), the
        window's and its panels' keyed ones, and the dossier's steps."""
        keyed = [a for a in self.findChildren(QAction) if a.property("shortcut_name")]
        return action_entries(self.menuBar(), [*self.actions(), *keyed]) + self.dossier_commands()

    def dossier_commands(self) -> list[PaletteEntry]:
        """The dossier's steps, and whom to act as. A step the acting principal may not
        take now is listed with the dossier's own reason, and picking it says that reason
        (nothing is taken); a principal is offered only when this machine can sign as it."""
        d = self.dossier

        def run(button: QPushButton) -> None:
            self.show_page("dossier")
            button.click()

        if d.ws is None:  # listed, not offered, until a workspace is open
            return [
                PaletteEntry(f"Dossier: {label}", partial(run, b), lambda: d.ws is not None)
                for label, b in d.step_commands()
            ]

        def explain(label: str, why: str) -> None:
            self.show_page("dossier")
            self.status(f"{label} is not available now: {why}", 15000)

        out = []
        for label, b in d.step_commands():
            if b.isEnabled():
                out.append(PaletteEntry(f"Dossier: {label}", partial(run, b)))
            else:
                why = _why_not(b.toolTip())
                out.append(
                    PaletteEntry(
                        f"Dossier: {label} — unavailable: {why}", partial(explain, label, why)
                    )
                )
        snap = d.snapshot
        for p in d.ws.principals:
            if p.role.value == "system_reducer" or p.principal_id == d.actor_id:
                continue
            unable = snap.signable.get(p.principal_id) if snap is not None else None
            if unable is None:
                out.append(
                    PaletteEntry(
                        f"Act as: {p.principal_id} — {p.role.value} ({p.kind.value})",
                        partial(d.set_actor, p.principal_id),
                    )
                )
        return out

    def focus_dossier(self) -> None:
        """The Dossier page in front, the focus on its first control."""
        self.show_page("dossier")
        box = getattr(self.dossier, "dossier_box", None)  # which dossier: the first choice
        target = box if isinstance(box, QWidget) and box.isEnabled() else None
        (target or _first_focusable(self.dossier)).setFocus(Qt.FocusReason.ShortcutFocusReason)

    def choose_actor(self) -> None:
        """Change who you act as (the dossier's own chooser), once a workspace is open."""
        if self.dossier.ws is None:
            self.status("Open a dossier workspace first (File > Open Dossier Workspace…)", 8000)
            return
        self.show_page("dossier")
        self.dossier.choose_actor()

    def view_ring(self) -> list[tuple[QWidget, QWidget]]:
        """What Ctrl+Tab steps through: the pages of the centre, then each open dock,
        as (the page or dock, the widget that takes the focus)."""
        ring: list[tuple[QWidget, QWidget]] = []
        if self.stack.currentWidget() is self.center:
            for i in range(self.center.count()):
                page = self.center.widget(i)
                if page is not None:
                    ring.append((page, _first_focusable(page)))
        for name, _where, _onto in _DOCKS:
            dock = self.docks[name]
            if dock.toggleViewAction().isChecked() and dock.widget() is not None:
                ring.append((dock, _first_focusable(dock.widget())))
        compare = self.docks.get("compare")
        if compare is not None and compare.toggleViewAction().isChecked():
            ring.append((compare, _first_focusable(compare.widget())))
        return ring

    def cycle_view(self, delta: int) -> None:
        """Focus the next (``delta`` 1) or previous (-1) view: a page or a dock."""
        ring = self.view_ring()
        if not ring:
            return
        focus = QApplication.focusWidget()
        at = next(
            (
                i
                for i, (holder, _w) in enumerate(ring)
                if focus is not None and holder.isAncestorOf(focus)
            ),
            -1 if delta > 0 else 0,
        )
        holder, target = ring[(at + delta) % len(ring)]
        if isinstance(holder, QDockWidget):
            holder.show()
            holder.raise_()
        else:
            self.center.setCurrentWidget(holder)
        target.setFocus(Qt.FocusReason.TabFocusReason)

    def show_keyboard_reference(self) -> KeyboardReference:
        keyed = [a for a in self.findChildren(QAction) if a.property("shortcut_name")]
        box = KeyboardReference(self, key_reference(self.menuBar(), [*self.actions(), *keyed]))
        box.show()
        return box

    def show_palette(self) -> CommandPalette:
        palette = CommandPalette(
            self,
            self.palette_commands(),
            lambda t: [
                PaletteEntry(label, run) for label, run in self.controller.palette_entries(t)
            ],
        )
        palette.open()
        return palette

    def focus_query(self) -> None:
        self.show_page("rows")
        self.rows.query.edit.setFocus()
        self.rows.query.edit.selectAll()

    def focus_view(self, view: QWidget) -> None:
        for dock in self.docks.values():
            if dock.isAncestorOf(view):
                dock.show()
                dock.raise_()
        for name, index in _PAGES.items():
            page = self.center.widget(index)
            if page is not None and (page is view or page.isAncestorOf(view)):
                self.show_page(name)
        view.setFocus()

    def set_theme(self, name: str) -> None:
        self.settings.setValue("theme", name)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, name)
        for n, act in self.commands.theme.items():
            act.setChecked(n == name)
        self.plots.retheme()
        self.dossier.plots.retheme()

    def show_about(self) -> None:
        from aa_review.qt.about import about_text

        QMessageBox.about(self, "About aa-review", about_text(self.settings))

    # -- folders dropped on the window ------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if _dropped_dir(event.mimeData().urls()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        path = _dropped_dir(event.mimeData().urls())
        if path is not None:
            event.acceptProposedAction()
            self.open_package(path)

    # -- the layout kept between runs ---------------------------------------------------------
    def _restore_layout(self) -> None:
        geo = self.settings.value("window/geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        else:
            self.resize(1500, 950)
        state = self.settings.value("window/state")
        restored = isinstance(state, QByteArray) and self.restoreState(state, self.LAYOUT_VERSION)
        self._first_layout = not restored  # no saved layout: arrange the docks once shown

    def showEvent(self, event: Any) -> None:  # noqa: N802
        super().showEvent(event)
        if self._first_layout:
            self._first_layout = False
            self._default_layout()
        QTimer.singleShot(500, start_tracker)  # before the first package's workers need it
        if self.session.package is None and self.stack.currentWidget() is self.welcome:
            self.show_welcome(True)

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self.turns.cancel()  # no view fills once the window is gone
        if getattr(self, "corpus", None) is not None:
            self.corpus.close()
        self.dossier.close_workspace()
        self.watcher.clear()
        # Loading and auditing hold worker processes: let them stop before leaving.
        self.runner.shutdown(lanes=("load", "audit", "demo"))
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.layouts.restore()
        self.settings.setValue(
            "window/state", self._docks_state or self.saveState(self.LAYOUT_VERSION)
        )
        self.settings.sync()
        super().closeEvent(event)


class _Pages(QTabWidget):
    """The central tabs; ``setCurrentWidget`` also takes a widget inside a page (the
    dossier panel inside its scroll area), and says the pages are wanted in front of
    the welcome page."""

    wanted = Signal()

    def setCurrentWidget(self, widget: QWidget) -> None:  # noqa: N802
        for i in range(self.count()):
            page = self.widget(i)
            if page is not None and (page is widget or page.isAncestorOf(widget)):
                self.setCurrentIndex(i)
                self.wanted.emit()
                return


def _why_not(tooltip: str) -> str:
    """The dossier's reason a step is not available, from its button's tooltip."""
    return tooltip.removeprefix("Not now.").strip() or "not for the principal you act as"


def _first_focusable(widget: QWidget) -> QWidget:
    """``widget``'s main view (a panel's ``view``), else its first child taking Tab focus."""
    view = getattr(widget, "view", None)
    if isinstance(view, QWidget) and view.isEnabled():
        return view
    for child in widget.findChildren(QWidget):
        if (
            child.focusPolicy() & Qt.FocusPolicy.TabFocus
            and child.isEnabled()
            and not child.isHidden()
        ):
            return child
    return widget


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    return area


def _dropped_dir(urls: list[QUrl]) -> Path | None:
    for url in urls:
        if url.isLocalFile() and Path(url.toLocalFile()).is_dir():
            return Path(url.toLocalFile())
    return None
