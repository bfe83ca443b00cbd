"""WelcomePage: what the window shows while no package is open.

Recent packages and dossier workspaces (path, when last opened, a missing one marked),
buttons to open a package, a workspace, a session or the demo, and where to drop a
folder. Nothing here opens anything itself: each choice calls the window's command.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

__all__ = ["WelcomePage", "RecentPlaces", "Recent"]

_KEY = "welcome/recent"
MAX_RECENT = 12


@dataclass(frozen=True)
class Recent:
    kind: str  # "package" or "workspace"
    path: str
    opened: str  # ISO 8601, UTC

    @property
    def missing(self) -> bool:
        return not Path(self.path).is_dir()


class RecentPlaces:
    """Recent packages and workspaces with when each was opened, in the settings file."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def items(self, kind: str | None = None) -> list[Recent]:
        raw = self.settings.value(_KEY, "[]")
        try:
            data = json.loads(str(raw))
        except ValueError:
            data = []
        out = [
            Recent(str(d.get("kind", "")), str(d.get("path", "")), str(d.get("opened", "")))
            for d in data
            if isinstance(d, dict) and d.get("path")
        ]
        return [r for r in out if kind is None or r.kind == kind]

    def add(self, kind: str, path: Path | str, when: datetime | None = None) -> None:
        path = str(Path(path))
        stamp = (when or datetime.now(UTC)).isoformat(timespec="seconds")
        rest = [r for r in self.items() if not (r.kind == kind and r.path == path)]
        mine = [Recent(kind, path, stamp)] + [r for r in rest if r.kind == kind]
        others = [r for r in rest if r.kind != kind]
        keep = mine[:MAX_RECENT] + others
        self.settings.setValue(_KEY, json.dumps([r.__dict__ for r in keep]))


def _when(iso: str) -> str:
    try:
        t = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    return t.astimezone().strftime("%Y-%m-%d %H:%M")


class WelcomePage(QWidget):
    """Shown in the centre while no package is open."""

    def __init__(
        self,
        places: RecentPlaces,
        open_package: Callable[[Path], object],
        open_workspace: Callable[[Path], object],
        commands: dict[str, Callable[[], object]],
    ) -> None:
        super().__init__()
        self.setObjectName("welcome")
        self.places = places
        self._open = {"package": open_package, "workspace": open_workspace}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(32, 24, 32, 24)
        title = QLabel(
            "<h2>aa-review</h2>Audit a compiled package, step through its readiness dossier."
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(title)
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for name, text in (
            ("package", "Open Package…"),
            ("workspace", "Open Dossier Workspace…"),
            ("session", "Open Session…"),
            ("demo", "Open the Demo"),
        ):
            if name in commands:
                b = QPushButton(text)
                b.clicked.connect(lambda _c=False, f=commands[name]: f())
                buttons.addWidget(b)
                self.buttons[name] = b
        buttons.addStretch(1)
        lay.addLayout(buttons)
        self.hint = QLabel("Or drop a package folder anywhere on this window.")
        self.hint.setObjectName("drop_hint")
        lay.addWidget(self.hint)
        grid = QGridLayout()
        self.lists: dict[str, QTreeWidget] = {}
        for col, (kind, heading) in enumerate(
            (("package", "Recent packages"), ("workspace", "Recent dossier workspaces"))
        ):
            grid.addWidget(QLabel(f"<b>{heading}</b>"), 0, col)
            tree = QTreeWidget()
            tree.setObjectName(f"recent_{kind}s")
            tree.setHeaderLabels(["Name", "Opened", "Path"])
            tree.setRootIsDecorated(False)
            tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
            tree.itemActivated.connect(lambda item, _c, k=kind: self.open_item(k, item))
            grid.addWidget(tree, 1, col)
            self.lists[kind] = tree
        lay.addLayout(grid, 1)
        self.refresh()

    def refresh(self) -> None:
        for kind, tree in self.lists.items():
            tree.clear()
            for r in self.places.items(kind):
                name = Path(r.path).name + ("  (missing)" if r.missing else "")
                item = QTreeWidgetItem([name, _when(r.opened), r.path])
                item.setData(0, Qt.ItemDataRole.UserRole, r.path)
                item.setToolTip(
                    0, r.path + ("\nnot found on this machine now" if r.missing else "")
                )
                if r.missing:
                    item.setDisabled(True)
                tree.addTopLevelItem(item)
            for c in range(2):
                tree.resizeColumnToContents(c)
            if tree.topLevelItemCount() == 0:
                empty = QTreeWidgetItem(["none yet", "", ""])
                empty.setDisabled(True)
                tree.addTopLevelItem(empty)
                empty.setFirstColumnSpanned(True)

    def open_item(self, kind: str, item: QTreeWidgetItem) -> None:
        path = item.data(0, Qt.ItemDataRole.UserRole)
        if path and not item.isDisabled():
            self._open[kind](Path(str(path)))
