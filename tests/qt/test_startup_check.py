"""The start-up check: a missing system library of Qt's platform is named, not an abort."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from aa_review.qt import syslibs

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the xcb platform and ELF libraries are Linux's"
)
CURSOR = "libxcb-cursor.so.0"


def hiding(*sonames: str):
    """A loader that finds everything except ``sonames``, as on a machine without them."""

    def load_error(soname: str) -> str | None:
        return f"{soname}: cannot open shared object file" if soname in sonames else None

    return load_error


def qt_file(rel: str) -> Path:
    qt = syslibs._qt_dir()
    assert qt is not None
    return qt / rel


@pytest.mark.parametrize(
    ("env", "platform"),
    [
        ({"QT_QPA_PLATFORM": "offscreen"}, "offscreen"),
        ({"QT_QPA_PLATFORM": "xcb", "XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "w"}, "xcb"),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, "wayland"),
        ({"QT_QPA_PLATFORM": "offscreen:fontengine=freetype"}, "offscreen"),
        ({"DISPLAY": ":0"}, "xcb"),
        (
            {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"},
            "wayland",
        ),
        ({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"}, "xcb"),
        ({}, "xcb"),
    ],
)
def test_platform_qt_picks(env: dict[str, str], platform: str) -> None:
    assert syslibs.qt_platform(env) == platform


def test_needed_reads_what_qts_files_ask_for(tmp_path: Path) -> None:
    assert "libQt6XcbQpa.so.6" in syslibs.needed(qt_file("plugins/platforms/libqxcb.so"))
    assert CURSOR in syslibs.needed(qt_file("lib/libQt6XcbQpa.so.6"))
    (tmp_path / "not-elf.so").write_bytes(b"#!/bin/sh\n")
    assert syslibs.needed(tmp_path / "not-elf.so") == []


def test_hidden_cursor_library_is_named_with_its_packages() -> None:
    problem = syslibs.check({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, hiding(CURSOR))
    assert problem is not None and list(problem.missing) == [CURSOR]
    text = problem.message()
    assert f"  {CURSOR}\n" in text and "'xcb'" in text
    assert "sudo apt install libxcb-cursor0\n" in text
    assert "sudo dnf install xcb-util-cursor\n" in text


def test_every_missing_library_is_named_once_per_package() -> None:
    gone = ("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libglib-2.0.so.0", "libgthread-2.0.so.0")
    problem = syslibs.check({"QT_QPA_PLATFORM": "xcb"}, hiding(*gone))
    assert problem is not None and set(problem.missing) == set(gone)
    assert problem.packages(0).count("libglib2.0-0") == 1
    assert set(problem.packages(1)) == {"xcb-util-wm", "xcb-util-keysyms", "glib2"}


@pytest.mark.parametrize("platform", ["offscreen", "wayland", "minimal"])
def test_xcb_libraries_are_not_asked_of_other_platforms(platform: str) -> None:
    assert syslibs.check({"QT_QPA_PLATFORM": platform}, hiding(CURSOR)) is None


def test_libraries_every_platform_loads_are_checked_on_all() -> None:
    problem = syslibs.check({"QT_QPA_PLATFORM": "offscreen"}, hiding("libfontconfig.so.1"))
    assert problem is not None and list(problem.missing) == ["libfontconfig.so.1"]
    assert "fontconfig" in problem.packages(1)


def test_nothing_missing_is_no_problem() -> None:
    assert syslibs.check({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}, hiding()) is None


def test_an_unknown_library_still_says_what_to_look_for() -> None:
    problem = syslibs.MissingLibraries("xcb", {"libnew-thing.so.3": "not found"})
    assert "the packages providing libnew-thing.so.3" in problem.message()


def test_a_library_inside_the_bundle_is_not_looked_for(tmp_path: Path, monkeypatch) -> None:
    """Frozen, what PyInstaller put beside the executable ships with the program."""
    shutil.copyfile(qt_file("lib/libQt6XcbQpa.so.6"), tmp_path / CURSOR)  # any ELF will do
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert syslibs.check({"QT_QPA_PLATFORM": "xcb"}, hiding(CURSOR)) is None


def test_report_prints_and_returns_2(monkeypatch, capsys) -> None:
    monkeypatch.setattr(syslibs, "_load_error", hiding(CURSOR))
    assert syslibs.report({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}) == 2
    err = capsys.readouterr().err
    assert err.startswith("aa-review: the window cannot start") and "libxcb-cursor0" in err
    monkeypatch.setattr(syslibs, "_load_error", hiding())
    assert syslibs.report({"QT_QPA_PLATFORM": "xcb"}) == 2  # and no display either
    assert "DISPLAY is not set" in capsys.readouterr().err
    assert syslibs.report({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0"}) == 0
    assert syslibs.report({"QT_QPA_PLATFORM": "offscreen"}) == 0
    assert capsys.readouterr().err == ""


CHILD = """
import sys
from aa_review.qt import syslibs
real = syslibs._load_error
syslibs._load_error = lambda soname: ("hidden" if soname == "libxcb-cursor.so.0"
                                      else real(soname))
from aa_review.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_window_start_without_the_cursor_library_exits_2_with_the_message(tmp_path: Path) -> None:
    """The real entry point in a process of its own, Qt never reached: no abort (134)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "WAYLAND"))}
    env.update(
        QT_QPA_PLATFORM="xcb",
        DISPLAY=":0",
        HOME=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert f"\n  {CURSOR}\n" in proc.stderr
    assert "sudo apt install libxcb-cursor0" in proc.stderr
    assert "sudo dnf install xcb-util-cursor" in proc.stderr
    assert "qt.qpa" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "data").exists()  # not even the demo was written
