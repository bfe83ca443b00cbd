"""Regression: PySide6 6.12.0 on CPython 3.11 aborts after many None-returning Qt calls."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gui

SCRIPT = textwrap.dedent("""
    import os
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication, QLabel
    app = QApplication([])
    label = QLabel()
    for i in range(200_000):
        label.setText("x")          # returns None
        label.setToolTip("y")       # returns None
    print("survived", flush=True)
""")


def test_200k_none_returning_calls_do_not_abort() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "survived" in proc.stdout
    assert "none_dealloc" not in proc.stderr
