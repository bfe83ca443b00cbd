"""A workspace's journal: reading, verifying, where the chain stands, the witness (spec 10).

:class:`WorkspaceJournal` owns the journal file (or folder), the position of its
head, the user's witness of that head, what opening found beside the kept branch,
and the fault that makes the workspace read-only. It never decides a step; the
writer appends through it and the lifecycle asks it whether it may.
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._errors import KeyStoreError, WorkspaceReadOnlyError
from aa_review.core.dossier._journal import GENESIS_HASH, JournalFile, JournalFolder
from aa_review.core.dossier._verify import verify_read, verify_with
from aa_review.core.dossier._witness import WitnessStore

if TYPE_CHECKING:
    from aa_review.core.dossier._principals import PrincipalRegistry

__all__ = ["WorkspaceJournal"]

log = logging.getLogger(__name__)

Versions = dict[str, "PrincipalRegistry"]


class WorkspaceJournal:
    """The journal of one workspace, its head, its witness and its fault.

    Parameters
    ----------
    file : JournalFile or JournalFolder
        The journal on disk (a JSONL file, or a folder of action files).
    witness : WitnessStore
        Where this user witnesses journal heads (spec 10.3).

    Attributes
    ----------
    fault : str or None
        Why the workspace is read-only (the first fault kept), or None.
    not_applied : list of dict
        The actions of a concurrent branch that lost a fork (``JOURNAL_FORKED``,
        10.6). They stay in the workspace, never deleted, and are verified in their
        own place on every opening. Each: ``{"entry_hash", "file", "seq", "at",
        "kind", "action", "dossier_id", "revision", "author", "role", "signer",
        "public_key", "signature", "entries", "status", "resolved_by"}``; ``status``
        is ``not_applied``, ``redone`` or ``withdrawn`` (by the entry ``resolved_by``).
    arrived : list of dict
        The entries beyond the head this user witnessed before this opening (10.6).
        Each: ``{"seq", "entry_hash", "at", "kind", "action", "dossier_id",
        "revision", "actor", "role", "signer", "public_key", "signature"}`` -- who
        did it and from which key; all verified before anything they imply is shown.
    open_notes : list of str
        What opening discarded or repaired and why (e.g. a staged file not journaled).

    Locking is the caller's: :meth:`lock` before anything is read for writing.
    """

    def __init__(self, file: JournalFile | JournalFolder, witness: WitnessStore) -> None:
        self.file = file
        self.witness = witness
        self.fault: str | None = None
        self.seq = 0
        self.head = GENESIS_HASH
        self.genesis: str | None = None
        self.genesis_registry: str | None = None
        self.signatures: list[dict[str, Any]] = []
        self.witness_state: dict[str, Any] = {"status": "not_witnessed", "witnessed": None}
        self.last_appended: list[dict[str, Any]] = []
        self.not_applied: list[dict[str, Any]] = []
        self.arrived: list[dict[str, Any]] = []
        self.open_notes: list[str] = []

    @classmethod
    def at(cls, path: Path, witness: WitnessStore, *, folder: bool) -> WorkspaceJournal:
        """The journal at ``path``: a folder of action files, or a JSONL file."""
        return cls(JournalFolder(path) if folder else JournalFile(path), witness)

    # -- the fault -------------------------------------------------------------------
    def set_fault(self, fault: str) -> None:
        """Make the workspace read-only; the first fault is the one kept."""
        log.error("dossier workspace is read-only: %s", fault)
        if self.fault is None:
            self.fault = fault

    @property
    def read_only(self) -> bool:
        """True after a failed journal verification or write."""
        return self.fault is not None

    def require_writable(self) -> None:
        """Raise :class:`WorkspaceReadOnlyError` with the fault, if there is one."""
        if self.fault is not None:
            raise WorkspaceReadOnlyError(self.fault)

    # -- the writer's lock -------------------------------------------------------------
    def lock(self) -> None:
        """Take the writer lock (raises WorkspaceLockedError: one writer per journal)."""
        self.file.lock()

    def release(self) -> None:
        """Release the writer lock."""
        self.file.release()

    def moved(self) -> str | None:
        """Why the journal on disk is no longer the one this writer verified and extended
        (another person's actions arrived, by a ``git pull`` or a shared drive), or None.
        Opening the workspace again verifies what arrived (10.6)."""
        return self.file.moved()

    # -- reading -------------------------------------------------------------------------
    def entries(self) -> list[Any]:
        """Every complete entry of the kept branch, read from disk (spec 10.6)."""
        return self.file.read().entries

    def head_anchor(self) -> dict[str, Any] | None:
        """``{seq, entry_hash}`` of the last entry, or None for an empty journal."""
        return None if self.seq == 0 else {"seq": self.seq - 1, "entry_hash": self.head}

    def verify(self, anchor: Any, versions: Versions) -> dict[str, Any]:
        """Verify the journal on disk against ``versions``, ``anchor`` and the witnessed head."""
        anchors: list[Any] = [anchor] if anchor is not None else []
        witnessed = self.witness_state.get("witnessed")
        if witnessed is not None:
            anchors.append(witnessed)
        return verify_read(self.file.read(), anchors, versions)[0]

    def entry_signatures(self, versions: Versions) -> list[dict[str, Any]]:
        """Who signed each journal entry, and whether the signature holds (read-only).

        Returns
        -------
        list of dict
            ``{"seq", "signer", "status"}`` per entry verified, status ``valid``,
            ``invalid``, ``missing`` or ``not_required`` (the signer has no public key).
        """
        _, verifier = verify_with(self.entries(), None, versions)
        return verifier.signatures

    def status(self, versions: Versions) -> dict[str, Any]:
        """Everything the journal view shows, from one read and one verification (read-only).

        Returns
        -------
        dict
            ``{"entries": [...], "verdict": verify's result, "signatures":
            entry_signatures()'s list, "witness": witness_status(), "not_applied",
            "arrived"}`` (the kept branch's entries, copies of the lists; spec 10.6).
        """
        read = self.file.read()
        witnessed = self.witness_state.get("witnessed")
        verdict, verifier, _ = verify_read(read, [witnessed] if witnessed else [], versions)
        return {
            "entries": read.entries,
            "verdict": verdict,
            "signatures": verifier.signatures,
            "witness": self.witness_status(),
            "not_applied": copy.deepcopy(self.not_applied),
            "arrived": copy.deepcopy(self.arrived),
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
            **self.witness_state,
            "head": self.head_anchor(),
            "genesis_hash": self.genesis,
            "store": str(self.witness.folder),
        }

    def denial_log(self) -> list[dict[str, Any]]:
        """The ``operation_denied`` entries, oldest first."""
        return [
            e for e in self.entries() if isinstance(e, dict) and e.get("kind") == "operation_denied"
        ]

    # -- after an append -------------------------------------------------------------------
    def advanced(self, entries: list[dict[str, Any]], registry_digest: str) -> None:
        """The chain moved on by ``entries`` (appended): keep the new head, then witness it."""
        if self.seq == 0:
            self.genesis = entries[0]["entry_hash"]
            self.genesis_registry = registry_digest
        self.seq += len(entries)
        self.head = entries[-1]["entry_hash"]
        self.last_appended = entries
        self.witness_now()

    def witness_now(self) -> None:
        """Record the head in the user's witness store (after the append, never before)."""
        head = self.head_anchor()
        if head is None or self.genesis is None:
            return
        try:
            self.witness.witness(self.file.path, self.genesis, self.genesis_registry, head)
        except (OSError, KeyStoreError) as exc:
            log.error("the witness store could not record the journal head: %s", exc)
            self.witness_state = {**self.witness_state, "status": "unwitnessed_tail"}
            return
        self.witness_state = {"status": "matches", "witnessed": head}
