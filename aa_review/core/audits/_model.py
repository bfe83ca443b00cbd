"""The audit's results as frozen pydantic models: one package's report, a corpus report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from aa_review.core.findings import Finding, Severity

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
    "fail_threshold",
]

_FROZEN = ConfigDict(frozen=True)


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


class CheckSummary(BaseModel):
    """One check's outcome: how many findings of each code (before any truncation)."""

    model_config = _FROZEN
    check: str
    title: str
    ran: bool = True
    error: str | None = Field(None, description="Why the check could not finish, if it failed")
    codes: dict[str, int] = Field(default_factory=dict)
    by_severity: dict[str, int] = Field(default_factory=dict)


def _worst_at_or_above(findings: list[Finding], threshold: Severity) -> bool:
    return any(f.severity.rank >= threshold.rank for f in findings)


class AuditReport(BaseModel):
    """The audit of one package. ``findings`` are in check order, located."""

    model_config = _FROZEN
    kind: Literal["package"] = "package"
    tool: str
    identity: Identity
    counts: Counts
    checks: list[str] = Field(description="Checks that ran, in order")
    summary: list[CheckSummary] = Field(default_factory=list)
    by_severity: dict[str, int] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list)
    truncated: dict[str, int] = Field(
        default_factory=dict, description="Per code: findings counted but not listed")
    complete: bool = Field(True, description="False when a check failed to run to the end")
    seconds: float = 0.0

    def exit_code(self, fail_on: str | Severity = Severity.ERROR) -> int:
        """0: nothing at or above ``fail_on``; 1: findings; 2: the audit is incomplete."""
        if not self.complete:
            return 2
        return 1 if _worst_at_or_above(self.findings, fail_threshold(fail_on)) else 0

    def codes(self) -> dict[str, int]:
        """Counts by code over all checks (listed or not)."""
        out: dict[str, int] = {}
        for s in self.summary:
            for code, n in s.codes.items():
                out[code] = out.get(code, 0) + n
        return out


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
    by_severity: dict[str, int] = Field(default_factory=dict)
    codes: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 1


class CorpusReport(BaseModel):
    """The audit of a folder of packages, each audited on its own."""

    model_config = _FROZEN
    kind: Literal["corpus"] = "corpus"
    tool: str
    corpus: str
    entries: list[CorpusEntry] = Field(default_factory=list)
    totals: CorpusTotals

    def exit_code(self, fail_on: str | Severity = Severity.ERROR) -> int:
        """2 if any package could not be audited, else 1 if any has findings, else 0."""
        codes = [e.exit_code(fail_on) for e in self.entries]
        return max(codes, default=0)


class AuditDocument(RootModel[AuditReport | CorpusReport]):
    """What ``aa-review audit --json`` prints: a package report or a corpus report."""

    root: AuditReport | CorpusReport = Field(discriminator="kind")

    @classmethod
    def schema_dict(cls) -> dict[str, Any]:
        return cls.model_json_schema()
