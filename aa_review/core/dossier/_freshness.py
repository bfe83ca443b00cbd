"""Dossier-level freshness, evaluated before any gate and at every transition (spec 4)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from aa_review.core.dossier._archive import Archive
from aa_review.core.dossier._models_dossier import (
    SECTION_NAMES,
    ParsedDossier,
    section_digests,
)
from aa_review.core.dossier._packages import PackageState, PackageStatus
from aa_review.core.dossier._states import BOUND_STATES, DossierState
from aa_review.core.dossier._timestamps import parse_timestamp

__all__ = ["Freshness", "assess_freshness"]


@dataclass(frozen=True)
class Freshness:
    """Every freshness rule that fires for a revision now.

    Attributes
    ----------
    expiring : tuple of str
        Reasons that expire the revision (time; for bound revisions also
        evidence digest, epoch manifest, bound package).
    blocking : tuple of str
        Dossier-level reasons that forbid eligibility without expiring.
    changed_sections : tuple of str
        Evidence sections whose digest differs from the binding (for display).
    """

    expiring: tuple[str, ...]
    blocking: tuple[str, ...]
    changed_sections: tuple[str, ...] = ()

    @property
    def expires(self) -> bool:
        """Whether the revision must expire now."""
        return bool(self.expiring)

    @property
    def reasons(self) -> tuple[str, ...]:
        """All firing reasons, expiring first."""
        return self.expiring + self.blocking


def assess_freshness(
    parsed: ParsedDossier,
    archive: Archive,
    now: datetime,
    packages: tuple[PackageStatus, ...] = (),
) -> Freshness:
    """Evaluate all freshness rules; none short-circuits another.

    Parameters
    ----------
    parsed : ParsedDossier
        The revision (its state decides whether it counts as bound).
    archive : Archive
        Current archive metadata (epoch manifests).
    now : datetime
        The injectable clock's time.
    packages : tuple of PackageStatus
        The bound packages as re-hashed now.

    Returns
    -------
    Freshness
    """
    ev = parsed.model.evidence
    bound = parsed.model.state in BOUND_STATES or parsed.model.state is DossierState.EXPIRED
    expiring: list[str] = []
    blocking: list[str] = []
    stale = expiring if bound else blocking  # draft: nothing is bound yet, nothing to expire
    expires_at = parse_timestamp(ev.expiry.expires_at) if ev.expiry else None
    if expires_at is None:
        blocking.append("DOSSIER_EXPIRY_MISSING")
    elif now > expires_at:
        expiring.append("DOSSIER_EXPIRED_BY_TIME")
    changed: tuple[str, ...] = ()
    if bound:
        binding = parsed.model.binding
        if binding is None or binding.evidence_digest != parsed.evidence_digest:
            expiring.append("DOSSIER_EVIDENCE_DIGEST_MISMATCH")
            old = (binding.section_digests or {}) if binding else {}
            new = section_digests(parsed.evidence_raw)
            changed = tuple(
                s for s in SECTION_NAMES if (s in old or s in new) and old.get(s) != new.get(s)
            )
    epochs = ev.epochs.evaluation_epochs if ev.epochs else None
    if not epochs:
        blocking.append("DOSSIER_EPOCHS_MISSING")
    else:
        for ref in epochs:
            current = archive.epochs.get(ref.epoch_id or "")
            if current is None or current.manifest_digest != ref.manifest_digest:
                stale.append("DOSSIER_EPOCH_CHANGED")
                break
    for pkg in packages:
        code = pkg.reason_code
        if code is not None:
            (stale if pkg.state is PackageState.CHANGED else blocking).append(code)
    return Freshness(tuple(expiring), tuple(blocking), changed)
