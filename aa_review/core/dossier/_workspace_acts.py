"""The workspace's journaled acts besides the transitions (spec 8, 9, 10.2, 11).

Importing a dossier (T0), changing the registry, denying a deferred operation and
publishing a projection. :class:`WorkspaceActs` decides each from the parts it
reads and writes through the journal writer only.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._denial import denial_reason
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    DossierSchemaError,
    JournalWriteError,
    ProjectionError,
    RevisionConflictError,
)
from aa_review.core.dossier._lifecycle import _training_side
from aa_review.core.dossier._models_dossier import import_refusals, parse_dossier
from aa_review.core.dossier._principals import REDUCER, Principal, PrincipalRegistry, Role
from aa_review.core.dossier._projection import (
    build_projection,
    check_projection,
    private_strings,
    sign_projection,
)
from aa_review.core.dossier._results import DossierRef
from aa_review.core.dossier._signoffs import embedded_signoffs
from aa_review.core.dossier._states import DossierState
from aa_review.core.dossier._storage import FolderStore, atomic_write_json, fsync_dir

if TYPE_CHECKING:
    from aa_review.core.dossier._lifecycle import Lifecycle
    from aa_review.core.dossier._storage import MemoryStore

__all__ = ["WorkspaceActs"]

_IMPORT_AS_IS = frozenset({DossierState.DRAFT, DossierState.EVIDENCE_BOUND})
# Faults of an entry refused before anything was written (the journal stays writable).
_UNWRITTEN = ("JOURNAL_ENTRY_MALFORMED", "ACTOR_KEY_UNAVAILABLE")


class WorkspaceActs:
    """Import, registry change, denial and projection, over the lifecycle's parts.

    Parameters
    ----------
    lifecycle : Lifecycle
        Its parts (journal, registry, records, views, writer) are the ones read and
        written; a projection of a stale revision expires it first through it.
    store : FolderStore or MemoryStore
        Where registry versions and projections are written.
    """

    def __init__(self, lifecycle: Lifecycle, store: FolderStore | MemoryStore) -> None:
        self.lifecycle = lifecycle
        self.store = store
        self.journal = lifecycle.journal
        self.registry = lifecycle.registry
        self.records = lifecycle.records
        self.views = lifecycle.views
        self.writer = lifecycle.writer

    def import_dossier(
        self, dossier_json: dict[str, Any], actor_id: str | None = None
    ) -> DossierRef:
        """T0: take in a dossier file as ``draft`` or ``evidence_bound``; journal ``imported``.

        A file claiming a later state is imported as ``evidence_bound``: its check
        record and claimed state are kept under ``imported_untrusted`` for display,
        because checks and decisions only count when made and journaled here.

        Raises
        ------
        DossierSchemaError
            Structurally invalid (``DOSSIER_SCHEMA_INVALID``), or a bound state without binding.
        RevisionConflictError
            The (dossier, revision) already exists here or in the journal.
        WorkspaceReadOnlyError
            The journal failed verification.
        """
        self.journal.require_writable()
        now = self.views.now()
        file_digest = json_digest(dossier_json)
        parsed = parse_dossier(dossier_json)
        m = parsed.model
        key = (m.dossier_id, m.revision)
        if self.records.taken(*key):
            raise RevisionConflictError(*key)
        claimed = m.state
        state = claimed if claimed in _IMPORT_AS_IS else DossierState.EVIDENCE_BOUND
        refused = import_refusals(m, claimed, state, self.registry.in_force)
        if refused:
            raise DossierSchemaError(refused)
        raw = copy.deepcopy(parsed.raw)
        if claimed is not state or raw.get("check") is not None:
            raw["imported_untrusted"] = {"claimed_state": claimed.value, "check": raw.get("check")}
        raw["state"] = state.value
        raw["check"] = None
        stored = parse_dossier(raw)
        plan = m.evidence.independence_plan
        importer, cause = self._importer(actor_id, m.created_by)
        entry = {
            "kind": "imported",
            "dossier_id": m.dossier_id,
            "revision": m.revision,
            "actor": importer,
            "caused_by": cause,
            "from_state": None,
            "to_state": state.value,
            "payload": {
                "file_digest": file_digest,
                "claimed_state": claimed.value,
                "created_by": m.created_by,
                "bound_by": m.binding.bound_by if m.binding else None,
                "training_side": sorted(plan.training_side()) if plan else [],
                "signoffs": embedded_signoffs(parsed.raw),
            },
        }
        fault = self.writer.commit(now, [stored], [entry])
        if fault is not None:
            if fault.startswith("ACTOR_KEY_UNAVAILABLE"):
                raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", fault.split(": ", 1)[-1])
            raise JournalWriteError(f"the dossier was not imported: {fault}")
        return DossierRef(m.dossier_id, m.revision, state)

    def _importer(self, actor_id: str | None, author: object) -> tuple[Principal, Principal | None]:
        """Who journals an import: the actor, else the reducer on behalf of the file's author.

        Raises
        ------
        ActorUnavailableError
            The actor (or, without one, the author) is not in the registry or cannot sign here.
        """
        who = actor_id if actor_id is not None else author
        principal = self.registry.get(who)
        unable = self.registry.can_act(who) if principal is not None else None
        if principal is None or unable is not None:
            code = "ACTOR_UNKNOWN" if principal is None or unable is None else unable.split(":")[0]
            raise ActorUnavailableError(
                code, f"{who!r} cannot import here: {unable or 'not in the principal registry'}"
            )
        return (principal, None) if actor_id is not None else (REDUCER, principal)

    def change_registry(self, principals: list[dict[str, Any]], actor_id: str) -> str:
        """Put a new registry version in force through a signed ``registry_changed`` entry.

        The actor must be a human maintainer of the registry now in force, with a
        key on this machine. The new version is kept under ``registry/`` before the
        entry is appended; ``principals.json`` is replaced after it.

        Returns
        -------
        str
            The new ``registry_digest``.

        Raises
        ------
        PrincipalRegistryError
            The new registry is malformed.
        ActorUnavailableError
            The actor is not a human maintainer of the current registry, or cannot sign here.
        WorkspaceReadOnlyError, JournalWriteError
        """
        self.journal.require_writable()
        new = PrincipalRegistry(principals)
        actor = self.registry.get(actor_id)
        if actor is None or not actor.is_human_maintainer:
            raise ActorUnavailableError(
                "ACTOR_ROLE_NOT_PERMITTED",
                f"{actor_id!r} is not a human maintainer of the registry in force",
            )
        unable = self.registry.can_act(actor_id)
        if unable is not None:
            raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", unable)
        old = self.registry.in_force.digest
        if new.digest == old:
            return old
        if isinstance(self.store, FolderStore):
            if self.journal.seq == 0:
                self.store.save_registry(self.registry.in_force.raw)
            self.store.save_registry(new.raw)
        entry = {
            "kind": "registry_changed",
            "dossier_id": None,
            "revision": None,
            "actor": actor,
            "payload": {"old_registry_digest": old, "new_registry_digest": new.digest},
        }
        fault = self.writer.commit(self.views.now(), [], [entry])
        if fault is not None:
            raise JournalWriteError(f"the registry was not changed: {fault}")
        self.registry.put_in_force(new)
        if isinstance(self.store, FolderStore):
            atomic_write_json(self.store.folder / "principals.json", {"principals": new.raw})
        return new.digest

    # -- deferred operations ----------------------------------------------------------------
    def attempt_operation(self, op: str, actor_id: str, target: str) -> dict[str, Any]:
        """Deny a deferred (or any unknown) operation and journal the denial (spec 8).

        The denial is decided before, and independently of, the journal write; if
        the journal cannot be written the result carries ``journal_fault``.
        """
        reason = denial_reason(op)
        result: dict[str, Any] = {"decision": "denied", "reason_code": reason}
        if self.journal.fault is not None:
            result["journal_fault"] = self.journal.fault
            return result
        actor = self.registry.get(actor_id)
        unable = (
            self.registry.can_act(actor_id)
            if actor is not None
            else (f"ACTOR_UNKNOWN: {actor_id!r} is not in the principal registry")
        )
        if actor is None or unable is not None:
            result["not_journaled"] = unable  # nobody who can sign here asked (10.1, 10.2)
            return result
        try:
            self.writer.append(
                self.views.now(),
                "operation_denied",
                dossier_id=None,
                revision=None,
                actor=actor,
                payload={"op": str(op), "target": str(target), "reason_code": reason},
            )
        except JournalWriteError as exc:
            if str(exc).startswith(_UNWRITTEN):  # nothing was written: the journal is sound
                result["not_journaled"] = str(exc)
            else:
                self.journal.set_fault(f"JOURNAL_WRITE_FAILED: {exc}")
                result["journal_fault"] = self.journal.fault
        except Exception as exc:  # noqa: BLE001 - the operation stays denied whatever happens
            self.journal.set_fault(f"JOURNAL_WRITE_FAILED: {exc}")
            result["journal_fault"] = self.journal.fault
        return result

    # -- public projection -----------------------------------------------------------------
    def project(
        self, dossier_id: str, revision: int, actor_id: str | None = None
    ) -> dict[str, Any]:
        """Build, check, write and journal the public projection of a final revision (spec 9).

        A stale revision is expired first, so the projection reports ``expired``.

        Raises
        ------
        ProjectionError
            Not ``eligible``/``deferred``/``expired``; the actor is a training-side
            identity of the plan (it never publishes); or the allowlist or canary
            check failed. Nothing is written then.
        """
        self.journal.require_writable()
        parsed = self.records.get(dossier_id, revision)
        if actor_id is not None and actor_id in _training_side(parsed):
            raise ProjectionError(
                "PROJECTION_ACTOR_NOT_PERMITTED",
                "a training-side identity may not publish a projection",
            )
        actor, cause = self._publisher(actor_id, parsed.model.created_by)
        if parsed.model.state is not DossierState.EXPIRED:
            self.lifecycle.expire_if_stale(dossier_id, revision, (cause or actor).principal_id)
            parsed = self.records.get(dossier_id, revision)
        now = self.views.now()
        private = private_strings(
            parsed.raw, self.views.archive.raw, self.registry.in_force.raw, [dossier_id]
        )
        head = self.journal.head_anchor()  # spec 10.3: every projection carries the journal head
        # Spec 10.5: signed by the publisher (for the reducer, by whom it acts for).
        signer = self._projection_signer(actor, cause)
        for attempt in range(3):
            projection = sign_projection(
                build_projection(parsed.model.state, parsed.model.check, now, journal_head=head),
                signer,
            )
            try:
                data = check_projection(projection, private)
                break
            except ProjectionError as exc:  # a random id may, very rarely, contain a private string
                if exc.reason_code != "PROJECTION_PRIVATE_VALUE_LEAK" or attempt == 2:
                    raise
        target = pending = None
        folder = self.store.projection_dir
        if folder is not None:
            target = folder / f"{projection['projection_id']}.json"
            pending = target.with_name(f"{projection['projection_id']}.pending.json")
            if target.exists():
                raise ProjectionError("PROJECTION_ALLOWLIST_VIOLATION", "projection id reused")
            atomic_write_json(pending, json.loads(data))
        # The entry names the projection's content: only that content is ever published (10.5).
        projection_digest = json_digest(json.loads(data))
        try:
            self.writer.append(
                now,
                "projection_published",
                dossier_id=dossier_id,
                revision=revision,
                actor=actor,
                caused_by=cause,
                from_state=parsed.model.state.value,
                to_state=parsed.model.state.value,
                payload={
                    "projection_id": projection["projection_id"],
                    "outcome": projection["outcome"],
                    "projection_digest": projection_digest,
                },
            )
        except JournalWriteError:
            if pending is not None:
                pending.unlink(missing_ok=True)
            raise
        if pending is not None and target is not None:  # journaled: the projection is published
            os.replace(pending, target)
            fsync_dir(target.parent)
        return projection

    def _projection_signer(
        self, actor: Principal, cause: Principal | None
    ) -> Callable[[str], str] | None:
        try:
            signer = self.registry.signer_for(
                cause if actor.role is Role.SYSTEM_REDUCER and cause else actor
            )
        except ActorUnavailableError as exc:
            raise ProjectionError("PROJECTION_ACTOR_NOT_PERMITTED", str(exc)) from None
        return signer.sign if signer is not None else None

    def _publisher(
        self, actor_id: str | None, author: object
    ) -> tuple[Principal, Principal | None]:
        try:
            return self._importer(actor_id, author)
        except ActorUnavailableError as exc:
            raise ProjectionError("PROJECTION_ACTOR_NOT_PERMITTED", str(exc)) from None
