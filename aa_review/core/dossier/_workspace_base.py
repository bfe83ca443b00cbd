"""Workspace plumbing: loading, the journal head, atomic commits, queries (spec 10, 11)."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._errors import (
    DossierSchemaError,
    JournalWriteError,
    RevisionNotFoundError,
    WorkspaceReadOnlyError,
)
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._journal import GENESIS_HASH, JournalFile, make_entry
from aa_review.core.dossier._models_dossier import ParsedDossier, parse_dossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    PackageLocator,
    PackageStatus,
    inspect_packages,
)
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._storage import FolderLock, FolderStore, MemoryStore
from aa_review.core.dossier._timestamps import format_timestamp
from aa_review.core.dossier._verify import Replay, verify_journal
from aa_review.core.dossier._views import revision_view

__all__ = ["WorkspaceBase"]

log = logging.getLogger(__name__)

Store = MemoryStore | FolderStore


class WorkspaceBase:
    """State, persistence and journal of a workspace; :class:`Workspace` adds the lifecycle.

    On start the journal's torn tail (an interrupted append) is dropped, the
    journal is verified and replayed, and stored revisions are compared with
    the replay. Any failure opens the workspace read-only.
    """

    def __init__(
        self,
        principals: list[dict[str, Any]],
        archive: dict[str, Any],
        clock: Callable[[], datetime],
        journal_path: str | Path,
        *,
        package_locator: PackageLocator | None = None,
        package_contamination: ContaminationHook | None = None,
        projection_dir: str | Path | None = None,
        _store: Store | None = None,
        _lock: FolderLock | None = None,
    ) -> None:
        self._registry = PrincipalRegistry(principals)
        self._archive: Archive = parse_archive(archive)
        self._clock = clock
        self._locator = package_locator
        self._hook = package_contamination
        self._store: Store = _store if _store is not None else MemoryStore()
        self._projection_dir = (Path(projection_dir) if projection_dir is not None
                                else self._store.projection_dir)
        self._lock = _lock
        self._journal = JournalFile(Path(journal_path))
        self._revs: dict[str, dict[int, ParsedDossier]] = {}
        self._journaled: set[tuple[str, int]] = set()
        self._fault: str | None = None
        self._seq = 0
        self._head = GENESIS_HASH
        self._load()

    # -- start-up -----------------------------------------------------------------
    def _load(self) -> None:
        self._journal.repair_torn_tail()
        entries = self._journal.read().entries
        result = verify_journal(entries)
        self._seq = len(entries)
        if entries and isinstance(entries[-1], dict):
            self._head = entries[-1].get("entry_hash", GENESIS_HASH)
        replayed: dict[tuple[str, int], Any] = {}
        if result["valid"]:
            replay = Replay()
            for e in entries:
                replay.apply(e)
            replayed = replay.states()
        else:
            self._fault = f"{result['reason']} at seq {result['first_bad_seq']}"
        self._journaled = set(replayed)
        for raw in self._store.load_all():
            try:
                parsed = parse_dossier(raw)
            except DossierSchemaError as exc:
                self._set_fault(f"WORKSPACE_REVISION_INVALID: {exc}")
                continue
            m = parsed.model
            self._revs.setdefault(m.dossier_id, {})[m.revision] = parsed
        if result["valid"] and isinstance(self._store, FolderStore):
            stored = {(d, r): p.model.state for d, revs in self._revs.items()
                      for r, p in revs.items()}
            if stored != replayed:
                self._set_fault("JOURNAL_STATE_MISMATCH: stored revisions and journal disagree")

    def _set_fault(self, fault: str) -> None:
        log.error("dossier workspace is read-only: %s", fault)
        if self._fault is None:
            self._fault = fault

    # -- properties and queries ---------------------------------------------------
    @property
    def read_only(self) -> bool:
        """True after a failed journal verification or write; transitions are refused."""
        return self._fault is not None

    @property
    def journal_fault(self) -> str | None:
        """Why the workspace is read-only, or None."""
        return self._fault

    @property
    def principals(self) -> PrincipalRegistry:
        """The principal registry."""
        return self._registry

    @property
    def archive(self) -> Archive:
        """The archive metadata the gates read."""
        return self._archive

    def update_archive(self, archive: dict[str, Any]) -> None:
        """Replace the archive metadata (the evaluation side published a new snapshot)."""
        self._archive = parse_archive(archive)

    def dossier_ids(self) -> list[str]:
        """Ids of the dossiers held, sorted."""
        return sorted(self._revs)

    def revisions(self, dossier_id: str) -> list[int]:
        """Revision numbers of a dossier, ascending."""
        return sorted(self._revs.get(dossier_id, {}))

    def revision(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """The revision's dossier JSON, including ``state`` and ``check`` (a copy)."""
        return copy.deepcopy(self._get(dossier_id, revision).raw)

    def revision_for(self, dossier_id: str, revision: int, viewer_id: str) -> dict[str, Any]:
        """The revision as ``viewer_id`` may see it: private detail for evaluators only."""
        parsed = self._get(dossier_id, revision)
        return revision_view(parsed.raw, self._registry.get(viewer_id), self._archive)

    def freshness(self, dossier_id: str, revision: int) -> Freshness:
        """Which freshness rules fire for a revision now (nothing is changed)."""
        parsed = self._get(dossier_id, revision)
        return assess_freshness(parsed, self._archive, self._now(), self._packages(parsed))

    def journal_entries(self) -> list[Any]:
        """Every complete journal entry, read from disk."""
        return self._journal.read().entries

    def journal_head(self) -> dict[str, Any] | None:
        """``{seq, entry_hash}`` of the last entry (save it as an anchor), or None."""
        return None if self._seq == 0 else {"seq": self._seq - 1, "entry_hash": self._head}

    def verify_journal(self, anchor: dict[str, Any] | None = None) -> dict[str, Any]:
        """Verify the journal on disk (section 10)."""
        return verify_journal(self.journal_entries(), anchor)

    def denial_log(self) -> list[dict[str, Any]]:
        """The ``operation_denied`` entries, oldest first."""
        return [e for e in self.journal_entries()
                if isinstance(e, dict) and e.get("kind") == "operation_denied"]

    def close(self) -> None:
        """Release the folder lock (a no-op for in-memory workspaces)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> WorkspaceBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers for the lifecycle --------------------------------------------------
    def _now(self) -> datetime:
        return self._clock()

    def _get(self, dossier_id: str, revision: int) -> ParsedDossier:
        try:
            return self._revs[dossier_id][revision]
        except KeyError:
            raise RevisionNotFoundError(dossier_id, revision) from None

    def _superseded(self, dossier_id: str, revision: int) -> bool:
        return max(self._revs.get(dossier_id, {revision: None})) > revision

    def _packages(self, parsed: ParsedDossier) -> tuple[PackageStatus, ...]:
        return inspect_packages(parsed.model.evidence.source_packages, self._locator)

    def _require_writable(self) -> None:
        if self._fault is not None:
            raise WorkspaceReadOnlyError(self._fault)

    def _append(self, now: datetime, kind: str, **fields: Any) -> dict[str, Any]:
        """Append one entry to the chain; raises JournalWriteError (nothing appended)."""
        entry = make_entry(self._seq, self._head, format_timestamp(now), kind, **fields)
        self._journal.append(entry)
        self._seq += 1
        self._head = entry["entry_hash"]
        return entry

    def _commit(self, now: datetime, revs: list[ParsedDossier],
                entries: list[dict[str, Any]]) -> str | None:
        """Persist revisions, then journal them; returns a fault reason or None.

        Files are written first so that a failed journal append can be undone by
        restoring them; a journal that took only part of the entries makes the
        workspace read-only.
        """
        old = {(p.model.dossier_id, p.model.revision):
               self._revs.get(p.model.dossier_id, {}).get(p.model.revision) for p in revs}
        try:
            for p in revs:
                self._store.save(p.model.dossier_id, p.model.revision, p.raw)
        except OSError as exc:
            self._restore(old)
            return f"REVISION_WRITE_FAILED: {exc}"
        for i, fields in enumerate(entries):
            try:
                self._append(now, **fields)
            except JournalWriteError as exc:
                self._restore(old)
                if i > 0:
                    self._set_fault(f"JOURNAL_PARTIAL_WRITE: {exc}")
                return f"JOURNAL_WRITE_FAILED: {exc}"
        for p in revs:
            self._revs.setdefault(p.model.dossier_id, {})[p.model.revision] = p
            self._journaled.add((p.model.dossier_id, p.model.revision))
        return None

    def _restore(self, old: dict[tuple[str, int], ParsedDossier | None]) -> None:
        for (d, r), p in old.items():
            try:
                if p is not None:
                    self._store.save(d, r, p.raw)
                elif isinstance(self._store, FolderStore):
                    self._store.path(d, r).unlink(missing_ok=True)
            except OSError as exc:
                self._set_fault(f"REVISION_RESTORE_FAILED: {exc}")
