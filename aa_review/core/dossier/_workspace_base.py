"""Workspace plumbing: opening and recovery, signed commits, witness, queries (spec 10, 11).

Opening never raises for what the files hold: whatever is wrong makes the
workspace read-only with a fault that says why.
"""

from __future__ import annotations

import copy
import logging
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import (
    ActorUnavailableError,
    DossierSchemaError,
    JournalConcurrentWriteError,
    JournalWriteError,
    KeyStoreError,
    RevisionNotFoundError,
    WorkspaceReadOnlyError,
)
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._journal import GENESIS_HASH, JournalFile, make_entry
from aa_review.core.dossier._keys import KeyStore, Signer
from aa_review.core.dossier._models_dossier import ParsedDossier, parse_dossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    PackageLocator,
    PackageStatus,
    inspect_packages,
)
from aa_review.core.dossier._principals import Principal, PrincipalRegistry, Role
from aa_review.core.dossier._storage import FolderStore, MemoryStore, atomic_write_json
from aa_review.core.dossier._strict import value_problem
from aa_review.core.dossier._timestamps import format_timestamp
from aa_review.core.dossier._verify import JournalVerifier, verify_with
from aa_review.core.dossier._views import revision_view
from aa_review.core.dossier._witness import WitnessError, WitnessStore

__all__ = ["WorkspaceBase"]

log = logging.getLogger(__name__)

Store = MemoryStore | FolderStore


class WorkspaceBase:
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
        self._store: Store = _store if _store is not None else MemoryStore()
        self._folder_mode = isinstance(self._store, FolderStore)
        self._projection_dir = (Path(projection_dir) if projection_dir is not None
                                else self._store.projection_dir)
        self._keys = key_store if key_store is not None else KeyStore()
        self._witness = witness_store if witness_store is not None else WitnessStore()
        self._signers: dict[str, Signer] = {}
        self._journal = JournalFile(Path(journal_path))
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
        except Exception as exc:  # noqa: BLE001 - opening falls back to read-only, never raises
            log.exception("dossier workspace %s could not be loaded", journal_path)
            self._set_fault(f"WORKSPACE_UNREADABLE: {type(exc).__name__}: {exc}")

    # -- start-up -----------------------------------------------------------------
    def _versions(self) -> dict[str, PrincipalRegistry]:
        versions: dict[str, PrincipalRegistry] = {}
        if isinstance(self._store, FolderStore):
            for digest, tree in self._store.registries().items():
                try:
                    versions[digest] = PrincipalRegistry(tree)
                except Exception:  # noqa: BLE001 - an unusable version is simply unknown
                    continue
        versions[self._file_registry.digest] = self._file_registry
        return versions

    def _load(self) -> None:
        if isinstance(self._store, FolderStore):
            self._store.clean_stray()
        read = self._journal.read()
        entries = read.entries
        first = entries[0] if entries else None
        genesis = first.get("entry_hash") if isinstance(first, dict) else None
        anchors: list[dict[str, Any]] = []
        try:
            at_path = self._witness.genesis_at(self._journal.path)
            record = self._witness.record(genesis) if isinstance(genesis, str) else None
        except WitnessError as exc:
            self._set_fault(f"WITNESS_UNREADABLE: {exc}")
            at_path = record = None
        if record is not None:
            anchors.append(record["head"])
        if at_path is not None and at_path["genesis_hash"] != genesis:
            # A journal was witnessed at this path with another first entry: rewritten or emptied.
            anchors.append({"seq": 0, "entry_hash": at_path["genesis_hash"]})
        witnessed = max((a["seq"] for a in anchors), default=-1)
        self._witness_state = {"status": "not_witnessed" if not anchors else "witnessed",
                               "witnessed": record["head"] if record else None}
        entries = self._cut_unacknowledged(read, witnessed)
        result, verifier = verify_with(entries, anchors, self._versions())
        self._seq = len(entries)
        last = entries[-1] if entries else None
        if isinstance(last, dict) and isinstance(last.get("entry_hash"), str):
            self._head = last["entry_hash"]
        self._genesis = genesis if isinstance(genesis, str) else None
        self._signatures = verifier.signatures
        if not result["valid"]:
            if result["reason"] == "JOURNAL_HEAD_MISMATCH":
                self._witness_state["status"] = "mismatch"
            self._set_fault(f"{result['reason']} at seq {result['first_bad_seq']}")
            self._load_revisions(None, {})
            return
        self._adopt_registry(verifier)
        self._journaled = set(verifier.replay.states())
        self._genesis_registry = verifier.genesis_registry
        if self._fault is None and entries:
            self._witness_now()
        self._load_revisions(verifier, _revision_digests(entries))
        if self._fault is None:
            self._settle_projections(entries)

    def _cut_unacknowledged(self, read: Any, witnessed: int) -> list[Any]:
        """Cut a torn last line, and the lines of an action whose last line never came.

        Only what lies beyond every witnessed head is cut: cutting a witnessed entry
        would hide tampering, so then the workspace opens read-only instead (10.3).
        """
        entries = list(read.entries)
        keep = len(entries)
        while keep > 0 and isinstance(entries[keep - 1], dict) and isinstance(
                entries[keep - 1].get("payload"), dict) and \
                entries[keep - 1]["payload"].get("continued") is True:
            keep -= 1
        if not read.torn_tail and keep == len(entries):
            return entries
        if witnessed >= keep or self._fault is not None:
            self._set_fault(f"JOURNAL_HEAD_MISMATCH at seq {keep}: a witnessed entry was cut "
                            "or left incomplete; this is not an interrupted append")
            self._witness_state["status"] = "mismatch"
            return entries
        self._journal.truncate(read.offsets[keep])
        log.warning("journal %s: cut %d bytes of an unacknowledged append", self._journal.path,
                    read.offsets[-1] + len(read.torn_tail) - read.offsets[keep])
        return entries[:keep]

    def _adopt_registry(self, verifier: JournalVerifier) -> None:
        """The registry in force is the journal's; principals.json must be that one (10.2)."""
        in_force = verifier.in_force
        if in_force is None or in_force == self._file_registry.digest:
            return
        versions = self._versions()
        if in_force in versions and self._file_registry.digest in verifier.history \
                and isinstance(self._store, FolderStore):
            # A registry change was journaled but principals.json not yet replaced: roll forward.
            self._registry = versions[in_force]
            atomic_write_json(self._store.folder / "principals.json",
                              {"principals": self._registry.raw})
            log.warning("workspace %s: principals.json rolled forward to the journaled registry",
                        self._store.folder)
            return
        if in_force in versions:
            self._registry = versions[in_force]
        self._set_fault(f"JOURNAL_REGISTRY_UNTRUSTED: the principal registry given "
                        f"({self._file_registry.digest}) is not the one the journal has in force "
                        f"({in_force}); a registry changes only through a registry_changed entry "
                        "signed by a human maintainer")

    def _load_revisions(self, verifier: JournalVerifier | None,
                        expected: dict[tuple[str, int], str]) -> None:
        store = self._store
        if isinstance(store, FolderStore) and verifier is not None and self._fault is None:
            for path in store.pending():
                self._settle_pending(store, path, expected)
        for raw in store.load_all():
            try:
                parsed = parse_dossier(raw)
            except DossierSchemaError as exc:
                self._set_fault(f"WORKSPACE_REVISION_INVALID: {exc}")
                continue
            m = parsed.model
            self._revs.setdefault(m.dossier_id, {})[m.revision] = parsed
        if verifier is None or not isinstance(store, FolderStore):
            return
        replayed = verifier.replay.states()
        for d, revs in self._revs.items():
            for r, p in revs.items():
                want = expected.get((d, r))
                if (d, r) not in replayed or (want is not None and want != json_digest(p.raw)) \
                        or p.model.state is not replayed[(d, r)]:
                    self._set_fault(f"JOURNAL_STATE_MISMATCH: revision {r} of {d!r} on disk is "
                                    "not what the journal says")
        missing = set(replayed) - {(d, r) for d, revs in self._revs.items() for r in revs}
        if missing:
            self._set_fault(f"JOURNAL_STATE_MISMATCH: {len(missing)} journaled revisions have "
                            "no revision file")

    def _settle_pending(self, store: FolderStore, path: Path,
                        expected: dict[tuple[str, int], str]) -> None:
        """Roll a staged revision forward when the journal holds it, else back (10.5)."""
        import json

        try:
            raw = json.loads(path.read_bytes())
            key = (raw["dossier_id"], raw["revision"])
            forward = expected.get(key) == json_digest(raw) and \
                path == store.pending_path(*key)
        except Exception:  # noqa: BLE001 - an unreadable staged file is rolled back
            forward, key = False, None
        if forward and key is not None:
            store.promote(*key)
            log.warning("workspace %s: rolled %s forward from the journal", store.folder, path.name)
        else:
            path.unlink(missing_ok=True)
            log.warning("workspace %s: rolled %s back (the journal does not hold it)",
                        store.folder, path.name)

    def _settle_projections(self, entries: list[Any]) -> None:
        """A projection staged but never journaled is dropped; a journaled one is published."""
        folder = self._projection_dir
        if folder is None or not folder.is_dir():
            return
        journaled = {e["payload"].get("projection_id") for e in entries
                     if e.get("kind") == "projection_published"}
        for path in folder.glob("*.pending.json"):
            pid = path.name[: -len(".pending.json")]
            if pid in journaled:
                path.replace(path.with_name(f"{pid}.json"))
            else:
                path.unlink(missing_ok=True)

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
        """Every complete journal entry, read from disk."""
        return self._journal.read().entries

    def journal_head(self) -> dict[str, Any] | None:
        """``{seq, entry_hash}`` of the last entry (save it as an anchor), or None."""
        return None if self._seq == 0 else {"seq": self._seq - 1, "entry_hash": self._head}

    def verify_journal(self, anchor: Any = None) -> dict[str, Any]:
        """Verify the journal on disk against the registry and the witnessed head (section 10)."""
        anchors: list[Any] = [anchor] if anchor is not None else []
        witnessed = self._witness_state.get("witnessed")
        if witnessed is not None:
            anchors.append(witnessed)
        return verify_with(self.journal_entries(), anchors, self._versions())[0]

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
            entry_signatures()'s list, "witness": witness_status()}``.
        """
        entries = self.journal_entries()
        witnessed = self._witness_state.get("witnessed")
        verdict, verifier = verify_with(entries, [witnessed] if witnessed else [],
                                        self._versions())
        return {"entries": entries, "verdict": verdict, "signatures": verifier.signatures,
                "witness": self.witness_status()}

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
        return {**self._witness_state, "head": self.journal_head(),
                "genesis_hash": self._genesis, "store": str(self._witness.folder)}

    def denial_log(self) -> list[dict[str, Any]]:
        """The ``operation_denied`` entries, oldest first."""
        return [e for e in self.journal_entries()
                if isinstance(e, dict) and e.get("kind") == "operation_denied"]

    def close(self) -> None:
        """Release the journal's writer lock."""
        self._journal.release()

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

    # -- who may write here ------------------------------------------------------------
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
                    "ACTOR_KEY_UNAVAILABLE", f"{pid!r} has no public key in principals.json, "
                    "so it cannot act in a workspace folder; create one with "
                    f"'aa-review keys create {pid}' and add it through a registry change")
            return None
        if pid in self._signers and self._signers[pid].public_key == principal.public_key:
            return self._signers[pid]
        try:
            signer = self._keys.signer(pid)
        except KeyStoreError as exc:
            raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", str(exc)) from None
        if signer is None:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE", f"the private key of {pid!r} is not on this machine "
                f"(key store {self._keys.folder}); {pid!r} cannot act here")
        if signer.public_key != principal.public_key:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE", f"the key of {pid!r} on this machine is not the one "
                "principals.json names for it")
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
        return self.journal_entries()[-1]

    def _build(self, now: datetime, fields: list[dict[str, Any]],
               revs: list[ParsedDossier]) -> list[dict[str, Any]]:
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
            if i < len(fields) - 1:
                payload["continued"] = True  # the action's last line is still to come
            if seq == 0:
                payload["journal_id"] = str(uuid.uuid4())  # a genesis hash of its own
            signer = self.signer_for(cause if actor.role is Role.SYSTEM_REDUCER and cause
                                     else actor)
            entry = make_entry(seq, prev, at, f.pop("kind"), actor=actor.actor(),
                               payload=payload, sign=signer.sign if signer else None, **f)
            problem = value_problem(entry)
            if problem is not None:  # never write a line that verification would reject
                raise JournalWriteError(f"JOURNAL_ENTRY_MALFORMED: the entry would be {problem}")
            out.append(entry)
            seq, prev = seq + 1, entry["entry_hash"]
        return out

    def _commit(self, now: datetime, revs: list[ParsedDossier],
                fields: list[dict[str, Any]]) -> str | None:
        """Stage revisions, append the action's entries (the commit point), then promote.

        Returns a fault reason, or None. The journal is the source of truth: a kill
        before the append leaves staged files that opening rolls back, a kill after it
        leaves staged files that opening rolls forward (spec 10.5).
        """
        if self._fault is not None:
            return f"JOURNAL_WRITE_FAILED: the workspace is read-only ({self._fault})"
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
            prefix = "JOURNAL_WRITE_FAILED" if isinstance(exc, JournalWriteError) else \
                "REVISION_WRITE_FAILED"
            return f"{prefix}: {exc}"
        if self._seq == 0:
            self._genesis = entries[0]["entry_hash"]
            self._genesis_registry = self._registry.digest
        self._seq += len(entries)
        self._head = entries[-1]["entry_hash"]
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


def _revision_digests(entries: list[Any]) -> dict[tuple[str, int], str]:
    """The revision content each journaled revision must have: its last entry's digest."""
    out: dict[tuple[str, int], str] = {}
    for e in entries:
        payload = e.get("payload") if isinstance(e, dict) else None
        if isinstance(payload, dict) and isinstance(payload.get("revision_digest"), str):
            out[(e["dossier_id"], e["revision"])] = payload["revision_digest"]
    return out
