"""One worker thread for the dossier panel: every workspace call runs there, in order.

The workspace is not thread-safe and its work (hashing a bound package, the gates'
power simulation, the journal's verification, signing) can take seconds; so the
panel hands every call to this worker, one after the other, and the GUI thread
only words the results. Tests set ``AA_REVIEW_SYNCHRONOUS=1``: jobs then run at
once in the calling thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from aa_review.qt.workers import synchronous

__all__ = ["DossierWorker", "WorkerRunner"]

log = logging.getLogger(__name__)


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


class DossierWorker(QObject):
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
                log.exception("dossier job %r failed", token)
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


class WorkerRunner:
    """The :class:`~aa_review.core.session.dossier_session.DossierRunner` of the window:
    the dossier session's jobs, run by a :class:`DossierWorker` in order, each with its
    callbacks as the job's token."""

    def __init__(self, worker: DossierWorker) -> None:
        self.worker = worker
        worker.done.connect(lambda token, result: token[0](result))
        worker.failed.connect(lambda token, message: token[1](message))

    def submit(
        self, fn: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        self.worker.submit((done, failed), fn)

    def stop(self) -> None:
        self.worker.stop()
