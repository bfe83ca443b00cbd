"""Help > Keyboard Reference: every key of the window, read from its actions, by menu.

Nothing here is written by hand: the table is the menus' actions (submenus too) and
the window's keyed actions no menu holds, each with every key it answers to, so it
cannot fall behind what the keys do.
"""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMenu,
    QMenuBar,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

__all__ = ["KeyboardReference", "key_reference"]

_OTHER = "Window"  # keyed actions no menu holds (the panels' own, the finding steps)


def _keys(a: QAction) -> str:
    return ", ".join(
        k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if not k.isEmpty()
    )


def key_reference(
    menubar: QMenuBar | None, actions: list[QAction]
) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(menu, [(command, keys)])`` for every action with a key, in menu order; the
    keyed ``actions`` no menu holds come last, under "Window"."""
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    seen: set[int] = set()

    def walk(menu: QMenu, into: list[tuple[str, str]]) -> None:
        for a in menu.actions():
            sub = a.menu()
            if isinstance(sub, QMenu):
                walk(sub, into)
            elif not a.isSeparator() and id(a) not in seen and _keys(a):
                seen.add(id(a))
                into.append((a.text().replace("&", "").rstrip("…"), _keys(a)))

    if menubar is not None:
        for top in menubar.actions():
            menu = top.menu()
            if isinstance(menu, QMenu):
                rows: list[tuple[str, str]] = []
                walk(menu, rows)
                if rows:
                    groups.append((menu.title().replace("&", ""), rows))
    rest = [
        (a.text().replace("&", "").rstrip("…"), _keys(a))
        for a in actions
        if id(a) not in seen and a.text() and _keys(a)
    ]
    if rest:
        groups.append((_OTHER, rest))
    return groups


class KeyboardReference(QDialog):
    """The reference in a window of its own (not modal: it can stay open beside)."""

    def __init__(self, parent: QWidget, groups: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard reference")
        self.resize(560, 600)
        self.groups = groups
        lay = QVBoxLayout(self)
        self.text = QTextBrowser()
        parts = []
        for menu, rows in groups:
            parts.append(f"<h3>{escape(menu)}</h3><table cellspacing=4>")
            parts += [
                f"<tr><td><b>{escape(keys)}</b></td><td>{escape(cmd)}</td></tr>"
                for cmd, keys in rows
            ]
            parts.append("</table>")
        parts.append(
            "<p>Tab and Shift+Tab move between the widgets of a view (tables too); in a "
            "filter box Ctrl+Space proposes fields and values.</p>"
        )
        self.text.setHtml("".join(parts))
        lay.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
