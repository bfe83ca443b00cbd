"""A finding: one named, located problem in a package (loading or audit)."""

from __future__ import annotations

import enum

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Severity", "Location", "Finding"]


class Severity(str, enum.Enum):
    """How bad a finding is; ordered by ``rank``."""

    INFO = "info"
    LOW = "low"
    WARNING = "warning"
    ERROR = "error"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.INFO: 0, Severity.LOW: 1, Severity.WARNING: 2, Severity.ERROR: 3,
         Severity.CRITICAL: 4}


class Location(BaseModel):
    """Where a finding points: any of file and line, row, evidence item, ref, contract item."""

    model_config = ConfigDict(frozen=True)

    file: str | None = Field(None, description="Package-relative path of the file")
    line: int | None = Field(None, description="1-based line number in `file`")
    row_id: str | None = Field(None, description="Training row id (row_id or pair_id)")
    evidence_id: str | None = Field(None, description="Evidence catalog id")
    ref: str | None = Field(None, description="The package ref concerned")
    key_path: str | None = Field(None, description="JSON key path inside the record")
    contract: str | None = Field(None, description="Contract item path (output or artifact)")

    def short(self) -> str:
        """A one-line human form, ``file:line`` first."""
        parts = []
        if self.file:
            parts.append(f"{self.file}:{self.line}" if self.line else self.file)
        for label, value in (("row", self.row_id), ("evidence", self.evidence_id),
                             ("ref", self.ref), ("key", self.key_path),
                             ("contract", self.contract)):
            if value:
                parts.append(f"{label} {value}")
        return ", ".join(parts)


class Finding(BaseModel):
    """A named, located problem. ``code`` is stable and documented in docs/findings.md."""

    model_config = ConfigDict(frozen=True)

    code: str = Field(description="Stable dotted code, e.g. 'hash.changed'")
    severity: Severity
    message: str = Field(description="What is wrong and, where possible, how to fix it")
    location: Location = Field(default_factory=Location)
    quirk: bool = Field(False, description="A known compiler quirk (format section 12)")
