"""Moving a workspace of the former layout (``journal.jsonl``, ``rev-N.json``) to the merge layout.

The former layout kept one append-only ``journal.jsonl`` and rewrote
``dossiers/<id>/rev-N.json`` in place: two clones that act on the same head get
a git conflict. On its first writable opening such a workspace is moved to the
layout of ``docs/dossier_workspace.md`` (one file per action under ``journal/``,
revisions named by their digest), atomically and without losing a byte:

1. the former journal is locked (a writer of the former version is kept out);
2. every ``rev-N.json`` and ``rev-N.pending.json`` is copied to
   ``revisions/<hex of its digest>.json`` (content-addressed: copying is harmless;
   the journal decides which one is used, a tampered file names no entry);
3. the complete actions of the journal are written to ``journal.migrating/``,
   one file each, which is then renamed to ``journal/`` (the commit point);
4. ``journal.jsonl`` is renamed to ``journal.jsonl.migrated`` and kept, with the
   former revision files, for whoever wants to compare.

A torn last line or an action whose last line never came is not moved: it stays
in ``journal.jsonl.migrated`` and, if a witnessed head lay in it, the opening
that follows reports ``JOURNAL_HEAD_MISMATCH`` as before. A kill at any instant
leaves either the former layout (migrated again on the next opening) or the new
one.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import canonical_json, json_digest
from aa_review.core.dossier._journal import JournalFile, action_file_name
from aa_review.core.dossier._storage import (
    MAX_REVISION_BYTES,
    FolderStore,
    atomic_write_json,
    fsync_dir,
    read_file,
)
from aa_review.core.dossier._witness import WitnessError, WitnessStore

__all__ = ["LEGACY_JOURNAL", "migrate_legacy"]

log = logging.getLogger(__name__)

LEGACY_JOURNAL = "journal.jsonl"


def _actions(entries: list[Any]) -> list[list[Any]]:
    """Group lines into actions: a line with ``payload.continued`` belongs with the next."""
    out: list[list[Any]] = []
    current: list[Any] = []
    for e in entries:
        current.append(e)
        payload = e.get("payload") if isinstance(e, dict) else None
        if not (isinstance(payload, dict) and payload.get("continued") is True):
            out.append(current)
            current = []
    return out  # an unfinished action (``current``) is left in the former journal


def _raw_line(e: Any) -> bytes:
    return canonical_json(e) + b"\n"


def migrate_legacy(folder: Path, witness: WitnessStore) -> bool:
    """Move a workspace of the former layout to one file per action; True when it did.

    Raises
    ------
    WorkspaceLockedError
        A writer of the former layout holds ``journal.jsonl``.
    OSError
        A file could not be written (nothing is committed then).
    """
    legacy = folder / LEGACY_JOURNAL
    target = folder / "journal"
    if os.path.lexists(target):
        if legacy.is_file() and not legacy.is_symlink():  # killed after the commit point
            os.replace(legacy, folder / f"{LEGACY_JOURNAL}.migrated")
            fsync_dir(folder)
        return False
    if legacy.is_symlink() or not legacy.is_file():
        return False
    journal = JournalFile(legacy)
    journal.lock()
    try:
        read = journal.read()
        store = FolderStore(folder)
        for path in store.legacy_revision_files():
            try:
                raw = json.loads(read_file(folder, store.rel(path), MAX_REVISION_BYTES))
                dossier_id = raw["dossier_id"]
            except (OSError, ValueError, TypeError, KeyError, RecursionError):
                log.warning("workspace %s: %s is not a revision; not moved", folder, path.name)
                continue
            if not isinstance(dossier_id, str):
                continue
            copy = store.revision_file(dossier_id, json_digest(raw))
            if not os.path.lexists(copy):
                atomic_write_json(copy, raw)
        staging = folder / "journal.migrating"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        for i, action in enumerate(_actions(read.entries)):
            first = action[0]
            fallback = f"{i:08d}-{i:064x}.jsonl"  # an action without a usable first entry
            if isinstance(first, dict) and all(isinstance(e, dict) for e in action):
                try:
                    name = action_file_name(first)
                except (KeyError, TypeError, ValueError):
                    name = fallback
                data = b"".join(_raw_line(e) for e in action)
            else:  # a malformed line stays malformed: verification names it
                name = fallback
                data = b"".join(
                    _raw_line(e) if isinstance(e, dict) else b"<malformed>\n" for e in action
                )
            with open(staging / name, "xb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        fsync_dir(staging)
        _carry_witness(witness, legacy, target)
        os.replace(staging, target)  # the commit point
        fsync_dir(folder)
        os.replace(legacy, folder / f"{LEGACY_JOURNAL}.migrated")
        fsync_dir(folder)
    finally:
        journal.release()
    log.warning("workspace %s: moved to one journal file per action", folder)
    return True


def _carry_witness(witness: WitnessStore, legacy: Path, target: Path) -> None:
    """Whatever genesis was witnessed at the former journal's path is witnessed at the new one."""
    try:
        at = witness.genesis_at(legacy)
    except WitnessError:
        return
    if at is None:
        return
    try:
        rec = witness.record(at["genesis_hash"])
        witness.witness(
            target, at["genesis_hash"], rec["registry_digest"] if rec else None, at["head"]
        )
    except Exception:  # noqa: BLE001 - the record stays at the old path
        log.warning("the witness of %s could not be carried to %s", legacy, target)
