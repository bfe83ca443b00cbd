"""No key of the window collides with another or with a desktop's standard key.

``QKeySequence.keyBindings`` only answers for the keyboard scheme of the running
platform theme (the offscreen one uses Windows'). Qt decides every scheme from one
table compiled into QtGui, ``QPlatformThemePrivate::keyBindings``; it is read here
directly, and checked against ``keyBindings`` for every standard key of the running
scheme first, so a misread table fails loudly rather than passing quietly.
"""

from __future__ import annotations

import ctypes
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut

from aa_review.qt.views.menus import SHORTCUTS

pytestmark = pytest.mark.gui

Std = QKeySequence.StandardKey
# QPlatformTheme::KeyboardScheme, and the platforms each scheme reads from the table
# (QPlatformThemePrivate::currentKeyPlatforms: KDE, GNOME and CDE add the X11 entries).
SCHEMES = {"Windows": 0, "macOS": 1, "X11": 2, "KDE": 3, "GNOME": 4, "CDE": 5}
_X11 = 1 << 2


def _platforms(scheme: int) -> int:
    return (1 << scheme) | (_X11 if scheme in (3, 4, 5) else 0)


class _KeyBinding(ctypes.Structure):
    # QKeyBinding: StandardKey standardKey; uchar priority; QKeyCombination shortcut; uint platform
    _fields_ = [
        ("standard_key", ctypes.c_int),
        ("priority", ctypes.c_ubyte),
        ("shortcut", ctypes.c_int),
        ("platform", ctypes.c_uint),
    ]


def _qt_table() -> list[_KeyBinding]:
    import PySide6

    lib = Path(PySide6.__file__).parent / "Qt" / "lib" / "libQt6Gui.so.6"
    if not sys.platform.startswith("linux") or not lib.is_file():
        pytest.skip("reads Qt's key table from the Linux wheel's libQt6Gui")
    gui = ctypes.CDLL(str(lib))
    count = ctypes.c_uint.in_dll(gui, "_ZN21QPlatformThemePrivate19numberOfKeyBindingsE").value
    return list((_KeyBinding * count).in_dll(gui, "_ZN21QPlatformThemePrivate11keyBindingsE"))


def bindings(table: list[_KeyBinding], key: Std, scheme: int) -> list[QKeySequence]:
    """What QPlatformTheme::keyBindings(key) returns under ``scheme``, in Qt's order."""
    out: list[QKeySequence] = []
    for b in table:
        if b.standard_key == key.value and b.platform & _platforms(scheme):
            seq = QKeySequence(b.shortcut)
            out.insert(0, seq) if b.priority > 0 else out.append(seq)
    return out


@pytest.fixture(scope="module")
def table(qapp) -> list[_KeyBinding]:
    return _qt_table()


def _keys(spec: Std | str, table: list[_KeyBinding], scheme: int) -> list[str]:
    seqs = bindings(table, spec, scheme) if isinstance(spec, Std) else [QKeySequence(spec)]
    return [s.toString() for s in seqs]


def _standard(table: list[_KeyBinding], scheme: int) -> dict[str, set[str]]:
    """Key -> the standard keys it is bound to under ``scheme``."""
    out: dict[str, set[str]] = defaultdict(set)
    for key in Std:
        if key is not Std.UnknownKey:
            for seq in bindings(table, key, scheme):
                out[seq.toString()].add(key.name)
    return out


def test_the_table_read_is_the_one_qt_uses(table) -> None:
    """Under the running scheme, the table gives exactly what keyBindings gives."""
    checked = 0
    for key in Std:
        if key is Std.UnknownKey:
            continue
        scheme = next(
            s
            for s in SCHEMES.values()
            if bindings(table, Std.Open, s) == QKeySequence.keyBindings(Std.Open)
        )
        assert bindings(table, key, scheme) == QKeySequence.keyBindings(key), key.name
        checked += 1
    assert checked > 60
    # and the table does differ by scheme: what the GNOME collision was about
    assert _keys(Std.Refresh, table, SCHEMES["GNOME"])[:2] == ["Ctrl+R", "F5"]
    assert _keys(Std.Refresh, table, SCHEMES["Windows"])[0] == "F5"


@pytest.mark.parametrize("scheme", SCHEMES.values(), ids=SCHEMES.keys())
def test_no_two_commands_share_a_key(table, scheme: int) -> None:
    owner: dict[str, str] = {}
    for name, spec in SHORTCUTS.items():
        for key in _keys(spec, table, scheme):
            assert key not in owner, f"{key} is both {owner[key]!r} and {name!r}"
            owner[key] = name


@pytest.mark.parametrize("scheme", SCHEMES.values(), ids=SCHEMES.keys())
def test_chosen_keys_are_no_desktops_standard_key(table, scheme: int) -> None:
    """A key that is not a standard key's must not be one on any desktop."""
    from aa_review.qt.views.shortcuts import AS_STANDARD

    standard = _standard(table, scheme)
    taken = {
        name: (spec, standard[QKeySequence(spec).toString()])
        for name, spec in SHORTCUTS.items()
        if isinstance(spec, str)
        and QKeySequence(spec).toString() in standard
        # the desktop's key for what the command does (Ctrl+Tab: the next child window)
        and standard[QKeySequence(spec).toString()]
        - {AS_STANDARD[name].name if name in AS_STANDARD else ""}
    }
    assert not taken, taken


def test_every_key_in_the_window_is_declared(window) -> None:
    """A panel adding a shortcut of its own adds it to SHORTCUTS, where it is checked."""
    undeclared = [
        a.text()
        for a in window.findChildren(QAction)
        if a.shortcuts() and a.property("shortcut_name") not in SHORTCUTS
    ]
    undeclared += [s.key().toString() for s in window.findChildren(QShortcut)]
    assert undeclared == []


def test_actions_carry_their_declared_keys(window) -> None:
    by_name = {
        a.property("shortcut_name"): a
        for a in window.findChildren(QAction)
        if a.property("shortcut_name")
    }
    assert set(by_name) == set(SHORTCUTS)
    for name, spec in SHORTCUTS.items():
        want = QKeySequence.keyBindings(spec) if isinstance(spec, Std) else [QKeySequence(spec)]
        assert by_name[name].shortcuts() == want, name
    assert window.commands.audit.shortcut().toString() == "Ctrl+Shift+R"
    assert window.commands.reload.shortcut().toString() == "F5"  # this (offscreen) scheme's


def test_audit_and_reload_keys_reach_their_actions(window, qtbot, sample_copy) -> None:
    window.open_package(sample_copy)
    window.activateWindow()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    fired: list[str] = []
    window.commands.audit.triggered.connect(lambda: fired.append("audit"))
    window.commands.reload.triggered.connect(lambda: fired.append("reload"))
    ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.rows.view, Qt.Key.Key_R, modifier=ctrl | shift)
    assert fired == ["audit"]
    qtbot.keyClick(window.rows.view, Qt.Key.Key_F5)
    assert fired == ["audit", "reload"]
