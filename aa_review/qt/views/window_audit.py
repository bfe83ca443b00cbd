"""The window's audit: run in the background, findings shown, gates linked to the package."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from aa_review.core.package.digest import list_package
from aa_review.core.package.safepath import printable

if TYPE_CHECKING:
    from aa_review.core.audits import AuditProgress, AuditReport

__all__ = ["AuditMixin"]


class AuditMixin:
    """Audit behaviour of :class:`MainWindow` (kept apart to keep each module readable)."""

    AUTO_AUDIT_MAX_BYTES = 512 * 1024 * 1024


    def run_audit(self) -> None:
        """Audit the open package in the background; findings replace the loading problems."""
        if self.package is None:
            return
        self.state_label.setText("Auditing…")
        self.progress.setValue(0)
        for w in (self.progress, self.cancel_button):
            w.setVisible(True)
        self.auditor.run(self.package)

    def cancel_work(self) -> None:
        self.loader.cancel()
        self.auditor.cancel()

    def _on_audit_progress(self, p: AuditProgress) -> None:
        self.progress.setValue(int(p.fraction * 1000))
        self.state_label.setText(f"Auditing: {p.stage}…")

    def _on_audited(self, report: AuditReport) -> None:
        if self.package is None or printable(str(self.package.root)) != report.identity.root:
            return  # a report for a package no longer open
        self.audit_report = report
        self._digest = report.identity.package_digest or self._digest
        # The command line's summary line, word for word: the counts are the report's.
        checks = ", ".join(f"{c.check} {sum(c.codes.values())}" for c in report.summary
                           if c.codes)
        text = (f"Audit: {report.summary_line()}, in {report.seconds:.1f} s."
                + (f" By check: {checks}." if checks else ""))
        self.findings.set_findings(list(report.findings), audited=True, summary=text)
        self.facets.set_package(self.package, list(report.findings))
        self.dossier.set_package(self.package.root, report, package=self.package)
        self._audit_ended(f"{self.package.package_id}: audited, {len(report.findings)} findings "
                          f"at {report.locations:,} locations")

    def _audit_ended(self, message: str) -> None:
        self._end_loading()
        self.state_label.setText(message)

    def maybe_audit(self) -> None:
        """Audit a freshly opened package when small enough and the settings allow it."""
        auto = str(self.settings.value("audit/auto", "true")).lower() == "true"
        if auto and _size_under(self.package.root, self.AUTO_AUDIT_MAX_BYTES):
            self.run_audit()

    def _gate_selected(self, gate: str) -> None:
        """Show in the package views what a gate rests on, where the package holds it."""
        if gate != "G9" or self.package is None:
            return
        self.rows.query.set_text("evidence.visibility:hidden_excluded")
        self.findings.query.set_text("code:link.hidden_cited")
        hidden = [i for i, e in enumerate(self.package.catalog)
                  if e.visibility == "hidden_excluded"]
        if hidden:
            self.hub.update(evidence=hidden[0], source="dossier")
        n = self.rows.model.rowCount()
        self.statusBar().showMessage(f"G9: {n} rows of the package cite hidden evidence "
                                     "(Rows tab, filtered)", 8000)



def _size_under(root: Path, limit: int) -> bool:
    """Whether the package's files add up to less than ``limit`` bytes (stops counting early)."""
    try:  # listed without following symlinks or touching special files
        sizes = (e.size for e in list_package(root).entries if e.kind == "file")
    except OSError:
        return False
    total = 0
    for size in sizes:
        total += size
        if total >= limit:
            return False
    return True
