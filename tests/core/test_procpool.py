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
