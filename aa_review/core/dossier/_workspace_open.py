"""Opening a workspace: witness, unacknowledged tail, verification, roll-forward (spec 10.3-10.5).

Nothing here raises for what the files hold: a problem becomes the workspace's
fault and the workspace opens read-only.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import DossierSchemaError
from aa_review.core.dossier._forks import Settled
from aa_review.core.dossier._journal import JournalFile, JournalRead
from aa_review.core.dossier._models_dossier import parse_dossier
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._storage import (
    FolderStore,
    WorkspaceFileError,
    atomic_write_json,
    fsync_dir,
    read_json_file,
)
from aa_review.core.dossier._verify import JournalVerifier, verify_read
from aa_review.core.dossier._witness import WitnessError

if TYPE_CHECKING:
    from aa_review.core.dossier._storage import MemoryStore
    from aa_review.core.dossier._workspace_journal import WorkspaceJournal
    from aa_review.core.dossier._workspace_records import RevisionsHeld
    from aa_review.core.dossier._workspace_registry import WorkspaceRegistry

__all__ = ["Opening"]

log = logging.getLogger(__name__)


class Opening:
    """Opening a workspace: the parts it fills from the journal, the registry and the store.

    Parameters
    ----------
    journal : WorkspaceJournal
        Read, verified and witnessed; its head, notes and fault are set here.
    registry : WorkspaceRegistry
        The registry given; the journal's is put in force.
    store : FolderStore or MemoryStore
        Revisions, registry versions and staged projections.
    records : RevisionsHeld
        Receives the revisions of the verified replay.
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

    def load(self) -> None:
        """Verify the journal and take in what it says (never raises for what files hold)."""
        # A workspace already read-only (a workspace file it could not use) writes nothing.
        if isinstance(self.store, FolderStore) and self.journal.fault is None:
            self.store.clean_stray()
        read = self.journal.file.read()
        for fault in read.faults:
            log.error("journal %s: %s", self.journal.file.path, fault)
        settled: Settled | None = read.settled
        entries = read.entries
        first = entries[0] if entries else None
        genesis = first.get("entry_hash") if isinstance(first, dict) else None
        anchors: list[dict[str, Any]] = []
        try:
            at_path = self.journal.witness.genesis_at(self.journal.file.path)
            record = self.journal.witness.record(genesis) if isinstance(genesis, str) else None
        except WitnessError as exc:
            self.journal.set_fault(f"WITNESS_UNREADABLE: {exc}")
            at_path = record = None
        if record is not None:
            anchors.append(record["head"])
        if at_path is not None and at_path["genesis_hash"] != genesis:
            # A journal was witnessed at this path with another first entry: rewritten or emptied.
            anchors.append({"seq": 0, "entry_hash": at_path["genesis_hash"]})
        witnessed = max((a["seq"] for a in anchors), default=-1)
        self.journal.witness_state = {
            "status": "not_witnessed" if not anchors else "witnessed",
            "witnessed": record["head"] if record else None,
        }
        prior = record["head"] if record else None
        if settled is None:  # a JSONL journal: an interrupted append may leave a tail
            entries = self._cut_unacknowledged(read, witnessed)
            read = JournalRead(entries, b"", [])
        versions = self.registry.versions(self.store)
        # A witnessed head on a not-applied branch is reached; every branch verified (10.6).
        result, verifier, branches = verify_read(read, anchors, versions)
        self.journal.seq = len(entries)
        last = entries[-1] if entries else None
        if isinstance(last, dict) and isinstance(last.get("entry_hash"), str):
            self.journal.head = last["entry_hash"]
        self.journal.genesis = genesis if isinstance(genesis, str) else None
        self.journal.signatures = verifier.signatures
        if not result["valid"]:
            if result["reason"] == "JOURNAL_HEAD_MISMATCH":
                self.journal.witness_state["status"] = "mismatch"
            where = f" ({result['file']})" if result.get("file") else ""
            self.journal.set_fault(f"{result['reason']} at seq {result['first_bad_seq']}{where}")
            # Only what the verified prefix says is shown (10.5), read-only.
            self._load_revisions(verifier, _revision_digests(entries[: verifier.count]))
            return
        if settled is not None:
            self._settle_forks(settled, versions, branches)
        self.journal.arrived = _arrivals(entries, prior, settled, verifier)
        self._adopt_registry(verifier)
        self.records.journaled = set(verifier.replay.states())
        self.journal.genesis_registry = verifier.genesis_registry
        if self.journal.fault is None and entries:
            self.journal.witness_now()
        self._load_revisions(verifier, _revision_digests(entries))
        if self.journal.fault is None:
            self._settle_projections(entries)

    def _settle_forks(
        self,
        settled: Settled,
        versions: dict[str, PrincipalRegistry],
        branches: dict[str, dict[str, Any]],
    ) -> None:
        """List every not-applied action (each verified in its own place, spec 10.6)."""
        resolved: dict[str, tuple[str, str, str | None]] = {}
        for e in settled.kept_entries():
            payload = e["payload"]
            for key, status in (("redoes", "redone"), ("withdraws", "withdrawn")):
                target = payload.get(key)
                if e["kind"] == "transition_refused":  # a redo the kept state refused
                    continue
                if isinstance(target, str) and target not in resolved:
                    resolved[target] = (status, e["entry_hash"], _author(e))
        listed: list[dict[str, Any]] = []
        for na in settled.not_applied:
            name = f"journal/{na.action.name}"
            signatures = branches.get(na.action.name, {}).get("signatures", [])
            first = na.action.first
            author = _author(first)
            status, by, resolver = resolved.get(first["entry_hash"], ("not_applied", None, None))
            if resolver != author:  # only its author redoes or withdraws an action
                status, by = "not_applied", None
            sig = next(
                (s for s in signatures if s["seq"] == first["seq"]),
                {"signer": None, "status": "unchecked"},
            )
            listed.append(
                {
                    "entry_hash": first["entry_hash"],
                    "file": name,
                    "seq": first["seq"],
                    "at": first["at"],
                    "kind": first["kind"],
                    "action": first["payload"].get("action"),
                    "dossier_id": first["dossier_id"],
                    "revision": first["revision"],
                    "author": author,
                    "role": first["actor"].get("role"),
                    "signer": sig["signer"],
                    "public_key": _public_key(versions, first, sig["signer"]),
                    "signature": sig["status"],
                    "entries": [dict(e) for e in na.action.entries],
                    "status": status,
                    "resolved_by": by,
                }
            )
        self.journal.not_applied = listed
        if listed:
            log.warning(
                "journal %s: %d action(s) of a concurrent branch are not applied (JOURNAL_FORKED)",
                self.journal.file.path,
                len(listed),
            )

    def _cut_unacknowledged(self, read: Any, witnessed: int) -> list[Any]:
        """Cut a torn last line, and the lines of an action whose last line never came.

        Only what lies beyond every witnessed head is cut: cutting a witnessed entry
        would hide tampering, so then the workspace opens read-only instead (10.3).
        """
        entries = list(read.entries)
        keep = len(entries)
        while (
            keep > 0
            and isinstance(entries[keep - 1], dict)
            and isinstance(entries[keep - 1].get("payload"), dict)
            and entries[keep - 1]["payload"].get("continued") is True
        ):
            keep -= 1
        if not read.torn_tail and keep == len(entries):
            return entries
        if witnessed >= keep or self.journal.fault is not None:
            self.journal.set_fault(
                f"JOURNAL_HEAD_MISMATCH at seq {keep}: a witnessed entry was cut "
                "or left incomplete; this is not an interrupted append"
            )
            self.journal.witness_state["status"] = "mismatch"
            return entries
        assert isinstance(self.journal.file, JournalFile)
        self.journal.file.truncate(read.offsets[keep])
        log.warning(
            "journal %s: cut %d bytes of an unacknowledged append",
            self.journal.file.path,
            read.offsets[-1] + len(read.torn_tail) - read.offsets[keep],
        )
        return entries[:keep]

    def _adopt_registry(self, verifier: JournalVerifier) -> None:
        """The registry in force is the journal's; principals.json must be that one (10.2)."""
        in_force = verifier.in_force
        if in_force is None or in_force == self.registry.given.digest:
            return
        versions = self.registry.versions(self.store)
        if (
            in_force in versions
            and self.registry.given.digest in verifier.history
            and isinstance(self.store, FolderStore)
            and self.journal.fault is None
        ):
            # A registry change was journaled but principals.json not yet replaced: roll forward.
            self.registry.in_force = versions[in_force]
            atomic_write_json(
                self.store.folder / "principals.json", {"principals": self.registry.in_force.raw}
            )
            log.warning(
                "workspace %s: principals.json rolled forward to the journaled registry",
                self.store.folder,
            )
            return
        if in_force in versions:
            self.registry.in_force = versions[in_force]
        self.journal.set_fault(
            f"JOURNAL_REGISTRY_UNTRUSTED: the principal registry given "
            f"({self.registry.given.digest}) is not the one the journal has in force "
            f"({in_force}); a registry changes only through a registry_changed entry "
            "signed by a human maintainer"
        )

    def _load_revisions(
        self, verifier: JournalVerifier | None, expected: dict[tuple[str, int], str]
    ) -> None:
        """The revisions of the verified replay, each the content its journal entry names."""
        store = self.store
        if verifier is None or not isinstance(store, FolderStore):
            return
        for (d, r), state in sorted(verifier.replay.states().items()):
            digest = expected.get((d, r))
            if digest is None:
                self.journal.set_fault(
                    f"JOURNAL_STATE_MISMATCH: the journal names no content for revision {r} "
                    f"of {d!r}"
                )
                continue
            try:
                raw = store.load_revision(d, digest)
                parsed = parse_dossier(raw)
            except WorkspaceFileError as exc:
                self.journal.set_fault(exc.fault)
                continue
            except DossierSchemaError as exc:
                self.journal.set_fault(f"WORKSPACE_REVISION_INVALID: {exc}")
                continue
            m = parsed.model
            if (m.dossier_id, m.revision) != (d, r) or m.state is not state:
                self.journal.set_fault(
                    f"JOURNAL_STATE_MISMATCH: {store.rel(store.revision_file(d, digest))} is "
                    f"not revision {r} of {d!r} as the journal replays it"
                )
                continue
            self.records.hold(parsed, journaled=False)

    def _settle_projections(self, entries: list[Any]) -> None:
        """A staged projection is published only when it is the one its entry records (10.5).

        Anything else staged -- never journaled, or not the content the journal's
        ``projection_digest`` names -- is discarded and named in ``open_notes``.
        """
        folder = self.store.projection_dir
        if folder is None or folder.is_symlink() or not folder.is_dir():
            return
        journaled = {
            e["payload"].get("projection_id"): e["payload"].get("projection_digest")
            for e in entries
            if e.get("kind") == "projection_published"
        }
        for path in sorted(folder.glob("*.pending.json")):
            pid = path.name[: -len(".pending.json")]
            target = path.with_name(f"{pid}.json")
            want = journaled.get(pid)
            publish = False
            if isinstance(want, str) and not os.path.lexists(target):
                try:
                    publish = json_digest(read_json_file(folder, path.name)) == want
                except WorkspaceFileError:
                    publish = False
            if publish:
                path.replace(target)
                fsync_dir(folder)
                log.warning("workspace: published %s from the journal", target.name)
                continue
            path.unlink(missing_ok=True)
            if pid in journaled:
                note = (
                    f"JOURNAL_ENTRY_MALFORMED: projections/{path.name} is not the projection "
                    "its journal entry records; discarded, not published"
                )
                self.journal.open_notes.append(note)
                log.error("workspace: %s", note)


def _author(e: dict[str, Any]) -> str | None:
    """Who acted: the actor, or for the reducer the principal who caused it."""
    actor = e["actor"].get("principal_id")
    if actor == "aa-review/system-reducer" or e["actor"].get("role") == "system_reducer":
        cause = e["payload"].get("caused_by")
        return cause if isinstance(cause, str) else actor
    return actor if isinstance(actor, str) else None


def _public_key(
    versions: dict[str, PrincipalRegistry], e: dict[str, Any], signer: str | None
) -> str | None:
    registry = versions.get(e["payload"].get("registry_digest"))
    principal = registry.get(signer) if registry is not None and signer else None
    return principal.public_key if principal is not None else None


def _arrivals(
    entries: list[Any],
    prior: dict[str, Any] | None,
    settled: Settled | None,
    verifier: JournalVerifier,
) -> list[dict[str, Any]]:
    """The kept entries beyond the head this user witnessed before this opening.

    A witnessed head on a not-applied branch: what arrived starts where that branch
    left the kept one. Never witnessed: every entry is new to this user.
    """
    start = 0
    if prior is not None:
        seq, digest = prior["seq"], prior["entry_hash"]
        if seq < len(entries) and entries[seq].get("entry_hash") == digest:
            start = seq + 1
        elif settled is not None:
            kept = {a.name for a in settled.kept}
            for na in settled.not_applied:
                if any(e.get("entry_hash") == digest for e in na.action.entries):
                    start = next(a for a in na.ancestry if a.name not in kept).first["seq"]
                    break
    signers = {s["seq"]: s for s in verifier.signatures}
    registries = verifier.registries or {}
    out = []
    for e in entries[start:]:
        sig = signers.get(e["seq"], {"signer": None, "status": "unchecked"})
        out.append(
            {
                "seq": e["seq"],
                "entry_hash": e["entry_hash"],
                "at": e["at"],
                "kind": e["kind"],
                "action": e["payload"].get("action"),
                "dossier_id": e["dossier_id"],
                "revision": e["revision"],
                "actor": e["actor"].get("principal_id"),
                "role": e["actor"].get("role"),
                "signer": sig["signer"],
                "public_key": _public_key(dict(registries), e, sig["signer"]),
                "signature": sig["status"],
            }
        )
    return out


def _revision_digests(entries: list[Any]) -> dict[tuple[str, int], str]:
    """The revision content each journaled revision must have: its last entry's digest."""
    out: dict[tuple[str, int], str] = {}
    for e in entries:
        payload = e.get("payload") if isinstance(e, dict) else None
        if isinstance(payload, dict) and isinstance(payload.get("revision_digest"), str):
            out[(e["dossier_id"], e["revision"])] = payload["revision_digest"]
    return out
