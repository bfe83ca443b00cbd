"""Read buffers kept per thread for hashing files chunk by chunk."""

from __future__ import annotations

import threading

__all__ = ["CHUNK", "read_buffers"]

CHUNK = 1 << 20  # bytes read at a time when a file is hashed
_LOCAL = threading.local()


def read_buffers() -> tuple[bytearray, bytearray]:
    """This thread's two :data:`CHUNK`-byte read buffers, made on its first call.

    A new 1 MiB buffer per file is fresh memory from the system each time: its page
    faults cost a hashing worker more than the hashing itself on a package of hundreds
    of files of a few megabytes (measured: a third of the workers' CPU). Callers use
    the buffers only while they read one file and keep no reference to them.
    """
    bufs: tuple[bytearray, bytearray] | None = getattr(_LOCAL, "bufs", None)
    if bufs is None:
        bufs = _LOCAL.bufs = (bytearray(CHUNK), bytearray(CHUNK))
    return bufs
