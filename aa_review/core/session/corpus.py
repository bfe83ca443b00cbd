"""A corpus at a glance: one line per package of ``aa-review audit DIR``'s report.

The window's corpus view shows these lines (identity, worst severity, counts by
check) and opens a package from one. The report is read from its JSON (``--json``),
or made by auditing a folder in the background (:func:`audit_folder`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from aa_review.core.audits import AuditDocument, AuditReport, CorpusEntry, CorpusReport
from aa_review.core.findings import Severity
from aa_review.core.util.errors import AAReviewError

__all__ = [
    "CorpusLine",
    "CorpusView",
    "read_corpus_report",
    "corpus_view",
    "audit_folder",
    "REPORT_LIMIT",
]

REPORT_LIMIT = 2 * 1024 * 1024 * 1024  # a larger file is refused, not read
_BY_NAME = {s.value: s for s in Severity}


@dataclass(frozen=True)
class CorpusLine:
    """One package of the corpus: who it is, how bad, how many findings per check."""

    path: str
    package_id: str
    task_id: str
    format_version: str
    rows: int
    findings: int
    locations: int
    worst: Severity | None
    by_check: dict[str, int] = field(default_factory=dict)
    by_severity: dict[str, int] = field(default_factory=dict)
    error: str | None = None  # the package could not be audited
    complete: bool = True

    @property
    def worst_rank(self) -> int:
        return -1 if self.worst is None else self.worst.rank


@dataclass(frozen=True)
class CorpusView:
    """The lines of a corpus report, and the checks that have columns (in audit order)."""

    source: str
    query: str | None
    lines: tuple[CorpusLine, ...]
    checks: tuple[str, ...]

    def summary(self) -> str:
        n = len(self.lines)
        failed = sum(1 for x in self.lines if x.error)
        findings = sum(x.findings for x in self.lines)
        text = f"{n:,} package{'s' if n != 1 else ''}, {findings:,} findings"
        if failed:
            text += f", {failed:,} could not be audited"
        if self.query:
            text += f" (findings kept by the query {self.query!r})"
        return text


def _line(entry: CorpusEntry, base: Path | None) -> CorpusLine:
    path = entry.path
    if base is not None and not Path(path).is_absolute():
        path = str(base / path)
    r = entry.report
    if r is None:
        return CorpusLine(
            path, Path(path).name, "", "", 0, 0, 0, None, error=entry.error or "not audited"
        )
    return _report_line(r, path)


def _report_line(r: AuditReport, path: str) -> CorpusLine:
    worst = max(
        (_BY_NAME[k] for k, n in r.by_severity.items() if n and k in _BY_NAME),
        key=lambda s: s.rank,
        default=None,
    )
    by_check = {s.check: sum(s.codes.values()) for s in r.summary}
    return CorpusLine(
        path,
        r.identity.package_id,
        r.identity.task_id or "",
        r.identity.format_version,
        r.counts.rows,
        len(r.findings),
        r.locations,
        worst,
        by_check,
        dict(r.by_severity),
        None,
        r.complete,
    )


def corpus_view(
    doc: CorpusReport | AuditReport, source: str, base: Path | None = None
) -> CorpusView:
    """The lines of ``doc`` (a single package's report makes one line); relative package
    paths are taken from ``base``."""
    if isinstance(doc, AuditReport):
        path = doc.identity.root
        if base is not None and not Path(path).is_absolute():
            path = str(base / path)
        lines = [_report_line(doc, path)]
        query = doc.query
    else:
        lines = [_line(e, base) for e in doc.entries]
        query = doc.query
    checks: list[str] = []
    for x in lines:
        for c in x.by_check:
            if c not in checks:
                checks.append(c)
    return CorpusView(source, query, tuple(lines), tuple(checks))


def read_corpus_report(path: Path) -> CorpusView:
    """The corpus report (or single package report) at ``path``, as printed by
    ``aa-review audit DIR --json``. Raises :class:`AAReviewError` naming the file and
    what is wrong with it."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > REPORT_LIMIT:
            raise AAReviewError(f"{path}: {size:,} bytes, larger than an audit report may be")
        data = path.read_bytes()
    except OSError as exc:
        raise AAReviewError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        doc = AuditDocument.model_validate_json(data).root
    except ValidationError as exc:
        errors = exc.errors()
        msg = errors[0]["msg"] if errors else str(exc)
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else ""
        raise AAReviewError(
            f"{path}: not an aa-review audit report (--json): {msg}"
            + (f" at {where}" if where else "")
        ) from None
    return corpus_view(doc, str(path), path.resolve().parent)


def audit_folder(
    folder: Path,
    workers: int | None = None,
    *,
    progress: Callable[[object], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> CorpusView:
    """Audit every package in ``folder`` (``audit_corpus``) and return its lines; raises
    ``AuditCancelled`` when ``cancelled()`` turned true."""
    from aa_review.core.audits import audit_corpus

    report = audit_corpus(folder, workers, progress=progress, cancelled=cancelled)
    return corpus_view(report, str(folder))
