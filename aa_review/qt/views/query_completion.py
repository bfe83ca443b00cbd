"""Completion in a query bar: field names, operators and values proposed while typing.

The core's ``complete(scope, text, cursor)`` decides what may come next; this module
shows its suggestions in a list under the line edit and lets the keyboard drive it:
Up/Down move, Enter or Tab accept, Esc closes (Ctrl+Space opens it on demand). The
line edit keeps the focus throughout.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QListWidget, QListWidgetItem

from aa_review.core.query import Completion, complete
from aa_review.core.session import ReviewSession, Scope

__all__ = ["QueryCompleter", "session_completer"]

Completer = Callable[[str, int], Completion | None]
_VISIBLE_ITEMS = 10
_KEYS = (
    Qt.Key.Key_Escape,
    Qt.Key.Key_Return,
    Qt.Key.Key_Enter,
    Qt.Key.Key_Tab,
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_PageUp,
    Qt.Key.Key_PageDown,
)


def session_completer(session: ReviewSession, scope: Scope) -> Completer:
    """Completions for ``scope``'s query over the package the session holds now (values
    come from its data); None when nothing is open."""

    def run(text: str, cursor: int) -> Completion | None:
        state = session.findings
        if state is None:
            return None
        p = state.prepared
        target = (
            p.rows if scope is Scope.ROWS else p.evidence if scope is Scope.EVIDENCE else p.findings
        )
        return complete(target, text, cursor)

    return run


class QueryCompleter(QObject):
    """Shows ``completer``'s suggestions for ``edit`` as the user types."""

    def __init__(self, edit: QLineEdit, completer: Completer) -> None:
        super().__init__(edit)
        self.edit = edit
        self.completer = completer
        self.completion: Completion | None = None
        self.popup = QListWidget(edit)  # a window (flags below) placed relative to the bar
        self.popup.setObjectName("query_completions")
        # A tool tip window takes no focus: typing goes on in the line edit.
        self.popup.setWindowFlags(Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.popup.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.popup.setUniformItemSizes(True)
        self.popup.itemClicked.connect(lambda item: self.accept(self.popup.row(item)))
        edit.textEdited.connect(lambda _t: self.update())
        edit.installEventFilter(self)

    # -- showing ---------------------------------------------------------------------
    def update(self) -> None:
        """Propose what may come at the cursor (hidden when nothing fits)."""
        text, cursor = self.edit.text(), self.edit.cursorPosition()
        got = self.completer(text, cursor)
        items = got.items if got is not None else ()
        # Nothing to propose once the word typed is the one suggestion.
        if got is not None and len(items) == 1 and text[got.start : got.end] == items[0].text:
            items = ()
        if not items:
            self.close()
            return
        self.completion = got
        self.popup.clear()
        for s in items:
            item = QListWidgetItem(f"{s.label}    {s.detail}" if s.detail else s.label)
            item.setToolTip(s.detail)
            self.popup.addItem(item)
        self.popup.setCurrentRow(0)
        rows = min(len(items), _VISIBLE_ITEMS)
        height = self.popup.sizeHintForRow(0) * rows + 2 * self.popup.frameWidth() + 2
        width = max(self.edit.width() // 2, min(self.popup.sizeHintForColumn(0) + 30, 640))
        x = max(0, self.edit.cursorRect().left() - 12)
        self.popup.setGeometry(0, 0, width, height)
        self.popup.move(self.edit.mapToGlobal(QPoint(x, self.edit.height())))
        self.popup.show()

    def close(self) -> None:
        self.completion = None
        self.popup.hide()

    @property
    def open(self) -> bool:
        return self.popup.isVisible()

    def labels(self) -> list[str]:
        """The suggestions shown (their labels), for tests and accessibility."""
        if self.completion is None:
            return []
        return [s.label for s in self.completion.items]

    # -- accepting -------------------------------------------------------------------
    def accept(self, row: int | None = None) -> None:
        got = self.completion
        row = self.popup.currentRow() if row is None else row
        if got is None or not 0 <= row < len(got.items):
            self.close()
            return
        s = got.items[row]
        text = self.edit.text()
        new = text[: got.start] + s.text + text[got.end :]
        self.close()
        self.edit.setText(new)  # textChanged runs the query shortly, as typing does
        self.edit.setCursorPosition(got.start + len(s.text))
        if s.kind == "field" and s.text.endswith(":"):
            self.update()  # a field's values come next

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if obj is not self.edit:
            return False
        if event.type() == QEvent.Type.FocusOut:
            self.close()
            return False
        if event.type() == QEvent.Type.ShortcutOverride and self.open:
            # Esc cancels loading window-wide: while the list is open it closes the list.
            assert isinstance(event, QKeyEvent)
            if event.key() in _KEYS:
                event.accept()
                return True
            return False
        if event.type() != QEvent.Type.KeyPress:
            return False
        key = event  # a QKeyEvent
        assert isinstance(key, QKeyEvent)
        if key.key() == Qt.Key.Key_Space and key.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.update()
            return True
        if not self.open:
            return False
        k = key.key()
        if k in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
            n = self.popup.count()
            step = {
                Qt.Key.Key_Down: 1,
                Qt.Key.Key_Up: -1,
                Qt.Key.Key_PageDown: _VISIBLE_ITEMS,
                Qt.Key.Key_PageUp: -_VISIBLE_ITEMS,
            }[Qt.Key(k)]
            self.popup.setCurrentRow(max(0, min(n - 1, self.popup.currentRow() + step)))
            return True
        if k in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab):
            self.accept()
            return True
        if k == Qt.Key.Key_Escape or key.matches(QKeySequence.StandardKey.Cancel):
            self.close()
            return True
        return False
