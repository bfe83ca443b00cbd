"""Loading a package without the cyclic garbage collector's full passes over it.

A package loads as hundreds of thousands of small objects (the index's sets, ids,
parsed documents). While they are made, CPython's collector runs again and again,
and a full pass over everything alive takes over 100 ms on a 100,000-row package
with the interpreter lock held: in the window, whichever thread triggers it (the
loading thread, or the GUI thread painting) stops the other for that long. Almost
none of it is garbage: it is what the window keeps and shows.

:func:`paused` turns the collector off while its block runs (nested and from several
threads: on again when the last block ends, if it was on before) and, with
``freeze``, moves every object alive at the block's end into the permanent
generation (:func:`gc.freeze`), so no later pass scans them again. Reference counting
still frees what is dropped (a package closed for another); only cycles among frozen
objects wait, and the loaded data holds none that matter (docs/architecture.md).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused(*, freeze: bool = False) -> Iterator[None]:
    """Run the block with the cyclic collector off; ``freeze``: freeze what is alive
    when the block ends without an exception."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    ok = False
    try:
        yield
        ok = True
    finally:
        with _lock:
            if ok and freeze:
                gc.freeze()
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
