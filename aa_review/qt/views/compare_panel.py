"""Compare mode: the open package against a baseline package.

:class:`CompareCommands` opens the baseline in a worker (an index build, with progress
and cancel), has the diff computed off the GUI thread and handed to the session, and
computes it again when the open package is replaced. :class:`ComparePanel` lists the
changes the rows query keeps (removed rows from the baseline), and shows the selected
row or evidence item from both packages side by side, the differing fields marked.
:func:`install_compare` adds the panel's dock, the File menu's commands and the Change
columns of the rows and evidence tables to a window.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from aa_review.core.query import QueryError
from aa_review.core.session import (
    Cancelled,
    CompareItem,
    Comparison,
    OpenPackage,
    PreparedComparison,
    QueryResult,
    ReviewSession,
    Scope,
    Selection,
    SideBySide,
    compare_findings,
    compare_findings_in_process,
    contract_changes,
    evidence_side_by_side,
    prepare_comparison,
    side_by_side,
)
from aa_review.core.util.errors import AAReviewError
from aa_review.qt.controller import failure_message
from aa_review.qt.models.rows_table import CHANGE_COLORS, CHANGE_COLUMN
from aa_review.qt.models.tuple_table import TupleTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.diff import FindingsDiff
    from aa_review.core.package import Package
    from aa_review.qt.controller import Runner, WindowView
    from aa_review.qt.views.main_window import MainWindow

__all__ = [
    "CompareCommands",
    "ComparePanel",
    "ChangesModel",
    "SideBySideModel",
    "install_compare",
    "MAX_LISTED",
]

log = logging.getLogger(__name__)

BASELINE, COMPARE, SIDE, FINDINGS = "baseline", "compare", "compare_side", "compare_findings"
MAX_LISTED = 2000  # changes listed at once; the rows query narrows the rest
_NO_BASELINE = (
    "No baseline. File > Compare With… opens a second package as the baseline: "
    "the rows, evidence and facets then say what changed."
)


class CompareCommands:
    """Opening and closing the baseline; the diff, computed in the background."""

    def __init__(
        self, session: ReviewSession, view: WindowView, runner: Runner, niceness: int | None = None
    ) -> None:
        """``niceness``: audit in processes of their own, that many steps nicer (None: in
        the runner's thread, as tests do)."""
        self.session, self.view, self.runner = session, view, runner
        self.niceness = niceness
        self._starting = False
        self.open_package: Callable[[Path], object] | None = None  # the window's opener
        # After a swap: the package being opened, and the baseline to open once it is.
        self._swap_to: tuple[Path, Path] | None = None
        session.events.baseline_changed.connect(self._on_baseline)
        session.events.package_changed.connect(self._package_opened)

    def swap(self) -> None:
        """Open the baseline as the package, and compare it with the package open now
        (its baseline then): the same two folders, the other way round."""
        c, pkg = self.session.comparison, self.session.package
        if c is None or pkg is None or self.open_package is None:
            return
        old, new = c.baseline.root, pkg.root
        self.close_baseline(say=False)  # nothing compared while the other one opens
        self._swap_to = (old, new)
        self.open_package(old)

    def open_gave_up(self, path: Path) -> None:
        """An open failed or was cancelled: a swap waiting for it is off."""
        if self._swap_to is not None and self._swap_to[0] == path:
            self._swap_to = None

    def _package_opened(self, opened: Any) -> None:
        # Only the package the swap opened gets the swap's baseline: had that open
        # failed, a package opened later is not compared with anything.
        swap, self._swap_to = self._swap_to, None
        if swap is not None and opened is not None and opened.package.root == swap[0]:
            self.open_baseline(swap[1])

    def open_baseline(self, path: Path) -> None:
        """Open ``path`` as the baseline of the open package and diff the two, in a worker."""
        from aa_review.core.package import LoadCancelled, LoadProgress, open_package

        pkg = self.session.package
        if pkg is None:
            self.view.warn(
                "Nothing to compare",
                "Open a package first, then compare it with another one (its baseline).",
            )
            return
        path = Path(path)
        self.view.show_busy(f"Opening the baseline {path.name}…", 0.0)

        def work(job: Any) -> tuple[Package, PreparedComparison]:
            try:
                baseline = open_package(path, progress=job.progress, cancelled=job.cancelled)
            except LoadCancelled:
                raise Cancelled from None
            job.progress("diff")
            return baseline, prepare_comparison(baseline, pkg, job.cancelled)

        def progress(p: Any) -> None:
            if isinstance(p, LoadProgress):
                self.view.show_busy(
                    f"Opening the baseline {path.name}… {p.rows:,} rows", p.fraction
                )
            elif p == "diff":
                self.view.show_busy(f"Comparing with {path.name}…", None)

        def failed(exc: BaseException) -> None:
            self.view.show_idle("Could not open the baseline")
            self.view.warn("Cannot compare", failure_message(path, exc, "comparing with"))

        self.runner.run(
            BASELINE,
            work,
            done=self._opened,
            progress=progress,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing cancelled"),
        )

    def _opened(self, result: tuple[Package, PreparedComparison]) -> None:
        baseline, prepared = result
        self._starting = True
        try:
            started = self.session.start_comparison(baseline)
        finally:
            self._starting = False
        if started is None:
            self.view.show_idle("No package is open to compare")
            return
        if not self.session.set_comparison(prepared):
            self._recompute()  # the open package was replaced meanwhile
            return
        self.view.show_idle(
            f"Compared with the baseline {baseline.package_id}: {_summary(prepared)}"
        )

    def _on_baseline(self, c: Comparison | None) -> None:
        if (
            c is not None
            and c.prepared is None
            and not self._starting
            and c.version == self.session.version
        ):
            self._recompute()

    def _recompute(self) -> None:
        c, pkg = self.session.comparison, self.session.package
        if c is None or pkg is None:
            return
        baseline = c.baseline
        self.view.show_busy(f"Comparing with {baseline.package_id}…", None)

        def done(prepared: PreparedComparison) -> None:
            if self.session.set_comparison(prepared):
                self.view.show_idle(
                    f"Compared with the baseline {baseline.package_id}: {_summary(prepared)}"
                )

        def failed(exc: BaseException) -> None:
            log.error("comparing with %s failed", baseline.root, exc_info=exc)
            self.view.show_idle(f"The comparison could not finish: {exc}")

        self.runner.run(
            COMPARE,
            lambda job: prepare_comparison(baseline, pkg, job.cancelled),
            done=done,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing cancelled"),
        )

    def compare_findings(self) -> None:
        """Audit both packages (every finding) in the background and show which findings
        are new, fixed or persisting."""
        c = self.session.comparison
        pkg = self.session.package
        if c is None or c.prepared is None or pkg is None:
            return
        prepared, old, new, niceness = c.prepared, c.baseline.root, pkg.root, self.niceness
        self.view.show_busy("Auditing both packages to compare their findings…", None)

        def work(job: Any) -> FindingsDiff:
            if niceness is None:
                return compare_findings(old, new, job.cancelled)
            return compare_findings_in_process(old, new, cancelled=job.cancelled, niceness=niceness)

        def done(fd: FindingsDiff) -> None:
            if self.session.set_comparison_findings(prepared, fd):
                self.view.show_idle(
                    f"Findings: {len(fd.new):,} new, {len(fd.fixed):,} fixed, "
                    f"{len(fd.persisting):,} persisting"
                )

        def failed(exc: BaseException) -> None:
            log.error("comparing findings failed", exc_info=exc)
            self.view.show_idle(f"Comparing the findings could not finish: {exc}")

        self.runner.run(
            FINDINGS,
            work,
            done=done,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing findings cancelled"),
        )

    def cancel(self) -> None:
        for lane in (BASELINE, COMPARE, FINDINGS):
            self.runner.stop(lane)

    def close_baseline(self, *, say: bool = True) -> None:
        """Leave compare mode: the window is the normal window again (``say``: the
        status bar says so; not during a swap, which compares again at once)."""
        for lane in (BASELINE, COMPARE, SIDE, FINDINGS):
            self.runner.cancel(lane)
        if self.session.comparison is not None:
            self.session.close_comparison()
            if say:
                self.view.status("Baseline closed", 4000)


def _summary(p: PreparedComparison) -> str:
    n = p.counts()
    ev = sum(1 for _ in p.evidence)
    parts = [
        f"{n[k]:,} {k}" for k in ("added", "removed", "changed", "moved", "reformatted") if n[k]
    ]
    parts.append(f"{ev:,} evidence item{'s' if ev != 1 else ''} changed" if ev else "")
    if p.diff.contracts:
        parts.append(f"{len(p.diff.contracts):,} contract changes")
    text = ", ".join(x for x in parts if x)
    return text or "no change"


def _finding_place(f: dict[str, Any]) -> str:
    """Where a finding (as JSON) points: its first location, and how many more."""
    locs = f.get("locations") or ([f["location"]] if isinstance(f.get("location"), dict) else [])
    if not locs or not isinstance(locs[0], dict):
        return ""
    loc = locs[0]
    place = (
        loc.get("row_id")
        or loc.get("evidence_id")
        or loc.get("contract")
        or (f"{loc.get('file', '')}:{loc['line']}" if loc.get("line") else loc.get("file", ""))
    )
    more = f" (+{len(locs) - 1:,} more)" if len(locs) > 1 else ""
    return f"{place}{more}"


def _places(old: str | None, new: str | None) -> str:
    """``file.jsonl: line 3 → 7`` (the file named once when it is the same)."""

    def split(w: str) -> tuple[str, str]:
        f, _, line = w.rpartition(":")
        return f.rsplit("/", 1)[-1], line

    if old and new and split(old)[0] == split(new)[0]:
        return f"{split(new)[0]}: line {split(old)[1]} → {split(new)[1]}"
    a = "line {1} of {0}".format(*split(old)) if old else "absent"
    b = "line {1} of {0}".format(*split(new)) if new else "absent"
    return f"baseline: {a}; this package: {b}"


def _places_of(pkg: Package, positions: list[int | None]) -> list[str]:
    """``file.jsonl:line`` of each row position ('' for None), the index read once."""
    ix = pkg.index
    known = np.asarray([q for q in positions if q is not None], dtype=np.int64)
    names = [f.rsplit("/", 1)[-1] for f in ix.files]
    texts = iter(
        [
            f"{names[f]}:{line}"
            for f, line in zip(ix.file[known].tolist(), ix.line[known].tolist(), strict=True)
        ]
    )
    return ["" if q is None else next(texts) for q in positions]


def _row_items(p: PreparedComparison, listed: list[CompareItem]) -> list[tuple[Any, ...]]:
    """The changes list's lines for changed rows: kind, row, id, where in each package."""
    old = _places_of(p.baseline, [it.old_pos for it in listed])
    new = _places_of(p.package, [it.new_pos for it in listed])
    return [
        (it.kind, "row", it.row_id, a, b, ", ".join(it.fields) if it.fields else "")
        for it, a, b in zip(listed, old, new, strict=True)
    ]


class ChangesModel(TupleTableModel):
    """The listed changes; the first column coloured by kind."""

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == 0:
            color = CHANGE_COLORS.get(str(self.items[index.row()][0]))
            return QBrush(QColor(color)) if color else None
        return super().data(index, role)


class SideBySideModel(TupleTableModel):
    """Field | baseline | this package; the differing lines drawn marked."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(("", "Field", "Baseline", "This package"), None, parent)
        self.differs: list[bool] = []

    def show(self, view: SideBySide | None, only_differing: bool = False) -> None:
        lines = view.lines if view is not None else ()
        if only_differing:
            lines = tuple(ln for ln in lines if ln.differs)
        self.differs = [ln.differs for ln in lines]
        self.set_items(
            [
                (
                    "≠" if ln.differs else "",
                    ln.path,
                    "(absent)" if ln.old is None else ln.old,
                    "(absent)" if ln.new is None else ln.new,
                )
                for ln in lines
            ],
            tooltips=[f"{ln.path}\nbaseline: {ln.old}\nthis package: {ln.new}" for ln in lines],
        )

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.BackgroundRole and index.isValid() and self.differs[index.row()]:
            color = QColor(CHANGE_COLORS["changed"])
            color.setAlpha(70)
            return QBrush(color)
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == 0:
            return QBrush(QColor(CHANGE_COLORS["changed"]))
        if role == Qt.ItemDataRole.FontRole and index.isValid() and self.differs[index.row()]:
            font = QGuiApplication.font()
            font.setBold(True)
            return font
        return super().data(index, role)


class ComparePanel(Linked):
    """The changes against the baseline, and the selection from both packages side by side."""

    source = "compare"

    def __init__(self, session: ReviewSession, runner: Runner) -> None:
        super().__init__(session, "Compare")
        self.runner = runner
        self.summary = QLabel(_NO_BASELINE)
        self.summary.setObjectName("compare_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        self.close_button = QPushButton("Close Baseline")
        self.close_button.setToolTip("Leave compare mode")
        self.close_button.setEnabled(False)
        self.findings_button = QPushButton("Compare Findings")
        self.findings_button.setToolTip(
            "Audit both packages and list the findings that are new, fixed or persisting"
        )
        self.findings_button.setEnabled(False)
        self.swap_button = QPushButton("Swap")
        self.swap_button.setToolTip(
            "Open the baseline as the package and compare it with the package open now"
        )
        self.swap_button.setEnabled(False)
        buttons = QVBoxLayout()
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.swap_button)
        buttons.addWidget(self.findings_button)
        buttons.addStretch(1)
        bar.addLayout(buttons)
        self.layout_.addLayout(bar)
        # Which folder is which: the package open (the new side) and its baseline.
        self.folders = QLabel("")
        self.folders.setObjectName("compare_folders")
        self.folders.setWordWrap(True)
        self.folders.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.layout_.addWidget(self.folders)
        self.note = QLabel("")
        self.note.setObjectName("compare_note")
        self.note.setWordWrap(True)
        self.layout_.addWidget(self.note)
        self.model = ChangesModel(
            ("Change", "What", "Id", "Baseline", "This package", "Changed fields")
        )
        self.view = make_table(self.model, name="compare_view")
        self.title = QLabel("")
        self.title.setObjectName("compare_title")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sides = SideBySideModel(self)
        self.side_view = make_table(self.sides, name="compare_side_view")
        self.side_view.setWordWrap(False)
        lower = QWidget()
        lower_lay = QVBoxLayout(lower)
        lower_lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        self.only_differing = QCheckBox("Differing fields only")
        self.only_differing.setToolTip("Show only the fields whose values differ")
        self.only_differing.toggled.connect(
            lambda _on: self.sides.show(self.shown_view, self.only_differing.isChecked())
        )
        head.addWidget(self.only_differing, 0, Qt.AlignmentFlag.AlignTop)
        lower_lay.addLayout(head)
        lower_lay.addWidget(self.side_view, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        split.addWidget(self.view)
        split.addWidget(lower)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        self.layout_.addWidget(split, 1)
        self._targets: list[tuple[str, int | None, int | None, str]] = []
        # What the list was made from: a comparison change is followed by the rows
        # result it was evaluated with, and the list is made once for both.
        self._listed_from: tuple[Any, ...] = ()
        self._shown: tuple[Any, ...] | None = None
        self._last: Selection = Selection()
        self.shown_view: SideBySide | None = None
        self.commands: CompareCommands | None = None  # set by install_compare
        self.compare_actions: tuple[QAction, QAction] | None = None
        self._hook_table(self.view, self._pick)
        session.events.baseline_changed.connect(self._on_baseline)
        for col, width in enumerate((90, 70, 260, 150, 150)):
            self.view.setColumnWidth(col, width)
        header = self.side_view.horizontalHeader()
        header.setStretchLastSection(False)
        for col, width in enumerate((22, 200)):
            self.side_view.setColumnWidth(col, width)
        for col in (2, 3):  # both versions share what is left, side by side
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)

    @property
    def prepared(self) -> PreparedComparison | None:
        c = self.session.comparison
        return c.prepared if c is not None and c.version == self.session.version else None

    # -- what the session says -------------------------------------------------------------
    def show_package(self, opened: OpenPackage | None) -> None:
        self._refresh()

    def show_result(self, result: QueryResult) -> None:
        if result.scope is Scope.ROWS:
            self._refresh_list()

    def _on_baseline(self, c: Comparison | None) -> None:
        self._refresh()
        if c is not None and c.baseline_row is not None and self.prepared is not None:
            self._show_row(None, c.baseline_row)

    def _refresh(self) -> None:
        c, p = self.session.comparison, self.prepared
        self.close_button.setEnabled(c is not None)
        self.swap_button.setEnabled(c is not None)
        self.findings_button.setEnabled(p is not None)
        pkg = self.session.package
        self.folders.setText(
            ""
            if c is None or pkg is None
            else f"Open (new): {pkg.root}\nBaseline (old): {c.baseline.root}"
        )
        if c is None:
            self.summary.setText(_NO_BASELINE)
        elif p is None:
            self.summary.setText(f"Baseline {c.baseline.package_id}: comparing…")
        else:
            d = p.diff
            version = (
                f" Format {d.version_change[0]} → {d.version_change[1]}."
                if d.version_change
                else ""
            )
            hidden = [e.evidence_id for e in d.evidence if e.hidden_while_cited]
            warn = f" Hidden while cited: {', '.join(hidden)}." if hidden else ""
            fd = c.findings
            found = (
                ""
                if fd is None
                else f" Findings: {len(fd.new):,} new, "
                f"{len(fd.fixed):,} fixed, {len(fd.persisting):,} persisting."
            )
            self.summary.setText(
                f"Baseline {c.baseline.package_id}: {_summary(p)}.{version}{warn}{found}"
            )
        self.summary.setToolTip("" if c is None else f"Baseline: {c.baseline.root}")
        self._refresh_list()
        if c is None or p is None:
            self._show(None, "")

    def _refresh_list(self) -> None:
        p = self.prepared
        if p is None:
            self._targets = []
            self._listed_from = ()
            self.model.set_items([])
            self.note.setText("")
            return
        c = self.session.comparison
        fd = c.findings if c is not None else None
        result = self.session.result(Scope.ROWS)
        made_from = (p, result, fd)
        if len(self._listed_from) == len(made_from) and all(
            a is b for a, b in zip(self._listed_from, made_from, strict=True)
        ):
            self._follow_list(self.session.selection.current)
            return
        query = self.session.query(Scope.ROWS)
        new_positions = result.positions
        note = ""
        try:
            old_positions = p.old_rows.filter(query)
            total_rows = p.count_listed(new_positions, old_positions)
            listed = p.listed(new_positions, old_positions, MAX_LISTED)
        except QueryError as exc:  # e.g. finding: terms, the baseline has no audit
            empty = np.empty(0, np.int64)
            total_rows = p.count_listed(new_positions, empty)
            listed = p.listed(new_positions, empty, MAX_LISTED)
            note = (
                f"Removed rows are not listed: the query cannot be evaluated on the "
                f"baseline ({exc.message})."
            )
        if result.error is not None:
            note = "The rows query has an error: every change is listed."
        items: list[tuple[Any, ...]] = _row_items(p, listed)
        targets: list[tuple[str, int | None, int | None, str]] = [
            ("row", it.new_pos, it.old_pos, it.row_id) for it in listed
        ]
        for e in p.diff.evidence:
            fields = ", ".join(e.fields)
            items.append(
                (
                    e.kind,
                    "evidence",
                    e.evidence_id,
                    e.old.ref if e.old is not None else "",
                    e.new.ref if e.new is not None else "",
                    fields,
                )
            )
            targets.append(("evidence", None, None, e.evidence_id))
        for cc in p.diff.contracts:
            items.append(
                (
                    cc.kind,
                    "contract",
                    f"{cc.document}: {cc.item}",
                    "",
                    "",
                    ", ".join(f.path for f in cc.fields),
                )
            )
            targets.append(("contract", None, None, cc.item))
        for kind, side in (("new", fd.new if fd else ()), ("fixed", fd.fixed if fd else ())):
            for f in side:
                where = _finding_place(f)
                items.append(
                    (
                        kind,
                        "finding",
                        str(f.get("code", "")),
                        where if kind == "fixed" else "",
                        where if kind == "new" else "",
                        str(f.get("message", "")),
                    )
                )
                targets.append(("finding", None, None, str(f.get("code", ""))))
        if total_rows > MAX_LISTED:
            note = (
                (note + " " if note else "") + f"The first {MAX_LISTED:,} of "
                f"{total_rows:,} changed rows are listed: narrow them with the rows query."
            )
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self._targets = targets
        self._listed_from = made_from
        self.model.set_items(items)
        self._follow_list(self.session.selection.current)

    # -- picking in the list ------------------------------------------------------------
    def _pick(self, table_row: int) -> None:
        if not 0 <= table_row < len(self._targets):
            return
        what, new_pos, old_pos, key = self._targets[table_row]
        pkg = self.session.package
        if what == "row":
            if new_pos is not None:
                self.session.select_row(new_pos, self.source)
                self._show_row(new_pos, old_pos)
            elif old_pos is not None:
                self.session.select_baseline_row(old_pos, self.source)
        elif what == "evidence" and pkg is not None:
            pos = pkg.index.evidence_pos.get(key)
            if pos is not None:
                self.session.select_evidence(pos, self.source)
            self._show_evidence(key)

    # -- following the selection ---------------------------------------------------------------
    def follow(self, sel: Selection) -> None:
        last, self._last = self._last, sel
        if self.prepared is None:
            return
        self._follow_list(sel)
        if sel.source == self.source:
            return
        pkg = self.session.package
        if sel.row is not None and sel.row != last.row:
            self._show_row(sel.row, self.prepared.baseline_row_of(sel.row))
        elif sel.evidence is not None and sel.evidence != last.evidence and pkg is not None:
            self._show_evidence(pkg.index.evidence_ids[sel.evidence])

    def _follow_list(self, sel: Selection) -> None:
        if sel.source == self.source:
            return
        found = None
        if sel.row is not None:
            found = next(
                (i for i, t in enumerate(self._targets) if t[0] == "row" and t[1] == sel.row), None
            )
        select_table_row(self.view, found)

    def _show_row(self, new_pos: int | None, old_pos: int | None) -> None:
        p = self.prepared
        if p is None:
            return
        want = ("row", self.session.version, id(p), new_pos, old_pos)
        if want == self._shown:
            return
        self._shown = want
        self.title.setText("Reading both versions…")

        def done(view: SideBySide) -> None:
            if self._shown == want:
                self._show(view, "row")

        def failed(exc: BaseException) -> None:
            if self._shown != want:
                return
            if not isinstance(exc, (AAReviewError, OSError)):
                log.error("reading a row to compare failed", exc_info=exc)
            self.title.setText(f"Cannot read the row: {exc}")
            self.sides.show(None)

        self.runner.run(
            SIDE, lambda _job: side_by_side(p, new_pos, old_pos), done=done, failed=failed
        )

    def _show_evidence(self, evidence_id: str) -> None:
        p = self.prepared
        if p is None:
            return
        self._shown = ("evidence", self.session.version, id(p), evidence_id)
        self.runner.cancel(SIDE)
        view = evidence_side_by_side(p, evidence_id)
        if view is None:
            self.shown_view = None
            self.title.setText(f"Evidence {evidence_id}: the same in the baseline.")
            self.sides.show(None)
            return
        self._show(view, "evidence")

    def _show(self, view: SideBySide | None, what: str) -> None:
        self.shown_view = view
        self.sides.show(view, self.only_differing.isChecked())
        if view is None:
            self.title.setText("")
            return
        n = len(view.differing)
        if what == "evidence":
            where = "in both catalogs" if view.old_where and view.new_where else ""
        else:
            where = _places(view.old_where, view.new_where)
        if view.new_where is None:
            diff = "only in the baseline"
        elif view.old_where is None:
            diff = "not in the baseline"
        else:
            diff = f"{n} field{'s differ' if n != 1 else ' differs'}" if n else "no field differs"
        more = " (first fields only)" if view.truncated else ""
        notes = "".join(f"\n{x}" for x in view.notes)
        line = " · ".join(x for x in (f"{view.kind}: {diff}{more}", where) if x)
        self.title.setText(f"{what.capitalize()} {view.title}\n{line}{notes}")
        first = next((i for i, d in enumerate(self.sides.differs) if d), None)
        if first is None:
            self.side_view.scrollToTop()
        else:  # once laid out: the first differing field at the top
            index = self.sides.index(first, 1)
            QTimer.singleShot(
                0, lambda: self.side_view.scrollTo(index, QTableView.ScrollHint.PositionAtTop)
            )


def install_compare(win: MainWindow) -> ComparePanel:
    """The Compare dock (hidden until a baseline is open) and its commands, in ``win``."""
    panel = ComparePanel(win.session, win.runner)
    panel.setMinimumWidth(180)
    dock = QDockWidget(panel.windowTitle(), win)
    dock.setObjectName("dock_compare")
    dock.setWidget(panel)
    win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    win.docks["compare"] = dock
    commands = CompareCommands(win.session, win, win.runner, win.controller.audit_niceness)
    panel.commands = commands
    panel.close_button.clicked.connect(lambda: commands.close_baseline())
    commands.open_package = win.open_package
    win.controller.open_gave_up.append(commands.open_gave_up)
    panel.swap_button.clicked.connect(commands.swap)
    panel.findings_button.clicked.connect(commands.compare_findings)

    sizes_before: list[int] = []

    def on_baseline(c: Comparison | None) -> None:
        p = c.prepared if c is not None and c.version == win.session.version else None
        win.rows.model.set_changes(p.row_kind if p else None, p.masks["linked"] if p else None)
        win.evidence.model.set_changes({k: e.kind for k, e in p.evidence.items()} if p else None)
        win.contracts.show_changes(contract_changes(p, win.contracts.entries) if p else None)
        header = win.rows.view.horizontalHeader()
        if p is not None and header.visualIndex(CHANGE_COLUMN) > 1:
            header.moveSection(header.visualIndex(CHANGE_COLUMN), 1)  # beside the row id
            win.rows.view.setColumnWidth(CHANGE_COLUMN, 110)
        if c is not None and not dock.isVisible():
            detail, below = win.docks["detail"], win.docks["row_evidence"]
            sizes_before[:] = [detail.width(), detail.height(), below.height()]
            if not dock.isFloating() and win.docks["detail"].isVisible():
                win.tabifyDockWidget(win.docks["detail"], dock)
            dock.show()
            dock.raise_()
            # both versions side by side need room: most of the right-hand column
            QTimer.singleShot(0, lambda: _make_room(win, dock))
        elif c is None and dock.isVisible():
            dock.hide()
            if sizes_before:  # the right-hand column as it was before comparing
                width, high, low = sizes_before
                detail, below = win.docks["detail"], win.docks["row_evidence"]
                win.resizeDocks([detail], [width], Qt.Orientation.Horizontal)
                win.resizeDocks([detail, below], [high, low], Qt.Orientation.Vertical)
                sizes_before.clear()
                detail.raise_()
        compare_close.setEnabled(c is not None)

    def choose() -> None:
        start = str(win.settings.value("last_dir", str(Path.home())))
        path = QFileDialog.getExistingDirectory(win, "Compare with a baseline package", start)
        if path:
            commands.open_baseline(Path(path))

    compare_open = QAction("Compare &With…", win)
    compare_open.setStatusTip("Open a second package as the baseline and show what changed")
    compare_open.triggered.connect(choose)
    compare_close = QAction("Close &Baseline", win)
    compare_close.setStatusTip("Leave compare mode")
    compare_close.triggered.connect(lambda: commands.close_baseline())
    compare_close.setEnabled(False)
    panel.compare_actions = (compare_open, compare_close)
    win.session.events.baseline_changed.connect(on_baseline)
    return panel


def _make_room(win: MainWindow, dock: QDockWidget) -> None:
    h, v = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
    win.resizeDocks([dock], [max(440, int(win.width() * 0.4))], h)
    below = win.docks["row_evidence"]
    if below.isVisible() and not below.isFloating() and not dock.isFloating():
        column = dock.height() + below.height()
        win.resizeDocks([dock, below], [int(column * 0.75), int(column * 0.25)], v)


def add_compare_actions(win: MainWindow, panel: ComparePanel) -> None:
    """Put Compare With… and Close Baseline in the File menu, and let Cancel stop the
    baseline's loading too."""
    assert panel.compare_actions is not None and panel.commands is not None
    file_menu = next(
        m
        for a in win.menuBar().actions()
        if isinstance(m := a.menu(), QMenu) and win.commands.workspace in m.actions()
    )
    for act in panel.compare_actions:
        win.addAction(act)
        file_menu.insertAction(win.commands.workspace, act)
    win.cancel_button.clicked.connect(panel.commands.cancel)
    win.commands.cancel.triggered.connect(panel.commands.cancel)
    # A layout saved while comparing would show the dock at the next start, with nothing
    # to compare: it is shown when a baseline opens.
    dock = win.docks["compare"]
    QTimer.singleShot(0, lambda: dock.hide() if win.session.comparison is None else None)
