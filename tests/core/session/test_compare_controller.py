"""Compare mode's controller without Qt: a runner that runs each job in this thread (at
once, or when flushed), a view that records what it is told, and the session holding
the comparison. Checked against what the generator changed between the two packages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.package import open_package
from aa_review.core.session import (
    BASELINE_LANE,
    COMPARE_LANE,
    FINDINGS_LANE,
    SIDE_LANE,
    Cancelled,
    CompareController,
    ReviewSession,
    prepare_package,
)
from aa_review.generator import ChangeSpec, derive_package, generate_package


class Runner:
    """Runs each job in this thread: at once, or when ``flush`` is called (``deferred``)."""

    def __init__(self, deferred: bool = False) -> None:
        self.deferred = deferred
        self.queue: list[tuple[str, Callable[[], None]]] = []
        self.stopped: list[str] = []
        self.cancelled: list[str] = []

    class _Job:
        def __init__(self, stop: Callable[[], bool], report: Callable[[Any], None] | None) -> None:
            self._stop, self._report = stop, report

        def cancelled(self) -> bool:
            return self._stop()

        def progress(self, value: Any) -> None:
            if self._report is not None:
                self._report(value)

    def run(
        self,
        lane: str,
        work: Callable[[Any], Any],
        *,
        done: Callable[[Any], object],
        failed: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        cancelled: Callable[[], None] | None = None,
    ) -> None:
        def body() -> None:
            try:
                result = work(self._Job(lambda: lane in self.stopped, progress))
            except Cancelled:
                if cancelled:
                    cancelled()
            except Exception as exc:  # noqa: BLE001 - handed to the callback, as the real one
                if failed:
                    failed(exc)
            else:
                done(result)

        if self.deferred:
            self.queue.append((lane, body))
        else:
            body()

    def flush(self) -> None:
        todo, self.queue = self.queue, []
        for _lane, body in todo:
            body()

    def stop(self, lane: str) -> None:
        self.stopped.append(lane)

    def cancel(self, lane: str) -> None:
        self.cancelled.append(lane)
        self.queue = [j for j in self.queue if j[0] != lane]  # its result is dropped

    def is_running(self, lane: str) -> bool:
        return any(j[0] == lane for j in self.queue)


class View:
    """Records what the controller tells the user, in order."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str]] = []

    def show_busy(self, text: str, fraction: float | None = None) -> None:
        self.told.append(("busy", text))

    def show_idle(self, text: str) -> None:
        self.told.append(("idle", text))

    def status(self, text: str, ms: int = 6000) -> None:
        self.told.append(("status", text))

    def warn(self, title: str, text: str) -> None:
        self.told.append(("warn", f"{title}: {text}"))

    def said(self, kind: str) -> list[str]:
        return [text for k, text in self.told if k == kind]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    base = generate_package(
        tmp_path_factory.mktemp("ctl_base"), rows=40, seed=3, package_id="pkg_ctl"
    ).root
    derived = derive_package(
        base,
        tmp_path_factory.mktemp("ctl_new"),
        ChangeSpec(rows_added=2, rows_removed=1, rows_changed=2, evidence_hidden=1),
        seed=9,
    )
    return base, derived


def _open(session: ReviewSession, root: Path) -> None:
    session.open(prepare_package(open_package(root)))


def _parts(
    pair: tuple[Path, Any], deferred: bool = False
) -> tuple[CompareController, ReviewSession, View, Runner]:
    s, view, runner = ReviewSession(), View(), Runner(deferred)
    ctl = CompareController(s, view, runner, niceness=None, open_package=lambda p: _open(s, p))
    _open(s, pair[1].root)
    return ctl, s, view, runner


def test_opening_a_baseline_sets_the_comparison_on_the_session(pair) -> None:  # type: ignore[no-untyped-def]
    base, derived = pair
    ctl, s, view, _runner = _parts(pair)
    ctl.open_baseline(base)
    c = s.comparison
    assert c is not None and c.baseline.root == base and c.prepared is not None
    assert c.prepared.package is s.package
    rec = derived.changes
    counts = c.prepared.counts()
    assert counts["added"] == len(rec.rows_added) and counts["removed"] == len(rec.rows_removed)
    assert view.said("busy")[0] == f"Opening the baseline {base.name}…"
    assert view.said("idle")[-1].startswith(f"Compared with the baseline {c.baseline.package_id}")
    assert f"{len(rec.rows_added)} added" in view.said("idle")[-1]
    assert view.said("warn") == []


def test_nothing_open_is_nothing_to_compare(pair) -> None:  # type: ignore[no-untyped-def]
    s, view, runner = ReviewSession(), View(), Runner()
    CompareController(s, view, runner).open_baseline(pair[0])
    assert s.comparison is None
    assert view.said("warn") and view.said("warn")[0].startswith("Nothing to compare")
    assert view.said("busy") == []


def test_a_baseline_that_cannot_be_opened_says_so(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ctl, s, view, _runner = _parts(pair)
    missing = tmp_path / "not-a-package"
    ctl.open_baseline(missing)
    assert s.comparison is None
    assert view.said("idle")[-1] == "Could not open the baseline"
    (warning,) = view.said("warn")
    assert warning.startswith("Cannot compare: ") and "not-a-package" in warning


def test_swap_opens_the_baseline_and_compares_the_other_way(pair) -> None:  # type: ignore[no-untyped-def]
    base, derived = pair
    ctl, s, view, _runner = _parts(pair)
    ctl.open_baseline(base)
    before = s.comparison.prepared.counts()
    ctl.swap()
    assert s.package is not None and s.package.root == base
    c = s.comparison
    assert c is not None and c.baseline.root == derived.root and c.prepared is not None
    after = c.prepared.counts()
    assert (after["added"], after["removed"]) == (before["removed"], before["added"])
    assert "Baseline closed" not in view.said("status")  # compared again at once


def test_a_swap_whose_open_failed_gives_no_baseline_to_a_later_open(pair) -> None:  # type: ignore[no-untyped-def]
    base, derived = pair
    s, view, runner = ReviewSession(), View(), Runner()
    asked: list[Path] = []
    ctl = CompareController(s, view, runner, open_package=asked.append)
    _open(s, derived.root)
    ctl.open_baseline(base)
    ctl.swap()
    assert asked == [base] and s.comparison is None
    ctl.open_gave_up(base)  # as the window's controller says when that open failed
    _open(s, base)
    assert s.comparison is None


def test_closing_the_baseline(pair) -> None:  # type: ignore[no-untyped-def]
    ctl, s, view, runner = _parts(pair)
    ctl.open_baseline(pair[0])
    assert s.comparison is not None
    ctl.close_baseline()
    assert s.comparison is None
    assert view.said("status") == ["Baseline closed"]
    assert {BASELINE_LANE, COMPARE_LANE, SIDE_LANE, FINDINGS_LANE} <= set(runner.cancelled)
    ctl.close_baseline()  # nothing open: nothing said
    assert view.said("status") == ["Baseline closed"]


def test_cancel_stops_the_baseline_while_it_opens(pair) -> None:  # type: ignore[no-untyped-def]
    ctl, s, view, runner = _parts(pair, deferred=True)
    ctl.open_baseline(pair[0])
    assert runner.is_running(BASELINE_LANE) and s.comparison is None
    ctl.cancel()
    assert {BASELINE_LANE, COMPARE_LANE, FINDINGS_LANE} <= set(runner.stopped)
    runner.flush()
    assert s.comparison is None
    assert view.said("idle")[-1] == "Comparing cancelled"


def test_replacing_the_package_computes_the_diff_again(pair) -> None:  # type: ignore[no-untyped-def]
    base, derived = pair
    ctl, s, view, _runner = _parts(pair)
    ctl.open_baseline(base)
    before = s.comparison.prepared
    _open(s, derived.root)  # a reload: the same folder read again
    c = s.comparison
    assert c is not None and c.prepared is not None and c.prepared is not before
    assert c.prepared.package is s.package
    assert view.said("busy")[-1] == f"Comparing with {c.baseline.package_id}…"


def test_compare_findings(pair) -> None:  # type: ignore[no-untyped-def]
    base, _derived = pair
    ctl, s, view, _runner = _parts(pair)
    ctl.compare_findings()  # no baseline: nothing to do
    assert view.said("busy") == []
    ctl.open_baseline(base)
    ctl.compare_findings()
    fd = s.comparison.findings
    assert fd is not None
    assert any(f["code"] == "link.hidden_cited" for f in fd.new)  # the hidden item is cited
    assert view.said("idle")[-1] == (
        f"Findings: {len(fd.new):,} new, {len(fd.fixed):,} fixed, {len(fd.persisting):,} persisting"
    )


def test_the_changes_listed_follow_the_rows_query(pair) -> None:  # type: ignore[no-untyped-def]
    from aa_review.core.session import Scope, list_changes

    base, derived = pair
    ctl, s, _view, _runner = _parts(pair)
    ctl.open_baseline(base)
    p, rec = s.comparison.prepared, derived.changes

    def rows(query: str, limit: int = 2000) -> tuple[set[tuple[str, str]], str]:
        result = s.set_query(Scope.ROWS, query)
        listing = list_changes(p, None, query, result.positions, limit=limit)
        assert len(listing.items) == len(listing.targets)
        return {(it[0], it[2]) for it in listing.items if it[1] == "row"}, listing.note

    listed, note = rows("")
    assert {rid for kind, rid in listed if kind == "removed"} == set(rec.rows_removed)
    assert {rid for kind, rid in listed if kind == "added"} == set(rec.rows_added)
    assert note == ""
    listed, _ = rows("change:removed")  # no row of this package; the baseline's are listed
    assert {rid for _kind, rid in listed} == set(rec.rows_removed)
    listed, note = rows("", limit=1)
    assert len(listed) == 1 and "The first 1 of" in note
