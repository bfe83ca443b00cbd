"""The window's friends (its menus, layouts, subsets bar and compare mode) see the window
only through the narrow protocol each declares, and talk to the controller and the
session for the rest. What each may read of the window is named here: a friend reaching
into ``MainWindow``'s attributes again fails this test (parsed, no Qt imported)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import aa_review

ROOT = Path(aa_review.__file__).parent
VIEWS = ROOT / "qt" / "views"
HOST_NAMES = ("win", "window")  # what the friends call the window they are given

# Every member of the window a friend may use: Qt's own API of a main window (to parent
# and place its actions, docks and dialogs) and the few parts of the window itself.
QT_API = {"window", "addAction"}
FRIENDS: dict[str, tuple[str, set[str]]] = {
    "menus.py": (
        "MenuHost",
        QT_API
        | {"menuBar", "close", "docks"}
        | {
            "choose_package",
            "choose_workspace",
            "choose_actor",
            "show_about",
            "show_corpus",
            "show_palette",
            "show_keyboard_reference",
            "focus_query",
            "focus_dossier",
            "focus_view",
            "cycle_view",
            "set_theme",
        },
    ),
    "layout.py": (
        "LayoutHost",
        QT_API
        | {"isAncestorOf", "centralWidget", "saveState", "restoreState"}
        | {"docks", "center", "LAYOUT_VERSION", "arrange_default", "status"},
    ),
    "subsets.py": ("SubsetHost", QT_API | {"status", "warn"}),
    "compare_panel.py": (
        "CompareHost",
        QT_API
        | {"width", "menuBar", "addDockWidget", "tabifyDockWidget", "resizeDocks", "docks"}
        | {"show_busy", "show_idle", "status", "warn"},  # the controller's CompareView
    ),
}
# Where a protocol's bases are defined (a friend's host may extend a core view).
BASES = (ROOT / "core" / "session" / "_compare_control.py",)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _members(name: str, trees: list[ast.Module]) -> set[str]:
    """The members a protocol class declares, its bases' included."""
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                out: set[str] = set()
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        out.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        out.add(item.target.id)
                for base in node.bases:
                    if isinstance(base, ast.Name) and base.id != "Protocol":
                        out |= _members(base.id, trees)
                return out
    raise AssertionError(f"no class {name}")


def _window_reads(tree: ast.Module) -> set[str]:
    """The attributes read of the window: ``win.x``, ``window.x`` and ``self.win.x``."""
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        on_win = isinstance(v, ast.Name) and v.id in HOST_NAMES
        on_self_win = (
            isinstance(v, ast.Attribute)
            and v.attr in HOST_NAMES
            and isinstance(v.value, ast.Name)
            and v.value.id == "self"
        )
        if on_win or on_self_win:
            out.add(node.attr)
    return out


@pytest.mark.parametrize("module", sorted(FRIENDS))
def test_a_friend_reads_only_what_its_protocol_declares(module: str) -> None:
    protocol, named = FRIENDS[module]
    tree = _tree(VIEWS / module)
    declared = _members(protocol, [tree, *map(_tree, BASES)])
    assert declared == named, "a friend's protocol grew or shrank: name it here, and why"
    assert _window_reads(tree) - declared == set()


@pytest.mark.parametrize("module", sorted(FRIENDS))
def test_a_friend_is_given_its_protocol_not_the_main_window(module: str) -> None:
    protocol, _named = FRIENDS[module]
    tree = _tree(VIEWS / module)
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert "aa_review.qt.views.main_window" not in imported
    assert "MainWindow" not in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    params = [
        arg
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for arg in node.args.args
        if arg.arg in HOST_NAMES
    ]
    assert params, f"{module}: no function is given the window"
    for arg in params:
        assert isinstance(arg.annotation, ast.Name) and arg.annotation.id == protocol, arg.arg
