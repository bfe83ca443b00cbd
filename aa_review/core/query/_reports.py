"""An audit report (or a corpus report) filtered by a findings query, every count recounted."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport, CorpusReport
    from aa_review.core.package import Package

__all__ = ["filter_report", "filter_corpus"]


def filter_report(report: AuditReport, query: str, pkg: Package | None = None) -> AuditReport:
    """``report`` keeping the findings ``query`` matches, with its summary and counts recounted.

    Row fields in ``query`` (``type:x``: findings about rows of that type) read the
    audited package: ``pkg`` when given, else it is opened from ``identity.root``.

    Raises
    ------
    QueryError
        When the query cannot be read.
    """
    from aa_review.core.package import open_package
    from aa_review.core.query import filter_findings, needs_package

    if pkg is None and needs_package(query):
        pkg = open_package(Path(report.identity.root))
    return report.keeping(set(filter_findings(report.findings, query, pkg)), query)


def filter_corpus(corpus: CorpusReport, query: str) -> CorpusReport:
    """Every package's report filtered by ``query``, and the totals recounted."""
    entries = [
        e if e.report is None else e.model_copy(update={"report": filter_report(e.report, query)})
        for e in corpus.entries
    ]
    return corpus.with_entries(entries, query)
