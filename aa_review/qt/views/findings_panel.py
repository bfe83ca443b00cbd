"""FindingsPanel: loading problems and audit findings, filterable, each one navigable."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel

from aa_review.core.query import FINDING_FIELDS, filter_findings
from aa_review.core.selection import Selection, SelectionHub
from aa_review.qt.models.findings_table import FindingsTableModel
from aa_review.qt.views._linked import Linked, select_table_row
from aa_review.qt.views.query_bar import QueryBar
from aa_review.qt.views.tables import make_table

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = ["FindingsPanel"]

_HELP = "Filter findings:\n" + "\n".join(f"  {k}:  {v}" for k, v in FINDING_FIELDS.items())


class FindingsPanel(Linked):
    source = "findings"

    def __init__(self, hub: SelectionHub) -> None:
        super().__init__(hub, "Findings")
        self.summary = QLabel("No package.")
        self.summary.setWordWrap(True)
        self.layout_.addWidget(self.summary)
        self.query = QueryBar("Filter findings: severity:error code:privacy file:… \"text\"",
                              self.apply_query, _HELP)
        self.layout_.addWidget(self.query)
        self.model = FindingsTableModel(self)
        self.view = make_table(self.model, name="findings_view")
        self.layout_.addWidget(self.view)
        self.findings: list[Finding] = []
        self._hook_table(self.view, lambda r: self.navigate(self.model.position(r)))

    def set_package(self, pkg: Package | None) -> None:
        super().set_package(pkg)
        self.set_findings(list(pkg.problems) if pkg else [], audited=False)

    def set_findings(self, findings: list[Finding], *, audited: bool) -> None:
        self.findings = findings
        self.model.set_findings(findings)
        by_sev = Counter(f.severity.value for f in findings)
        what = "Audit" if audited else "Loading"
        if not findings:
            self.summary.setText(f"{what}: no findings." if audited else
                                 "Loaded without problems. Run Audit (Ctrl+R) for a full check.")
        else:
            parts = ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items()))
            self.summary.setText(f"{what}: {len(findings)} findings ({parts}).")
        if self.query.text():
            self.query.run()
        self.view.resizeColumnsToContents()

    def apply_query(self, text: str) -> None:
        self.model.set_shown(filter_findings(self.findings, text))

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
        if sel.source != self.source and sel.finding is not None:
            select_table_row(self.view, self.model.table_row_of(sel.finding))


def _row_at(pkg: Package, file: str, line: int) -> int | None:
    import numpy as np

    ix = pkg.index
    if file not in ix.files:
        return None
    hits = np.flatnonzero((ix.file == ix.files.index(file)) & (ix.line == line))
    return int(hits[0]) if len(hits) else None
