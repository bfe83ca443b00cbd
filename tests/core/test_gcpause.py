"""Loading without collector passes (core/util/gcpause) and the index's sets copied in
blocks: the two things that held the interpreter lock for 50-150 ms while the window
opened a 100,000-row package."""

from __future__ import annotations

import gc
import random
import threading

import pytest

from aa_review.core.package import index
from aa_review.core.util import gcpause


@pytest.fixture(autouse=True)
def _collector_restored():
    was = gc.isenabled()
    yield
    gc.unfreeze()
    if was:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_off_inside_and_back_on_after() -> None:
    gc.enable()
    with gcpause.paused():
        assert not gc.isenabled()
        with gcpause.paused():  # nested
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still runs
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with gcpause.paused():
        pass
    assert not gc.isenabled()


def test_an_exception_turns_it_back_on_and_freezes_nothing() -> None:
    gc.enable()
    frozen = gc.get_freeze_count()
    with pytest.raises(ValueError), gcpause.paused(freeze=True):
        raise ValueError("a load that failed")
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_freeze_keeps_what_was_loaded_out_of_later_passes() -> None:
    gc.enable()
    with gcpause.paused(freeze=True):
        loaded = [[i] for i in range(10_000)]  # containers the collector tracks
    assert gc.get_freeze_count() >= len(loaded)
    tracked = {id(o) for o in gc.get_objects()}  # the generations a pass scans
    assert not any(id(o) in tracked for o in loaded[:100])


def test_blocks_from_several_threads_end_with_the_last() -> None:
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with gcpause.paused():
            inside.set()
            release.wait(30)

    t = threading.Thread(target=other)
    t.start()
    assert inside.wait(30)
    with gcpause.paused():
        pass
    assert not gc.isenabled()  # the other thread's block is still open
    release.set()
    t.join(30)
    assert gc.isenabled()


@pytest.mark.parametrize("n", [0, 1, 7, index._BLOCK_SETS - 1, index._BLOCK_SETS, 10_001])
def test_sets_copied_in_blocks_are_the_sets(n: int) -> None:
    rng = random.Random(n)
    sets = [tuple(rng.randrange(400) for _ in range(rng.randrange(0, 40))) for _ in range(n)]
    out = index._as_arrays(sets)
    assert [tuple(a.tolist()) for a in out] == sets
    assert all(a.dtype.name == "int32" for a in out)
