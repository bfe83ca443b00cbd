"""The headless service API: ``Workspace`` (spec 11), a façade over its parts, and its
on-disk folder form."""

from __future__ import annotations

import copy
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._errors import (
    ArchiveSchemaError,
    PrincipalRegistryError,
    WorkspaceError,
)
from aa_review.core.dossier._keys import KeyStore
from aa_review.core.dossier._lifecycle import Lifecycle
from aa_review.core.dossier._migrate import migrate_legacy
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._storage import (
    FolderStore,
    MemoryStore,
    WorkspaceFileError,
    atomic_write_json,
    fsync_dir,
    read_json_file,
)
from aa_review.core.dossier._witness import WitnessStore
from aa_review.core.dossier._workspace_acts import WorkspaceActs
from aa_review.core.dossier._workspace_forks import redo_action, withdraw_action
from aa_review.core.dossier._workspace_journal import WorkspaceJournal
from aa_review.core.dossier._workspace_open import Opening
from aa_review.core.dossier._workspace_packages import BoundPackages
from aa_review.core.dossier._workspace_records import RevisionsHeld
from aa_review.core.dossier._workspace_registry import WorkspaceRegistry
from aa_review.core.dossier._workspace_views import WorkspaceViews
from aa_review.core.dossier._workspace_write import JournalWriter

if TYPE_CHECKING:
    from aa_review.core.dossier._admission import Standing, Step
    from aa_review.core.dossier._fingerprints import BoundChanges, FingerprintHooks
    from aa_review.core.dossier._freshness import Freshness
    from aa_review.core.dossier._holdings import KeyHolding
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._packages import (
        ContaminationHook,
        PackageFactsProvider,
        PackageLocator,
        PackageStatus,
    )
    from aa_review.core.dossier._results import DossierRef, TransitionResult
    from aa_review.core.dossier._states import Refusal
    from aa_review.core.dossier._validator import CheckRecord

__all__ = ["Workspace", "init_workspace_folder"]

log = logging.getLogger(__name__)

_PRINCIPALS = "principals.json"
_ARCHIVE = "archive.json"


def _system_clock() -> datetime:
    return datetime.now(UTC)


class Workspace:
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

    The workspace is a façade over its parts, each testable alone: :attr:`store`
    (the files), :attr:`journal` (:class:`WorkspaceJournal`: the chain, its witness
    and fault), :attr:`registry` (:class:`WorkspaceRegistry`: principals in force and
    keys here), :attr:`records` (the revisions held), :attr:`packages`
    (:class:`BoundPackages`), :attr:`views` (read-only queries), :attr:`writer`
    (:class:`JournalWriter`: signed entries, staged commits), :attr:`lifecycle`
    (T1..T7) and :attr:`acts` (import, registry change, denial, projection).

    Notes
    -----
    Refusals are :class:`TransitionResult` values. Exceptions mean misuse or an
    unusable input: :class:`RevisionNotFoundError`, :class:`DossierSchemaError`,
    :class:`RevisionConflictError`, :class:`ProjectionError`,
    :class:`WorkspaceReadOnlyError`.
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
        _store: FolderStore | MemoryStore | None = None,
        _unreadable: dict[str, str] | None = None,
    ) -> None:
        # ``_unreadable``: workspace file -> why it could not be used (open_folder); the
        # workspace then opens read-only with that reason (spec 10.5).
        unreadable = _unreadable or {}
        given = PrincipalRegistry(principals)
        parsed_archive = parse_archive(archive)
        self.store: FolderStore | MemoryStore = _store if _store is not None else MemoryStore()
        folder_mode = isinstance(self.store, FolderStore)
        if projection_dir is not None:
            self.store.projection_dir = Path(projection_dir)
        keys = key_store if key_store is not None else KeyStore()
        self.registry = WorkspaceRegistry(given, keys, folder_mode=folder_mode)
        path = Path(journal_path)
        # A workspace folder's journal is a folder of action files; the plain
        # constructor of spec 11 keeps a JSONL file.
        self.journal = WorkspaceJournal.at(
            path,
            witness_store if witness_store is not None else WitnessStore(),
            folder=folder_mode or path.is_dir(),
        )
        self.records = RevisionsHeld()
        self.packages = BoundPackages(
            self.store,
            locator=package_locator,
            contamination=package_contamination,
            facts=package_facts,
            fingerprints=fingerprint_hooks,
        )
        if unreadable:
            self.journal.set_fault("; ".join(unreadable.values()))
        self.views = WorkspaceViews(
            self.records, self.registry, self.packages, self.journal, parsed_archive, clock
        )
        self.views.archive_fault = unreadable.get(_ARCHIVE)
        self.writer = JournalWriter(self.journal, self.registry, self.store, self.records)
        self.lifecycle = Lifecycle(self.views, self.writer)
        self.acts = WorkspaceActs(self.lifecycle, self.store)
        self.journal.lock()  # raises WorkspaceLockedError: one writer per journal
        try:
            Opening(self.journal, self.registry, self.store, self.records).load()
        except Exception as exc:  # opening falls back to read-only, never raises
            log.exception("dossier workspace %s could not be loaded", journal_path)
            self.journal.set_fault(f"WORKSPACE_UNREADABLE: {type(exc).__name__}: {exc}")

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

        A ``principals.json`` or ``archive.json`` that is missing, unsafe (a FIFO, a
        device, a symlink out, too large), not JSON or not of its shape (a registry in
        which two principals share a key, an archive that does not parse) makes the
        workspace open read-only with its reason in ``journal_fault`` (spec 10.5): the
        journal is still verified and shown as far as it can be, nothing is written, and
        the gates that read the archive are unknown.

        Raises
        ------
        WorkspaceLockedError
            Another workspace, in this process or another, has the journal open.
        WorkspaceError
            ``path`` is not a folder, or not a workspace (neither ``principals.json``
            nor a journal).
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
        if not os.path.lexists(folder / _PRINCIPALS) and not os.path.lexists(folder / "journal"):
            raise WorkspaceError(
                str(folder),
                "is not a workspace folder (no principals.json, no journal); create it "
                "with init_workspace_folder(path, principals, archive)",
            )
        unreadable: dict[str, str] = {}
        principals = _registry_file(folder, unreadable)
        archive = _archive_file(folder, unreadable)
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
            _unreadable=unreadable,
        )

    def reload_archive(self) -> None:
        """Re-read ``archive.json`` of a folder workspace (a new snapshot was published)."""
        if not isinstance(self.store, FolderStore):
            raise WorkspaceError("<memory>", "only a folder workspace has an archive.json")
        self.views.update_archive(_read_json(self.store.folder, "archive.json"))

    # -- the journal (spec 10) ---------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """True after a failed journal verification or write; transitions are refused."""
        return self.journal.read_only

    @property
    def journal_fault(self) -> str | None:
        """Why the workspace is read-only, or None."""
        return self.journal.fault

    @property
    def journal_path(self) -> Path:
        """The journal on disk: the folder of action files (or a plain JSONL file)."""
        return self.journal.file.path

    def journal_moved(self) -> str | None:
        """Why the journal on disk moved past what this workspace verified (actions
        another writer added: a ``git pull`` while open), or None; the next step would be
        refused with ``JOURNAL_CONCURRENT_WRITE``. Open the workspace again to verify what
        arrived (spec 10.5, 10.6). Only a writer (holding the lock) can tell."""
        return self.journal.moved()

    def journal_entries(self) -> list[Any]:
        """Every complete journal entry of the kept branch, read from disk (spec 10.6)."""
        return self.journal.entries()

    def journal_head(self) -> dict[str, Any] | None:
        """``{seq, entry_hash}`` of the last entry (save it as an anchor), or None."""
        return self.journal.head_anchor()

    def verify_journal(self, anchor: Any = None) -> dict[str, Any]:
        """Verify the journal on disk against the registry and the witnessed head (section 10)."""
        return self.journal.verify(anchor, self.registry.versions(self.store))

    def entry_signatures(self) -> list[dict[str, Any]]:
        """Who signed each journal entry (:meth:`WorkspaceJournal.entry_signatures`)."""
        return self.journal.entry_signatures(self.registry.versions(self.store))

    def journal_status(self) -> dict[str, Any]:
        """Everything the journal view shows (:meth:`WorkspaceJournal.status`)."""
        return self.journal.status(self.registry.versions(self.store))

    def witness_status(self) -> dict[str, Any]:
        """Whether the journal matches this user's witness store (spec 10.3; read-only)."""
        return self.journal.witness_status()

    def not_applied(self) -> list[dict[str, Any]]:
        """A copy of :attr:`WorkspaceJournal.not_applied`: actions that lost a fork (10.6)."""
        return copy.deepcopy(self.journal.not_applied)

    def arrived(self) -> list[dict[str, Any]]:
        """A copy of :attr:`WorkspaceJournal.arrived`: entries new since this user's witness."""
        return copy.deepcopy(self.journal.arrived)

    @property
    def open_notes(self) -> list[str]:
        """What opening discarded or repaired and why (e.g. a staged file not journaled)."""
        return list(self.journal.open_notes)

    def denial_log(self) -> list[dict[str, Any]]:
        """The ``operation_denied`` entries, oldest first."""
        return self.journal.denial_log()

    def close(self) -> None:
        """Release the journal's writer lock."""
        self.journal.release()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the registry (spec 10.2, 10.6) ---------------------------------------------------
    @property
    def principals(self) -> PrincipalRegistry:
        """The principal registry in force (the journal's; spec 10.2)."""
        return self.registry.in_force

    def can_act(self, actor_id: object) -> str | None:
        """Why ``actor_id`` cannot write to this journal here, or None when it can."""
        return self.registry.can_act(actor_id)

    def key_holdings(self) -> tuple[KeyHolding, ...]:
        """Every principal of the registry in force and whether its private key is here.

        Those :attr:`KeyHolding.here` can act on this machine; the others are held
        elsewhere (keys are personal, spec 10.6). Reads this user's key store only.
        """
        return self.registry.key_holdings()

    # -- read-only views ---------------------------------------------------------------
    @property
    def archive(self) -> Archive:
        """The archive metadata the gates read."""
        return self.views.archive

    def update_archive(self, archive: dict[str, Any]) -> None:
        """Replace the archive metadata (the evaluation side published a new snapshot)."""
        self.views.update_archive(archive)

    def now(self) -> datetime:
        """The workspace clock's current time."""
        return self.views.now()

    def dossier_ids(self) -> list[str]:
        """Ids of the dossiers held, sorted."""
        return self.records.dossier_ids()

    def revisions(self, dossier_id: str) -> list[int]:
        """Revision numbers of a dossier, ascending."""
        return self.records.numbers(dossier_id)

    def parsed(self, dossier_id: str, revision: int) -> ParsedDossier:
        """The revision as held (raw tree and typed model); shared: read it, never modify it.

        Raises
        ------
        RevisionNotFoundError
        """
        return self.records.get(dossier_id, revision)

    def revision(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """The revision's dossier JSON, including ``state`` and ``check`` (a copy)."""
        return self.views.revision(dossier_id, revision)

    def revision_for(self, dossier_id: str, revision: int, viewer_id: str) -> dict[str, Any]:
        """The revision as ``viewer_id`` may see it: private detail for evaluators only."""
        return self.views.revision_for(dossier_id, revision, viewer_id)

    def freshness(self, dossier_id: str, revision: int) -> Freshness:
        """Which freshness rules fire for a revision now (nothing is changed)."""
        return self.views.freshness(dossier_id, revision)

    def standing(self, dossier_id: str, revision: int) -> Standing:
        """State and who acted on the revision: what admission to a step reads."""
        return self.views.standing(dossier_id, revision)

    def admission(
        self, step: Step, dossier_id: str, revision: int, actor_id: str
    ) -> Refusal | None:
        """The refusal ``actor_id`` would get for ``step`` now (None: it would go ahead)."""
        return self.views.admission(step, dossier_id, revision, actor_id)

    def package_status(self, dossier_id: str, revision: int) -> tuple[PackageStatus, ...]:
        """The revision's bound packages as found now (:meth:`WorkspaceViews.package_status`)."""
        return self.views.package_status(dossier_id, revision)

    def evaluate_now(
        self,
        dossier_id: str,
        revision: int,
        viewer_id: str,
        packages: tuple[PackageStatus, ...] | None = None,
    ) -> tuple[Freshness, CheckRecord]:
        """Freshness and every gate of a revision now, as a check would see them (read-only)."""
        return self.views.evaluate_now(dossier_id, revision, viewer_id, packages)

    def changes_since_binding(self, dossier_id: str, revision: int) -> tuple[BoundChanges, ...]:
        """What changed in each bound package that differs from its binding (read-only)."""
        return self.views.changes_since_binding(dossier_id, revision)

    def projection_preview(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """What :meth:`project` would publish for the revision as it stands (nothing written)."""
        return self.views.projection_preview(dossier_id, revision)

    def forget_package_facts(self) -> None:
        """Hash and audit bound packages again next time (a deliberate re-verification).

        Digests and contamination answers the workspace computed for the caller's
        facts are dropped; digests the caller gave are still taken as given.
        """
        self.packages.forget()

    # -- transitions (spec 7) -------------------------------------------------------------
    def bind(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T1 ``draft -> evidence_bound`` (see :meth:`Lifecycle.bind`)."""
        return self.lifecycle.bind(dossier_id, revision, actor_id)

    def check(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T2 ``evidence_bound -> independently_checked``, then T3 deferral unless eligible."""
        return self.lifecycle.check(dossier_id, revision, actor_id)

    def decide_eligible(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T5 ``independently_checked -> eligible`` by a human maintainer, after re-verifying."""
        return self.lifecycle.decide_eligible(dossier_id, revision, actor_id)

    def decide_deferred(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T4 ``independently_checked -> deferred``: a human maintainer may always defer."""
        return self.lifecycle.decide_deferred(dossier_id, revision, actor_id)

    def expire_if_stale(
        self, dossier_id: str, revision: int, actor_id: str | None = None
    ) -> TransitionResult:
        """T6 by the reducer when a freshness rule fires; refused (precondition) otherwise."""
        return self.lifecycle.expire_if_stale(dossier_id, revision, actor_id)

    def edit_evidence(
        self, dossier_id: str, revision: int, actor_id: str, path: list[str], value: Any
    ) -> TransitionResult:
        """Edit a draft in place, or (T7) expire a bound revision and create the next one."""
        return self.lifecycle.edit_evidence(dossier_id, revision, actor_id, path, value)

    def revise(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """Start a new revision from an expired one (spec 7.3; see :meth:`Lifecycle.revise`)."""
        return self.lifecycle.revise(dossier_id, revision, actor_id)

    def authorize_amendment(
        self,
        dossier_id: str,
        revision: int,
        actor_id: str,
        amendment_ref: str,
        amendment_digest: str,
    ) -> TransitionResult:
        """A human maintainer authorizes *proposing* an amendment (spec 2.4), as a sign-off."""
        return self.lifecycle.authorize_amendment(
            dossier_id, revision, actor_id, amendment_ref, amendment_digest
        )

    # -- the other journaled acts -----------------------------------------------------------
    def import_dossier(
        self, dossier_json: dict[str, Any], actor_id: str | None = None
    ) -> DossierRef:
        """T0: take in a dossier file (see :meth:`WorkspaceActs.import_dossier`)."""
        return self.acts.import_dossier(dossier_json, actor_id)

    def change_registry(self, principals: list[dict[str, Any]], actor_id: str) -> str:
        """Put a new registry version in force (see :meth:`WorkspaceActs.change_registry`)."""
        return self.acts.change_registry(principals, actor_id)

    def attempt_operation(self, op: str, actor_id: str, target: str) -> dict[str, Any]:
        """Deny a deferred (or any unknown) operation and journal the denial (spec 8)."""
        return self.acts.attempt_operation(op, actor_id, target)

    def project(
        self, dossier_id: str, revision: int, actor_id: str | None = None
    ) -> dict[str, Any]:
        """Build, check, write and journal the public projection (:meth:`WorkspaceActs.project`)."""
        return self.acts.project(dossier_id, revision, actor_id)

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


def init_workspace_folder(
    path: str | Path, principals: list[dict[str, Any]], archive: dict[str, Any]
) -> Path:
    """Create a workspace folder with ``principals.json`` and ``archive.json`` (atomic writes).

    Raises
    ------
    PrincipalRegistryError
        The registry is malformed, or two principals share a public key (spec 10.6);
        nothing is written then.
    ArchiveSchemaError
        The archive does not parse to the shapes of spec 2.6 (spec 15: workspace creation
        for an archive refuses, naming the JSON path); nothing is written then.
    """
    PrincipalRegistry(principals)
    parse_archive(archive)
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / "principals.json", {"principals": principals})
    atomic_write_json(folder / "archive.json", archive)
    (folder / "dossiers").mkdir(exist_ok=True)
    fsync_dir(folder)
    return folder


def _registry_file(folder: Path, unreadable: dict[str, str]) -> list[dict[str, Any]]:
    """``principals.json``'s list, or none with the reason in ``unreadable`` (spec 10.5)."""
    try:
        tree = read_json_file(folder, _PRINCIPALS)
    except WorkspaceFileError as exc:
        unreadable[_PRINCIPALS] = exc.fault
        return []
    if isinstance(tree, dict):
        tree = tree.get("principals")
    if not isinstance(tree, list):
        unreadable[_PRINCIPALS] = (
            f"WORKSPACE_FILE_UNREADABLE: {_PRINCIPALS} must hold a principals list"
        )
        return []
    try:
        PrincipalRegistry(tree)
    except PrincipalRegistryError as exc:
        unreadable[_PRINCIPALS] = f"WORKSPACE_FILE_UNREADABLE: {_PRINCIPALS}: {exc}"
        return []
    return tree


def _archive_file(folder: Path, unreadable: dict[str, str]) -> dict[str, Any]:
    """``archive.json``, or an empty archive with the reason in ``unreadable`` (10.5, 15)."""
    try:
        tree = read_json_file(folder, _ARCHIVE)
        parse_archive(tree)
    except WorkspaceFileError as exc:
        unreadable[_ARCHIVE] = exc.fault
        return {}
    except ArchiveSchemaError as exc:
        unreadable[_ARCHIVE] = f"WORKSPACE_FILE_UNREADABLE: {_ARCHIVE}: {exc}"
        return {}
    assert isinstance(tree, dict)  # parse_archive refuses anything else
    return tree


def _read_json(folder: Path, name: str) -> Any:
    """A workspace file opened as package files are (no symlink out, no FIFO, bounded)."""
    try:
        return read_json_file(folder, name)
    except WorkspaceFileError as exc:
        raise WorkspaceError(str(folder), exc.fault) from None
