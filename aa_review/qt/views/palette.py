"""CommandPalette (Ctrl+Shift+P): every action, and "go to" a row, evidence item or finding."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QDialog, QLineEdit, QListView, QVBoxLayout, QWidget

__all__ = ["CommandPalette", "PaletteEntry"]


@dataclass(frozen=True)
class PaletteEntry:
    label: str
    run: Callable[[], object]


class CommandPalette(QDialog):
    """Type to narrow the list; Enter runs the highlighted entry.

    ``go_to(text)`` offers extra entries for what was typed (ids), so a pasted
    row or evidence id jumps straight to it.
    """

    def __init__(self, parent: QWidget, actions: list[QAction],
                 go_to: Callable[[str], list[PaletteEntry]]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Command palette")
        self.setModal(True)
        self.resize(620, 420)
        self._actions = [a for a in actions if a.text() and a.isVisible()]
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
        base = [PaletteEntry(self._label(a), a.trigger) for a in self._actions if a.isEnabled()]
        words = text.lower().split()
        scored = [(score, i, e) for i, e in enumerate(base)
                  if (score := _score(e.label.lower(), words)) is not None]
        scored.sort(key=lambda t: (t[0], t[1]))
        extra = self._go_to(text.strip()) if text.strip() else []
        self.entries = extra + [e for _s, _i, e in scored]
        self.model.setStringList([e.label for e in self.entries])
        if self.entries:
            self.list.setCurrentIndex(self.model.index(0, 0))

    @staticmethod
    def _label(a: QAction) -> str:
        text = a.text().replace("&", "")
        keys = a.shortcut().toString()
        return f"{text}    {keys}" if keys else text

    def run_current(self) -> None:
        idx = self.list.currentIndex()
        if not idx.isValid():
            return
        entry = self.entries[idx.row()]
        self.accept()
        entry.run()

    def eventFilter(self, obj: object, event: object) -> bool:  # noqa: N802
        if isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.KeyPress and \
                event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
            row = self.list.currentIndex().row() + (1 if event.key() == Qt.Key.Key_Down else -1)
            if 0 <= row < self.model.rowCount():
                self.list.setCurrentIndex(self.model.index(row, 0))
            return True
        return super().eventFilter(obj, event)  # type: ignore[arg-type]


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
