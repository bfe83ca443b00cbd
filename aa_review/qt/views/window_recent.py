"""Recent packages, folders dropped on the window, and the saved layout."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent

__all__ = ["RecentMixin", "MAX_RECENT"]

MAX_RECENT = 10


class RecentMixin:
    """Remembered-state behaviour of :class:`MainWindow`."""

    def recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [str(v) for v in items if v]

    def _remember_recent(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self.refresh_recent_menu()

    def refresh_recent_menu(self) -> None:
        self.recent_menu.clear()
        for i, p in enumerate(self.recent()):
            act = self.recent_menu.addAction(f"&{i + 1} {p}" if i < 9 else p)
            act.triggered.connect(lambda _c=False, p=p: self.open_package(Path(p)))
        self.recent_menu.setEnabled(bool(self.recent()))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._dropped_dir(event.mimeData().urls()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        path = self._dropped_dir(event.mimeData().urls())
        if path is not None:
            event.acceptProposedAction()
            self.open_package(path)

    @staticmethod
    def _dropped_dir(urls: list[QUrl]) -> Path | None:
        for url in urls:
            if url.isLocalFile() and Path(url.toLocalFile()).is_dir():
                return Path(url.toLocalFile())
        return None

    def _restore_layout(self) -> None:
        geo = self.settings.value("window/geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        else:
            self.resize(1500, 950)
        state = self.settings.value("window/state")
        restored = isinstance(state, QByteArray) and self.restoreState(state,
                                                                       self.LAYOUT_VERSION)
        self._first_layout = not restored  # no saved layout: size the docks once shown

