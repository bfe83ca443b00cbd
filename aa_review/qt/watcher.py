"""Watchers that notice, debounced, when files the window shows change on disk: the open
package's (:class:`PackageWatcher`) and a dossier workspace's journal (:class:`DiskWatcher`
with the paths the workspace names)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.documents import DOC_PATHS
from aa_review.core.package.layout import EC_DIR, ROW_FILES

__all__ = ["DiskWatcher", "PackageWatcher"]


class DiskWatcher(QObject):
    """Watches some files and folders; emits ``changed`` once writes settle.

    Writers that replace files by renaming drop them from the watch list, so
    every path is added again whenever a change is seen.
    """

    changed = Signal()

    def __init__(self, parent: QObject | None = None, settle_ms: int = 800) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(settle_ms)
        self._timer.timeout.connect(self.changed.emit)
        self._watcher.fileChanged.connect(self._poke)
        self._watcher.directoryChanged.connect(self._poke)
        self._paths: list[str] = []
        self.enabled = True

    def watch_paths(self, paths: list[Path]) -> None:
        """Watch these paths: those that exist now (one made later is added when a change
        to another is seen)."""
        self.clear()
        self._paths = [str(p) for p in paths]
        self._rewatch()

    def retry(self) -> None:
        """Emit ``changed`` again once the settling time has passed (the change could not
        be taken now)."""
        self._timer.start()

    def clear(self) -> None:
        watched = self._watcher.files() + self._watcher.directories()
        if watched:
            self._watcher.removePaths(watched)
        self._paths = []

    def _rewatch(self) -> None:
        current = set(self._watcher.files() + self._watcher.directories())
        missing = [p for p in self._paths if p not in current and Path(p).exists()]
        if missing:
            self._watcher.addPaths(missing)

    def _poke(self, _path: str) -> None:
        self._rewatch()
        if self.enabled:
            self._timer.start()


class PackageWatcher(DiskWatcher):
    """Watches the files of a package that aa-review reads."""

    def watch(self, root: Path | None) -> None:
        if root is None:
            self.clear()
            return
        rels = [EC_DIR, MAP_PATH, *DOC_PATHS.values(), *(rel for rel, _ in ROW_FILES)]
        self.watch_paths([root / r for r in rels])
