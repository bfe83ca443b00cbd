"""CorpusWindow: the packages of a corpus report, one line each, sortable, each opening.

Open the JSON report of ``aa-review audit DIR --json``, or audit a folder here (in the
background, with progress and Cancel). Each line shows the package's identity, its
worst severity, its findings and their count per check; double-click or Enter opens
the package in the review window.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from aa_review.core.util.errors import AAReviewError
from aa_review.qt.models.findings_table import SEVERITY_COLORS
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.session.corpus import CorpusLine, CorpusView
    from aa_review.qt.controller import Runner

__all__ = ["CorpusWindow"]

log = logging.getLogger(__name__)

_FIXED = ("Package", "Task", "Format", "Rows", "Worst", "Findings", "Locations")
_SORT = Qt.ItemDataRole.UserRole + 1  # the key a column sorts by (numbers as numbers)
_LANE = "corpus"


class CorpusWindow(QWidget):
    """A window of its own: the lines of one corpus, the package picked opening in
    ``open_package``."""

    def __init__(
        self,
        runner: Runner,
        open_package: Callable[[Path], None],
        settings: QSettings | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle("Corpus — aa-review")
        self.setObjectName("corpus_window")
        self.runner = runner
        self.open_package = open_package
        self.settings = settings
        self.workers: int | None = max(1, (os.cpu_count() or 2) - 1)
        self.corpus: CorpusView | None = None
        lay = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.open_button = QPushButton("Open Report…")
        self.open_button.setToolTip("Open the JSON report of aa-review audit DIR --json")
        self.open_button.clicked.connect(lambda: self.choose_report())
        self.audit_button = QPushButton("Audit a Folder…")
        self.audit_button.setToolTip("Audit every package in a folder, in the background")
        self.audit_button.clicked.connect(lambda: self.choose_folder())
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(lambda: self.runner.stop(_LANE))
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)
        self.summary = QLabel("Open a corpus report, or audit a folder of packages.")
        self.summary.setObjectName("corpus_summary")
        self.summary.setWordWrap(True)
        for w in (self.open_button, self.audit_button):
            bar.addWidget(w)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        lay.addLayout(bar)
        self.model = QStandardItemModel(0, len(_FIXED), self)
        self.model.setSortRole(_SORT)
        self.model.setHorizontalHeaderLabels(list(_FIXED))
        self.view: QTableView = make_table(self.model, sortable=True, name="corpus_view")
        self.view.doubleClicked.connect(lambda idx: self.open_line(idx.row()))
        self.view.activated.connect(lambda idx: self.open_line(idx.row()))
        lay.addWidget(self.view)
        self.resize(1100, 600)

    # -- getting a corpus ----------------------------------------------------------------
    def choose_report(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Open a corpus report", "", "Audit report (*.json);;All files (*)"
        )
        if name:
            self.open_report(Path(name))

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Audit a folder of packages")
        if path:
            self.audit(Path(path))

    def open_report(self, path: Path) -> None:
        """Read ``path`` in the background and show its lines."""
        from aa_review.core.session.corpus import read_corpus_report

        self._busy(f"Reading {path.name}…")
        self.runner.run(
            _LANE,
            lambda _job: read_corpus_report(path),
            done=self.show_corpus,
            failed=self._failed,
            cancelled=lambda: self._idle("Reading cancelled"),
        )

    def audit(self, folder: Path) -> None:
        """Audit every package of ``folder`` in the background (Cancel stops it)."""
        from aa_review.core.audits import AuditCancelled
        from aa_review.core.session import Cancelled
        from aa_review.core.session.corpus import audit_folder

        workers = self.workers

        def work(job: Any) -> CorpusView:
            try:
                return audit_folder(folder, workers, progress=job.progress, cancelled=job.cancelled)
            except AuditCancelled:
                raise Cancelled from None

        def progress(p: Any) -> None:
            self.progress.setValue(int(p.fraction * 1000))
            self.summary.setText(f"Auditing {folder.name}: {p.done:,} of {p.total:,} packages…")

        self._busy(f"Auditing {folder.name}…")
        self.runner.run(
            _LANE,
            work,
            done=self.show_corpus,
            failed=self._failed,
            progress=progress,
            cancelled=lambda: self._idle(f"Auditing {folder.name} cancelled"),
        )

    def _busy(self, text: str) -> None:
        self.summary.setText(text)
        self.progress.setValue(0)
        for w in (self.progress, self.cancel_button):
            w.setVisible(True)

    def _idle(self, text: str) -> None:
        for w in (self.progress, self.cancel_button):
            w.setVisible(False)
        self.summary.setText(text)

    def _failed(self, exc: BaseException) -> None:
        if not isinstance(exc, (AAReviewError, OSError)):
            log.error("the corpus could not be read", exc_info=exc)
        self._idle(f"Cannot show the corpus: {exc}")

    # -- showing it ----------------------------------------------------------------------
    def show_corpus(self, corpus: CorpusView) -> None:
        self.corpus = corpus
        headers = [*_FIXED, *corpus.checks, "Problem"]
        self.view.setSortingEnabled(False)
        self.model.clear()
        self.model.setHorizontalHeaderLabels(headers)
        for k, line in enumerate(corpus.lines):
            self.model.appendRow(self._cells(k, line, corpus.checks))
        self.view.setSortingEnabled(True)
        # Worst first: the packages to look at come first.
        self.view.sortByColumn(_FIXED.index("Worst"), Qt.SortOrder.DescendingOrder)
        self.view.resizeColumnsToContents()
        self._idle(
            f"{Path(corpus.source).name}: {corpus.summary()}. Double-click a "
            "package (or Enter) to open it."
        )

    def _cells(self, k: int, x: CorpusLine, checks: tuple[str, ...]) -> list[QStandardItem]:
        def cell(text: str, key: Any = None) -> QStandardItem:
            item = QStandardItem(text)
            item.setEditable(False)
            item.setData(text.lower() if key is None else key, _SORT)
            return item

        worst = x.worst.value if x.worst is not None else ("—" if not x.error else "")
        cells = [
            cell(x.package_id),
            cell(x.task_id),
            cell(x.format_version),
            cell(f"{x.rows:,}", x.rows),
            cell(worst, x.worst_rank),
            cell(f"{x.findings:,}", x.findings),
            cell(f"{x.locations:,}", x.locations),
        ]
        # A check without findings shows nothing, so the counts stand out.
        cells += [
            cell(f"{x.by_check[c]:,}" if x.by_check.get(c) else "", x.by_check.get(c, -1))
            for c in checks
        ]
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for c in (3, 5, 6, *range(len(_FIXED), len(_FIXED) + len(checks))):
            cells[c].setTextAlignment(right)
        problem = x.error or ("" if x.complete else "a check did not finish")
        cells.append(cell(problem))
        cells[0].setData(k, Qt.ItemDataRole.UserRole)  # the line, however sorted
        cells[0].setToolTip(x.path)
        if x.worst is not None:
            cells[4].setForeground(QBrush(QColor(SEVERITY_COLORS[x.worst])))
        if x.error:
            for c in cells:
                c.setForeground(QBrush(QColor("#c62828")))
        return cells

    def line_at(self, table_row: int) -> CorpusLine | None:
        if self.corpus is None or not 0 <= table_row < self.model.rowCount():
            return None
        k = self.model.item(table_row, 0).data(Qt.ItemDataRole.UserRole)
        return self.corpus.lines[int(k)]

    def open_line(self, table_row: int) -> None:
        """Open the package of that line in the review window."""
        line = self.line_at(table_row)
        if line is None:
            return
        if line.error:
            self.summary.setText(f"{line.path} could not be audited: {line.error}")
            return
        if not Path(line.path).is_dir():
            self.summary.setText(
                f"{line.path}: no such folder here (the report was made "
                "on another machine, or the package moved)"
            )
            return
        self.open_package(Path(line.path))

    def closeEvent(self, event: Any) -> None:  # noqa: N802
        self.runner.cancel(_LANE)  # an audit of a folder stops with its window
        self._idle(self.summary.text() if self.corpus else "")
        super().closeEvent(event)
