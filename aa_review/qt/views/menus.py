"""The window's actions and menus (File, Go, View, Help), and the keys that trigger them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

from aa_review.qt.theme import THEMES
from aa_review.qt.views import window_actions as wa

if TYPE_CHECKING:
    from aa_review.qt.views.main_window import MainWindow

__all__ = ["build_actions", "SHORTCUTS", "FOCUS_VIEWS"]

_std = QKeySequence.StandardKey
FOCUS_VIEWS = ("Rows", "Evidence Catalog", "Findings", "Contracts", "Row Detail")

# Every command's key, by action name. A standard key gets all the bindings the desktop
# has for it (Reload is F5, and Ctrl+R too on GNOME and macOS); any other key is one that
# no desktop Qt knows binds to a standard key (tests/qt/test_shortcuts.py reads Qt's table
# for every keyboard scheme). Audit left Ctrl+R, which is Refresh on GNOME and macOS and
# Replace on KDE, and Export left Ctrl+E, which ends the line in a text field on Linux.
SHORTCUTS: dict[str, QKeySequence.StandardKey | str] = {
    "open": _std.Open,
    "reload": _std.Refresh,
    "cancel": _std.Cancel,
    "quit": _std.Quit,
    "back": _std.Back,
    "forward": _std.Forward,
    "export": "Ctrl+Shift+E",
    "save_session": _std.Save,
    "open_session": "Ctrl+Shift+O",
    "workspace": "Ctrl+Shift+D",
    "audit": "Ctrl+Shift+R",
    "palette": "Ctrl+Shift+P",
    "find": _std.Find,
    "finding_next": "F8",
    "finding_previous": "Shift+F8",
    **{f"focus_{i}": f"Ctrl+{i}" for i in range(1, len(FOCUS_VIEWS) + 1)},
}


def _action(win: MainWindow, text: str, slot: object, name: str | None = None,
            tip: str = "") -> QAction:
    act = QAction(text, win)
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


def build_actions(win: MainWindow) -> None:
    """Every command is a QAction, its key from SHORTCUTS."""
    win.act_open = _action(win, "&Open Package…", win.choose_package, "open",
                           "Open a compiled package folder")
    win.act_reload = _action(win, "&Reload", win.reload, "reload",
                             "Read the package again from disk")
    win.act_cancel = _action(win, "&Cancel Loading or Audit", win.cancel_work, "cancel")
    win.act_quit = _action(win, "&Quit", win.close, "quit")
    win.act_back = _action(win, "&Back", win.hub.back, "back", "Previous selection")
    win.act_forward = _action(win, "&Forward", win.hub.forward, "forward", "Next selection")
    win.act_about = _action(win, "&About aa-review", win.show_about)
    win.act_export = _action(win, "&Export Filtered Rows…", lambda: wa.export_view(win),
                             "export", "Write the rows shown now to CSV or JSON Lines")
    win.act_save_session = _action(win, "&Save Session…", lambda: wa.save_session_as(win),
                                   "save_session", "Save filters, selection and layout")
    win.act_open_session = _action(win, "Open Sess&ion…", lambda: wa.open_session(win),
                                   "open_session")
    win.act_last_session = _action(win, "Reopen &Last Session", win.reopen_last_session)
    win.act_workspace = _action(win, "Open &Dossier Workspace…", win.choose_workspace,
                                "workspace", "Open a readiness dossier workspace folder")
    win.act_audit = _action(win, "&Audit Package", win.run_audit, "audit",
                            "Run every check on the open package")
    win.act_palette = _action(win, "Command &Palette…", win.show_palette, "palette")
    win.act_find = _action(win, "&Filter Rows", win.focus_query, "find",
                           "Type a query for the rows")
    views = (win.rows.view, win.evidence.view, win.findings.view, win.contracts.list_view,
             win.detail.view)
    win.focus_actions = [
        _action(win, f"Focus {title}", lambda _c=False, w=w: win.focus_view(w), f"focus_{i}")
        for i, (title, w) in enumerate(zip(FOCUS_VIEWS, views, strict=True), 1)]
    menu = win.menuBar().addMenu("&File")
    menu.addAction(win.act_open)
    win.recent_menu = menu.addMenu("Open &Recent")
    menu.addAction(win.act_reload)
    menu.addAction(win.act_audit)
    menu.addAction(win.act_workspace)
    menu.addAction(win.act_cancel)
    menu.addSeparator()
    for act in (win.act_export, win.act_save_session, win.act_open_session,
                win.act_last_session):
        menu.addAction(act)
    menu.addSeparator()
    menu.addAction(win.act_quit)
    nav = win.menuBar().addMenu("&Go")
    for act in (win.act_palette, win.act_find, win.act_back, win.act_forward):
        nav.addAction(act)
    nav.addSeparator()
    for act in win.focus_actions:
        nav.addAction(act)
    view = win.menuBar().addMenu("&View")
    for dock in win.docks.values():
        view.addAction(dock.toggleViewAction())
    view.addSeparator()
    theme_menu = view.addMenu("&Theme")
    win.theme_actions: dict[str, QAction] = {}
    for name in THEMES:
        act = theme_menu.addAction(name.capitalize())
        act.setCheckable(True)
        act.triggered.connect(lambda _c=False, n=name: win.set_theme(n))
        win.theme_actions[name] = act
    win.menuBar().addMenu("&Help").addAction(win.act_about)
    win.refresh_recent_menu()
    win._update_history_actions()
