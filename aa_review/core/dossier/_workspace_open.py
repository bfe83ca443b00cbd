"""Opening a workspace: witness, unacknowledged tail, verification, roll-forward (spec 10.3-10.5).

Nothing here raises for what the files hold: a problem becomes the workspace's
fault and the workspace opens read-only.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import DossierSchemaError
from aa_review.core.dossier._models_dossier import parse_dossier
from aa_review.core.dossier._principals import PrincipalRegistry
from aa_review.core.dossier._storage import FolderStore, atomic_write_json
from aa_review.core.dossier._verify import JournalVerifier, verify_with
from aa_review.core.dossier._witness import WitnessError
from aa_review.core.dossier._workspace_state import WorkspaceState

__all__ = ["OpeningMixin"]

log = logging.getLogger(__name__)


class OpeningMixin(WorkspaceState):
    """The start-up half of :class:`WorkspaceRecords` (it owns the attributes used here)."""

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
        self._witness_state = {
            "status": "not_witnessed" if not anchors else "witnessed",
            "witnessed": record["head"] if record else None,
        }
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
        while (
            keep > 0
            and isinstance(entries[keep - 1], dict)
            and isinstance(entries[keep - 1].get("payload"), dict)
            and entries[keep - 1]["payload"].get("continued") is True
        ):
            keep -= 1
        if not read.torn_tail and keep == len(entries):
            return entries
        if witnessed >= keep or self._fault is not None:
            self._set_fault(
                f"JOURNAL_HEAD_MISMATCH at seq {keep}: a witnessed entry was cut "
                "or left incomplete; this is not an interrupted append"
            )
            self._witness_state["status"] = "mismatch"
            return entries
        self._journal.truncate(read.offsets[keep])
        log.warning(
            "journal %s: cut %d bytes of an unacknowledged append",
            self._journal.path,
            read.offsets[-1] + len(read.torn_tail) - read.offsets[keep],
        )
        return entries[:keep]

    def _adopt_registry(self, verifier: JournalVerifier) -> None:
        """The registry in force is the journal's; principals.json must be that one (10.2)."""
        in_force = verifier.in_force
        if in_force is None or in_force == self._file_registry.digest:
            return
        versions = self._versions()
        if (
            in_force in versions
            and self._file_registry.digest in verifier.history
            and isinstance(self._store, FolderStore)
        ):
            # A registry change was journaled but principals.json not yet replaced: roll forward.
            self._registry = versions[in_force]
            atomic_write_json(
                self._store.folder / "principals.json", {"principals": self._registry.raw}
            )
            log.warning(
                "workspace %s: principals.json rolled forward to the journaled registry",
                self._store.folder,
            )
            return
        if in_force in versions:
            self._registry = versions[in_force]
        self._set_fault(
            f"JOURNAL_REGISTRY_UNTRUSTED: the principal registry given "
            f"({self._file_registry.digest}) is not the one the journal has in force "
            f"({in_force}); a registry changes only through a registry_changed entry "
            "signed by a human maintainer"
        )

    def _load_revisions(
        self, verifier: JournalVerifier | None, expected: dict[tuple[str, int], str]
    ) -> None:
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
                if (
                    (d, r) not in replayed
                    or (want is not None and want != json_digest(p.raw))
                    or p.model.state is not replayed[(d, r)]
                ):
                    self._set_fault(
                        f"JOURNAL_STATE_MISMATCH: revision {r} of {d!r} on disk is "
                        "not what the journal says"
                    )
        missing = set(replayed) - {(d, r) for d, revs in self._revs.items() for r in revs}
        if missing:
            self._set_fault(
                f"JOURNAL_STATE_MISMATCH: {len(missing)} journaled revisions have no revision file"
            )

    def _settle_pending(
        self, store: FolderStore, path: Path, expected: dict[tuple[str, int], str]
    ) -> None:
        """Roll a staged revision forward when the journal holds it, else back (10.5)."""
        try:
            raw = json.loads(path.read_bytes())
            key = (raw["dossier_id"], raw["revision"])
            forward = expected.get(key) == json_digest(raw) and path == store.pending_path(*key)
        except Exception:  # noqa: BLE001 - an unreadable staged file is rolled back
            forward, key = False, None
        if forward and key is not None:
            store.promote(*key)
            log.warning("workspace %s: rolled %s forward from the journal", store.folder, path.name)
        else:
            path.unlink(missing_ok=True)
            log.warning(
                "workspace %s: rolled %s back (the journal does not hold it)",
                store.folder,
                path.name,
            )

    def _settle_projections(self, entries: list[Any]) -> None:
        """A projection staged but never journaled is dropped; a journaled one is published."""
        folder = self._projection_dir
        if folder is None or not folder.is_dir():
            return
        journaled = {
            e["payload"].get("projection_id")
            for e in entries
            if e.get("kind") == "projection_published"
        }
        for path in folder.glob("*.pending.json"):
            pid = path.name[: -len(".pending.json")]
            if pid in journaled:
                path.replace(path.with_name(f"{pid}.json"))
            else:
                path.unlink(missing_ok=True)


def _revision_digests(entries: list[Any]) -> dict[tuple[str, int], str]:
    """The revision content each journaled revision must have: its last entry's digest."""
    out: dict[tuple[str, int], str] = {}
    for e in entries:
        payload = e.get("payload") if isinstance(e, dict) else None
        if isinstance(payload, dict) and isinstance(payload.get("revision_digest"), str):
            out[(e["dossier_id"], e["revision"])] = payload["revision_digest"]
    return out
