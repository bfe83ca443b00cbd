"""FindingsPanel: loading problems and audit findings, filterable, each one navigable.

A finding may concern many rows: picking it selects all of them in the Rows view,
and the location bar steps through its locations one by one. Row positions are
numpy arrays computed once per list of findings, never walked row by row here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QToolButton

from aa_review.core.audits import findings_line
from aa_review.core.findings import distinct_sorted
from aa_review.core.query import FINDING_FIELDS, FindingsIndex, filter_findings
from aa_review.core.session import Selection, SelectionHub
from aa_review.qt.models.findings_table import FindingsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.findings import Finding, Locations
    from aa_review.core.package import Package, RowIndex

__all__ = ["FindingsPanel"]

_HELP = fields_help("findings", FINDING_FIELDS, "code, message or location")
_EMPTY = np.empty(0, np.int64)


class FindingsPanel(Linked):
    source = "findings"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Findings")
        self.summary = QLabel("No package.")
        self.summary.setWordWrap(True)
        self.layout_.addWidget(self.summary)
        self.query = QueryBar("Filter findings: severity:error code:privacy file:… \"text\"",
                              self.apply_query, _HELP)
        self.only_selection = QCheckBox("Only the selection")
        self.only_selection.setToolTip("Show only findings about the selected row, evidence "
                                       "item or contract entry")
        self.only_selection.toggled.connect(lambda _on: self.query.run())
        bar = QHBoxLayout()
        bar.addWidget(self.query, 1)
        bar.addWidget(self.only_selection)
        self._location_bar(bar)  # on the same line: the table keeps the height
        self.layout_.addLayout(bar)
        self.model = FindingsTableModel(self)
        self.view = make_table(self.model, name="findings_view")
        self.layout_.addWidget(self.view)
        self.findings: list[Finding] = []
        self._index: FindingsIndex | None = None
        self._rows_of: list[np.ndarray] = []
        self._summary = "No package."
        self.location_text = ""
        self._current: int | None = None  # the finding the location bar steps through
        self._step = 0
        self._hook_table(self.view, lambda r: self.navigate(self.model.position(r)))
        self._show_location()

    def _location_bar(self, bar: QHBoxLayout) -> None:
        self.prev_button = QToolButton()
        self.prev_button.setArrowType(Qt.ArrowType.LeftArrow)
        self.next_button = QToolButton()
        self.next_button.setArrowType(Qt.ArrowType.RightArrow)
        self.where = QLabel("")
        self.where.setObjectName("finding_location")
        self.all_button = QPushButton("Select its rows")
        from aa_review.qt.views.menus import SHORTCUTS

        for button, name, tip, slot in (
                (self.prev_button, "finding_previous", "Previous location of the finding",
                 lambda: self.step(-1)),
                (self.next_button, "finding_next", "Next location of the finding",
                 lambda: self.step(1)),
                (self.all_button, None, "Select every row of the finding in the Rows view",
                 self.select_all_rows)):
            button.clicked.connect(slot)
            key = SHORTCUTS[name] if name else None
            button.setToolTip(tip + (f" ({key})" if key else ""))
            if name:  # window-wide, so stepping works while the Rows view has the focus
                act = QAction(tip, self)
                act.setShortcut(QKeySequence(str(key)))
                act.setProperty("shortcut_name", name)
                act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
                act.triggered.connect(slot)
                self.addAction(act)
        for w in (self.prev_button, self.where, self.next_button, self.all_button):
            bar.addWidget(w)

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.set_findings(list(pkg.problems) if pkg else [], audited=False)

    def set_findings(self, findings: list[Finding], *, audited: bool,
                     summary: str | None = None) -> None:
        self.findings = findings
        self._index = None
        ix = self.pkg.index if self.pkg is not None else None
        self._rows_of = [_rows_in(ix, f.locations) for f in findings]
        self._current, self._step = None, 0
        self.model.set_findings(findings)
        what = "Audit" if audited else "Loading"
        if summary:
            self._summary = summary
        elif not findings:
            self._summary = (f"{what}: no findings." if audited else
                             "Loaded without problems. Run Audit (Ctrl+Shift+R) for a full check.")
        else:
            self._summary = f"{what}: {findings_line(findings)}."
        self.query.run()
        self.view.resizeColumnsToContents()
        self.view.setColumnWidth(3, min(self.view.columnWidth(3), 420))
        self._show_location()

    def apply_query(self, text: str) -> None:
        shown = filter_findings(self.findings_index() or self.findings, text)
        if self.only_selection.isChecked():
            keep = set(self.about_selection(self.hub.current))
            shown = [i for i in shown if i in keep]
        self.model.set_shown(shown)
        n, total = len(shown), len(self.findings)
        if n == total:
            self.summary.setText(self._summary)
        else:
            locs = sum(len(self.findings[i].locations) for i in shown)
            self.summary.setText(f"{self._summary} Shown: {n:,} of {total:,} findings, "
                                 f"at {locs:,} locations.")

    # -- what the findings point at ---------------------------------------
    def rows_of(self, position: int) -> np.ndarray:
        """Row positions (in the open package) of finding ``position``, sorted."""
        return self._rows_of[position] if 0 <= position < len(self._rows_of) else _EMPTY

    def about_selection(self, sel: Selection) -> list[int]:
        """Positions of the findings located at the selected row, evidence item or contract."""
        if self.pkg is None:
            return []
        ev = self.pkg.evidence_at(sel.evidence) if sel.evidence is not None else None
        eid = self.pkg.index.evidence_ids[sel.evidence] if sel.evidence is not None else None
        out = []
        for i, f in enumerate(self.findings):
            locs = f.locations
            rows = self._rows_of[i]
            if (sel.row is not None and len(rows)
                    and rows[min(np.searchsorted(rows, sel.row), len(rows) - 1)] == sel.row) \
                    or (eid and eid in locs.distinct("evidence_id")) \
                    or (ev is not None and ev.ref in locs.distinct("ref")) \
                    or (sel.contract and sel.contract in locs.distinct("contract")):
                out.append(i)
        return out

    def findings_index(self) -> FindingsIndex | None:
        """The findings as the core's query index (for ``finding:`` in rows and evidence)."""
        if self._index is None and self.pkg is not None:
            self._index = FindingsIndex(self.findings, self.pkg)
        return self._index

    # -- navigation ----------------------------------------------------------
    def navigate(self, position: int, step: int = 0) -> None:
        """Select finding ``position`` at its location ``step``, and all its rows."""
        f = self.findings[position]
        self._current, self._step = position, step % len(f.locations)
        loc = f.locations[self._step]
        rows = self._rows_of[position]
        fields: dict[str, object] = {"finding": position,
                                     "rows": rows if len(rows) else None}
        if self.pkg is not None:
            ix = self.pkg.index
            at = _row_of_location(ix, f.locations, self._step)
            if at is None and loc.file and loc.line:
                at = _row_at(self.pkg, loc.file, loc.line)
            if at is not None:
                fields["row"] = at
            if loc.evidence_id and loc.evidence_id in ix.evidence_pos:
                fields["evidence"] = ix.evidence_pos[loc.evidence_id]
            elif loc.ref:
                fields["evidence"] = next((i for i, e in enumerate(self.pkg.catalog)
                                           if e.ref == loc.ref), None)
            if loc.contract:
                fields["contract"] = loc.contract
        self.hub.update(source=self.source,
                        **{k: v for k, v in fields.items() if v is not None or k == "rows"})
        self._show_location()

    def step(self, delta: int) -> None:
        """Go to the next (``delta`` 1) or previous (-1) location of the current finding."""
        if self._current is not None and self._current < len(self.findings):
            self.navigate(self._current, self._step + delta)

    def select_all_rows(self) -> None:
        """Select every row of the current finding in the Rows view again."""
        if self._current is not None:
            rows = self._rows_of[self._current]
            if len(rows):
                self.hub.update(rows=rows, source=self.source)

    def _show_location(self) -> None:
        f = self.findings[self._current] if self._current is not None and \
            self._current < len(self.findings) else None
        n = len(f.locations) if f is not None else 0
        rows = len(self._rows_of[self._current]) if f is not None else 0
        for button in (self.prev_button, self.next_button):
            button.setEnabled(n > 1)
        self.all_button.setEnabled(rows > 0)
        self.all_button.setText(f"Select all {rows:,} rows" if rows > 1 else "Select its row")
        if f is None:
            self.where.setText("No finding picked")
            self.where.setToolTip("Picking a finding selects all its rows; the arrows (F8, "
                                  "Shift+F8) step through its locations")
            return
        where = f.locations[self._step].short() or "(the package)"
        self.where.setText(f"Location {self._step + 1:,} of {n:,}")
        self.where.setToolTip(where)
        self.location_text = f"{f.code}, location {self._step + 1:,} of {n:,}: {where}"
        bar = getattr(self.window(), "statusBar", None)
        if bar is not None and self.window() is not self:  # the full place, where it fits
            bar().showMessage(self.location_text, 15000)

    def follow(self, sel: Selection) -> None:
        if self.only_selection.isChecked() and sel.source != self.source:
            self.query.run()
        if sel.source != self.source and sel.finding is not None:
            if sel.finding != self._current:
                self._current, self._step = sel.finding, 0
                self._show_location()
            select_table_row(self.view, self.model.table_row_of(sel.finding))


def _rows_in(ix: RowIndex | None, locs: Locations) -> np.ndarray:
    """Positions in ``ix`` of the row locations of ``locs``, sorted and unique.

    The audit's positions when it read this same index; else found again by row id
    (a report from before a reload), vectorized.
    """
    if ix is None or locs.table is None:
        return _EMPTY
    rows = locs.row_positions()
    if locs.table.row_id is ix.row_id:
        return rows
    order = ix._id_order
    if not len(order):
        return _EMPTY
    raw = locs.table.raw_ids_of(rows)
    fits = (np.char.str_len(raw) <= ix.row_id.dtype.itemsize) & (raw != b"")
    ids = raw.astype(ix.row_id.dtype)
    found = order[np.searchsorted(ix.row_id, ids, sorter=order).clip(0, len(order) - 1)]
    return distinct_sorted(found[(ix.row_id[found] == ids) & fits])


def _row_of_location(ix: RowIndex, locs: Locations, k: int) -> int | None:
    pos = locs.row_at(k)
    if pos is None or locs.table is None:
        return None
    if locs.table.row_id is ix.row_id:
        return pos
    rid = locs[k].row_id
    return ix.find_row(rid) if rid else None


def _row_at(pkg: Package, file: str, line: int) -> int | None:
    ix = pkg.index
    if file not in ix.files:
        return None
    hits = np.flatnonzero((ix.file == ix.files.index(file)) & (ix.line == line))
    return int(hits[0]) if len(hits) else None
