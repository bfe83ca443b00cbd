"""The deny-by-default validator: freshness, then the eleven gates, into a CheckRecord (2.5)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from aa_review.core.dossier._archive import Archive
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._gate_g1 import gate_g1
from aa_review.core.dossier._gate_g2 import gate_g2
from aa_review.core.dossier._gate_g3_g4 import gate_g3, gate_g4
from aa_review.core.dossier._gate_g9 import gate_g9
from aa_review.core.dossier._gates_common import GATE_IDS, GateContext, GateResult, GateStatus
from aa_review.core.dossier._gates_g5_g8 import gate_g5, gate_g6, gate_g7, gate_g8
from aa_review.core.dossier._gates_g10_g11 import gate_g10, gate_g11
from aa_review.core.dossier._models_dossier import ParsedDossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    PackageLocator,
    PackageStatus,
    inspect_packages,
)
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._timestamps import format_timestamp

__all__ = ["GATES", "VALIDATOR_VERSION", "CheckRecord", "evaluate", "expired_check_record"]

VALIDATOR_VERSION = "aa-review-dossier-validator/1"
NOT_EVALUATED = "GATE_NOT_EVALUATED_DOSSIER_EXPIRED"

GATES: dict[str, Callable[[GateContext], GateResult]] = {
    "G1": gate_g1,
    "G2": gate_g2,
    "G3": gate_g3,
    "G4": gate_g4,
    "G5": gate_g5,
    "G6": gate_g6,
    "G7": gate_g7,
    "G8": gate_g8,
    "G9": gate_g9,
    "G10": gate_g10,
    "G11": gate_g11,
}


class CheckRecord(BaseModel):
    """Validator output for one revision (spec 2.5).

    Attributes
    ----------
    checked_by, checked_at : str
        Who ran the check and when (timestamp).
    evidence_digest : str
        ``digest(evidence)`` the gates were evaluated on.
    validator_version : str
        :data:`VALIDATOR_VERSION`.
    gates : dict of str to GateResult
        ``"G1"`` .. ``"G11"``.
    dossier_reason_codes : tuple of str
        Freshness reasons (section 4); any of them blocks eligibility.
    eligible_if_decided : bool
        All eleven gates ``pass`` and no dossier-level reason.
    """

    model_config = ConfigDict(frozen=True)

    checked_by: str
    checked_at: str
    evidence_digest: str
    validator_version: str = VALIDATOR_VERSION
    gates: dict[str, GateResult]
    dossier_reason_codes: tuple[str, ...] = ()
    eligible_if_decided: bool

    def to_json(self) -> dict[str, Any]:
        """Plain JSON tree (enums as strings, tuples as lists)."""
        return self.model_dump(mode="json")

    def conclusions(self) -> dict[str, str]:
        """``{"G1": "pass" | "fail" | "unknown", …}``."""
        return {g: self.gates[g].status.value for g in GATE_IDS}


def evaluate(
    parsed: ParsedDossier,
    archive: Archive,
    principals: PrincipalRegistry,
    now: datetime,
    checked_by: str,
    *,
    package_locator: PackageLocator | None = None,
    package_contamination: ContaminationHook | None = None,
    packages: tuple[PackageStatus, ...] | None = None,
    fresh: Freshness | None = None,
) -> CheckRecord:
    """Check a revision: freshness first, then every gate unless the revision expires.

    Parameters
    ----------
    parsed : ParsedDossier
        The revision.
    archive : Archive
        Authorized archive metadata.
    principals : PrincipalRegistry
        Roles and kinds of everyone named in the dossier.
    now : datetime
        The clock's current time.
    checked_by : str
        Principal id recorded as the checker.
    package_locator, package_contamination : callable, optional
        Resolve and audit ``evidence.source_packages``.
    packages : tuple of PackageStatus, optional
        Already inspected packages (skips re-hashing).
    fresh : Freshness, optional
        Freshness already assessed for ``packages`` at ``now`` (a workspace whose
        archive.json could not be used assesses rule 4 as unknown).

    Returns
    -------
    CheckRecord
        Never raises for a failed gate: a failure is a value in the record.
    """
    if packages is None:
        packages = inspect_packages(parsed.model.evidence.source_packages, package_locator)
    if fresh is None:
        fresh = assess_freshness(parsed, archive, now, packages)
    if fresh.expires:
        return expired_check_record(parsed, checked_by, now, fresh)
    ctx = GateContext(parsed, archive, principals, packages, package_contamination)
    gates = {gid: GATES[gid](ctx) for gid in GATE_IDS}
    all_pass = all(g.status is GateStatus.PASS for g in gates.values())
    return CheckRecord(
        checked_by=checked_by,
        checked_at=format_timestamp(now),
        evidence_digest=parsed.evidence_digest,
        gates=gates,
        dossier_reason_codes=fresh.blocking,
        eligible_if_decided=all_pass and not fresh.blocking,
    )


def expired_check_record(
    parsed: ParsedDossier, checked_by: str, now: datetime, fresh: Freshness
) -> CheckRecord:
    """The all-``unknown`` record an expiring revision shows (spec 4)."""
    unknown = GateResult(status=GateStatus.UNKNOWN, reason_codes=(NOT_EVALUATED,))
    detail = {"changed_sections": list(fresh.changed_sections)} if fresh.changed_sections else {}
    gates = {gid: unknown.model_copy(update={"detail": dict(detail)}) for gid in GATE_IDS}
    return CheckRecord(
        checked_by=checked_by,
        checked_at=format_timestamp(now),
        evidence_digest=parsed.evidence_digest,
        gates=gates,
        dossier_reason_codes=fresh.reasons,
        eligible_if_decided=False,
    )
