"""Help > About names the versions and the settings file; --version from both entry points."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QTimer, qVersion
from PySide6.QtWidgets import QApplication, QMessageBox

from aa_review import __version__

pytestmark = pytest.mark.gui


def _help_menu_actions(window) -> list:
    for action in window.menuBar().actions():
        if action.text().replace("&", "") == "Help":
            return action.menu().actions()
    raise AssertionError("no Help menu")


def test_about_dialog_shows_versions_and_settings_path(window, settings, tmp_path: Path) -> None:
    assert window.commands.about in _help_menu_actions(window)
    seen: dict[str, str] = {}

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen["title"], seen["text"] = box.windowTitle(), box.text()
        box.accept()

    QTimer.singleShot(0, read_and_close)
    window.commands.about.trigger()  # modal: returns once read_and_close() closed it
    assert seen["title"] == "About aa-review"
    text = seen["text"]
    assert f"aa-review {__version__}" in text
    assert f"Qt {qVersion()}" in text
    assert f"PySide6 {pyside_version}" in text
    assert f"Python {platform.python_version()}" in text
    assert settings.fileName() in text
    assert settings.fileName().startswith(str(tmp_path))  # the window's own settings object


def test_version_from_the_window_entry(capsys) -> None:
    from aa_review.qt.app import main

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"aa-review {__version__}"


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    env.pop("AA_REVIEW_SYNCHRONOUS", None)  # load in the worker thread, as the app does
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path
    )


@pytest.mark.parametrize(
    "args",
    [
        ["-m", "aa_review", "--version"],  # the aa-review command
        ["-c", "from aa_review.qt.app import main; main()", "--version"],  # aa-review-gui
    ],
    ids=["python -m aa_review", "window entry"],
)
def test_version_on_the_command_line(args: list[str], tmp_path: Path) -> None:
    proc = _run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"aa-review {__version__}"


def test_screenshot_option_saves_the_loaded_window(sample_copy: Path, tmp_path: Path) -> None:
    shot = tmp_path / "window.png"
    proc = _run(["-m", "aa_review", str(sample_copy), "--screenshot", str(shot)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000  # a blank window compresses to far less


def test_screenshot_option_fails_when_the_package_does_not_load(tmp_path: Path) -> None:
    shot = tmp_path / "window.png"
    proc = _run(["-m", "aa_review", str(tmp_path), "--screenshot", str(shot)], tmp_path)
    assert proc.returncode == 1
    assert "not a compiled package" in proc.stderr
    assert not shot.exists()


def test_application_icon_ships_in_the_package(qapp) -> None:
    from aa_review.qt.app import app_icon

    icon = app_icon()
    assert not icon.isNull() and not icon.pixmap(64, 64).isNull()
