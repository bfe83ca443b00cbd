"""Writing to a workspace (spec 10.2-10.5).

Who may sign, signed entries, staged commits, the witness.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    JournalConcurrentWriteError,
    JournalWriteError,
    KeyStoreError,
)
from aa_review.core.dossier._journal import make_entry
from aa_review.core.dossier._keys import Signer
from aa_review.core.dossier._models_dossier import ParsedDossier
from aa_review.core.dossier._principals import Principal, Role
from aa_review.core.dossier._storage import FolderStore
from aa_review.core.dossier._strict import value_problem
from aa_review.core.dossier._timestamps import format_timestamp
from aa_review.core.dossier._workspace_state import WorkspaceState

__all__ = ["WritingMixin"]

log = logging.getLogger(__name__)


class WritingMixin(WorkspaceState):
    """The writing half of :class:`WorkspaceRecords` (it owns the attributes used here)."""

    def signer_for(self, principal: Principal) -> Signer | None:
        """The key that signs for ``principal`` here, None when its entries go unsigned.

        Raises
        ------
        ActorUnavailableError
            The principal has a public key whose private key is not on this machine
            (or not that key), or, in a workspace folder, has no public key at all.
        """
        pid = principal.principal_id
        if principal.public_key is None:
            if self._folder_mode:
                raise ActorUnavailableError(
                    "ACTOR_KEY_UNAVAILABLE",
                    f"{pid!r} has no public key in principals.json, "
                    "so it cannot act in a workspace folder; create one with "
                    f"'aa-review keys create {pid}' and add it through a registry change",
                )
            return None
        if pid in self._signers and self._signers[pid].public_key == principal.public_key:
            return self._signers[pid]
        try:
            signer = self._keys.signer(pid)
        except KeyStoreError as exc:
            raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", str(exc)) from None
        if signer is None:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE",
                f"the private key of {pid!r} is not on this machine "
                f"(key store {self._keys.folder}); {pid!r} cannot act here",
            )
        if signer.public_key != principal.public_key:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE",
                f"the key of {pid!r} on this machine is not the one principals.json names for it",
            )
        self._signers[pid] = signer
        return signer

    def can_act(self, actor_id: object) -> str | None:
        """Why ``actor_id`` cannot write to this journal here, or None when it can."""
        actor = self._registry.get(actor_id)
        if actor is None:
            return f"ACTOR_UNKNOWN: {actor_id!r} is not in the principal registry"
        if actor.role is Role.SYSTEM_REDUCER:
            return "ACTOR_ROLE_NOT_PERMITTED: the reducer acts only on someone's behalf"
        try:
            self.signer_for(actor)
        except ActorUnavailableError as exc:
            return str(exc)
        return None

    # -- writing -------------------------------------------------------------------------
    def _append(self, now: datetime, kind: str, **fields: Any) -> dict[str, Any]:
        """Append one entry (no revision change); raises JournalWriteError (nothing appended)."""
        fault = self._commit(now, [], [{"kind": kind, **fields}])
        if fault is not None:
            raise JournalWriteError(fault)
        entry: dict[str, Any] = dict(self._last_appended[-1])
        return entry

    def _build(
        self, now: datetime, fields: list[dict[str, Any]], revs: list[ParsedDossier]
    ) -> list[dict[str, Any]]:
        """Entries ready to append: registry, cause, revision digests, signatures, chain."""
        last_for = {}
        for i, f in enumerate(fields):
            last_for[(f.get("dossier_id"), f.get("revision"))] = i
        digests = {(p.model.dossier_id, p.model.revision): json_digest(p.raw) for p in revs}
        out: list[dict[str, Any]] = []
        seq, prev = self._seq, self._head
        at = format_timestamp(now)
        for i, f in enumerate(fields):
            f = dict(f)
            actor: Principal = f.pop("actor")
            cause: Principal | None = f.pop("caused_by", None)
            payload = dict(f.pop("payload", None) or {})
            payload["registry_digest"] = self._registry.digest
            if actor.role is Role.SYSTEM_REDUCER:
                payload["caused_by"] = cause.principal_id if cause else None
            key = (f.get("dossier_id"), f.get("revision"))
            if key in digests and last_for[key] == i:
                payload["revision_digest"] = digests[key]
            if i == 0 and self._redoing is not None:
                payload["redoes"] = self._redoing  # the not-applied action this redoes (10.6)
            if i < len(fields) - 1:
                payload["continued"] = True  # the action's last line is still to come
            if seq == 0:
                payload["journal_id"] = str(uuid.uuid4())  # a genesis hash of its own
            signer = self.signer_for(
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

    def _commit(
        self, now: datetime, revs: list[ParsedDossier], fields: list[dict[str, Any]]
    ) -> str | None:
        """Stage revisions, append the action's entries (the commit point), then promote.

        Returns a fault reason, or None. The journal is the source of truth: a kill
        before the append leaves staged files that opening rolls back, a kill after it
        leaves staged files that opening rolls forward (spec 10.5).
        """
        if self._fault is not None:
            return f"JOURNAL_WRITE_FAILED: the workspace is read-only ({self._fault})"
        if not self._journal.locked:  # closed: another writer may hold the journal now
            return "JOURNAL_WRITE_FAILED: the workspace was closed"
        try:
            entries = self._build(now, fields, revs)
        except (ActorUnavailableError, JournalWriteError) as exc:
            return str(exc)
        store = self._store
        if isinstance(store, FolderStore) and self._seq == 0:
            try:  # the first registry, trusted on first use, is kept before it is named
                store.save_registry(self._registry.raw)
            except OSError as exc:
                return f"REVISION_WRITE_FAILED: {exc}"
        staged: list[ParsedDossier] = []
        try:
            for p in revs:
                store.stage(p.model.dossier_id, p.model.revision, p.raw)
                staged.append(p)
            self._journal.append(entries)
        except (OSError, JournalWriteError) as exc:
            for p in staged:
                try:
                    store.unstage(p.model.dossier_id, p.model.revision)
                except OSError:
                    pass
            if isinstance(exc, JournalConcurrentWriteError):
                self._set_fault(str(exc))
                return f"JOURNAL_WRITE_FAILED: {exc}"
            prefix = (
                "JOURNAL_WRITE_FAILED"
                if isinstance(exc, JournalWriteError)
                else "REVISION_WRITE_FAILED"
            )
            return f"{prefix}: {exc}"
        if self._seq == 0:
            self._genesis = entries[0]["entry_hash"]
            self._genesis_registry = self._registry.digest
        self._seq += len(entries)
        self._head = entries[-1]["entry_hash"]
        self._last_appended = entries
        self._witness_now()
        for p in revs:
            try:
                store.promote(p.model.dossier_id, p.model.revision)
            except OSError as exc:  # the journal holds it: the next opening rolls it forward
                self._set_fault(f"REVISION_WRITE_FAILED: {exc}")
            self._revs.setdefault(p.model.dossier_id, {})[p.model.revision] = p
            self._journaled.add((p.model.dossier_id, p.model.revision))
        return None

    def _witness_now(self) -> None:
        """Record the head in the user's witness store (after the append, never before)."""
        head = self.journal_head()
        if head is None or self._genesis is None:
            return
        try:
            self._witness.witness(self._journal.path, self._genesis, self._genesis_registry, head)
        except (OSError, KeyStoreError) as exc:
            log.error("the witness store could not record the journal head: %s", exc)
            self._witness_state = {**self._witness_state, "status": "unwitnessed_tail"}
            return
        self._witness_state = {"status": "matches", "witnessed": head}
