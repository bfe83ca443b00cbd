"""The runner the window's controllers hand slow work to: lanes, jobs, callbacks.

One definition for every controller that runs work off the GUI thread (the window's
``WindowController`` and the :class:`~aa_review.core.session.CompareController`): the
window gives its thread runner, tests a synchronous one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Job", "Runner"]


class Job(Protocol):
    """What a job's work function is given: whether to stop, and a way to report."""

    def cancelled(self) -> bool: ...

    def progress(self, value: Any) -> None: ...


class Runner(Protocol):
    """Runs work off the GUI thread; every callback comes back on the GUI thread.

    ``stop`` asks a lane's job to stop (it then reports ``cancelled``); ``cancel`` also
    drops whatever it reports, as a new job on the same lane does.
    """

    def run(
        self,
        lane: str,
        work: Callable[[Job], Any],
        *,
        done: Callable[[Any], object],
        failed: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        cancelled: Callable[[], None] | None = None,
    ) -> None: ...

    def stop(self, lane: str) -> None: ...

    def cancel(self, lane: str) -> None: ...

    def is_running(self, lane: str) -> bool: ...
