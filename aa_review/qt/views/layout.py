"""The window's layout commands: a focused default, maximise a view and back, named layouts.

The focused default opens two dock areas beside the centre (Row detail with Plots and
the row's evidence on the right; Findings with the Evidence catalog and the rows citing
an item below), each a set of tabs, and leaves Facets closed (View menu). A view is
maximised by hiding every other dock (and the centre, for a dock); restoring puts the
layout back exactly (``saveState``). Named layouts are kept in the settings file.
The window is seen only through :class:`LayoutHost`, what the layouts need of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Protocol

from PySide6.QtCore import QByteArray, QObject, QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QInputDialog,
    QMenu,
    QPushButton,
    QTabWidget,
    QToolButton,
    QWidget,
)

from aa_review.qt.views.shortcuts import SHORTCUTS

__all__ = ["WindowLayouts", "LayoutHost", "CLOSED_AT_FIRST", "MAXIMISE_KEY"]


class LayoutHost(Protocol):
    """What the layouts need of the window: its docks and central pages, its saved
    state, the focused default arrangement, and its status bar."""

    @property
    def docks(self) -> Mapping[str, QDockWidget]: ...

    @property
    def center(self) -> QTabWidget:
        """The central pages: their corner button, the page a layout shows."""
        ...

    @property
    def LAYOUT_VERSION(self) -> int:  # noqa: N802
        """The version of the saved states (``saveState``) the window accepts."""
        ...

    def window(self, /) -> QWidget:
        """The window itself (``QWidget.window``): it owns the action and the dialog."""
        ...

    def addAction(self, action: QAction, /) -> None: ...  # noqa: N802

    def isAncestorOf(self, child: QWidget, /) -> bool: ...  # noqa: N802

    def centralWidget(self, /) -> QWidget | None: ...  # noqa: N802

    def saveState(self, /, version: int | None = ...) -> QByteArray: ...  # noqa: N802

    def restoreState(  # noqa: N802
        self, state: QByteArray | bytes | bytearray | memoryview, /, version: int | None = ...
    ) -> bool: ...

    def arrange_default(self) -> None: ...

    def status(self, text: str, ms: int = 6000) -> None: ...


CLOSED_AT_FIRST = ("facets",)  # docks the focused default leaves closed
MAXIMISE_KEY = str(SHORTCUTS["maximise"])
_PREFIX = "layouts/"


class WindowLayouts(QObject):
    """Maximise/restore and named layouts for one window."""

    def __init__(self, win: LayoutHost, settings: QSettings) -> None:
        super().__init__(win.window())
        self.win = win
        self.settings = settings
        self.last_view = "centre"  # the view that last had the focus: a dock name or centre
        self.maximised: str | None = None
        self._saved: QByteArray | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self.button = QPushButton("Maximise view")
        self.button.setFlat(True)
        self.button.setToolTip(f"Maximise the view last used, and back ({MAXIMISE_KEY})")
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the view keeps the focus
        self.button.clicked.connect(lambda: self.toggle_maximise())
        self.maximise_action = QAction("&Maximise View / Restore", win.window())
        self.maximise_action.setShortcut(QKeySequence(MAXIMISE_KEY))
        self.maximise_action.setProperty("shortcut_name", "maximise")
        self.maximise_action.triggered.connect(lambda: self.toggle_maximise())
        win.addAction(self.maximise_action)
        self.menu: QMenu | None = None
        # A button in the corner of the central tabs maximises them (and restores).
        self.corner = QToolButton()
        self.corner.setText("⤢")
        self.corner.setAutoRaise(True)
        self.corner.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.corner.setToolTip(f"Maximise the central pages, and back ({MAXIMISE_KEY})")
        self.corner.clicked.connect(lambda: self.toggle_maximise("centre"))
        win.center.setCornerWidget(self.corner, Qt.Corner.TopRightCorner)

    # -- the focused default ---------------------------------------------------------
    def close_at_first(self) -> None:
        for name in CLOSED_AT_FIRST:
            self.win.docks[name].hide()

    # -- maximise and restore -------------------------------------------------------------
    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or not self.win.isAncestorOf(new):
            return
        for name, dock in self.win.docks.items():
            if dock.isAncestorOf(new):
                self.last_view = name
                return
        central = self.win.centralWidget()
        if central is not None and central.isAncestorOf(new):
            self.last_view = "centre"

    def toggle_maximise(self, view: str | None = None) -> bool:
        """Maximise ``view`` (a dock name or ``centre``; default the one used last), or
        restore the layout when one is maximised. Returns whether one is maximised now."""
        if self.maximised is not None:
            self.restore()
            return False
        target = view or self.last_view
        docks = self.win.docks
        if target != "centre" and (target not in docks or docks[target].isFloating()):
            target = "centre"
        self._saved = self.win.saveState(self.win.LAYOUT_VERSION)
        for name, dock in docks.items():
            if name != target and not dock.isFloating():
                dock.hide()
        central = self.win.centralWidget()
        if target != "centre":
            docks[target].show()
            docks[target].raise_()
            if central is not None:
                central.hide()
        self.maximised = target
        self._show_state()
        return True

    def restore(self) -> None:
        """Put back the layout that was there before maximising."""
        if self.maximised is None:
            return
        central = self.win.centralWidget()
        if central is not None:
            central.show()
        if self._saved is not None:
            self.win.restoreState(self._saved, self.win.LAYOUT_VERSION)
        self.maximised = None
        self._saved = None
        self._show_state()

    def _show_state(self) -> None:
        if self.maximised is None:
            self.button.setText("Maximise view")
        else:
            title = (
                "the centre"
                if self.maximised == "centre"
                else self.win.docks[self.maximised].windowTitle()
            )
            self.button.setText(f"Restore layout ({title} maximised)")

    # -- named layouts ---------------------------------------------------------------------
    def names(self) -> list[str]:
        self.settings.beginGroup(_PREFIX.rstrip("/"))
        try:
            return sorted(self.settings.childKeys(), key=str.lower)
        finally:
            self.settings.endGroup()

    def save(self, name: str) -> None:
        """Keep the layout shown now (docks, sizes, centre page) under ``name``."""
        name = name.strip().replace("/", " ")
        if not name:
            return
        self.restore()
        state = self.win.saveState(self.win.LAYOUT_VERSION)
        self.settings.setValue(_PREFIX + name, state)
        self.settings.setValue(f"layout_pages/{name}", self.win.center.currentIndex())
        self.settings.sync()
        self._rebuild_menu()
        self.win.status(f"Layout '{name}' saved")

    def apply(self, name: str) -> bool:
        """Show the layout saved as ``name``; False when there is none (or it is unusable)."""
        state = self.settings.value(_PREFIX + name)
        if not isinstance(state, QByteArray):
            return False
        self.restore()
        ok = self.win.restoreState(state, self.win.LAYOUT_VERSION)
        page = self.settings.value(f"layout_pages/{name}")
        if ok and page is not None:
            self.win.center.setCurrentIndex(int(page))
        return bool(ok)

    def delete(self, name: str) -> None:
        self.settings.remove(_PREFIX + name)
        self.settings.remove(f"layout_pages/{name}")
        self._rebuild_menu()

    def reset(self) -> None:
        """The focused default arrangement."""
        self.restore()
        for dock in self.win.docks.values():
            dock.setFloating(False)
            dock.show()
        self.win.arrange_default()

    def ask_save(self) -> None:
        name, ok = QInputDialog.getText(self.win.window(), "Save Layout", "Name of the layout:")
        if ok and name.strip():
            self.save(name)

    def install_menu(self, view_menu: QMenu) -> None:
        """View > Maximise View, View > Layouts (saved ones, save, delete, reset)."""
        view_menu.addSeparator()
        view_menu.addAction(self.maximise_action)
        self.menu = view_menu.addMenu("&Layouts")
        self._rebuild_menu()

    def _rebuild_menu(self) -> None:
        menu = self.menu
        if menu is None:
            return
        menu.clear()
        names = self.names()
        for name in names:
            menu.addAction(name, partial(self.apply, name))
        if names:
            menu.addSeparator()
        menu.addAction("Save Layout As…", self.ask_save)
        delete = menu.addMenu("Delete Layout")
        for name in names:
            delete.addAction(name, partial(self.delete, name))
        delete.setEnabled(bool(names))
        menu.addAction("Reset to Default Layout", self.reset)
