"""Append-only, hash-chained JSONL journal; every append is one fsynced O_APPEND write (spec 10)."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import ZERO_DIGEST, canonical_json, json_digest
from aa_review.core.dossier._errors import JournalWriteError

__all__ = ["ENTRY_KINDS", "GENESIS_HASH", "JournalFile", "JournalRead", "entry_hash", "make_entry"]

log = logging.getLogger(__name__)

GENESIS_HASH = ZERO_DIGEST
ENTRY_KINDS = frozenset({"imported", "transition", "transition_refused", "signoff",
                         "operation_denied", "projection_published"})


def entry_hash(entry: dict[str, Any]) -> str:
    """Digest of the entry without its ``entry_hash`` key (canonical JSON)."""
    return json_digest({k: v for k, v in entry.items() if k != "entry_hash"})


def make_entry(
    seq: int, prev_hash: str, at: str, kind: str, *, dossier_id: str | None,
    revision: int | None, actor: dict[str, str], from_state: str | None = None,
    to_state: str | None = None, payload: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete journal entry with its ``entry_hash``."""
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown journal entry kind {kind!r}")
    entry: dict[str, Any] = {
        "seq": seq, "prev_hash": prev_hash, "at": at, "kind": kind,
        "dossier_id": dossier_id, "revision": revision, "actor": dict(actor),
        "from_state": from_state, "to_state": to_state, "payload": dict(payload or {}),
    }
    entry["entry_hash"] = entry_hash(entry)
    return entry


@dataclass(frozen=True)
class JournalRead:
    """What a journal file holds.

    Attributes
    ----------
    entries : list
        One item per complete line: the parsed object, or the raw text when the
        line is not JSON (verification then names it).
    torn_tail : bytes
        Bytes after the last newline: an append that a crash interrupted
        (empty when the file ends cleanly).
    """

    entries: list[Any]
    torn_tail: bytes


class JournalFile:
    """The journal on disk.

    An append writes ``canonical(entry) + "\\n"`` with a single ``O_APPEND`` write
    and fsyncs it. A crash mid-write can only leave a partial last line (a torn
    tail, with no newline); complete earlier lines are never rewritten.
    :meth:`repair_torn_tail` drops such a tail before the next append.

    Parameters
    ----------
    path : Path
        The ``.jsonl`` file; created on first append.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def read(self) -> JournalRead:
        """Parse every complete line; never raises for bad content, only for I/O."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return JournalRead([], b"")
        *lines, tail = data.split(b"\n")
        entries: list[Any] = []
        for raw in lines:
            try:
                entries.append(json.loads(raw.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError):
                entries.append(raw.decode("utf-8", errors="replace"))
        return JournalRead(entries, tail)

    def repair_torn_tail(self) -> int:
        """Truncate an interrupted last append; returns how many bytes were dropped."""
        read = self.read()
        if not read.torn_tail:
            return 0
        size = self.path.stat().st_size
        keep = size - len(read.torn_tail)
        with open(self.path, "r+b") as fh:
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
        log.warning("journal %s: dropped %d bytes of an interrupted append", self.path,
                    len(read.torn_tail))
        return len(read.torn_tail)

    def append(self, entry: dict[str, Any]) -> None:
        """Durably append one entry.

        Raises
        ------
        JournalWriteError
            The bytes could not be written and synced; any partial line is cut off again.
        """
        data = canonical_json(entry) + b"\n"
        created = not self.path.exists()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise JournalWriteError(f"cannot open journal {self.path}: {exc}") from exc
        start = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except OSError as exc:
            try:  # cut the partial line so the chain stays readable
                os.ftruncate(fd, start)
                os.fsync(fd)
            except OSError:
                pass
            raise JournalWriteError(f"cannot append to journal {self.path}: {exc}") from exc
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
