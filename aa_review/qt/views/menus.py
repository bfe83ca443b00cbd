"""The window's actions and menus (File, Go, View, Help), and the keys that trigger them.

The actions call the window's controller, its session, or one of the window's own
commands; the window is seen only through :class:`MenuHost`, what the menus need of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QWidget

from aa_review.core.session import Scope
from aa_review.qt.theme import THEMES
from aa_review.qt.views.shortcuts import FOCUS_VIEWS, SHORTCUTS

if TYPE_CHECKING:
    from aa_review.core.session import ReviewSession
    from aa_review.qt.controller import WindowController

__all__ = ["build_actions", "WindowActions", "MenuHost", "SHORTCUTS", "FOCUS_VIEWS"]


class MenuHost(Protocol):
    """What the menus need of the window: its menu bar and docks, where the actions
    live, and the window's own commands (the rest goes to the controller and session)."""

    @property
    def docks(self) -> Mapping[str, QDockWidget]:
        """The docks, each shown and hidden from the View menu."""
        ...

    def window(self, /) -> QWidget:
        """The window itself (``QWidget.window``): it owns the actions."""
        ...

    def menuBar(self, /) -> QMenuBar: ...  # noqa: N802

    def addAction(self, action: QAction, /) -> None: ...  # noqa: N802

    def close(self, /) -> bool: ...

    def choose_package(self) -> None: ...

    def choose_workspace(self) -> None: ...

    def choose_actor(self) -> None: ...

    def show_about(self) -> None: ...

    def show_corpus(self) -> Any: ...

    def show_palette(self) -> Any: ...

    def show_keyboard_reference(self) -> Any: ...

    def focus_query(self) -> None: ...

    def focus_dossier(self) -> None: ...

    def focus_view(self, view: QWidget) -> None: ...

    def cycle_view(self, delta: int) -> None: ...

    def set_theme(self, name: str) -> None: ...


def _action(
    win: MenuHost, text: str, slot: object, name: str | None = None, tip: str = ""
) -> QAction:
    act = QAction(text, win.window())
    if name is not None:
        key = SHORTCUTS[name]
        if isinstance(key, QKeySequence.StandardKey):
            act.setShortcuts(key)
        else:
            act.setShortcut(QKeySequence(key))
        act.setProperty("shortcut_name", name)
    if tip:
        act.setStatusTip(tip)
    act.triggered.connect(slot)
    win.addAction(act)
    return act


@dataclass(frozen=True, eq=False)
class WindowActions:
    """The window's commands (each a QAction with its key from SHORTCUTS) and menus."""

    open: QAction
    reload: QAction
    cancel: QAction
    quit: QAction
    back: QAction
    forward: QAction
    about: QAction
    export: QAction
    corpus: QAction
    export_full: QAction
    export_evidence: QAction
    export_findings: QAction
    save_session: QAction
    open_session: QAction
    last_session: QAction
    workspace: QAction
    audit: QAction
    palette: QAction
    find: QAction
    page_dossier: QAction
    act_as: QAction
    next_view: QAction
    previous_view: QAction
    keys: QAction
    focus: list[QAction]
    recent_menu: QMenu
    theme: dict[str, QAction] = field(default_factory=dict)

    def update_history(self, can_back: bool, can_forward: bool) -> None:
        self.back.setEnabled(can_back)
        self.forward.setEnabled(can_forward)


def build_actions(
    win: MenuHost,
    controller: WindowController,
    session: ReviewSession,
    focus_views: Sequence[QWidget],
) -> WindowActions:
    """Every command as a QAction, its key from SHORTCUTS, in the File, Go, View and Help
    menus. The actions call the window's ``controller``, its ``session`` or the window
    itself; ``focus_views`` are the views Focus 1… focuses, in the order of FOCUS_VIEWS."""
    c, s = controller, session
    a = {
        "open": _action(
            win, "&Open Package…", win.choose_package, "open", "Open a compiled package folder"
        ),
        "reload": _action(win, "&Reload", c.reload, "reload", "Read the package again from disk"),
        "cancel": _action(win, "&Cancel Loading or Audit", c.cancel, "cancel"),
        "quit": _action(win, "&Quit", win.close, "quit"),
        "back": _action(win, "&Back", s.selection.back, "back", "Previous selection"),
        "forward": _action(win, "&Forward", s.selection.forward, "forward", "Next selection"),
        "about": _action(win, "&About aa-review", win.show_about),
        "corpus": _action(
            win,
            "Open Corp&us…",
            win.show_corpus,
            tip="A folder of packages: open the report of aa-review audit DIR "
            "--json, or audit the folder",
        ),
        "export": _action(
            win,
            "&Export Filtered Rows…",
            lambda: c.export(),
            "export",
            "Write the rows shown now to CSV or JSON Lines",
        ),
        "export_full": _action(
            win,
            "Export Filtered Rows, Every &Field…",
            lambda: c.export(full=True),
            tip="Write every field of the rows shown now (JSON Lines, JSON or CSV)",
        ),
        "export_evidence": _action(
            win,
            "Export Filtered E&vidence…",
            lambda: c.export(scope=Scope.EVIDENCE),
            tip="Write the evidence items shown now",
        ),
        "export_findings": _action(
            win,
            "Export Filtered F&indings…",
            lambda: c.export(scope=Scope.FINDINGS),
            tip="Write the findings shown now, every location",
        ),
        "save_session": _action(
            win,
            "&Save Session…",
            lambda: c.save_session(),
            "save_session",
            "Save filters, selection and layout",
        ),
        "open_session": _action(win, "Open Sess&ion…", lambda: c.open_session(), "open_session"),
        "last_session": _action(win, "Reopen &Last Session", c.reopen_last_session),
        "workspace": _action(
            win,
            "Open &Dossier Workspace…",
            win.choose_workspace,
            "workspace",
            "Open a readiness dossier workspace folder",
        ),
        "audit": _action(
            win, "&Audit Package", c.run_audit, "audit", "Run every check on the open package"
        ),
        "palette": _action(win, "Command &Palette…", win.show_palette, "palette"),
        "find": _action(win, "&Filter Rows", win.focus_query, "find", "Type a query for the rows"),
        "page_dossier": _action(
            win,
            "Show &Dossier",
            win.focus_dossier,
            "page_dossier",
            "The Dossier page: the verdict, who acts, the steps",
        ),
        "act_as": _action(
            win,
            "Act &As…",
            win.choose_actor,
            "act_as",
            "Change the principal you act as in the dossier workspace",
        ),
        "next_view": _action(
            win, "&Next View", lambda: win.cycle_view(1), "next_view", "Focus the next view"
        ),
        "previous_view": _action(
            win,
            "Pre&vious View",
            lambda: win.cycle_view(-1),
            "previous_view",
            "Focus the previous view",
        ),
        "keys": _action(
            win,
            "&Keyboard Reference",
            win.show_keyboard_reference,
            "keys",
            "Every key of the window, by menu",
        ),
    }
    focus = [
        _action(win, f"Focus {title}", lambda _c=False, w=w: win.focus_view(w), f"focus_{i}")
        for i, (title, w) in enumerate(zip(FOCUS_VIEWS, focus_views, strict=True), 1)
    ]
    menu = win.menuBar().addMenu("&File")
    menu.addAction(a["open"])
    recent_menu = menu.addMenu("Open &Recent")
    for name in ("corpus", "reload", "audit", "workspace", "cancel"):
        menu.addAction(a[name])
    menu.addSeparator()
    for name in (
        "export",
        "export_full",
        "export_evidence",
        "export_findings",
        "save_session",
        "open_session",
        "last_session",
    ):
        menu.addAction(a[name])
    menu.addSeparator()
    menu.addAction(a["quit"])
    nav = win.menuBar().addMenu("&Go")
    for name in ("palette", "find", "back", "forward"):
        nav.addAction(a[name])
    nav.addSeparator()
    for act in focus:
        nav.addAction(act)
    nav.addAction(a["page_dossier"])
    nav.addAction(a["act_as"])
    nav.addSeparator()
    nav.addAction(a["next_view"])
    nav.addAction(a["previous_view"])
    view = win.menuBar().addMenu("&View")
    for dock in win.docks.values():
        view.addAction(dock.toggleViewAction())
    view.addSeparator()
    theme_menu = view.addMenu("&Theme")
    theme: dict[str, QAction] = {}
    for name in THEMES:
        act = theme_menu.addAction(name.capitalize())
        act.setCheckable(True)
        act.triggered.connect(lambda _c=False, n=name: win.set_theme(n))
        theme[name] = act
    help_menu = win.menuBar().addMenu("&Help")
    help_menu.addAction(a["keys"])
    help_menu.addAction(a["about"])
    return WindowActions(**a, focus=focus, recent_menu=recent_menu, theme=theme)
