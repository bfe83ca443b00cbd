"""Fingerprints of bound packages kept at binding, and what changed in them since.

A dossier binds a compiled package by its digest, which can only say *that* the
package changed. When it binds, the workspace also keeps the package's compact
fingerprint (a few MB, never a copy: rows by id and content hash, the evidence
catalog, the contracts), content-addressed beside the revision, its digest
recorded in the binding and the signed journal entry. Later, the diff of that
fingerprint against the package as it is now says exactly what changed.

The dossier core does not compare packages itself: the caller gives
:class:`FingerprintHooks` (``aa_review.core.session.dossier_hooks.DiffFingerprints`` uses
``aa_review.core.diff``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aa_review.core.dossier._packages import PackageState, PackageStatus

__all__ = [
    "BoundChanges",
    "FingerprintHooks",
    "bytes_digest",
    "changes_since_binding",
    "kept_fingerprints",
]

log = logging.getLogger(__name__)


def bytes_digest(data: bytes) -> str:
    """``sha256:`` of raw bytes (a fingerprint file's digest)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BoundChanges:
    """What changed in one bound package since the revision was bound.

    Attributes
    ----------
    package_id : str
    status : str
        ``changed`` (``summary`` and ``lines`` say what), ``no_fingerprint`` (none was
        kept at binding), ``fingerprint_missing`` or ``fingerprint_altered`` (the kept
        file is gone, or is not the one the binding names: swapped or damaged), or
        ``unavailable`` (no way to compare here, or the comparison failed: ``message``).
    summary : dict
        ``PackageDiff.summary()`` when compared.
    lines : tuple of str
        What changed, in words, most severe first.
    message : str
        One sentence for the panel and the command line.
    """

    package_id: str
    status: str
    summary: Mapping[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    message: str = ""

    @property
    def more(self) -> tuple[str, ...]:
        """The lines to show under ``message`` (its own headline is not repeated)."""
        if self.lines and self.message.endswith(self.lines[0]):
            return self.lines[1:]
        return self.lines


class FingerprintHooks(Protocol):
    """How the workspace fingerprints a bound package and compares it later."""

    def fingerprint(self, status: PackageStatus) -> bytes:
        """The fingerprint file's bytes of the package ``status`` names (as it is now)."""

    def changes(self, fingerprint: bytes, status: PackageStatus) -> BoundChanges:
        """What differs from the fingerprinted package to the one ``status`` names now."""


def kept_fingerprints(raw: Mapping[str, Any]) -> dict[str, str]:
    """``binding.package_fingerprints`` of a revision's JSON: package id -> digest."""
    binding = raw.get("binding")
    kept = binding.get("package_fingerprints") if isinstance(binding, dict) else None
    if not isinstance(kept, dict):
        return {}
    return {str(k): v for k, v in kept.items() if isinstance(v, str)}


def changes_since_binding(
    status: PackageStatus,
    digest: str | None,
    load: Callable[[str], bytes | None],
    hooks: FingerprintHooks | None,
) -> BoundChanges | None:
    """What changed in one bound package since binding; None while it is as bound.

    Parameters
    ----------
    status : PackageStatus
        The package as found now.
    digest : str or None
        The fingerprint digest the binding names (None: none was kept).
    load : callable
        digest -> the kept fingerprint's bytes, or None when there is no such file.
    hooks : FingerprintHooks or None
        How to compare (None: the change is reported, not explained).
    """
    if status.state is not PackageState.CHANGED or status.package_id is None:
        return None
    pid = status.package_id
    if digest is None:
        return BoundChanges(
            pid,
            "no_fingerprint",
            message=(
                f"{pid} changed since binding; no fingerprint was kept when it was bound, so "
                "what changed cannot be said."
            ),
        )
    try:
        data = load(digest)
    except OSError as exc:
        log.warning("the fingerprint of %s cannot be read: %s", pid, exc)
        data = None
    if data is None:
        return BoundChanges(
            pid,
            "fingerprint_missing",
            message=(
                f"{pid} changed since binding; the fingerprint kept at binding ({digest}) "
                "is missing."
            ),
        )
    if bytes_digest(data) != digest:
        return BoundChanges(
            pid,
            "fingerprint_altered",
            message=(
                f"{pid} changed since binding; the fingerprint file kept at binding is not the one "
                f"the binding names ({digest}): it was swapped or damaged, so it is not used."
            ),
        )
    if hooks is None:
        return BoundChanges(
            pid,
            "unavailable",
            message=(f"{pid} changed since binding; packages cannot be compared here."),
        )
    try:
        return hooks.changes(data, status)
    except Exception as exc:  # noqa: BLE001 - a failed comparison is said, never raised
        log.warning("comparing %s with its binding failed: %s", pid, exc)
        return BoundChanges(
            pid,
            "unavailable",
            message=(f"{pid} changed since binding; the comparison failed: {exc}"),
        )
