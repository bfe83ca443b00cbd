"""What a workspace knows of the packages its revisions bind: found, hashed, fingerprinted.

:class:`BoundPackages` owns the caller's hooks (locator, facts, contamination,
fingerprints) and what was remembered from them (facts and changes memos). It
writes nothing but the fingerprints kept at binding.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from aa_review.core.dossier._fingerprints import (
    BoundChanges,
    FingerprintHooks,
    changes_since_binding,
    kept_fingerprints,
)
from aa_review.core.dossier._packages import (
    ContaminationHook,
    FactsMemo,
    PackageFactsProvider,
    PackageLocator,
    PackageState,
    PackageStatus,
    inspect_packages,
    recorded_folders,
)

if TYPE_CHECKING:
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._storage import FolderStore, MemoryStore

__all__ = ["BoundPackages"]

log = logging.getLogger(__name__)


class BoundPackages:
    """The bound packages of a revision as found now, and what changed since binding.

    Parameters
    ----------
    store : FolderStore or MemoryStore
        Where fingerprints are kept.
    locator, contamination, facts, fingerprints : optional
        The caller's hooks (see :class:`Workspace`).
    """

    def __init__(
        self,
        store: FolderStore | MemoryStore,
        *,
        locator: PackageLocator | None = None,
        contamination: ContaminationHook | None = None,
        facts: PackageFactsProvider | None = None,
        fingerprints: FingerprintHooks | None = None,
    ) -> None:
        self.store = store
        self.locator = locator
        self.hook = contamination
        self.facts = facts
        self.fingerprinter = fingerprints
        self.facts_memo = FactsMemo()
        self._changes_memo: dict[tuple[str, str | None, str | None], BoundChanges] = {}

    def statuses(self, parsed: ParsedDossier) -> tuple[PackageStatus, ...]:
        """The revision's bound packages as found now."""
        return inspect_packages(
            parsed.model.evidence.source_packages,
            self.locator,
            self.facts,
            self.facts_memo,
            recorded=recorded_folders(parsed.raw),  # the bound content, found by digest
        )

    def forget(self) -> None:
        """Hash and audit again next time (digests the caller gave still count)."""
        self.facts_memo.clear()

    def forget_folders(self) -> None:
        """Hash the folders recorded at binding again (before a step decides on them)."""
        self.facts_memo.forget_folders()

    def changes_since_binding(
        self, dossier_id: str, parsed: ParsedDossier
    ) -> tuple[BoundChanges, ...]:
        """One entry per bound package whose digest changed since binding (read-only)."""
        if not isinstance(parsed.raw.get("binding"), dict):
            return ()
        kept = kept_fingerprints(parsed.raw)
        out = []
        for status in self.statuses(parsed):
            digest = kept.get(str(status.package_id))
            key = (str(status.package_id), digest, status.current_digest)
            held = self._changes_memo.get(key)
            if held is None:
                held = changes_since_binding(
                    status,
                    digest,
                    lambda d: self.store.load_fingerprint(dossier_id, d),
                    self.fingerprinter,
                )
                if held is None:
                    continue
                if held.status == "changed":
                    self._changes_memo[key] = held
            out.append(held)
        return tuple(out)

    def keep_fingerprints(
        self, dossier_id: str, packages: tuple[PackageStatus, ...]
    ) -> dict[str, str]:
        """Fingerprint and keep each bound package found as bound; {package id: digest}."""
        kept: dict[str, str] = {}
        if self.fingerprinter is None:
            return kept
        for status in packages:
            if status.state is not PackageState.UNCHANGED or status.package_id is None:
                continue
            try:
                data = self.fingerprinter.fingerprint(status)
                kept[status.package_id] = self.store.save_fingerprint(dossier_id, data)
            except Exception as exc:  # noqa: BLE001 - binding goes ahead; it is said later
                log.warning("no fingerprint of %s was kept: %s", status.package_id, exc)
        return kept

    def with_hidden_rows(self, packages: tuple[PackageStatus, ...]) -> tuple[PackageStatus, ...]:
        """Statuses from the caller's facts, with the contamination hook asked once per facts.

        A status from the locator is left as it is: G9 asks the hook itself.
        """
        out = []
        for status in packages:
            if (
                status.facts is not None
                and status.hidden_rows is None
                and self.hook is not None
                and status.state in (PackageState.UNCHANGED, PackageState.CHANGED)
            ):
                try:
                    rows = self.facts_memo.hidden_rows(status.facts, self.hook)
                except Exception as exc:  # noqa: BLE001 - G9 stays unknown, never passes
                    log.warning("contamination audit of %s failed: %s", status.package_id, exc)
                else:
                    status = dataclasses.replace(status, hidden_rows=rows)
            out.append(status)
        return tuple(out)
