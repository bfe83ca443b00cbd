"""Work off the GUI thread: package loading with progress, partial results and Cancel."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from aa_review.core.errors import AAReviewError
from aa_review.core.package import LoadCancelled, open_package

__all__ = ["PackageLoader", "AuditRunner", "synchronous"]

log = logging.getLogger(__name__)


def synchronous() -> bool:
    """Tests set AA_REVIEW_SYNCHRONOUS=1 to run work in the calling thread."""
    return os.environ.get("AA_REVIEW_SYNCHRONOUS") == "1"


class _Thread(QThread):
    def __init__(self, fn: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn

    def run(self) -> None:  # runs in the worker thread
        self._fn()


class PackageLoader(QObject):
    """Loads one package at a time in a worker thread.

    Signals are delivered in the GUI thread (queued connections).
    """

    progress = Signal(object)   # LoadProgress
    partial = Signal(object)    # RowIndex of the first rows
    loaded = Signal(object)     # Package
    failed = Signal(str, str)   # path, message
    cancelled = Signal(str)     # path

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: _Thread | None = None

    def is_running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def load(self, path: Path) -> None:
        self.cancel()
        self.wait()
        self._cancel = threading.Event()
        cancel = self._cancel

        def work() -> None:
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
                if not cancel.is_set():
                    self.loaded.emit(pkg)
                else:
                    self.cancelled.emit(str(path))

        if synchronous():
            work()
            return
        self._thread = _Thread(work, self)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, ms: int = 30000) -> None:
        if self._thread is not None:
            self._thread.wait(ms)
            self._thread = None


class AuditRunner(QObject):
    """Runs the core audit of an opened package in a worker thread."""

    progress = Signal(object)   # AuditProgress
    finished = Signal(object)   # AuditReport
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: _Thread | None = None

    def is_running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def run(self, pkg: Any) -> None:
        from aa_review.core.audits import AuditCancelled, audit_package

        self.cancel()
        self.wait()
        self._cancel = threading.Event()
        cancel = self._cancel

        def work() -> None:
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

        if synchronous():
            work()
            return
        self._thread = _Thread(work, self)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, ms: int = 60000) -> None:
        if self._thread is not None:
            self._thread.wait(ms)
            self._thread = None
