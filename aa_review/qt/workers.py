"""Work off the GUI thread: package loading and auditing, with progress and Cancel."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from aa_review.core.util.errors import AAReviewError

__all__ = ["PackageLoader", "AuditRunner", "synchronous"]

log = logging.getLogger(__name__)


def synchronous() -> bool:
    """Tests set AA_REVIEW_SYNCHRONOUS=1 to run work in the calling thread."""
    return os.environ.get("AA_REVIEW_SYNCHRONOUS") == "1"


class _Thread(QThread):
    def __init__(self, fn: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn

    def run(self) -> None:  # runs in the worker thread
        self._fn()


class _Runner(QObject):
    """One job at a time in a worker thread; a new job cancels and waits for the last one.

    Subclasses emit their own signals from ``_work``; Qt delivers them in the GUI
    thread (queued connections).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: _Thread | None = None

    def is_running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def _start(self, work: Callable[[threading.Event], None]) -> None:
        self.cancel()
        self.wait()
        self._cancel = threading.Event()
        cancel = self._cancel
        if synchronous():
            work(cancel)
            return
        self._thread = _Thread(lambda: work(cancel), self)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, ms: int = 60000) -> None:
        if self._thread is not None:
            self._thread.wait(ms)
            self._thread = None


class PackageLoader(_Runner):
    """Loads one package at a time."""

    progress = Signal(object)   # LoadProgress
    partial = Signal(object)    # RowIndex of the first rows
    loaded = Signal(object)     # Package
    failed = Signal(str, str)   # path, message
    cancelled = Signal(str)     # path

    def load(self, path: Path) -> None:
        from aa_review.core.package import LoadCancelled, open_package

        def work(cancel: threading.Event) -> None:
            try:
                pkg = open_package(path, progress=self.progress.emit,
                                   on_partial=self.partial.emit, cancelled=cancel.is_set)
            except LoadCancelled:
                self.cancelled.emit(str(path))
            except AAReviewError as exc:
                self.failed.emit(str(path), str(exc))
            except OSError as exc:
                self.failed.emit(str(path), f"{path}: cannot be read ({exc})")
            except Exception as exc:  # keep the window alive; the log has the traceback
                log.exception("loading %s failed", path)
                self.failed.emit(str(path), f"{path}: unexpected error: {exc!r}")
            else:
                pkg.index.row_id_folded()  # warm the free-text search off the GUI thread
                if cancel.is_set():
                    self.cancelled.emit(str(path))
                else:
                    self.loaded.emit(pkg)

        self._start(work)


class AuditRunner(_Runner):
    """Runs the core audit of an opened package."""

    progress = Signal(object)   # AuditProgress
    finished = Signal(object)   # AuditReport
    failed = Signal(str)
    cancelled = Signal()

    def run(self, pkg: Any) -> None:
        from aa_review.core.audits import AuditCancelled, audit_package

        def work(cancel: threading.Event) -> None:
            try:
                report = audit_package(pkg, progress=self.progress.emit,
                                       cancelled=cancel.is_set)
            except AuditCancelled:
                self.cancelled.emit()
            except Exception as exc:  # the log has the traceback; the window stays up
                log.exception("audit of %s failed", getattr(pkg, "root", pkg))
                self.failed.emit(f"The audit could not finish: {exc}")
            else:
                self.finished.emit(report)

        self._start(work)
