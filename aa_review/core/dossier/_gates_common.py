"""Gate results, the fail-closed status rule, and what every gate may read (spec 1.1)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from aa_review.core.dossier._archive import Archive
from aa_review.core.dossier._models_dossier import Evidence, ParsedDossier
from aa_review.core.dossier._packages import ContaminationHook, PackageStatus
from aa_review.core.dossier._principals import PrincipalRegistry

__all__ = ["GATE_IDS", "GateBuilder", "GateContext", "GateResult", "GateStatus"]

GATE_IDS: tuple[str, ...] = tuple(f"G{i}" for i in range(1, 12))


class GateStatus(StrEnum):
    """Three-valued gate status; only ``pass`` counts toward eligibility."""

    PASS = "pass"
    FAIL = "fail"
    UNKNOWN = "unknown"


class GateResult(BaseModel):
    """One gate's conclusion.

    Attributes
    ----------
    status : GateStatus
        ``fail`` if any check failed, else ``unknown`` if any was unknown, else ``pass``.
    reason_codes : tuple of str
        Every reason found (fail and unknown codes may both appear).
    metrics : dict
        Named figures (spec 2.5 fixes the names of G1, G3 and G4).
    detail : dict
        Private detail; shown to the independent evaluator role only.
    """

    model_config = ConfigDict(frozen=True)

    status: GateStatus
    reason_codes: tuple[str, ...] = ()
    metrics: dict[str, Any] = {}
    detail: dict[str, Any] = {}


class GateBuilder:
    """Collects a gate's findings without stopping at the first one."""

    def __init__(self) -> None:
        self._fail: list[str] = []
        self._unknown: list[str] = []
        self._order: list[str] = []
        self.metrics: dict[str, Any] = {}
        self.detail: dict[str, Any] = {}

    def fail(self, code: str) -> None:
        """Record a check that provably violates the rule."""
        self._add(code, self._fail)

    def unknown(self, code: str) -> None:
        """Record a check whose input is absent or cannot be verified."""
        self._add(code, self._unknown)

    def _add(self, code: str, bucket: list[str]) -> None:
        if code not in bucket:
            bucket.append(code)
        if code not in self._order:
            self._order.append(code)

    def note(self, key: str, value: Any) -> None:
        """Add private detail (lists are extended, other values replaced)."""
        if isinstance(value, list) and isinstance(self.detail.get(key), list):
            self.detail[key].extend(v for v in value if v not in self.detail[key])
        else:
            self.detail[key] = value

    def result(self) -> GateResult:
        """The gate's result under the fail-closed rule."""
        if self._fail:
            status = GateStatus.FAIL
        elif self._unknown:
            status = GateStatus.UNKNOWN
        else:
            status = GateStatus.PASS
        return GateResult(
            status=status,
            reason_codes=tuple(self._order),
            metrics=dict(self.metrics),
            detail=dict(self.detail),
        )


@dataclass(frozen=True)
class GateContext:
    """Everything a gate may read; gates never write.

    Attributes
    ----------
    parsed : ParsedDossier
        The revision (raw tree for digests, typed model for predicates).
    archive : Archive
        Authorized archive metadata, trusted over the dossier.
    principals : PrincipalRegistry
        Roles and kinds.
    packages : tuple of PackageStatus
        Bound compiled packages as found now.
    contamination_hook : callable or None
        Package folder -> row ids citing hidden evidence (the audit engine).
    """

    parsed: ParsedDossier
    archive: Archive
    principals: PrincipalRegistry
    packages: tuple[PackageStatus, ...] = ()
    contamination_hook: ContaminationHook | None = None

    @property
    def ev(self) -> Evidence:
        """The typed evidence."""
        return self.parsed.model.evidence

    @property
    def author(self) -> str | None:
        """The revision's author (``created_by``)."""
        return self.parsed.model.created_by
