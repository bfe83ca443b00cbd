"""Every command's key, by action name: the one table the window's actions and panels read."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

__all__ = ["SHORTCUTS", "FOCUS_VIEWS", "AS_STANDARD"]

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
    "maximise": "Ctrl+Shift+M",
    **{f"focus_{i}": f"Ctrl+{i}" for i in range(1, len(FOCUS_VIEWS) + 1)},
    "page_dossier": f"Ctrl+{len(FOCUS_VIEWS) + 1}",
    "act_as": "Ctrl+Shift+U",
    # Ctrl+Tab and Ctrl+Shift+Tab: the next view (a page of the centre or a dock),
    # whichever widget has the focus, tables included. The desktops' NextChild and
    # PreviousChild keys, without the Back and Forward keys Windows adds to them (those
    # are the selection history's).
    "next_view": "Ctrl+Tab",
    "previous_view": "Ctrl+Shift+Backtab",
    "keys": _std.HelpContents,
}

# Keys given as text that are a desktop's standard key with the same meaning: allowed
# (tests/qt/test_shortcuts.py), since the command does what the desktop means by them.
AS_STANDARD: dict[str, QKeySequence.StandardKey] = {
    "next_view": _std.NextChild,
    "previous_view": _std.PreviousChild,
}
