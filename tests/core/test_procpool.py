"""Worker processes can be started nicer than their parent (the window asks for it)."""

from __future__ import annotations

import os
import sys

import pytest

from aa_review.core.util import procpool


def _niceness() -> int:
    return os.nice(0)


def _remember(value: int) -> None:
    os.environ["AA_REVIEW_TEST_INIT"] = str(value)


def _init_ran() -> str:
    return os.environ.get("AA_REVIEW_TEST_INIT", "")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX niceness")
def test_workers_start_nicer_and_still_run_their_initializer(monkeypatch) -> None:
    monkeypatch.setattr(procpool, "_niceness", 0)
    procpool.set_worker_niceness(3)
    here = os.nice(0)
    with procpool.spawn_pool(1, initializer=_remember, initargs=(7,)) as pool:
        assert pool.submit(_niceness).result(timeout=120) == min(here + 3, 19)
        assert pool.submit(_init_ran).result(timeout=120) == "7"
    procpool.set_worker_niceness(0)
    with procpool.spawn_pool(1) as pool:
        assert pool.submit(_niceness).result(timeout=120) == here


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="a parent renicing its child")
def test_workers_are_nicer_from_their_start_not_once_they_have_booted(monkeypatch) -> None:
    """The parent renices each worker as it starts, so its interpreter start-up and
    imports already run nicer than the window; it does not nice itself a second time."""
    monkeypatch.setattr(procpool, "_niceness", 0)
    procpool.set_worker_niceness(4)
    try:
        here = os.nice(0)
        ctx = procpool.spawn_context()
        assert procpool.left_to_child(ctx, 4) == 0
        with procpool.spawn_pool(2) as pool:
            niceness = {pool.submit(_niceness).result(timeout=120) for _ in range(4)}
            assert niceness == {min(here + 4, 19)}
            started = [p.pid for p in pool._processes.values()]
            assert started and all(
                os.getpriority(os.PRIO_PROCESS, pid) == min(here + 4, 19) for pid in started
            )
    finally:
        procpool.set_worker_niceness(0)
    plain = procpool.spawn_context()
    assert procpool.left_to_child(plain, 3) == 3  # at 0 nothing is done for the child


def _child_reports_niceness(send: object, stop: object, niceness: int) -> None:
    from aa_review.core.session._prepare import renice

    renice(niceness)
    send.send(("done", (os.nice(0), niceness)))  # type: ignore[attr-defined]


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="a parent renicing its child")
def test_a_process_of_its_own_is_niced_once() -> None:
    from aa_review.core.session._prepare import run_in_process

    here = os.nice(0)
    got, left = run_in_process(_child_reports_niceness, (), niceness=5)
    assert got == min(here + 5, 19) and left == 0
