"""Atomic file writes: a temporary file beside the target, fsync, rename, fsync the folder."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["atomic_write", "current_umask", "fsync_dir"]

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's file-creation mask, read without changing it where the OS allows.

    Linux reports it in ``/proc/self/status``; elsewhere it is read by setting and
    restoring it (under a lock, so two threads of this program never race on it).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, write: Callable[[Any], None], mode: str = "w") -> None:
    """Write ``path`` through ``write(fh)`` so that readers see the old file or the whole new one.

    A crash leaves at most a stray ``.<name>.*.tmp`` file; the target is never half written.
    The file gets the mode any new file would (``0666`` less the user's umask), not the
    ``0600`` of a temporary file: a folder shared by a group stays readable by the group.
    A file that must stay private is made so by its owner (the key store).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if os.name == "posix":
            os.fchmod(fd, 0o666 & ~current_umask())
        binary = "b" in mode
        with os.fdopen(
            fd, mode, newline=None if binary else "", encoding=None if binary else "utf-8"
        ) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
