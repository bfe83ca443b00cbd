"""Work off the GUI thread: named lanes of jobs, their results delivered on the GUI thread.

In the style of superqt's ``thread_worker``: a job is a plain function of a
:class:`Job` (``cancelled()``, ``progress(value)``); the runner calls it in a thread
and hands its result, its progress, its failure or its cancellation back to
callbacks that run on the GUI thread. A new job on a lane supersedes the one
before: that one is asked to stop and whatever it returns is dropped, so the
window never waits for it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal

from aa_review.core.session import Cancelled

__all__ = ["ThreadRunner", "synchronous"]

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
