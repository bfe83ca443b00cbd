"""Work off the GUI thread, the window's one mechanism for it: results come back on the GUI thread.

In the style of superqt's ``thread_worker``: a job is a plain function of a
:class:`Job` (``cancelled()``, ``progress(value)``); the runner calls it in a thread
and hands its result, its progress, its failure or its cancellation back to
callbacks that run on the GUI thread. A new job on a lane supersedes the one
before: that one is asked to stop and whatever it returns is dropped, so the
window never waits for it.

:class:`SerialWorker` is the same mechanism for work that must not overlap (the
dossier workspace is not thread-safe): one thread, its jobs run in the order given,
each result delivered before the worker stops counting as busy. Both honour
``AA_REVIEW_SYNCHRONOUS=1`` (tests: run at once in the calling thread). Why ours and
not superqt's ``thread_worker``: docs/decisions.md, "Work off the GUI thread".
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from aa_review.core.session import Cancelled

__all__ = ["SerialRunner", "SerialWorker", "ThreadRunner", "synchronous"]

log = logging.getLogger(__name__)


def synchronous() -> bool:
    """Tests set AA_REVIEW_SYNCHRONOUS=1 to run work in the calling thread."""
    return os.environ.get("AA_REVIEW_SYNCHRONOUS") == "1"


@dataclass
class _Job:
    """One job: its stop flag, and whether the runner still wants its results."""

    lane: str
    post: Callable[[Callable[[], object]], object]
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    on_progress: Callable[[Any], None] | None = None
    current: bool = True

    def cancelled(self) -> bool:
        return self.stop.is_set()

    def progress(self, value: Any) -> None:
        if self.on_progress is not None and self.current:
            cb = self.on_progress
            self.post(lambda: cb(value) if self.current else None)


class ThreadRunner(QObject):
    """Runs jobs in daemon threads, one lane at a time each (see the module docstring)."""

    _deliver = Signal(object)  # a callable, run on the GUI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: dict[str, _Job] = {}
        self._closed = False  # shut down: the window is going, no new work, nothing said
        self._deliver.connect(self._run_callback)

    def _post(self, fn: Callable[[], object]) -> None:
        try:
            self._deliver.emit(fn)
        except RuntimeError:  # the window is gone: nobody wants the result
            pass

    @staticmethod
    def _run_callback(fn: Callable[[], object]) -> None:
        fn()

    def run(
        self,
        lane: str,
        work: Callable[[Any], Any],
        *,
        done: Callable[[Any], object],
        failed: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        cancelled: Callable[[], None] | None = None,
    ) -> None:
        """Run ``work(job)`` on ``lane``; then ``done(result)``, ``failed(exc)`` or
        ``cancelled()`` on the GUI thread (``progress(value)`` meanwhile). After
        :meth:`shutdown` nothing runs."""
        self.cancel(lane)
        if self._closed:
            return
        job = _Job(lane, self._post if not synchronous() else lambda fn: fn(), on_progress=progress)
        self._jobs[lane] = job

        def finish(fn: Callable[[], object]) -> None:
            if job.current:
                job.current = False
                if self._jobs.get(lane) is job:
                    del self._jobs[lane]
                fn()

        def body() -> None:
            try:
                result = work(job)
            except Cancelled:
                outcome: Callable[[], object] = cancelled or (lambda: None)
            except BaseException as exc:  # the window stays up; the callback says what failed
                if not job.current:  # dropped (superseded, or the window closed): unwanted
                    log.debug("%s job failed after it was dropped", lane, exc_info=exc)
                elif failed is None:
                    log.error("%s job failed", lane, exc_info=exc)
                outcome = partial(failed, exc) if failed else (lambda: None)
            else:
                if job.stop.is_set():
                    outcome = cancelled or (lambda: None)
                else:
                    outcome = lambda: done(result)  # noqa: E731
            job.post(lambda: finish(outcome))

        if synchronous():
            body()
            return
        job.thread = threading.Thread(target=body, name=f"aa-review-{lane}", daemon=True)
        job.thread.start()

    def stop(self, lane: str) -> None:
        """Ask the job on ``lane`` to stop; it reports ``cancelled()`` once it has."""
        job = self._jobs.get(lane)
        if job is not None:
            job.stop.set()

    def cancel(self, lane: str) -> None:
        """Ask the job on ``lane`` to stop and drop its results (no callback runs)."""
        job = self._jobs.pop(lane, None)
        if job is not None:
            job.stop.set()
            job.current = False

    def is_running(self, lane: str) -> bool:
        return lane in self._jobs

    def shutdown(self, wait_s: float = 30.0, lanes: tuple[str, ...] = ()) -> None:
        """Stop every job; wait up to ``wait_s`` for those on ``lanes`` (they hold worker
        processes or files) to end. No job starts after this."""
        self._closed = True
        jobs = list(self._jobs.values())
        for job in jobs:
            self.cancel(job.lane)
        for job in jobs:
            if job.lane in lanes and job.thread is not None:
                job.thread.join(wait_s)


class _Loop(QThread):
    """Runs queued jobs until it is handed None."""

    def __init__(
        self, jobs: queue.Queue[Callable[[], None] | None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._jobs = jobs

    def run(self) -> None:  # the worker thread
        while True:
            job = self._jobs.get()
            if job is None:
                return
            job()


class SerialWorker(QObject):
    """Queue of jobs run in order off the GUI thread; results come back as signals.

    ``done(token, result)`` and ``failed(token, message)`` are delivered in the GUI
    thread. :attr:`busy` is true from :meth:`submit` until the last job's signal
    has been delivered.
    """

    done = Signal(object, object)
    failed = Signal(object, str)
    busy_changed = Signal(bool)
    # From the worker thread, one queued delivery per job: done or failed is emitted
    # from it in the GUI thread, and only then does the job stop counting as pending
    # (two separate queued slots could let busy clear before the result is taken).
    _delivered = Signal(object, bool, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._loop: _Loop | None = None
        self._pending = 0
        self._idle = threading.Event()
        self._idle.set()
        self._delivered.connect(self._deliver)

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def submit(self, token: Any, fn: Callable[[], Any]) -> None:
        """Run ``fn()`` after every job submitted before it; its result comes as ``done``."""
        self._pending += 1
        self._idle.clear()
        if self._pending == 1:
            self.busy_changed.emit(True)

        def job() -> None:
            try:
                result = fn()
            except Exception as exc:  # the window stays up; the log has the traceback
                log.exception("job %r failed", token)
                self._delivered.emit(token, False, f"{type(exc).__name__}: {exc}")
            else:
                self._delivered.emit(token, True, result)

        if synchronous():
            job()
            return
        if self._loop is None or not self._loop.isRunning():
            self._loop = _Loop(self._jobs, self)
            self._loop.start()
        self._jobs.put(job)

    def _deliver(self, token: Any, ok: bool, payload: Any) -> None:
        try:
            if ok:
                self.done.emit(token, payload)
            else:
                self.failed.emit(token, payload)
        finally:
            self._finished()

    def _finished(self) -> None:
        self._pending -= 1
        if self._pending == 0:
            self._idle.set()
            self.busy_changed.emit(False)

    def wait_idle(self, timeout: float = 600.0) -> bool:
        """Block until every job submitted so far has run (for closing a workspace)."""
        if synchronous() or self._loop is None:
            return True
        done = threading.Event()
        self._jobs.put(done.set)
        return done.wait(timeout)

    def stop(self) -> None:
        """Finish the queued jobs and end the thread."""
        if self._loop is not None and self._loop.isRunning():
            self._jobs.put(None)
            self._loop.wait(600_000)
        self._loop = None


class SerialRunner:
    """The :class:`~aa_review.core.session.dossier_session.DossierRunner` of the window:
    the dossier session's jobs, run by a :class:`SerialWorker` in order, each with its
    callbacks as the job's token."""

    def __init__(self, worker: SerialWorker) -> None:
        self.worker = worker
        worker.done.connect(lambda token, result: token[0](result))
        worker.failed.connect(lambda token, message: token[1](message))

    def submit(
        self, fn: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        self.worker.submit((done, failed), fn)

    def stop(self) -> None:
        self.worker.stop()
