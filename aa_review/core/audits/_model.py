"""The audit's results as frozen pydantic models: one package's report, a corpus report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, RootModel

from aa_review.core.findings import Finding, Severity, distinct_sorted

__all__ = [
    "AuditProgress",
    "Identity",
    "Counts",
    "CheckSummary",
    "AuditReport",
    "CorpusEntry",
    "CorpusTotals",
    "CorpusReport",
    "AuditDocument",
    "Tally",
    "fail_threshold",
    "SCHEMA_ID",
    "findings_line",
]

# Output keys are always written: the schema of the output requires them.
_FROZEN = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)
SCHEMA_ID = "urn:aa-review:schema:audit-report:2"  # bump when the output changes shape


@dataclass(frozen=True)
class AuditProgress:
    """How far an audit is: ``done`` of ``total`` units (bytes, files or packages) in ``stage``."""

    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)


def fail_threshold(fail_on: str | Severity) -> Severity:
    """The severity named by ``--fail-on`` (``error``, ``warning``, ...)."""
    return fail_on if isinstance(fail_on, Severity) else Severity(str(fail_on).lower())


class Identity(BaseModel):
    """Who the package is: ids, schema versions and the digest of every file."""

    model_config = _FROZEN
    package_id: str
    task_id: str | None = None
    root: str
    format_version: str = Field(description="'v0.2' or 'v0.1'")
    schema_versions: dict[str, str | None] = Field(default_factory=dict)
    package_digest: str | None = Field(None, description="'sha256:' over every file")
    catalog_derived_from_rows: bool = False
    compiler_id: str | None = None


class Counts(BaseModel):
    """Rows, evidence and links as found in the package."""

    model_config = _FROZEN
    rows: int = 0
    rows_by_data_type: dict[str, int] = Field(default_factory=dict)
    rows_by_file: dict[str, int] = Field(default_factory=dict)
    evidence_items: int = 0
    evidence_by_type: dict[str, int] = Field(default_factory=dict)
    evidence_by_visibility: dict[str, int] = Field(default_factory=dict)
    links: int | None = None
    loading_problems: int = 0
    rows_read: bool = Field(
        True,
        description="False when the audit's checks needed no row "
        "(--check narrowed it): the row files were not read, and the row "
        "counts are 0",
    )


class CheckSummary(BaseModel):
    """One check's outcome: how many findings of each code and severity it lists."""

    model_config = _FROZEN
    check: str
    title: str
    ran: bool = True
    error: str | None = Field(None, description="Why the check could not finish, if it failed")
    codes: dict[str, int] = Field(
        default_factory=dict, description="Findings listed per code (one gathered: one)"
    )
    by_severity: dict[str, int] = Field(default_factory=dict)
    locations: int = Field(0, description="Locations of its findings, all counted")

    @classmethod
    def of(
        cls,
        check: str,
        title: str,
        findings: list[Finding],
        error: str | None = None,
        ran: bool | None = None,
    ) -> CheckSummary:
        """The summary of ``findings``, as listed."""
        codes: dict[str, int] = {}
        sev: dict[str, int] = {}
        for f in findings:
            codes[f.code] = codes.get(f.code, 0) + 1
            sev[f.severity.value] = sev.get(f.severity.value, 0) + 1
        return cls(
            check=check,
            title=title,
            ran=error is None if ran is None else ran,
            error=error,
            codes=dict(sorted(codes.items())),
            by_severity=sev,
            locations=sum(len(f.locations) for f in findings),
        )


class Tally(BaseModel):
    """How many findings and locations, by severity: a report's before a query kept some."""

    model_config = _FROZEN
    findings: int = 0
    locations: int = 0
    by_severity: dict[str, int] = Field(default_factory=dict)


def _worst_at_or_above(findings: list[Finding], threshold: Severity) -> bool:
    return any(f.severity.rank >= threshold.rank for f in findings)


def _severities(counts: dict[str, int]) -> str:
    return ", ".join(
        f"{n:,} {k}" for k, n in sorted(counts.items(), key=lambda t: -Severity(t[0]).rank)
    )


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def findings_line(findings: list[Finding]) -> str:
    """``12 findings at 1,240 locations (1 critical, 11 low)``, or ``no findings``."""
    if not findings:
        return "no findings"
    sev: dict[str, int] = {}
    for f in findings:
        sev[f.severity.value] = sev.get(f.severity.value, 0) + 1
    n = sum(len(f.locations) for f in findings)
    return f"{_plural(len(findings), 'finding')} at {_plural(n, 'location')} ({_severities(sev)})"


class AuditReport(BaseModel):
    """The audit of one package. ``findings`` are in check order, each with all its places.

    Every count (``by_severity``, ``summary``, ``locations``) describes ``findings`` as
    listed: a finding that gathers others past the listing limit counts once, and says
    how many it gathers. After a query they describe what the query kept.
    """

    model_config = _FROZEN
    kind: Literal["package"] = "package"
    tool: str
    identity: Identity
    counts: Counts
    checks: list[str] = Field(description="Checks that ran, in order")
    summary: list[CheckSummary] = Field(default_factory=list)
    by_severity: dict[str, int] = Field(
        default_factory=dict, description="Findings listed per severity"
    )
    locations: int = Field(0, description="Locations of the findings listed, all counted")
    findings: list[Finding] = Field(default_factory=list)
    listing_limit: int = Field(
        200, description="Findings of one code listed one by one; the rest are gathered"
    )
    gathered: dict[str, int] = Field(
        default_factory=dict,
        description="Per code: findings past the listing limit, "
        "gathered into one finding that keeps every location",
    )
    query: str | None = Field(None, description="The query the findings were filtered with")
    unfiltered: Tally | None = Field(None, description="The counts before the query")
    complete: bool = Field(True, description="False when a check failed to run to the end")
    seconds: float = 0.0

    @classmethod
    def assemble(
        cls, summary: list[CheckSummary], findings: list[Finding], **fields: Any
    ) -> AuditReport:
        """A report whose counts are those of ``findings`` (in ``summary``'s check order)."""
        by_sev: dict[str, int] = {}
        for s in summary:
            for sev, n in s.by_severity.items():
                by_sev[sev] = by_sev.get(sev, 0) + n
        gathered: dict[str, int] = {}
        for f in findings:
            if f.gathered:
                gathered[f.code] = gathered.get(f.code, 0) + f.gathered
        return cls(
            summary=summary,
            findings=findings,
            by_severity=by_sev,
            locations=sum(s.locations for s in summary),
            gathered=dict(sorted(gathered.items())),
            **fields,
        )

    def exit_code(self, fail_on: str | Severity = Severity.ERROR) -> int:
        """0: nothing at or above ``fail_on``; 1: findings; 2: the audit is incomplete."""
        if not self.complete:
            return 2
        return 1 if _worst_at_or_above(self.findings, fail_threshold(fail_on)) else 0

    def codes(self) -> dict[str, int]:
        """Findings listed per code, over all checks."""
        out: dict[str, int] = {}
        for s in self.summary:
            for code, n in s.codes.items():
                out[code] = out.get(code, 0) + n
        return out

    def tally(self) -> Tally:
        return Tally(
            findings=len(self.findings),
            locations=self.locations,
            by_severity=dict(self.by_severity),
        )

    def keeping(self, keep: set[int], query: str) -> AuditReport:
        """The report keeping the findings at positions ``keep``, every count recounted.

        ``query`` says why they were kept (the query language's
        :func:`~aa_review.core.query.filter_report` chooses them); it is added to any
        query the report was already filtered with.
        """
        summary, kept, start = [], [], 0
        for s in self.summary:  # findings are listed check by check, in summary order
            n = sum(s.codes.values())
            part = [f for i, f in enumerate(self.findings[start : start + n], start) if i in keep]
            start += n
            summary.append(CheckSummary.of(s.check, s.title, part, s.error, s.ran))
            kept += part
        assert start == len(self.findings), "findings and summary disagree"
        fields = self.model_dump(
            exclude={
                "summary",
                "findings",
                "by_severity",
                "locations",
                "gathered",
                "query",
                "unfiltered",
            }
        )
        text = query if self.query is None else f"{self.query} {query}"
        return AuditReport.assemble(
            summary, kept, **fields, query=text.strip(), unfiltered=self.unfiltered or self.tally()
        )

    def summary_line(self) -> str:
        """One line saying what is listed: findings, locations, severities, what is gathered,
        and the query (the window and the command line print this same line)."""
        n = len(self.findings)
        if self.query is not None and self.unfiltered is not None:
            u = self.unfiltered
            head = (
                f"{n:,} of {_plural(u.findings, 'finding')} kept by the query "
                f"{self.query!r}, at {self.locations:,} of {_plural(u.locations, 'location')}"
            )
        elif n == 0:
            return "no findings"
        else:
            head = f"{_plural(n, 'finding')} at {_plural(self.locations, 'location')}"
        sev = _severities(self.by_severity)
        text = head + (f" ({sev})" if sev else "")
        if self.gathered:
            text += (
                f"; past {self.listing_limit} findings of one code, the rest are gathered "
                "into one finding that locates each: "
                + ", ".join(f"{code} {k:,}" for code, k in self.gathered.items())
            )
        return text

    def compacted(self) -> AuditReport:
        """The same report holding only the row columns its findings point at (smaller to
        send to another process; the open package's row index is not kept alive)."""
        tables = {id(t): t for f in self.findings if (t := f.locations.table) is not None}
        if not tables:
            return self
        small = {}
        for key, table in tables.items():
            used = [
                f.locations.row_positions() for f in self.findings if f.locations.table is table
            ]
            small[key] = table.compact(distinct_sorted(np.concatenate(used)))
        findings = [
            f
            if f.locations.table is None
            else f.model_copy(
                update={"locations": f.locations.with_table(small[id(f.locations.table)])}
            )
            for f in self.findings
        ]
        return self.model_copy(update={"findings": findings})


class CorpusEntry(BaseModel):
    """One folder of a corpus: its report, or why it could not be audited."""

    model_config = _FROZEN
    path: str
    report: AuditReport | None = None
    error: str | None = None

    def exit_code(self, fail_on: str | Severity = Severity.ERROR) -> int:
        return 2 if self.report is None else self.report.exit_code(fail_on)


class CorpusTotals(BaseModel):
    model_config = _FROZEN
    packages: int = 0
    audited: int = 0
    failed: int = 0
    rows: int = 0
    findings: int = Field(0, description="Findings listed over every package")
    locations: int = Field(0, description="Their locations")
    by_severity: dict[str, int] = Field(default_factory=dict)
    codes: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 1

    @classmethod
    def of(cls, entries: list[CorpusEntry], **fields: Any) -> CorpusTotals:
        """Totals of the reports of ``entries`` (as listed, after any query)."""
        sev: dict[str, int] = {}
        codes: dict[str, int] = {}
        reports = [e.report for e in entries if e.report is not None]
        for r in reports:
            for k, v in r.by_severity.items():
                sev[k] = sev.get(k, 0) + v
            for k, v in r.codes().items():
                codes[k] = codes.get(k, 0) + v
        return cls(
            packages=len(entries),
            audited=len(reports),
            failed=len(entries) - len(reports),
            rows=sum(r.counts.rows for r in reports),
            findings=sum(len(r.findings) for r in reports),
            locations=sum(r.locations for r in reports),
            by_severity=dict(sorted(sev.items())),
            codes=dict(sorted(codes.items())),
            **fields,
        )


class CorpusReport(BaseModel):
    """The audit of a folder of packages, each audited on its own."""

    model_config = _FROZEN
    kind: Literal["corpus"] = "corpus"
    tool: str
    corpus: str
    entries: list[CorpusEntry] = Field(default_factory=list)
    totals: CorpusTotals
    query: str | None = Field(
        None,
        description="The query every package's findings were "
        "filtered with; the totals count what it kept",
    )

    def exit_code(self, fail_on: str | Severity = Severity.ERROR) -> int:
        """2 if any package could not be audited, else 1 if any has findings, else 0."""
        codes = [e.exit_code(fail_on) for e in self.entries]
        return max(codes, default=0)

    def with_entries(self, entries: list[CorpusEntry], query: str) -> CorpusReport:
        """The corpus with ``entries`` (each package's report filtered by ``query``), the
        totals recounted."""
        totals = CorpusTotals.of(entries, seconds=self.totals.seconds, workers=self.totals.workers)
        text = query if self.query is None else f"{self.query} {query}"
        return self.model_copy(update={"entries": entries, "totals": totals, "query": text.strip()})


class AuditDocument(RootModel[AuditReport | CorpusReport]):
    """What ``aa-review audit --json`` prints: a package report or a corpus report."""

    root: AuditReport | CorpusReport = Field(discriminator="kind")

    @classmethod
    def schema_dict(cls) -> dict[str, Any]:
        """The JSON Schema (2020-12) of the output, with its ``$schema`` and ``$id``."""
        body = cls.model_json_schema(mode="serialization")
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **body}
