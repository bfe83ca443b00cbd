"""MainWindow: docks of linked views over one package, menus, status and loading."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTabBar,
    QTabWidget,
    QWidget,
)

from aa_review.core.package import package_digest as compute_digest
from aa_review.core.session import SelectionHub
from aa_review.qt.theme import apply_theme
from aa_review.qt.views import window_actions as wa
from aa_review.qt.views.contracts_panel import ContractsPanel
from aa_review.qt.views.detail_panel import RowDetailPanel
from aa_review.qt.views.dossier_panel import DossierPanel
from aa_review.qt.views.evidence_panels import EvidencePanel, EvidenceRowsPanel, RowEvidencePanel
from aa_review.qt.views.facets_panel import FacetsPanel
from aa_review.qt.views.findings_panel import FindingsPanel
from aa_review.qt.views.menus import build_actions
from aa_review.qt.views.palette import CommandPalette
from aa_review.qt.views.plots_panel import PlotsPanel
from aa_review.qt.views.rows_panel import RowsPanel
from aa_review.qt.views.window_audit import AuditMixin
from aa_review.qt.views.window_recent import RecentMixin
from aa_review.qt.watcher import PackageWatcher
from aa_review.qt.workers import AuditRunner, PackageLoader

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport
    from aa_review.core.package import LoadProgress, Package, RowIndex
    from aa_review.core.session import SessionState

__all__ = ["MainWindow"]

log = logging.getLogger(__name__)


class MainWindow(AuditMixin, RecentMixin, QMainWindow):
    """The review window. It shows and asks; every decision is the core's."""

    # Bumped whenever the set of docks changes, so an old saved layout is not misapplied.
    LAYOUT_VERSION = 3

    def __init__(self, settings: QSettings) -> None:
        super().__init__()
        self.settings = settings
        self.hub = SelectionHub()
        self.package: Package | None = None
        self.pending_session: SessionState | None = None
        self._digest: str | None = None
        self._loading_path: Path | None = None
        self.audit_report: AuditReport | None = None
        self.auditor = AuditRunner(self)
        self.auditor.progress.connect(self._on_audit_progress)
        self.auditor.finished.connect(self._on_audited)
        self.auditor.failed.connect(lambda m: self._audit_ended(m))
        self.auditor.cancelled.connect(lambda: self._audit_ended("Audit cancelled"))
        self.watcher = PackageWatcher(self)
        self.watcher.changed.connect(self._on_disk_change)
        self.loader = PackageLoader(self)
        self.setWindowTitle("aa-review")
        self.setAcceptDrops(True)
        self.setDockNestingEnabled(True)
        self._build_views()
        build_actions(self)
        self._build_status()
        self.loader.progress.connect(self._on_progress)
        self.loader.partial.connect(self._on_partial)
        self.loader.loaded.connect(self._on_loaded)
        self.loader.failed.connect(self._on_failed)
        self.loader.cancelled.connect(self._on_cancelled)
        self.hub.changed.connect(lambda _s: self._update_history_actions())
        self._restore_layout()

    # -- construction ------------------------------------------------------
    def _build_views(self) -> None:
        self.rows = RowsPanel(self.hub)
        self.contracts = ContractsPanel(self.hub)
        # The two wide views share the centre; everything else docks around them.
        self.center = QTabWidget()
        self.center.setObjectName("center_tabs")
        self.center.setDocumentMode(True)
        self.center.addTab(self.rows, "Rows")
        self.center.addTab(self.contracts, "Contracts")
        self.dossier = DossierPanel(self.settings)
        self.dossier.gate_selected.connect(self._gate_selected)
        self.center.addTab(self.dossier, "Dossier")
        self.setCentralWidget(self.center)
        self.evidence = EvidencePanel(self.hub)
        self.detail = RowDetailPanel(self.hub)
        self.row_evidence = RowEvidencePanel(self.hub)
        self.evidence_rows = EvidenceRowsPanel(self.hub)
        self.facets = FacetsPanel(self.rows.query.text, self.rows.query.set_text)
        self.findings = FindingsPanel(self.hub)
        self.rows.row_findings = self.findings.findings_index
        self.evidence.evidence_findings = self.findings.findings_index
        self.plots = PlotsPanel(self.hub, self.rows.query.set_text, self.rows.query.text)
        area = Qt.DockWidgetArea
        self.docks: dict[str, QDockWidget] = {}
        # (name, widget, area, tabbed onto): a tabbed dock joins its partner at once;
        # tabifying after other docks have been laid out left a stray tab bar behind.
        for name, widget, where, onto in (
            ("facets", self.facets, area.LeftDockWidgetArea, None),
            ("evidence", self.evidence, area.BottomDockWidgetArea, None),
            ("evidence_rows", self.evidence_rows, area.BottomDockWidgetArea, None),
            ("findings", self.findings, area.BottomDockWidgetArea, "evidence_rows"),
            ("detail", self.detail, area.RightDockWidgetArea, None),
            ("plots", self.plots, area.RightDockWidgetArea, "detail"),
            ("row_evidence", self.row_evidence, area.RightDockWidgetArea, None),
        ):
            dock = QDockWidget(widget.windowTitle(), self)
            dock.setObjectName(f"dock_{name}")
            dock.setWidget(widget)
            widget.setMinimumWidth(180)
            if onto is None:
                self.addDockWidget(where, dock)
            else:
                self.tabifyDockWidget(self.docks[onto], dock)
            self.docks[name] = dock
        self.docks["detail"].raise_()
        self.docks["evidence_rows"].raise_()

    def default_dock_sizes(self) -> None:
        """The first-run proportions; only meaningful once the window has its size."""
        h, v = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        self.resizeDocks([self.docks["facets"]], [280], h)
        self.resizeDocks([self.docks["detail"]], [460], h)
        self.resizeDocks([self.docks["evidence"]], [300], v)
        self.resizeDocks([self.docks["evidence"]], [640], h)

    def _build_status(self) -> None:
        self.count_label = QLabel("No package")
        self.state_label = QLabel("")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setRange(0, 1000)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_work)
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)
        bar = self.statusBar()
        bar.addWidget(self.count_label)
        bar.addWidget(self.state_label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self.rows.model.modelReset.connect(self._update_count)
        self.rows.model.modelReset.connect(
            lambda: self.plots.highlight_rows(self.rows.model.positions_array()))
        self.rows.model.layoutChanged.connect(self._update_count)

    # -- opening -----------------------------------------------------------
    def choose_package(self) -> None:
        start = str(self.settings.value("last_dir", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open a compiled package", start)
        if path:
            self.open_package(Path(path))

    def open_package(self, path: Path) -> None:
        path = Path(path)
        self._loading_path = path
        self.settings.setValue("last_dir", str(path.parent))
        self.state_label.setText(f"Loading {path.name}…")
        self.progress.setValue(0)
        for w in (self.progress, self.cancel_button):
            w.setVisible(True)
        self.loader.load(path)

    def reload(self) -> None:
        if self.package is not None:
            self.pending_session = wa.capture_session(self)
            self.open_package(self.package.root)

    def _on_disk_change(self) -> None:
        if self.package is not None and not self.loader.is_running():
            self.statusBar().showMessage("The package changed on disk: reloading", 5000)
            self.reload()

    def package_digest(self) -> str:
        """The open package's digest (computed once per load)."""
        if self._digest is None and self.package is not None:
            try:
                self._digest = compute_digest(self.package.root)
            except OSError:  # a file cannot be read: the audit names it
                return ""
        return self._digest or ""

    def _on_progress(self, p: LoadProgress) -> None:
        self.progress.setValue(int(p.fraction * 1000))
        self.state_label.setText(f"Loading {self._loading_path.name if self._loading_path else ''}"
                                 f"… {p.rows:,} rows")

    def _on_partial(self, index: RowIndex) -> None:
        if self.package is None or self._loading_path != self.package.root:
            self.rows.show_index(index)

    def _on_loaded(self, pkg: Package) -> None:
        self._end_loading()
        self.package = pkg
        self._digest = None
        self.hub.clear()
        for panel in (self.rows, self.evidence, self.detail, self.row_evidence,
                      self.evidence_rows, self.findings, self.contracts):
            panel.set_package(pkg)
        self.facets.set_package(pkg)
        self.plots.set_package(pkg)
        self.dossier.set_package(pkg.root)
        self.setWindowTitle(f"{pkg.package_id} — aa-review")
        problems = f", {len(pkg.problems)} loading problems" if pkg.problems else ""
        self.state_label.setText(f"{pkg.package_id} ({pkg.version}){problems}")
        if pkg.problems:
            self.docks["findings"].raise_()
        self._remember_recent(pkg.root)
        self.watcher.watch(pkg.root)
        self.audit_report = None
        if self.pending_session is not None:
            state, self.pending_session = self.pending_session, None
            wa.apply_session(self, state)
        self.maybe_audit()

    def _on_failed(self, path: str, message: str) -> None:
        self._end_loading()
        self.state_label.setText("Could not open the package")
        QMessageBox.warning(self, "Cannot open package", message)

    def _on_cancelled(self, path: str) -> None:
        self._end_loading()
        self.state_label.setText(f"Loading {Path(path).name} cancelled")
        if self.package is not None:
            self.rows.set_package(self.package)

    def _end_loading(self) -> None:
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)

    def _update_count(self) -> None:
        ix = self.rows.model.row_index
        total = len(ix) if ix is not None else 0
        self.count_label.setText(f"{self.rows.model.rowCount():,} of {total:,} rows")

    def _update_history_actions(self) -> None:
        self.act_back.setEnabled(self.hub.can_go_back())
        self.act_forward.setEnabled(self.hub.can_go_forward())

    def open_workspace(self, folder: Path) -> bool:
        """Open a dossier workspace; its gates are evaluated when the Dossier tab is shown."""
        return self.dossier.open_workspace(folder)

    def choose_workspace(self) -> None:
        if self.dossier.choose_workspace():
            self.center.setCurrentWidget(self.dossier)

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        if self._first_layout:
            self._first_layout = False
            self.default_dock_sizes()
        self.hide_stray_tab_bars()

    def hide_stray_tab_bars(self) -> None:
        """Hide dock tab bars that sit away from their docks.

        With two tabbed dock groups, Qt 6.11 leaves a second, unused tab bar for one
        of them visible in the middle of the window; the one in use is next to its docks.
        """
        for bar in self.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            titles = {bar.tabText(i) for i in range(bar.count())}
            docks = [d for d in self.docks.values()
                     if d.windowTitle() in titles and not d.isFloating()]
            near = any(bar.geometry().intersects(d.geometry().adjusted(-4, -40, 4, 40))
                       for d in docks)
            if docks and not near and bar.isVisible():
                bar.hide()

    def closeEvent(self, event: object) -> None:  # noqa: N802
        self.dossier.close_workspace()
        self.watcher.clear()
        self.auditor.cancel()
        self.auditor.wait()
        self.loader.cancel()
        self.loader.wait()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState(self.LAYOUT_VERSION))
        self.settings.sync()
        super().closeEvent(event)  # type: ignore[arg-type]

    def reopen_last_session(self) -> None:
        last = self.settings.value("last_session")
        if last and Path(str(last)).is_file():
            wa.open_session(self, Path(str(last)))
        else:
            QMessageBox.information(self, "No session", "No saved session to reopen yet.")

    def show_palette(self) -> CommandPalette:
        palette = CommandPalette(self, self.actions(), lambda t: wa.go_to_entries(self, t))
        palette.open()
        return palette

    def focus_query(self) -> None:
        self.center.setCurrentWidget(self.rows)
        self.rows.query.edit.setFocus()
        self.rows.query.edit.selectAll()

    def focus_view(self, view: QWidget) -> None:
        for dock in self.docks.values():
            if dock.isAncestorOf(view):
                dock.show()
                dock.raise_()
        if self.center.isAncestorOf(view):
            page = view
            while page.parentWidget() is not None and page.parentWidget() is not self.center \
                    and self.center.indexOf(page) < 0:
                page = page.parentWidget()
            self.center.setCurrentWidget(page)
        view.setFocus()

    def set_theme(self, name: str) -> None:
        from PySide6.QtWidgets import QApplication

        self.settings.setValue("theme", name)
        app = QApplication.instance()
        if app is not None:
            apply_theme(app, name)  # type: ignore[arg-type]
        for n, act in self.theme_actions.items():
            act.setChecked(n == name)
        self.plots.retheme()
        self.dossier.plots.retheme()

    def show_about(self) -> None:
        from aa_review.qt.about import about_text

        QMessageBox.about(self, "About aa-review", about_text(self.settings))

