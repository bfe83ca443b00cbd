"""Quitting while an audit runs (issue 25, the smaller items): the worker stops and
nothing is printed, neither from its thread nor from the audit's process."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("in_process", [False, True], ids=["thread", "process"])
def test_closing_the_window_during_an_audit_prints_nothing(
    window, qtbot, sample_copy: Path, monkeypatch, capfd, in_process: bool
) -> None:
    from aa_review.qt import workers

    window.open_package(sample_copy)
    assert window.session.package is not None
    monkeypatch.setattr(workers, "synchronous", lambda: False)  # a real worker thread
    window.controller.audit_niceness = 5 if in_process else None
    hooked: list[Any] = []
    monkeypatch.setattr(sys, "excepthook", lambda *exc: hooked.append(exc))
    monkeypatch.setattr(threading, "excepthook", lambda args: hooked.append(args))
    capfd.readouterr()  # only what follows counts

    window.controller.run_audit()
    job = window.runner._jobs["audit"]
    assert job.thread is not None and job.thread.is_alive()
    window.close()
    qtbot.waitUntil(lambda: not job.thread.is_alive(), timeout=60_000)
    qtbot.wait(50)  # let anything the worker posted reach the event loop
    out, err = capfd.readouterr()
    assert hooked == []
    assert err == "", err
    assert "Traceback" not in out


def test_a_job_that_fails_as_the_window_closes_is_not_reported(
    qtbot, monkeypatch, capfd, caplog
) -> None:
    """A job stopped by the shutdown may fail instead of noticing (a file closed under
    it): nobody wants that failure, and it is not an error to print. No job starts after."""
    from aa_review.qt import workers

    monkeypatch.setattr(workers, "synchronous", lambda: False)
    runner = workers.ThreadRunner()
    done: list[object] = []

    def work(job: Any) -> None:
        while not job.cancelled():
            threading.Event().wait(0.01)
        raise OSError("the file went away")

    runner.run("hashes", work, done=done.append)
    job = runner._jobs["hashes"]
    capfd.readouterr()
    runner.shutdown()
    qtbot.waitUntil(lambda: not job.thread.is_alive(), timeout=10_000)
    qtbot.wait(20)
    runner.run("hashes", lambda job: 1, done=done.append)
    qtbot.wait(20)
    assert not runner.is_running("hashes") and done == []
    assert [r for r in caplog.records if r.levelname == "ERROR"] == []
    assert capfd.readouterr().err == ""
