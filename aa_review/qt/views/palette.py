"""CommandPalette (Ctrl+Shift+P): every action, and "go to" a row, evidence item or finding.

Every action of the window is offered: those of the menus (submenus too: Open Recent,
Theme, the View menu's docks), the window's own (keys without a menu) and the extra
commands a caller adds (the dossier's buttons), each with its key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QDialog, QLineEdit, QListView, QMenu, QMenuBar, QVBoxLayout, QWidget

__all__ = ["CommandPalette", "PaletteEntry", "action_entries"]


@dataclass(frozen=True)
class PaletteEntry:
    label: str
    run: Callable[[], object]
    enabled: Callable[[], bool] | None = None  # None: always offered


def _label(a: QAction, menu: str = "") -> str:
    text = a.text().replace("&", "")
    if a.isCheckable():
        text = f"{text} ({'on' if a.isChecked() else 'off'})"
    if menu:
        text = f"{menu}: {text}"
    keys = a.shortcut().toString()
    return f"{text}    {keys}" if keys else text


def action_entries(menubar: QMenuBar | None, actions: list[QAction]) -> list[PaletteEntry]:
    """One entry per action of the menu bar (walking submenus) and of ``actions`` (those no
    menu holds), each labelled with its key; an action of a submenu, or one that is
    switched on and off, is named with its menu ("Theme: Dark", "View: Facets (on)")."""
    out: list[PaletteEntry] = []
    seen: set[int] = set()

    def add(a: QAction, menu: str) -> None:
        if id(a) in seen or a.isSeparator() or not a.text() or a.menu() is not None:
            return
        seen.add(id(a))
        out.append(PaletteEntry(_label(a, menu), a.trigger, a.isEnabled))

    def walk(menu: QMenu, path: str, top: bool) -> None:
        for a in menu.actions():
            sub = a.menu()
            if isinstance(sub, QMenu):
                walk(sub, sub.title().replace("&", ""), False)
            else:
                add(a, "" if top and not a.isCheckable() else path)

    if menubar is not None:
        for a in menubar.actions():
            sub = a.menu()
            if isinstance(sub, QMenu):
                walk(sub, sub.title().replace("&", ""), True)
    for a in actions:
        if a.isVisible():
            add(a, "")
    return out


class CommandPalette(QDialog):
    """Type to narrow the list; Enter runs the highlighted entry.

    ``go_to(text)`` offers extra entries for what was typed (ids), so a pasted
    row or evidence id jumps straight to it.
    """

    def __init__(
        self,
        parent: QWidget,
        actions: list[QAction] | list[PaletteEntry],
        go_to: Callable[[str], list[PaletteEntry]],
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Command palette")
        self.setModal(True)
        self.resize(620, 420)
        self._commands = [
            a if isinstance(a, PaletteEntry) else PaletteEntry(_label(a), a.trigger, a.isEnabled)
            for a in actions
            if isinstance(a, PaletteEntry) or (a.text() and a.isVisible())
        ]
        self._go_to = go_to
        self.entries: list[PaletteEntry] = []
        lay = QVBoxLayout(self)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Type a command, or paste a row / evidence id…")
        self.model = QStringListModel(self)
        self.list = QListView()
        self.list.setModel(self.model)
        lay.addWidget(self.edit)
        lay.addWidget(self.list)
        self.edit.textChanged.connect(self._refresh)
        self.edit.returnPressed.connect(self.run_current)
        self.list.activated.connect(lambda _i: self.run_current())
        self.edit.installEventFilter(self)
        self._refresh("")

    def _refresh(self, text: str) -> None:
        base = [e for e in self._commands if e.enabled is None or e.enabled()]
        words = text.lower().split()
        scored = [
            (score, i, e)
            for i, e in enumerate(base)
            if (score := _score(e.label.lower(), words)) is not None
        ]
        scored.sort(key=lambda t: (t[0], t[1]))
        extra = self._go_to(text.strip()) if text.strip() else []
        self.entries = extra + [e for _s, _i, e in scored]
        self.model.setStringList([e.label for e in self.entries])
        if self.entries:
            self.list.setCurrentIndex(self.model.index(0, 0))

    def run_current(self) -> None:
        idx = self.list.currentIndex()
        if not idx.isValid():
            return
        entry = self.entries[idx.row()]
        self.accept()
        entry.run()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if (
            isinstance(event, QKeyEvent)
            and event.type() == QKeyEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up)
        ):
            row = self.list.currentIndex().row() + (1 if event.key() == Qt.Key.Key_Down else -1)
            if 0 <= row < self.model.rowCount():
                self.list.setCurrentIndex(self.model.index(row, 0))
            return True
        return super().eventFilter(obj, event)


def _score(label: str, words: list[str]) -> int | None:
    """None when a word is missing; lower is better: labels starting with the text first."""
    if not all(w in label for w in words):
        return None
    if not words:
        return 1
    phrase = " ".join(words)
    if label.startswith(phrase):
        return 0
    return 1 if any(part.startswith(words[0]) for part in label.split()) else 2
