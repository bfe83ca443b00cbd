"""FindingsPanel: loading problems and audit findings, filterable, each one navigable."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel

from aa_review.core.query import FINDING_FIELDS, FindingsIndex, filter_findings
from aa_review.core.selection import Selection, SelectionHub
from aa_review.qt.models.findings_table import FindingsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar, fields_help
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["FindingsPanel"]

_HELP = fields_help("findings", FINDING_FIELDS, "code, message or location")


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
        self.layout_.addLayout(bar)
        self.model = FindingsTableModel(self)
        self.view = make_table(self.model, name="findings_view")
        self.layout_.addWidget(self.view)
        self.findings: list[Finding] = []
        self._index: FindingsIndex | None = None
        self._hook_table(self.view, lambda r: self.navigate(self.model.position(r)))

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.set_findings(list(pkg.problems) if pkg else [], audited=False)

    def set_findings(self, findings: list[Finding], *, audited: bool,
                     summary: str | None = None) -> None:
        self.findings = findings
        self._index = None
        self._row_ids: dict[str, list[int]] = {}
        for i, f in enumerate(findings):
            if f.location.row_id:
                self._row_ids.setdefault(f.location.row_id, []).append(i)
        self.model.set_findings(findings)
        by_sev = Counter(f.severity.value for f in findings)
        what = "Audit" if audited else "Loading"
        if summary:
            self.summary.setText(summary)
        elif not findings:
            self.summary.setText(f"{what}: no findings." if audited else
                                 "Loaded without problems. Run Audit (Ctrl+Shift+R) for a full check.")
        else:
            parts = ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items()))
            self.summary.setText(f"{what}: {len(findings)} findings ({parts}).")
        self.query.run()
        self.view.resizeColumnsToContents()

    def apply_query(self, text: str) -> None:
        shown = filter_findings(self.findings_index() or self.findings, text)
        if self.only_selection.isChecked():
            keep = set(self.about_selection(self.hub.current))
            shown = [i for i in shown if i in keep]
        self.model.set_shown(shown)

    def about_selection(self, sel: Selection) -> list[int]:
        """Positions of the findings located at the selected row, evidence item or contract."""
        if self.pkg is None:
            return []
        ix = self.pkg.index
        rid = ix.row_id_str(sel.row) if sel.row is not None else None
        ev = self.pkg.evidence_at(sel.evidence) if sel.evidence is not None else None
        eid = ix.evidence_ids[sel.evidence] if sel.evidence is not None else None
        out = []
        for i, f in enumerate(self.findings):
            loc = f.location
            if (rid and loc.row_id == rid) or (eid and loc.evidence_id == eid) or \
                    (ev is not None and loc.ref == ev.ref) or \
                    (sel.contract and loc.contract == sel.contract):
                out.append(i)
            elif sel.row is not None and loc.file == ix.files[int(ix.file[sel.row])] and \
                    loc.line == int(ix.line[sel.row]):
                out.append(i)
        return out

    def findings_index(self) -> FindingsIndex | None:
        """The findings as the core's query index (for ``finding:`` in rows and evidence)."""
        if self._index is None and self.pkg is not None:
            self._index = FindingsIndex(self.findings, self.pkg)
        return self._index

    def navigate(self, position: int) -> None:
        """Select the finding and what it points at (row, evidence item)."""
        f = self.findings[position]
        fields: dict[str, int | str | None] = {"finding": position}
        if self.pkg is not None:
            ix = self.pkg.index
            if f.location.row_id:
                fields["row"] = ix.find_row(f.location.row_id)
            elif f.location.file and f.location.line:
                fields["row"] = _row_at(self.pkg, f.location.file, f.location.line)
            if f.location.evidence_id and f.location.evidence_id in ix.evidence_pos:
                fields["evidence"] = ix.evidence_pos[f.location.evidence_id]
            elif f.location.ref:
                eid = next((i for i, e in enumerate(self.pkg.catalog) if e.ref == f.location.ref),
                           None)
                fields["evidence"] = eid
            if f.location.contract:
                fields["contract"] = f.location.contract
        self.hub.update(source=self.source, **{k: v for k, v in fields.items() if v is not None})

    def follow(self, sel: Selection) -> None:
        if self.only_selection.isChecked() and sel.source != self.source:
            self.query.run()
        if sel.source != self.source and sel.finding is not None:
            select_table_row(self.view, self.model.table_row_of(sel.finding))


def _row_at(pkg: Package, file: str, line: int) -> int | None:
    import numpy as np

    ix = pkg.index
    if file not in ix.files:
        return None
    hits = np.flatnonzero((ix.file == ix.files.index(file)) & (ix.line == line))
    return int(hits[0]) if len(hits) else None
