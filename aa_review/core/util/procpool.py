"""Work in spawned worker processes, finished in the calling thread, cancellable.

The loader, the audit's row pass and its file hashing all split work into jobs for
worker processes. Spawned (never forked: a GUI process has threads), results handed
to the caller in this thread as each job ends, the caller's ``cancelled()`` polled
while waiting. When workers cannot start (no ``__main__`` guard, no ``/dev/shm``)
the pool raises one of :data:`POOL_UNAVAILABLE`, and callers do the work here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import os
import queue
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = [
    "POOL_UNAVAILABLE",
    "spawn_pool",
    "spawn_context",
    "left_to_child",
    "drain",
    "run_in_processes",
    "set_worker_niceness",
    "start_tracker",
]

_niceness = 0


def set_worker_niceness(n: int) -> None:
    """Start this process's worker processes ``n`` steps nicer than it (POSIX).

    The window sets this: its workers then leave the processor to the GUI thread
    when they compete with it, so a busy machine does not freeze the window.
    """
    global _niceness
    _niceness = max(0, int(n))


class _NiceProcess(multiprocessing.context.SpawnProcess):
    """A spawned process made ``_nice`` steps nicer by its parent as soon as it exists.

    A worker that nices itself does so only once it has started its interpreter and
    imported what unpickling its first job needs: on two cores, the 60-100 ms of that
    start-up, per worker, took the processor from the window's GUI thread at equal
    priority just when a package was opening.
    """

    _nice = 0

    def start(self) -> None:
        super().start()
        if self._nice and self.pid:
            with contextlib.suppress(OSError):
                here = os.getpriority(os.PRIO_PROCESS, 0)  # this thread's: what it inherited
                os.setpriority(os.PRIO_PROCESS, self.pid, min(19, here + self._nice))


class _NiceContext(multiprocessing.context.SpawnContext):
    """The spawn context whose processes :class:`_NiceProcess` makes nicer."""

    def __init__(self, niceness: int) -> None:
        super().__init__()
        self.niceness = niceness

    def Process(self, *args: Any, **kwargs: Any) -> _NiceProcess:  # type: ignore[override]  # noqa: N802
        proc = _NiceProcess(*args, **kwargs)
        proc._nice = self.niceness
        return proc


def spawn_context(niceness: int | None = None) -> multiprocessing.context.SpawnContext:
    """The spawn context for worker processes ``niceness`` steps nicer than this thread
    (default: :func:`set_worker_niceness`'s), made so by this process the moment each
    starts (POSIX); without ``os.setpriority``, or at 0, the plain spawn context (a
    child then nices itself, see :func:`spawn_pool`)."""
    n = _niceness if niceness is None else max(0, int(niceness))
    if n and hasattr(os, "setpriority"):
        return _NiceContext(n)
    return multiprocessing.get_context("spawn")


def left_to_child(ctx: multiprocessing.context.SpawnContext, niceness: int) -> int:
    """How many steps nicer a process of ``ctx`` must still make itself: 0 when
    :func:`spawn_context` made it so as it started."""
    return 0 if isinstance(ctx, _NiceContext) else niceness


def start_tracker() -> None:
    """Start the helper process every spawned worker needs (multiprocessing's resource
    tracker) now, at an idle moment: otherwise the first spawn starts it, and its own
    interpreter start-up (50 ms of processor time) competes with the GUI thread just
    when a package is opening. Safe to call again; failures are left to the spawn."""
    from multiprocessing import resource_tracker

    with contextlib.suppress(OSError, RuntimeError):
        resource_tracker.ensure_running()


def _nice_then(niceness: int, init: Callable[..., Any] | None, args: tuple[Any, ...]) -> None:
    try:
        os.nice(niceness)
    except (AttributeError, OSError):  # not POSIX, or not allowed: run as we are
        pass
    if init is not None:
        init(*args)


T = TypeVar("T")

# What a process pool raises when its workers cannot start or died.
POOL_UNAVAILABLE: tuple[type[BaseException], ...] = (BrokenProcessPool, RuntimeError, OSError)


def spawn_pool(workers: int, **kwargs: Any) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (``kwargs`` go to the executor), each
    :func:`set_worker_niceness` steps nicer than this one from its start (where the
    system lets a parent renice its child; elsewhere each nices itself first thing)."""
    ctx = spawn_context()
    if _niceness and not isinstance(ctx, _NiceContext):
        kwargs = {
            **kwargs,
            "initializer": _nice_then,
            "initargs": (_niceness, kwargs.get("initializer"), kwargs.get("initargs", ())),
        }
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, **kwargs)


def drain(
    futures: Mapping[Future[T], int],
    finish: Callable[[int, T], None],
    cancelled: Callable[[], bool],
    on_cancel: Callable[[], BaseException],
    add: Callable[[], list[tuple[Future[T], int]]] | None = None,
) -> None:
    """Hand each result to ``finish(key, result)`` in this thread as its job ends.

    ``cancelled()`` is polled at least every 0.2 s; when true, pending jobs are
    cancelled and ``on_cancel()`` is raised. Finished jobs arrive through a queue, so
    the bookkeeping stays linear in the number of jobs. ``add`` returns jobs that
    ``finish`` submitted since it was last called.
    """
    done: queue.SimpleQueue[Future[T]] = queue.SimpleQueue()
    pending = dict(futures)
    for submitted in pending:
        submitted.add_done_callback(done.put)
    try:
        while pending:
            try:
                fut: Future[T] | None = done.get(timeout=0.2)
            except queue.Empty:
                fut = None
            if cancelled():
                raise on_cancel()
            if fut is None:
                continue
            finish(pending.pop(fut), fut.result())
            for new, key in add() if add is not None else ():
                pending[new] = key
                new.add_done_callback(done.put)
    except BaseException:
        for fut in pending:
            fut.cancel()
        raise


def run_in_processes(
    fn: Callable[..., T],
    jobs: Mapping[int, tuple[Any, ...]],
    finish: Callable[[int, T], None],
    cancelled: Callable[[], bool],
    on_cancel: Callable[[], BaseException],
    *,
    workers: int,
    meanwhile: Callable[[], None] | None = None,
    **pool_kwargs: Any,
) -> None:
    """``fn(*jobs[key])`` for every key in spawned worker processes; see :func:`drain`.

    ``meanwhile()`` runs here once every job is submitted, while the workers work (not
    polling ``cancelled``); the results are handed over after it. On cancellation the
    pool is shut down without waiting for a busy worker.
    """
    pool = spawn_pool(workers, **pool_kwargs)
    ok = False
    try:
        futures = {pool.submit(fn, *args): key for key, args in jobs.items()}
        if meanwhile is not None:
            meanwhile()
        drain(futures, finish, cancelled, on_cancel)
        ok = True
    finally:
        pool.shutdown(wait=ok, cancel_futures=True)
