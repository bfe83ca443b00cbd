"""Compiled packages bound in ``evidence.source_packages``: digest re-check and contamination."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._models_plans import SourcePackage
from aa_review.core.package.digest import package_digest

__all__ = [
    "ContaminationHook",
    "PackageLocator",
    "PackageState",
    "PackageStatus",
    "inspect_packages",
]

log = logging.getLogger(__name__)

# package_id -> the package folder on disk, or None when it is not available here.
PackageLocator = Callable[[str], "Path | None"]
# package folder -> ids of rows that cite hidden evidence (supplied by the audit engine).
ContaminationHook = Callable[[Path], "list[str]"]


class PackageState(StrEnum):
    """What re-hashing a bound package found."""

    UNCHANGED = "unchanged"
    CHANGED = "changed"  # the folder's digest differs from the bound one: stale
    UNRESOLVED = "unresolved"  # the locator has no folder for it, or it cannot be read
    UNVERIFIABLE = "unverifiable"  # no locator was configured
    INVALID = "invalid"  # the entry lacks an id or its digest is malformed


@dataclass(frozen=True)
class PackageStatus:
    """One bound package as found now.

    Attributes
    ----------
    package_id : str or None
        The bound id.
    state : PackageState
        The comparison result.
    root : Path or None
        The folder the locator returned.
    current_digest : str or None
        ``package_digest(root)`` when it could be computed.
    """

    package_id: str | None
    state: PackageState
    root: Path | None = None
    current_digest: str | None = None

    @property
    def reason_code(self) -> str | None:
        """Dossier-level reason naming the package, or None when unchanged."""
        names = {
            PackageState.CHANGED: "DOSSIER_PACKAGE_CHANGED",
            PackageState.UNRESOLVED: "DOSSIER_PACKAGE_UNRESOLVED",
            PackageState.UNVERIFIABLE: "DOSSIER_PACKAGE_UNVERIFIABLE",
            PackageState.INVALID: "DOSSIER_PACKAGE_BINDING_INVALID",
        }
        code = names.get(self.state)
        if code is None:
            return None
        return f"{code}:{self.package_id}" if self.package_id else code


def inspect_packages(
    bound: Sequence[SourcePackage] | None, locator: PackageLocator | None
) -> tuple[PackageStatus, ...]:
    """Re-hash every bound package and compare with the bound digest.

    Parameters
    ----------
    bound : sequence of SourcePackage or None
        ``evidence.source_packages``.
    locator : callable or None
        package id -> folder; None means packages cannot be verified here.

    Returns
    -------
    tuple of PackageStatus
        One per bound entry, in order.
    """
    out: list[PackageStatus] = []
    for pkg in bound or ():
        pid = pkg.package_id
        if not pid or not is_digest(pkg.package_digest):
            out.append(PackageStatus(pid, PackageState.INVALID))
            continue
        if locator is None:
            out.append(PackageStatus(pid, PackageState.UNVERIFIABLE))
            continue
        try:
            root = locator(pid)
            if root is None or not Path(root).is_dir():
                out.append(PackageStatus(pid, PackageState.UNRESOLVED, root))
                continue
            current = package_digest(Path(root))
        except OSError as exc:
            log.warning("package %s cannot be read: %s", pid, exc)
            out.append(PackageStatus(pid, PackageState.UNRESOLVED))
            continue
        state = PackageState.UNCHANGED if current == pkg.package_digest else PackageState.CHANGED
        out.append(PackageStatus(pid, state, Path(root), current))
    return tuple(out)
