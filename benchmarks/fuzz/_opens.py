"""Which files a process really opened: every descriptor's target, read from /proc.

``os.open`` with ``dir_fd`` names a file relative to a folder descriptor, so the
name alone does not say where it is; the descriptor does. The recorder wraps
``os.open``, ``builtins.open`` and ``io.open`` and, after each successful open, reads
the descriptor's target from ``/proc/self/fd``.
"""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["record_opens", "outside"]


def _target(fd: int) -> str | None:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


@contextmanager
def record_opens() -> Iterator[list[str]]:
    """Collect the real path of every file or folder opened in this process meanwhile."""
    seen: list[str] = []
    real_open, real_io_open, real_os_open = builtins.open, io.open, os.open

    def spy_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        fh = real_open(file, *args, **kwargs)
        try:
            target = _target(fh.fileno())
        except (OSError, ValueError, AttributeError):
            target = None
        if target is not None:
            seen.append(target)
        elif isinstance(file, (str, bytes, os.PathLike)):
            seen.append(os.path.realpath(file))
        return fh

    def spy_os_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        fd = real_os_open(path, *args, **kwargs)
        seen.append(_target(fd) or os.path.realpath(path))
        return fd

    builtins.open = spy_open
    io.open = spy_open
    os.open = spy_os_open
    try:
        yield seen
    finally:
        builtins.open, io.open, os.open = real_open, real_io_open, real_os_open


def outside(root: Path | str, paths: list[str], near: Path | str | None = None) -> list[str]:
    """The ``paths`` outside ``root`` (the root itself is inside); with ``near``, only
    those under ``near`` count (the interpreter opens its own modules elsewhere)."""
    inside = os.path.realpath(root)
    base = os.path.realpath(near) + os.sep if near is not None else ""
    return [
        p for p in paths if p != inside and not p.startswith(inside + os.sep) and p.startswith(base)
    ]
