"""Atomic file writes: a temporary file beside the target, fsync, rename, fsync the folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["atomic_write", "fsync_dir"]


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
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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
