"""A workspace's records and read access to them (spec 10, 11).

Revisions, the journal, principals and the archive; opening, writing and the
read-only views are its halves (``_workspace_open``, ``_workspace_write``,
``_workspace_views``).

Opening never raises for what the files hold: whatever is wrong makes the
workspace read-only with a fault that says why.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._errors import RevisionNotFoundError, WorkspaceReadOnlyError
from aa_review.core.dossier._fingerprints import (
    BoundChanges,
    FingerprintHooks,
)
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._journal import GENESIS_HASH, JournalFile, JournalFolder
from aa_review.core.dossier._keys import KeyStore, Signer
from aa_review.core.dossier._models_dossier import ParsedDossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    FactsMemo,
    PackageFactsProvider,
    PackageLocator,
    PackageStatus,
    inspect_packages,
    recorded_folders,
)
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._storage import FolderStore, MemoryStore
from aa_review.core.dossier._verify import verify_read, verify_with
from aa_review.core.dossier._views import revision_view
from aa_review.core.dossier._witness import WitnessStore
from aa_review.core.dossier._workspace_open import OpeningMixin
from aa_review.core.dossier._workspace_views import ViewsMixin
from aa_review.core.dossier._workspace_write import WritingMixin

__all__ = ["WorkspaceRecords"]

log = logging.getLogger(__name__)

Store = MemoryStore | FolderStore


class WorkspaceRecords(OpeningMixin, WritingMixin, ViewsMixin):
    """State, persistence and journal of a workspace; :class:`Workspace` adds the lifecycle.

    On start the journal file is locked (one writer), stray temporary files are
    removed, an unacknowledged tail beyond every witnessed head is cut, the
    journal is verified against the registry, the signatures and the witnessed
    heads, and revision files are rolled forward or back to what the journal
    says. Any failure opens the workspace read-only.
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
        package_facts: PackageFactsProvider | None = None,
        fingerprint_hooks: FingerprintHooks | None = None,
        projection_dir: str | Path | None = None,
        key_store: KeyStore | None = None,
        witness_store: WitnessStore | None = None,
        _store: Store | None = None,
    ) -> None:
        self._file_registry = PrincipalRegistry(principals)
        self._registry = self._file_registry
        self._archive: Archive = parse_archive(archive)
        self._clock = clock
        self._locator = package_locator
        self._hook = package_contamination
        self._facts = package_facts
        self._facts_memo = FactsMemo()
        self._fingerprinter = fingerprint_hooks
        self._changes_memo: dict[tuple[str, str | None, str | None], BoundChanges] = {}
        self._store: Store = _store if _store is not None else MemoryStore()
        self._folder_mode = isinstance(self._store, FolderStore)
        self._projection_dir = (
            Path(projection_dir) if projection_dir is not None else self._store.projection_dir
        )
        self._keys = key_store if key_store is not None else KeyStore()
        self._witness = witness_store if witness_store is not None else WitnessStore()
        self._signers: dict[str, Signer] = {}
        path = Path(journal_path)
        # A workspace folder's journal is a folder of action files; the plain
        # constructor of spec 11 keeps a JSONL file.
        folder_journal = isinstance(self._store, FolderStore) or path.is_dir()
        self._journal = JournalFolder(path) if folder_journal else JournalFile(path)
        self._not_applied: list[dict[str, Any]] = []
        self._arrived: list[dict[str, Any]] = []
        self._open_notes: list[str] = []
        self._redoing: str | None = None
        self._last_appended: list[dict[str, Any]] = []
        self._revs: dict[str, dict[int, ParsedDossier]] = {}
        self._journaled: set[tuple[str, int]] = set()
        self._fault: str | None = None
        self._seq = 0
        self._head = GENESIS_HASH
        self._genesis: str | None = None
        self._genesis_registry: str | None = None
        self._signatures: list[dict[str, Any]] = []
        self._witness_state: dict[str, Any] = {"status": "not_witnessed", "witnessed": None}
        self._journal.lock()  # raises WorkspaceLockedError: one writer per journal
        try:
            self._load()
        except Exception as exc:  # opening falls back to read-only, never raises
            log.exception("dossier workspace %s could not be loaded", journal_path)
            self._set_fault(f"WORKSPACE_UNREADABLE: {type(exc).__name__}: {exc}")

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
        """The principal registry in force (the journal's; spec 10.2)."""
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
        """Every complete journal entry of the kept branch, read from disk (spec 10.6)."""
        return self._journal.read().entries

    def not_applied(self) -> list[dict[str, Any]]:
        """The actions of a concurrent branch that lost a fork (``JOURNAL_FORKED``, 10.6).

        They stay in the workspace, never deleted, and are verified in their own place
        on every opening. Each: ``{"entry_hash", "file", "seq", "at", "kind", "action",
        "dossier_id", "revision", "author", "role", "signer", "public_key",
        "signature", "entries", "status", "resolved_by"}``; ``status`` is
        ``not_applied``, ``redone`` or ``withdrawn`` (by the entry ``resolved_by``).
        """
        return copy.deepcopy(self._not_applied)

    def arrived(self) -> list[dict[str, Any]]:
        """The entries beyond the head this user witnessed before this opening (10.6).

        Each: ``{"seq", "entry_hash", "at", "kind", "action", "dossier_id",
        "revision", "actor", "role", "signer", "public_key", "signature"}`` -- who
        did it and from which key; all verified before anything they imply is shown.
        """
        return copy.deepcopy(self._arrived)

    @property
    def open_notes(self) -> list[str]:
        """What opening discarded or repaired and why (e.g. a staged file not journaled)."""
        return list(self._open_notes)

    def journal_head(self) -> dict[str, Any] | None:
        """``{seq, entry_hash}`` of the last entry (save it as an anchor), or None."""
        return None if self._seq == 0 else {"seq": self._seq - 1, "entry_hash": self._head}

    def verify_journal(self, anchor: Any = None) -> dict[str, Any]:
        """Verify the journal on disk against the registry and the witnessed head (section 10)."""
        anchors: list[Any] = [anchor] if anchor is not None else []
        witnessed = self._witness_state.get("witnessed")
        if witnessed is not None:
            anchors.append(witnessed)
        return verify_read(self._journal.read(), anchors, self._versions())[0]

    def entry_signatures(self) -> list[dict[str, Any]]:
        """Who signed each journal entry, and whether the signature holds (read-only).

        Returns
        -------
        list of dict
            ``{"seq", "signer", "status"}`` per entry verified, status ``valid``,
            ``invalid``, ``missing`` or ``not_required`` (the signer has no public key).
        """
        entries = self.journal_entries()
        _, verifier = verify_with(entries, None, self._versions())
        return verifier.signatures

    def journal_status(self) -> dict[str, Any]:
        """Everything the journal view shows, from one read and one verification (read-only).

        Returns
        -------
        dict
            ``{"entries": [...], "verdict": verify_journal's result, "signatures":
            entry_signatures()'s list, "witness": witness_status(), "not_applied":
            not_applied(), "arrived": arrived()}`` (the kept branch's entries; spec 10.6).
        """
        read = self._journal.read()
        witnessed = self._witness_state.get("witnessed")
        verdict, verifier, _ = verify_read(read, [witnessed] if witnessed else [], self._versions())
        return {
            "entries": read.entries,
            "verdict": verdict,
            "signatures": verifier.signatures,
            "witness": self.witness_status(),
            "not_applied": self.not_applied(),
            "arrived": self.arrived(),
        }

    def witness_status(self) -> dict[str, Any]:
        """Whether the journal matches this user's witness store (spec 10.3; read-only).

        Returns
        -------
        dict
            ``{"status", "witnessed", "head", "genesis_hash", "store"}``; status is
            ``matches`` (the witness holds this head), ``mismatch`` (the journal does
            not reach a witnessed head with the same hash: cut, emptied or rewritten),
            ``not_witnessed`` (empty journal) or ``unwitnessed_tail`` (the witness
            could not be written after the last append).
        """
        return {
            **self._witness_state,
            "head": self.journal_head(),
            "genesis_hash": self._genesis,
            "store": str(self._witness.folder),
        }

    def denial_log(self) -> list[dict[str, Any]]:
        """The ``operation_denied`` entries, oldest first."""
        return [
            e
            for e in self.journal_entries()
            if isinstance(e, dict) and e.get("kind") == "operation_denied"
        ]

    def close(self) -> None:
        """Release the journal's writer lock."""
        self._journal.release()

    def __enter__(self) -> WorkspaceRecords:
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
        return inspect_packages(
            parsed.model.evidence.source_packages,
            self._locator,
            self._facts,
            self._facts_memo,
            recorded=recorded_folders(parsed.raw),  # the bound content, found by digest
        )

    def _require_writable(self) -> None:
        if self._fault is not None:
            raise WorkspaceReadOnlyError(self._fault)
