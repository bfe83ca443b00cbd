"""Qt test set-up: offscreen platform, synchronous loading, settings in tmp_path."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["AA_REVIEW_SYNCHRONOUS"] = "1"

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings


@pytest.fixture
def settings(tmp_path):
    s = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    s.setValue("audit/auto", "false")  # audit tests turn it on or call run_audit()
    return s


@pytest.fixture
def window(qtbot, settings):
    from aa_review.qt.app import create_window

    w = create_window(settings)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    return w


@pytest.fixture
def turns_pass(qtbot):
    """``turns_pass(n)``: wait until ``n`` more turns of the event loop have run (a
    zero-timer each), for what the window spreads over turns (qt/views/_turns.py)."""
    from PySide6.QtCore import QTimer

    def wait(n: int = 3) -> None:
        left = [n]

        def step() -> None:
            left[0] -= 1
            if left[0] > 0:
                QTimer.singleShot(0, step)

        QTimer.singleShot(0, step)
        qtbot.waitUntil(lambda: left[0] == 0)

    return wait
