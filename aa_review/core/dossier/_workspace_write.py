"""Writing to a workspace's journal: signed entries, staged commits (spec 10.2-10.5).

:class:`JournalWriter` builds an action's entries (registry, cause, digests,
signatures, chain), stages the revisions, appends the entries in one write (the
commit point), then witnesses the head and promotes the staged files.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    JournalConcurrentWriteError,
    JournalWriteError,
)
from aa_review.core.dossier._journal import make_entry
from aa_review.core.dossier._principals import Principal, Role
from aa_review.core.dossier._storage import FolderStore
from aa_review.core.dossier._strict import value_problem
from aa_review.core.dossier._timestamps import format_timestamp

if TYPE_CHECKING:
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._storage import MemoryStore
    from aa_review.core.dossier._workspace_journal import WorkspaceJournal
    from aa_review.core.dossier._workspace_records import RevisionsHeld
    from aa_review.core.dossier._workspace_registry import WorkspaceRegistry

__all__ = ["JournalWriter"]


class JournalWriter:
    """Appends an action's entries to the journal and commits its revisions.

    Parameters
    ----------
    journal : WorkspaceJournal
        The chain appended to (and its fault, which refuses every write).
    registry : WorkspaceRegistry
        Names the registry in force in each entry and signs it.
    store : FolderStore or MemoryStore
        Where revisions are staged and promoted.
    records : RevisionsHeld
        Holds each committed revision.
    """

    def __init__(
        self,
        journal: WorkspaceJournal,
        registry: WorkspaceRegistry,
        store: FolderStore | MemoryStore,
        records: RevisionsHeld,
    ) -> None:
        self.journal = journal
        self.registry = registry
        self.store = store
        self.records = records
        self.redoing: str | None = None  # the not-applied action being redone (10.6)

    def append(self, now: datetime, kind: str, **fields: Any) -> dict[str, Any]:
        """Append one entry (no revision change); raises JournalWriteError (nothing appended)."""
        fault = self.commit(now, [], [{"kind": kind, **fields}])
        if fault is not None:
            raise JournalWriteError(fault)
        entry: dict[str, Any] = dict(self.journal.last_appended[-1])
        return entry

    def build(
        self, now: datetime, fields: list[dict[str, Any]], revs: list[ParsedDossier]
    ) -> list[dict[str, Any]]:
        """Entries ready to append: registry, cause, revision digests, signatures, chain."""
        last_for = {}
        for i, f in enumerate(fields):
            last_for[(f.get("dossier_id"), f.get("revision"))] = i
        digests = {(p.model.dossier_id, p.model.revision): json_digest(p.raw) for p in revs}
        out: list[dict[str, Any]] = []
        seq, prev = self.journal.seq, self.journal.head
        at = format_timestamp(now)
        for i, f in enumerate(fields):
            f = dict(f)
            actor: Principal = f.pop("actor")
            cause: Principal | None = f.pop("caused_by", None)
            payload = dict(f.pop("payload", None) or {})
            payload["registry_digest"] = self.registry.in_force.digest
            if actor.role is Role.SYSTEM_REDUCER:
                payload["caused_by"] = cause.principal_id if cause else None
            key = (f.get("dossier_id"), f.get("revision"))
            if key in digests and last_for[key] == i:
                payload["revision_digest"] = digests[key]
            if i == 0 and self.redoing is not None:
                payload["redoes"] = self.redoing  # the not-applied action this redoes (10.6)
            if i < len(fields) - 1:
                payload["continued"] = True  # the action's last line is still to come
            if seq == 0:
                payload["journal_id"] = str(uuid.uuid4())  # a genesis hash of its own
            signer = self.registry.signer_for(
                cause if actor.role is Role.SYSTEM_REDUCER and cause else actor
            )
            entry = make_entry(
                seq,
                prev,
                at,
                f.pop("kind"),
                actor=actor.actor(),
                payload=payload,
                sign=signer.sign if signer else None,
                **f,
            )
            problem = value_problem(entry)
            if problem is not None:  # never write a line that verification would reject
                raise JournalWriteError(f"JOURNAL_ENTRY_MALFORMED: the entry would be {problem}")
            out.append(entry)
            seq, prev = seq + 1, entry["entry_hash"]
        return out

    def commit(
        self, now: datetime, revs: list[ParsedDossier], fields: list[dict[str, Any]]
    ) -> str | None:
        """Stage revisions, append the action's entries (the commit point), then promote.

        Returns a fault reason, or None. The journal is the source of truth: a kill
        before the append leaves staged files that opening rolls back, a kill after it
        leaves staged files that opening rolls forward (spec 10.5).
        """
        journal = self.journal
        if journal.fault is not None:
            return f"JOURNAL_WRITE_FAILED: the workspace is read-only ({journal.fault})"
        if not journal.file.locked:  # closed: another writer may hold the journal now
            return "JOURNAL_WRITE_FAILED: the workspace was closed"
        try:
            entries = self.build(now, fields, revs)
        except (ActorUnavailableError, JournalWriteError) as exc:
            return str(exc)
        store = self.store
        if isinstance(store, FolderStore) and journal.seq == 0:
            try:  # the first registry, trusted on first use, is kept before it is named
                store.save_registry(self.registry.in_force.raw)
            except OSError as exc:
                return f"REVISION_WRITE_FAILED: {exc}"
        staged: list[ParsedDossier] = []
        try:
            for p in revs:
                store.stage(p.model.dossier_id, p.model.revision, p.raw)
                staged.append(p)
            journal.file.append(entries)
        except (OSError, JournalWriteError) as exc:
            for p in staged:
                try:
                    store.unstage(p.model.dossier_id, p.model.revision)
                except OSError:
                    pass
            if isinstance(exc, JournalConcurrentWriteError):
                journal.set_fault(str(exc))
                return f"JOURNAL_WRITE_FAILED: {exc}"
            prefix = (
                "JOURNAL_WRITE_FAILED"
                if isinstance(exc, JournalWriteError)
                else "REVISION_WRITE_FAILED"
            )
            return f"{prefix}: {exc}"
        journal.advanced(entries, self.registry.in_force.digest)
        for p in revs:
            try:
                store.promote(p.model.dossier_id, p.model.revision)
            except OSError as exc:  # the journal holds it: the next opening rolls it forward
                journal.set_fault(f"REVISION_WRITE_FAILED: {exc}")
            self.records.hold(p, journaled=True)
        return None
