"""The headless service API: ``Workspace`` (spec 11) and its on-disk folder form."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._denial import denial_reason
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    DossierSchemaError,
    JournalWriteError,
    ProjectionError,
    RevisionConflictError,
    WorkspaceError,
)
from aa_review.core.dossier._fingerprints import FingerprintHooks
from aa_review.core.dossier._holdings import KeyHolding, key_holdings
from aa_review.core.dossier._keys import KeyStore
from aa_review.core.dossier._lifecycle import LifecycleWorkspace, _training_side
from aa_review.core.dossier._migrate import migrate_legacy
from aa_review.core.dossier._models_dossier import import_refusals, parse_dossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    PackageFactsProvider,
    PackageLocator,
)
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
from aa_review.core.dossier._storage import (
    FolderStore,
    WorkspaceFileError,
    atomic_write_json,
    fsync_dir,
    read_json_file,
)
from aa_review.core.dossier._witness import WitnessStore
from aa_review.core.dossier._workspace_forks import redo_action, withdraw_action

__all__ = ["Workspace", "init_workspace_folder"]

_IMPORT_AS_IS = frozenset({DossierState.DRAFT, DossierState.EVIDENCE_BOUND})
# Faults of an entry refused before anything was written (the journal stays writable).
_UNWRITTEN = ("JOURNAL_ENTRY_MALFORMED", "ACTOR_KEY_UNAVAILABLE")


def _system_clock() -> datetime:
    return datetime.now(UTC)


class Workspace(LifecycleWorkspace):
    """Dossiers, their lifecycle and the journal, without Qt.

    Parameters
    ----------
    principals : list of dict
        ``{principal_id, role, kind}`` records.
    archive : dict
        Authorized archive metadata (read-only input).
    clock : callable
        Returns the current time as an aware datetime.
    journal_path : str or Path
        The JSONL journal (created on first append, continued when it exists).
    package_locator : callable, optional
        package id -> package folder, to re-hash ``evidence.source_packages``.
    package_contamination : callable, optional
        package folder -> ids of rows citing hidden evidence (G9).
    package_facts : callable, optional
        package id -> :class:`PackageFacts` the caller holds (folder, and digest and
        hidden rows when an audit computed them), consulted before the locator: a
        package whose digest the caller knows is never hashed here.
    fingerprint_hooks : FingerprintHooks, optional
        Fingerprint bound packages at binding and compare them later
        (:meth:`changes_since_binding`); without them nothing is kept.
    projection_dir : str or Path, optional
        Where :meth:`project` writes projections (the folder form uses ``projections/``).
    key_store : KeyStore, optional
        The acting user's private keys (default: the user's key store, spec 10.2).
    witness_store : WitnessStore, optional
        Where journal heads are witnessed (default: the user's witness store, spec 10.3).

    The journal file is locked for as long as the workspace is open (spec 10.5):
    a second writer, whichever constructor it uses, gets :class:`WorkspaceLockedError`.
    Call :meth:`close` (or use a ``with`` block) to release it.

    Notes
    -----
    Refusals are :class:`TransitionResult` values. Exceptions mean misuse or an
    unusable input: :class:`RevisionNotFoundError`, :class:`DossierSchemaError`,
    :class:`RevisionConflictError`, :class:`ProjectionError`,
    :class:`WorkspaceReadOnlyError`.
    """

    @classmethod
    def open_folder(
        cls,
        path: str | Path,
        clock: Callable[[], datetime] = _system_clock,
        *,
        package_locator: PackageLocator | None = None,
        package_contamination: ContaminationHook | None = None,
        package_facts: PackageFactsProvider | None = None,
        fingerprint_hooks: FingerprintHooks | None = None,
        key_store: KeyStore | None = None,
        witness_store: WitnessStore | None = None,
    ) -> Workspace:
        """Open a workspace folder (see docs/dossier_workspace.md), locking its journal.

        Raises
        ------
        WorkspaceLockedError
            Another workspace, in this process or another, has the journal open.
        WorkspaceError
            ``principals.json`` or ``archive.json`` is missing or unreadable.
        """
        folder = Path(path).resolve()
        if not folder.is_dir():
            raise WorkspaceError(
                str(folder),
                "is not a folder; create it with init_workspace_folder(path, principals, archive)",
            )
        witness = witness_store if witness_store is not None else WitnessStore()
        try:  # a workspace of the former layout moves to one file per action (10.6)
            migrate_legacy(folder, witness)
        except OSError as exc:
            raise WorkspaceError(str(folder), f"cannot move to the journal folder: {exc}") from None
        principals = _read_json(folder, "principals.json")
        if isinstance(principals, dict):
            principals = principals.get("principals")
        if not isinstance(principals, list):
            raise WorkspaceError(str(folder), "principals.json must hold a principals list")
        archive = _read_json(folder, "archive.json")
        return cls(
            principals,
            archive,
            clock,
            folder / "journal",
            package_locator=package_locator,
            package_contamination=package_contamination,
            package_facts=package_facts,
            fingerprint_hooks=fingerprint_hooks,
            key_store=key_store,
            witness_store=witness,
            _store=FolderStore(folder),
        )

    def reload_archive(self) -> None:
        """Re-read ``archive.json`` of a folder workspace (a new snapshot was published)."""
        if not isinstance(self._store, FolderStore):
            raise WorkspaceError("<memory>", "only a folder workspace has an archive.json")
        self.update_archive(_read_json(self._store.folder, "archive.json"))

    # -- import -----------------------------------------------------------------------
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
        self._require_writable()
        now = self._now()
        file_digest = json_digest(dossier_json)
        parsed = parse_dossier(dossier_json)
        m = parsed.model
        key = (m.dossier_id, m.revision)
        if m.revision in self._revs.get(m.dossier_id, {}) or key in self._journaled:
            raise RevisionConflictError(*key)
        claimed = m.state
        state = claimed if claimed in _IMPORT_AS_IS else DossierState.EVIDENCE_BOUND
        refused = import_refusals(m, claimed, state, self._registry)
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
        fault = self._commit(now, [stored], [entry])
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
        principal = self._registry.get(who)
        unable = self.can_act(who) if principal is not None else None
        if principal is None or unable is not None:
            code = "ACTOR_UNKNOWN" if principal is None or unable is None else unable.split(":")[0]
            raise ActorUnavailableError(
                code, f"{who!r} cannot import here: {unable or 'not in the principal registry'}"
            )
        return (principal, None) if actor_id is not None else (REDUCER, principal)

    # -- the registry (spec 10.2, 10.6) ------------------------------------------------------
    def key_holdings(self) -> tuple[KeyHolding, ...]:
        """Every principal of the registry in force and whether its private key is here.

        Those :attr:`KeyHolding.here` can act on this machine; the others are held
        elsewhere (keys are personal, spec 10.6). Reads this user's key store only.
        """
        return key_holdings(self._registry, self._keys)

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
        self._require_writable()
        new = PrincipalRegistry(principals)
        actor = self._registry.get(actor_id)
        if actor is None or not actor.is_human_maintainer:
            raise ActorUnavailableError(
                "ACTOR_ROLE_NOT_PERMITTED",
                f"{actor_id!r} is not a human maintainer of the registry in force",
            )
        unable = self.can_act(actor_id)
        if unable is not None:
            raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", unable)
        old = self._registry.digest
        if new.digest == old:
            return old
        if isinstance(self._store, FolderStore):
            if self._seq == 0:
                self._store.save_registry(self._registry.raw)
            self._store.save_registry(new.raw)
        entry = {
            "kind": "registry_changed",
            "dossier_id": None,
            "revision": None,
            "actor": actor,
            "payload": {"old_registry_digest": old, "new_registry_digest": new.digest},
        }
        fault = self._commit(self._now(), [], [entry])
        if fault is not None:
            raise JournalWriteError(f"the registry was not changed: {fault}")
        self._registry = self._file_registry = new
        if isinstance(self._store, FolderStore):
            atomic_write_json(self._store.folder / "principals.json", {"principals": new.raw})
        return new.digest

    # -- deferred operations ----------------------------------------------------------------
    def attempt_operation(self, op: str, actor_id: str, target: str) -> dict[str, Any]:
        """Deny a deferred (or any unknown) operation and journal the denial (spec 8).

        The denial is decided before, and independently of, the journal write; if
        the journal cannot be written the result carries ``journal_fault``.
        """
        reason = denial_reason(op)
        result: dict[str, Any] = {"decision": "denied", "reason_code": reason}
        if self._fault is not None:
            result["journal_fault"] = self._fault
            return result
        actor = self._registry.get(actor_id)
        unable = (
            self.can_act(actor_id)
            if actor is not None
            else (f"ACTOR_UNKNOWN: {actor_id!r} is not in the principal registry")
        )
        if actor is None or unable is not None:
            result["not_journaled"] = unable  # nobody who can sign here asked (10.1, 10.2)
            return result
        try:
            self._append(
                self._now(),
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
                self._set_fault(f"JOURNAL_WRITE_FAILED: {exc}")
                result["journal_fault"] = self._fault
        except Exception as exc:  # noqa: BLE001 - the operation stays denied whatever happens
            self._set_fault(f"JOURNAL_WRITE_FAILED: {exc}")
            result["journal_fault"] = self._fault
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
        self._require_writable()
        parsed = self._get(dossier_id, revision)
        if actor_id is not None and actor_id in _training_side(parsed):
            raise ProjectionError(
                "PROJECTION_ACTOR_NOT_PERMITTED",
                "a training-side identity may not publish a projection",
            )
        actor, cause = self._publisher(actor_id, parsed.model.created_by)
        if parsed.model.state is not DossierState.EXPIRED:
            self.expire_if_stale(dossier_id, revision, (cause or actor).principal_id)
            parsed = self._get(dossier_id, revision)
        now = self._now()
        private = private_strings(parsed.raw, self._archive.raw, self._registry.raw, [dossier_id])
        head = self.journal_head()  # spec 10.3: every projection carries the journal head
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
        if self._projection_dir is not None:
            target = self._projection_dir / f"{projection['projection_id']}.json"
            pending = target.with_name(f"{projection['projection_id']}.pending.json")
            if target.exists():
                raise ProjectionError("PROJECTION_ALLOWLIST_VIOLATION", "projection id reused")
            atomic_write_json(pending, json.loads(data))
        # The entry names the projection's content: only that content is ever published (10.5).
        projection_digest = json_digest(json.loads(data))
        try:
            self._append(
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
            signer = self.signer_for(
                cause if actor.role is Role.SYSTEM_REDUCER and cause else actor
            )
        except ActorUnavailableError as exc:
            raise ProjectionError("PROJECTION_ACTOR_NOT_PERMITTED", str(exc)) from None
        return signer.sign if signer is not None else None

    # -- forks (spec 10.6) ------------------------------------------------------------
    def redo(self, entry_hash: str, actor_id: str) -> Any:
        """Redo a not-applied action (see :meth:`not_applied`) on the kept branch, as its author.

        The step is validated against the kept state and signed again; its first entry
        names the action it redoes. Returns what the step returns (a ``TransitionResult``
        for a transition). Raises ``ForkResolutionError`` when it cannot be redone.
        """
        return redo_action(self, entry_hash, actor_id)

    def withdraw(self, entry_hash: str, actor_id: str) -> dict[str, Any]:
        """Withdraw a not-applied action, as its author, by a ``withdrawn`` entry."""
        return withdraw_action(self, entry_hash, actor_id)

    def _publisher(
        self, actor_id: str | None, author: object
    ) -> tuple[Principal, Principal | None]:
        try:
            return self._importer(actor_id, author)
        except ActorUnavailableError as exc:
            raise ProjectionError("PROJECTION_ACTOR_NOT_PERMITTED", str(exc)) from None


def init_workspace_folder(
    path: str | Path, principals: list[dict[str, Any]], archive: dict[str, Any]
) -> Path:
    """Create a workspace folder with ``principals.json`` and ``archive.json`` (atomic writes).

    Raises
    ------
    PrincipalRegistryError
        The registry is malformed, or two principals share a public key (spec 10.6);
        nothing is written then.
    """
    PrincipalRegistry(principals)
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / "principals.json", {"principals": principals})
    atomic_write_json(folder / "archive.json", archive)
    (folder / "dossiers").mkdir(exist_ok=True)
    fsync_dir(folder)
    return folder


def _read_json(folder: Path, name: str) -> Any:
    """A workspace file opened as package files are (no symlink out, no FIFO, bounded)."""
    try:
        return read_json_file(folder, name)
    except WorkspaceFileError as exc:
        raise WorkspaceError(str(folder), exc.fault) from None
