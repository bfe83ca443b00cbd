"""Append-only, hash-chained, signed JSONL journal with one locked writer (spec 10, 10.2-10.5)."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import ZERO_DIGEST, canonical_json, json_digest
from aa_review.core.dossier._errors import (
    JournalConcurrentWriteError,
    JournalWriteError,
    WorkspaceError,
    WorkspaceLockedError,
)
from aa_review.core.dossier._forks import Action, settle
from aa_review.core.dossier._strict import MAX_LINE_BYTES, parse_line
from aa_review.core.package.safepath import read_beneath
from aa_review.core.util.atomic import atomic_write

__all__ = [
    "ACTION_FILE",
    "ENTRY_KINDS",
    "GENESIS_HASH",
    "action_file_name",
    "JournalFile",
    "JournalFolder",
    "JournalRead",
    "entry_hash",
    "is_journal_folder",
    "make_entry",
    "open_journal",
]

log = logging.getLogger(__name__)

GENESIS_HASH = ZERO_DIGEST
ENTRY_KINDS = frozenset(
    {
        "imported",
        "transition",
        "transition_refused",
        "signoff",
        "operation_denied",
        "projection_published",
        "registry_changed",
        "withdrawn",
    }
)
_UNHASHED = ("entry_hash", "signature")
# One file per action in a journal folder: the first entry's seq and the hex of its hash.
ACTION_FILE = re.compile(r"^([0-9]{8,16})-([0-9a-f]{64})\.jsonl$")
_MAX_ACTION_BYTES = 16 * MAX_LINE_BYTES
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def entry_hash(entry: dict[str, Any]) -> str:
    """Digest of the entry without its ``entry_hash`` and ``signature`` keys (spec 10.2)."""
    return json_digest({k: v for k, v in entry.items() if k not in _UNHASHED})


def make_entry(
    seq: int,
    prev_hash: str,
    at: str,
    kind: str,
    *,
    dossier_id: str | None,
    revision: int | None,
    actor: dict[str, str],
    from_state: str | None = None,
    to_state: str | None = None,
    payload: dict[str, Any] | None = None,
    sign: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """A complete journal entry with its ``entry_hash`` and, given ``sign``, its ``signature``.

    ``sign(entry_hash) -> "ed25519:<base64>"`` signs the UTF-8 bytes of the hash string.
    """
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown journal entry kind {kind!r}")
    entry: dict[str, Any] = {
        "seq": seq,
        "prev_hash": prev_hash,
        "at": at,
        "kind": kind,
        "dossier_id": dossier_id,
        "revision": revision,
        "actor": dict(actor),
        "from_state": from_state,
        "to_state": to_state,
        "payload": dict(payload or {}),
    }
    entry["entry_hash"] = entry_hash(entry)
    if sign is not None:
        entry["signature"] = sign(entry["entry_hash"])
    return entry


@dataclass(frozen=True)
class JournalRead:
    """What a journal file holds.

    Attributes
    ----------
    entries : list
        One item per complete line: the parsed entry, or a ``MalformedLine`` when the
        line is not strict canonical JSON (verification names it).
    torn_tail : bytes
        Bytes after the last newline: an append that a crash interrupted, or a
        line cut by someone (empty when the file ends cleanly).
    offsets : list of int
        Byte offset where each complete line starts, then the end of the last one.
    faults : list of str
        A journal folder's files that are not usable actions (unreadable, not a regular
        file, torn, extending no entry), each naming the file; empty for a JSONL file.
    settled : Settled or None
        A journal folder's actions sorted into the kept branch and the not-applied
        ones (spec 10.6); None for a JSONL file.
    """

    entries: list[Any]
    torn_tail: bytes
    offsets: list[int] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)
    settled: Any = None


def _split(data: bytes) -> JournalRead:
    *lines, tail = data.split(b"\n")
    offsets = [0]
    for raw in lines:
        offsets.append(offsets[-1] + len(raw) + 1)
    return JournalRead([parse_line(raw) for raw in lines], tail, offsets)


def _refuse_if(moved: str | None) -> None:
    """Refuse an append when the journal moved under its writer (``moved()``'s reason)."""
    if moved is not None:
        raise JournalConcurrentWriteError(moved)


class JournalFile:
    """The journal on disk, and (after :meth:`lock`) its single writer.

    A writer holds an exclusive ``flock`` on the journal file itself for as long
    as it is open, so a second writer -- in this process or another, whatever
    constructor it used -- is refused; deleting a side lock file changes nothing.
    Each append writes all lines of one action with a single ``O_APPEND`` write
    and fsyncs it, after checking that the file still ends where this writer
    left it (:class:`JournalConcurrentWriteError` otherwise).

    Parameters
    ----------
    path : Path
        The ``.jsonl`` file.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._end = 0
        self._last_line = b""

    # -- reading ------------------------------------------------------------------------
    def read(self) -> JournalRead:
        """Parse every complete line strictly; never raises for bad content, only for I/O."""
        if self._fd is not None:
            return _split(self._read_fd())
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return JournalRead([], b"", [0])
        return _split(data)

    def _read_fd(self) -> bytes:
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        chunks, pos = [], 0
        while pos < size:
            chunk = os.pread(self._fd, min(size - pos, 1 << 24), pos)
            if not chunk:
                break
            chunks.append(chunk)
            pos += len(chunk)
        return b"".join(chunks)

    # -- the writer's lock --------------------------------------------------------------
    @property
    def locked(self) -> bool:
        """Whether this object holds the writer's lock."""
        return self._fd is not None

    def lock(self) -> None:
        """Create the file if needed and take the exclusive writer's lock on it.

        Raises
        ------
        WorkspaceLockedError
            Another writer holds the journal.
        WorkspaceError
            The file cannot be opened or locked.
        """
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)  # less the umask
        except OSError as exc:
            raise WorkspaceError(str(self.path), f"cannot open the journal: {exc}") from None
        _lock_or_close(fd, self.path)
        self._fd = fd
        self.mark_end()

    def release(self) -> None:
        """Unlock and close; safe to call twice."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            _unlock_and_close(fd)

    def mark_end(self) -> None:
        """Remember where the file ends now: the next append checks it still ends there."""
        assert self._fd is not None
        self._end = os.fstat(self._fd).st_size
        self._last_line = b""
        if self._end:
            start = max(0, self._end - (1 << 21))
            tail = os.pread(self._fd, self._end - start, start)
            cut = tail.rfind(b"\n", 0, len(tail) - 1)
            self._last_line = tail[cut + 1 :]

    def truncate(self, size: int) -> None:
        """Cut the file to ``size`` bytes (an unacknowledged tail), durably."""
        assert self._fd is not None
        os.ftruncate(self._fd, size)
        os.fsync(self._fd)
        self.mark_end()

    def moved(self) -> str | None:
        """Why the file no longer ends where this writer left it (another writer
        appended, a ``git pull``, a replaced file), or None; None when not locked."""
        if self._fd is None:
            return None
        try:
            here = os.fstat(self._fd)
            named = os.stat(self.path)
        except OSError as exc:
            return f"the journal {self.path} is gone: {exc}"
        same_file = (here.st_dev, here.st_ino) == (named.st_dev, named.st_ino)
        tail = (
            os.pread(self._fd, len(self._last_line), self._end - len(self._last_line))
            if self._last_line
            else b""
        )
        if not same_file or here.st_size != self._end or tail != self._last_line:
            return (
                f"JOURNAL_CONCURRENT_WRITE: {self.path} no longer ends at this writer's head "
                "(another writer appended, or the file was replaced); nothing more is written"
            )
        return None

    def _check_tail(self) -> None:
        assert self._fd is not None
        _refuse_if(self.moved())

    # -- appending ----------------------------------------------------------------------
    def append(self, entries: dict[str, Any] | Sequence[dict[str, Any]]) -> None:
        """Durably append the entries of one action, as one write.

        Raises
        ------
        JournalConcurrentWriteError
            The file does not end at this writer's head; nothing was written.
        JournalWriteError
            The bytes could not be written and synced; any partial line is cut off again.
        """
        batch = [entries] if isinstance(entries, dict) else list(entries)
        lines = [canonical_json(e) + b"\n" for e in batch]
        if self._fd is None:
            self.lock()
            try:
                self._write(lines)
            finally:
                self.release()
            return
        self._write(lines)

    def _write(self, lines: list[bytes]) -> None:
        assert self._fd is not None
        self._check_tail()
        data = b"".join(lines)
        created = self._end == 0
        try:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
        except OSError as exc:
            try:  # cut the partial lines so the chain stays readable
                os.ftruncate(self._fd, self._end)
                os.fsync(self._fd)
            except OSError:
                pass
            raise JournalWriteError(f"cannot append to journal {self.path}: {exc}") from exc
        self._end += len(data)
        self._last_line = lines[-1]
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


def action_file_name(first_entry: dict[str, Any]) -> str:
    """``<seq, 8 digits>-<hex of entry_hash>.jsonl``: the file of the action it starts."""
    return f"{first_entry['seq']:08d}-{str(first_entry['entry_hash']).split(':', 1)[-1]}.jsonl"


class JournalFolder:
    """A journal kept as one file per action (spec 10.5, 10.6): what git merges by itself.

    Each action (all entries of one user step) is one file, written atomically
    (temporary file, fsync, rename), never rewritten: an action lands whole or not
    at all, and two clones that act on the same head add two files with different
    names. :meth:`read` sorts the files into the kept branch and the not-applied
    ones (:func:`~aa_review.core.dossier._forks.settle`). The writer holds an
    exclusive ``flock`` on the folder's own descriptor, and before each append
    checks that the folder still holds exactly the action files it knows
    (:class:`JournalConcurrentWriteError` otherwise).

    Parameters
    ----------
    path : Path
        The ``journal/`` folder.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._known: set[str] = set()
        # Parsed action files by (inode, size, mtime, ctime): a changed file is read again.
        self._cache: dict[str, tuple[tuple[int, int, int, int], list[Any]]] = {}

    # -- reading ------------------------------------------------------------------------
    def _names(self) -> list[str]:
        try:
            with os.scandir(self.path) as it:
                return sorted(e.name for e in it if ACTION_FILE.fullmatch(e.name))
        except FileNotFoundError:
            return []

    def actions(self) -> tuple[list[Action], list[str]]:
        """Every action file, parsed strictly; and the files that could not be read.

        Files are opened as package files are (no symlink out of the folder, no FIFO
        or device, at most 16 MiB), so a planted special file never blocks a reader.
        """
        actions: list[Action] = []
        faults: list[str] = []
        root = str(self.path)
        real = os.path.realpath(root)
        seen: dict[str, tuple[int, int, int, int]] = {}
        try:
            with os.scandir(self.path) as it:
                for e in it:
                    if ACTION_FILE.fullmatch(e.name):
                        st = e.stat(follow_symlinks=False)
                        if stat.S_ISREG(st.st_mode):
                            seen[e.name] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except OSError:
            pass
        cache: dict[str, tuple[tuple[int, int, int, int], list[Any]]] = {}
        for name in self._names():
            hit = self._cache.get(name)
            if hit is not None and name in seen and hit[0] == seen[name]:
                # An action file is never rewritten: checked strictly once, then only
                # decoded again (every reader gets entries of its own).
                lines = hit[1]
                actions.append(
                    Action(name, [json.loads(x) if isinstance(x, bytes) else x for x in lines])
                )
                cache[name] = hit
                continue
            try:
                data = read_beneath(root, name, limit=_MAX_ACTION_BYTES, real_root=real)
            except OSError as exc:
                faults.append(f"WORKSPACE_FILE_UNSAFE: journal/{name}: {exc}")
                continue
            if not data.endswith(b"\n"):
                faults.append(f"JOURNAL_ENTRY_MALFORMED: journal/{name} is cut short")
                continue
            raw_lines = data[:-1].split(b"\n")
            parsed = [parse_line(raw) for raw in raw_lines]
            actions.append(Action(name, parsed))
            if name in seen:
                kept = [
                    raw if isinstance(e, dict) else e
                    for raw, e in zip(raw_lines, parsed, strict=True)
                ]
                cache[name] = (seen[name], kept)
        self._cache = cache
        return actions, faults

    def read(self) -> JournalRead:
        """The kept branch's entries, the not-applied actions, and what is unusable."""
        actions, faults = self.actions()
        settled = settle(actions)
        return JournalRead(settled.kept_entries(), b"", [], faults + settled.faults, settled)

    # -- the writer's lock --------------------------------------------------------------
    @property
    def locked(self) -> bool:
        """Whether this object holds the writer's lock."""
        return self._fd is not None

    def lock(self) -> None:
        """Create the folder if needed and take the exclusive writer's lock on it.

        Raises
        ------
        WorkspaceLockedError
            Another writer holds the journal.
        WorkspaceError
            The folder cannot be opened or locked.
        """
        if self._fd is not None:
            return
        try:
            self.path.mkdir(exist_ok=True)
            fd = os.open(self.path, _DIR_FLAGS | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            raise WorkspaceError(str(self.path), f"cannot open the journal: {exc}") from None
        _lock_or_close(fd, self.path)
        self._fd = fd
        self.mark_end()

    def release(self) -> None:
        """Unlock and close; safe to call twice."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            _unlock_and_close(fd)

    def mark_end(self) -> None:
        """Remember the action files there are now: the next append checks nothing came."""
        self._known = set(self._names())

    def moved(self) -> str | None:
        """Why the folder no longer holds exactly the action files this writer knows
        (another writer added one, a ``git pull``, a replaced folder), or None; None when
        not locked."""
        if self._fd is None:
            return None
        try:
            here = os.fstat(self._fd)
            named = os.stat(self.path, follow_symlinks=False)
        except OSError as exc:
            return f"the journal {self.path} is gone: {exc}"
        same = (here.st_dev, here.st_ino) == (named.st_dev, named.st_ino)
        if not same or set(self._names()) != self._known:
            return (
                f"JOURNAL_CONCURRENT_WRITE: {self.path} no longer holds this writer's head "
                "(another writer added an action, or the folder was replaced); nothing more "
                "is written until it is opened again"
            )
        return None

    def _check_tail(self) -> None:
        assert self._fd is not None
        _refuse_if(self.moved())

    # -- appending ----------------------------------------------------------------------
    def append(self, entries: dict[str, Any] | Sequence[dict[str, Any]]) -> None:
        """Durably add the entries of one action as one new file.

        Raises
        ------
        JournalConcurrentWriteError
            The folder changed under this writer; nothing was written.
        JournalWriteError
            The file could not be written and synced; nothing was added.
        """
        batch = [entries] if isinstance(entries, dict) else list(entries)
        data = b"".join(canonical_json(e) + b"\n" for e in batch)
        if self._fd is None:
            self.lock()
            try:
                self._write(batch[0], data)
            finally:
                self.release()
            return
        self._write(batch[0], data)

    def _write(self, first: dict[str, Any], data: bytes) -> None:
        self._check_tail()
        name = action_file_name(first)
        target = self.path / name
        if name in self._known or os.path.lexists(target):
            raise JournalConcurrentWriteError(
                f"JOURNAL_CONCURRENT_WRITE: {target} exists already; nothing is written"
            )
        try:
            atomic_write(target, lambda fh: fh.write(data), "wb")
        except OSError as exc:
            raise JournalWriteError(f"cannot append to journal {self.path}: {exc}") from exc
        self._known.add(name)


def is_journal_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a journal folder: named ``journal`` or holding action files."""
    p = Path(path)
    return p.is_dir() and (p.name == "journal" or bool(JournalFolder(p)._names()))


def open_journal(path: str | os.PathLike[str]) -> JournalFile | JournalFolder:
    """The journal at ``path``: a journal folder (one file per action) or a JSONL file."""
    p = Path(path)
    if p.is_dir():
        return JournalFolder(p)
    return JournalFile(p)


def _lock_or_close(fd: int, path: Path) -> None:
    """Take the writer's lock on the journal's descriptor (spec 10.5: an OS lock on the
    journal itself); on failure close ``fd`` and raise."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise WorkspaceLockedError(str(path.parent)) from None
    except OSError as exc:
        os.close(fd)
        raise WorkspaceError(str(path), f"cannot lock the journal: {exc}") from None


def _unlock_and_close(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
