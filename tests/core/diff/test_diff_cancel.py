"""Cancelling a diff that is already running (compare mode's Cancel): it stops between
its stages and while changed rows are read again, and raises; an answer of "no" all
the way gives the diff unchanged."""

from __future__ import annotations

import pytest

from aa_review.core.diff import DiffCancelled, diff, to_json
from aa_review.core.diff import _rowdetail as rowdetail
from aa_review.core.package import Package


class After:
    """``cancelled()`` that turns true on its ``n``-th call; counts its calls."""

    def __init__(self, n: int | None) -> None:
        self.n, self.calls = n, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.n is not None and self.calls >= self.n


def test_a_diff_never_cancelled_is_the_diff(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    _, new = derive(seed=4, rows_changed=5, rows_added=2)
    asked = After(None)
    d = diff(base, new, cancelled=asked)
    assert asked.calls >= 4  # between the stages, and while rows are read again
    assert to_json(d) == to_json(diff(base, new))  # the same report, field for field


@pytest.mark.parametrize("at", [1, 2, 3, 4])
def test_a_diff_cancelled_at_any_poll_raises(base: Package, derive, at: int) -> None:  # type: ignore[no-untyped-def]
    _, new = derive(seed=4, rows_changed=5)
    asked = After(at)
    with pytest.raises(DiffCancelled):
        diff(base, new, cancelled=asked)
    assert asked.calls == at  # nothing more was asked once it said yes


def test_reading_changed_rows_again_is_polled(base: Package, derive, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(rowdetail, "POLL_PAIRS", 1)  # every pair
    _, new = derive(seed=5, rows_changed=6)
    counted = After(None)
    diff(base, new, cancelled=counted)
    monkeypatch.setattr(rowdetail, "POLL_PAIRS", 10_000)
    few = After(None)
    diff(base, new, cancelled=few)
    assert counted.calls - few.calls >= 5  # one more poll per changed pair


def test_compare_modes_diff_is_cancelled_as_the_session_cancels(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    from aa_review.core.session import Cancelled, prepare_comparison

    _, new = derive(seed=4, rows_changed=5)
    with pytest.raises(Cancelled):
        prepare_comparison(base, new, After(3))
