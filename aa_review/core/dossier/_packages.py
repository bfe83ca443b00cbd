"""Compiled packages bound in ``evidence.source_packages``: digest re-check and contamination.

Two ways to learn what a bound package is now. A caller that already holds the
package (the window) gives :class:`PackageFacts` through a provider: its folder,
and its digest and the rows citing hidden evidence when an audit computed them, so
nothing is hashed or read again. Otherwise a :data:`PackageLocator` names the folder
and the package is hashed (the command line).

The bound package is the bound *content*: when the folder the caller names holds
another version, the folder recorded at binding (``binding.package_folders``) is
tried too, and a folder whose digest is the bound one is the bound package; the
status then names the other version as :attr:`PackageStatus.other_root`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._models_plans import SourcePackage
from aa_review.core.package.digest import package_digest
from aa_review.core.util.package_facts import PackageFacts

__all__ = [
    "ContaminationHook",
    "FactsMemo",
    "PackageFacts",
    "PackageFactsProvider",
    "PackageLocator",
    "PackageState",
    "PackageStatus",
    "bound_folders",
    "inspect_packages",
    "recorded_folders",
]

log = logging.getLogger(__name__)

# package_id -> the package folder on disk, or None when it is not available here.
PackageLocator = Callable[[str], "Path | None"]
# package folder -> ids of rows that cite hidden evidence (supplied by the audit engine).
ContaminationHook = Callable[[Path], "list[str]"]


# package_id -> what the caller holds of it, or None to fall back on the locator.
PackageFactsProvider = Callable[[str], "PackageFacts | None"]


class FactsMemo:
    """What the workspace computed for :class:`PackageFacts` that lacked it, per value.

    Keyed by the facts object itself (identity), so a caller's new facts for a
    changed package are hashed (and audited) again; :meth:`clear` forgets everything
    (a deliberate re-verification).
    """

    def __init__(self) -> None:
        self._digests: dict[str, tuple[PackageFacts, str]] = {}
        self._hidden: dict[str, tuple[PackageFacts, tuple[str, ...]]] = {}
        self._folders: dict[str, tuple[PackageFacts | None, str]] = {}

    def digest(self, facts: PackageFacts) -> str:
        """``package_digest(facts.root)``, computed once for this facts value."""
        held = self._digests.get(facts.package_id)
        if held is not None and held[0] is facts:
            return held[1]
        digest = package_digest(Path(facts.root))
        self._digests[facts.package_id] = (facts, digest)
        return digest

    def hidden_rows(self, facts: PackageFacts, hook: ContaminationHook) -> tuple[str, ...]:
        """``hook(facts.root)``, asked once for this facts value (it may raise)."""
        held = self._hidden.get(facts.package_id)
        if held is not None and held[0] is facts:
            return held[1]
        rows = tuple(sorted(hook(Path(facts.root))))
        self._hidden[facts.package_id] = (facts, rows)
        return rows

    def folder_digest(self, root: Path, facts: PackageFacts | None) -> str:
        """``package_digest(root)`` of a folder recorded at binding, computed once while
        the caller's facts for that package stay the same value (``None``: no facts)."""
        key = str(root)
        held = self._folders.get(key)
        if held is not None and held[0] is facts:
            return held[1]
        digest = package_digest(root)
        self._folders[key] = (facts, digest)
        return digest

    def forget_folders(self) -> None:
        """Forget the digests of recorded folders (a step hashes them again)."""
        self._folders.clear()

    def clear(self) -> None:
        """Forget every digest and contamination answer."""
        self._digests.clear()
        self._hidden.clear()
        self._folders.clear()


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
        The folder the locator (or the caller's facts) named.
    current_digest : str or None
        ``package_digest(root)`` when it could be computed (or the caller knew it).
    bound_digest : str or None
        The digest ``evidence.source_packages`` binds.
    hidden_rows : tuple of str or None
        Rows citing hidden evidence, when known (the caller's facts, or the
        contamination hook asked once for those facts).
    facts : PackageFacts or None
        The caller's facts this status was made from; not compared.
    other_root : Path or None
        A folder the caller named for this package id that holds another version
        (``other_digest``) while the bound content was found at ``root`` (the folder
        recorded at binding); None otherwise.
    other_digest : str or None
        That other version's digest.
    """

    package_id: str | None
    state: PackageState
    root: Path | None = None
    current_digest: str | None = None
    bound_digest: str | None = None
    hidden_rows: tuple[str, ...] | None = None
    facts: PackageFacts | None = field(default=None, compare=False, repr=False)
    other_root: Path | None = None
    other_digest: str | None = None

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
    bound: Sequence[SourcePackage] | None,
    locator: PackageLocator | None,
    facts: PackageFactsProvider | None = None,
    memo: FactsMemo | None = None,
    recorded: Mapping[str, Path] | None = None,
) -> tuple[PackageStatus, ...]:
    """Compare every bound package with what it is now.

    Parameters
    ----------
    bound : sequence of SourcePackage or None
        ``evidence.source_packages``.
    locator : callable or None
        package id -> folder; None (and no facts) means packages cannot be verified here.
    facts : callable, optional
        package id -> :class:`PackageFacts` the caller holds, consulted first: a
        known digest is taken as is, so nothing is hashed.
    memo : FactsMemo, optional
        Digests computed for facts without one (a new memo hashes again).
    recorded : mapping, optional
        package id -> the folder it was bound from (:func:`recorded_folders`). Tried
        when the caller's folder is not the bound content (another version, none
        named, none readable): if its digest is the bound one, the package is
        unchanged there; if the recorded folder itself now differs, it changed.

    Returns
    -------
    tuple of PackageStatus
        One per bound entry, in order.
    """
    memo = memo or FactsMemo()
    out: list[PackageStatus] = []
    for pkg in bound or ():
        pid = pkg.package_id
        if not pid or not is_digest(pkg.package_digest):
            out.append(PackageStatus(pid, PackageState.INVALID))
            continue
        known = _facts_of(facts, pid)
        status = _from_facts(pkg, known, memo) if known is not None else _from_locator(pkg, locator)
        folder = (recorded or {}).get(pid)
        if status.state is not PackageState.UNCHANGED and folder is not None:
            status = _at_recorded(pkg, status, Path(folder), known, memo)
        out.append(status)
    return tuple(out)


def bound_folders(statuses: Sequence[PackageStatus]) -> dict[str, str]:
    """``binding.package_folders`` to record: each package found unchanged, by its folder."""
    out: dict[str, str] = {}
    for st in statuses:
        if st.state is PackageState.UNCHANGED and st.package_id and st.root is not None:
            try:
                out[st.package_id] = str(Path(st.root).resolve())
            except OSError:
                out[st.package_id] = str(Path(st.root).absolute())
    return out


def recorded_folders(raw: Mapping[str, Any] | None) -> dict[str, Path]:
    """``binding.package_folders`` of a revision tree: package id -> the folder bound.

    Only absolute paths given as strings count; anything else is ignored (never raises).
    """
    binding = raw.get("binding") if isinstance(raw, Mapping) else None
    folders = binding.get("package_folders") if isinstance(binding, Mapping) else None
    if not isinstance(folders, Mapping):
        return {}
    return {
        pid: Path(path)
        for pid, path in folders.items()
        if isinstance(pid, str) and isinstance(path, str) and path and Path(path).is_absolute()
    }


def _from_locator(pkg: SourcePackage, locator: PackageLocator | None) -> PackageStatus:
    pid = pkg.package_id
    if locator is None:
        return PackageStatus(pid, PackageState.UNVERIFIABLE, bound_digest=pkg.package_digest)
    try:
        root = locator(pid)  # type: ignore[arg-type]  # pid checked by the caller
        if root is None or not Path(root).is_dir():
            return PackageStatus(
                pid, PackageState.UNRESOLVED, root, bound_digest=pkg.package_digest
            )
        current = package_digest(Path(root))
    except OSError as exc:
        log.warning("package %s cannot be read: %s", pid, exc)
        return PackageStatus(pid, PackageState.UNRESOLVED, bound_digest=pkg.package_digest)
    state = PackageState.UNCHANGED if current == pkg.package_digest else PackageState.CHANGED
    return PackageStatus(pid, state, Path(root), current, pkg.package_digest)


def _at_recorded(
    pkg: SourcePackage,
    status: PackageStatus,
    folder: Path,
    known: PackageFacts | None,
    memo: FactsMemo,
) -> PackageStatus:
    """The status once the folder recorded at binding is looked at too.

    Bound content there: unchanged, at that folder, naming the other version the
    caller holds. The recorded folder itself changed: changed, when the caller's
    folder did not already say so. Gone or unreadable: the caller's status stands.
    """
    same_folder = status.root is not None and _same(Path(status.root), folder)
    if same_folder and status.current_digest is not None:
        return status  # the caller's folder is the recorded one, already hashed
    try:
        if not folder.is_dir():
            return status
        digest = memo.folder_digest(folder, known)
    except OSError as exc:
        log.warning("package %s cannot be read at %s: %s", pkg.package_id, folder, exc)
        return status
    if digest == pkg.package_digest:
        other = status.root if status.current_digest is not None and not same_folder else None
        return PackageStatus(
            pkg.package_id,
            PackageState.UNCHANGED,
            folder,
            digest,
            pkg.package_digest,
            other_root=Path(other) if other is not None else None,
            other_digest=status.current_digest if other is not None else None,
        )
    if status.state is PackageState.CHANGED:
        return status
    return PackageStatus(pkg.package_id, PackageState.CHANGED, folder, digest, pkg.package_digest)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def _facts_of(facts: PackageFactsProvider | None, pid: str) -> PackageFacts | None:
    if facts is None:
        return None
    try:
        known = facts(pid)
    except Exception:
        log.exception("the package facts provider failed for %s", pid)
        return None
    return known if isinstance(known, PackageFacts) and known.package_id == pid else None


def _from_facts(pkg: SourcePackage, known: PackageFacts, memo: FactsMemo) -> PackageStatus:
    root = Path(known.root)
    try:
        if not root.is_dir():
            return PackageStatus(
                pkg.package_id, PackageState.UNRESOLVED, root, bound_digest=pkg.package_digest
            )
        current = known.digest if is_digest(known.digest) else memo.digest(known)
    except OSError as exc:
        log.warning("package %s cannot be read: %s", pkg.package_id, exc)
        return PackageStatus(
            pkg.package_id, PackageState.UNRESOLVED, root, bound_digest=pkg.package_digest
        )
    state = PackageState.UNCHANGED if current == pkg.package_digest else PackageState.CHANGED
    return PackageStatus(
        pkg.package_id, state, root, current, pkg.package_digest, known.hidden_rows, known
    )
