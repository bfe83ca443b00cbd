"""Opening fills the views over several turns of the event loop, one view per turn.

The window holds every view when a package opens and releases one per turn
(``views/_turns.py``). Tests elsewhere run the steps at once (AA_REVIEW_SYNCHRONOUS);
here they run one per turn, as in the application.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

VIEWS = (
    "rows",
    "findings",
    "detail",
    "evidence",
    "evidence_rows",
    "row_evidence",
    "plots",
    "contracts",
    "facets",
)


@pytest.fixture
def staged(window):
    window.turns.at_once = False  # one step per turn, as the application runs them
    return window


@pytest.fixture
def other_package(tmp_path: Path) -> Path:
    from aa_review.generator import generate_package

    return generate_package(tmp_path / "next", rows=80, seed=2).root


def shown(win, pkg) -> set[str]:
    """The views that show ``pkg`` now (each by what it displays)."""
    opened = win.session.opened
    out = set()
    if win.rows.model.row_index is pkg.index:
        out.add("rows")
    if win.evidence_rows.model.row_index is pkg.index:
        out.add("evidence_rows")
    for name in ("evidence", "row_evidence"):
        if getattr(win, name).model._pkg is pkg:
            out.add(name)
    state = win.findings.state
    if state is not None and opened is not None and opened.package is pkg:
        if state.version == opened.version:
            out.add("findings")
    for name in ("detail", "contracts", "plots"):
        if getattr(win, name).pkg is pkg:
            out.add(name)
    facets = win.facets.model
    if opened is not None and opened.package is pkg and facets.rowCount():
        group = opened.prepared.facets[0]
        head = facets.item(0, 0)
        values = [
            (head.child(r, 0).text(), head.child(r, 1).text()) for r in range(head.rowCount())
        ]
        if values == [(name, f"{n:,}") for name, n in group.counts]:
            out.add("facets")
    return out


def test_every_view_shows_the_package_one_view_per_turn(staged, qtbot, sample_copy) -> None:
    win = staged
    per_step: list[tuple[str, set[str]]] = []
    win.turns.ran.connect(lambda name: per_step.append((name, shown(win, win.session.package))))
    win.open_package(sample_copy)
    pkg = win.session.package
    assert pkg is not None
    assert not shown(win, pkg)  # opened: every view waits for its turn
    qtbot.waitUntil(lambda: shown(win, pkg) == set(VIEWS) and not win.turns.pending)
    assert win.count_label.text() == "60 of 60 rows"
    # One view more per turn, the rows first; no turn filled them all (the evidence
    # table's columns are fitted in later turns: "evidence_widths").
    fills = [(name, views) for name, views in per_step if name in VIEWS]
    assert [name for name, _ in fills] == list(VIEWS)
    for k, (name, views) in enumerate(fills):
        assert views == set(VIEWS[: k + 1]), name
    assert [name for name, _ in per_step][len(VIEWS) :] == ["evidence_widths"]


def test_a_package_opened_while_another_fills_ends_shown_alone(
    staged, qtbot, sample_copy, other_package, monkeypatch
) -> None:
    win = staged
    filled: list[tuple[str, object]] = []  # every fill of these views, with its package
    for name in ("evidence", "plots"):
        panel = getattr(win, name)

        def fill(opened, panel=panel, name=name, real=panel.show_package):
            filled.append((name, opened.package if opened is not None else None))
            real(opened)

        monkeypatch.setattr(panel, "show_package", fill)
    win.open_package(sample_copy)
    first = win.session.package
    pending: list[int] = []
    seen: list[set[str]] = []

    def after(name: str) -> None:
        if pending:  # B opened: what still shows A
            seen.append(shown(win, first))
        elif name == "rows":  # A half filled: B opens, A's other steps still queued
            pending.append(win.turns.pending)
            win.open_package(other_package)

    win.turns.ran.connect(after)
    qtbot.waitUntil(lambda: bool(pending))
    second = win.session.package
    assert second is not first and pending[0] > 0
    qtbot.waitUntil(lambda: shown(win, second) == set(VIEWS) and not win.turns.pending)
    assert not shown(win, first)
    assert all(views <= {"rows"} for views in seen)  # no step filled a view with A
    assert filled == [("evidence", second), ("plots", second)]  # not even for a moment
    assert win.rows.model.rowCount() == 80
    assert win.count_label.text() == "80 of 80 rows"


def test_no_step_runs_once_the_window_closed(staged, qtbot, sample_copy, turns_pass) -> None:
    win = staged
    ran: list[str] = []
    win.turns.ran.connect(ran.append)
    win.open_package(sample_copy)
    assert win.turns.pending
    win.close()
    turns_pass(3)
    assert ran == [] and not win.turns.pending
    assert not shown(win, win.session.package)


def test_a_saved_session_is_restored_once_the_views_filled(
    staged, qtbot, sample_copy, tmp_path, settings
) -> None:
    from aa_review.qt.app import create_window

    staged.turns.at_once = True  # the session saved from a window filled at once
    staged.open_package(sample_copy)
    staged.rows.query.set_text("type:*_event")
    staged.session.selection.select(row=3, evidence=5, source="test")
    staged.center.setCurrentIndex(1)
    path = staged.controller.save_session(tmp_path / "s.aareview.json")
    assert path is not None
    want = staged.rows.model.rowCount()

    other = create_window(settings)
    qtbot.addWidget(other)
    other.turns.at_once = False
    other.resize(1400, 900)
    other.show()
    assert other.controller.open_session(path)
    pkg = other.session.package
    qtbot.waitUntil(lambda: shown(other, pkg) == set(VIEWS))
    assert other.rows.query.text() == "type:*_event"
    assert other.rows.model.rowCount() == want < 60
    sel = other.session.selection.current
    assert sel.row == 3 and sel.evidence == 5
    current = other.rows.view.currentIndex()
    assert current.isValid() and other.rows.model.position(current.row()) == 3
    assert other.row_evidence.model.rowCount() > 0  # the evidence row 3 cites
    assert other.center.currentIndex() == 1


def test_a_step_that_goes_on_runs_before_the_next_and_is_dropped_by_cancel(
    qtbot, turns_pass
) -> None:
    from aa_review.qt.views._turns import Turns

    turns = Turns(at_once=False)
    done: list[str] = []
    ran: list[str] = []
    turns.ran.connect(ran.append)

    def fit():
        for k in range(3):
            done.append(f"a{k}")
            yield

    turns.add("a", fit)
    turns.add("b", lambda: done.append("b"))
    assert done == []  # nothing runs until the event loop turns
    qtbot.waitUntil(lambda: ran == ["a", "b"])
    assert done == ["a0", "a1", "a2", "b"]

    def cancelled_midway():  # as when another package opens meanwhile
        done.append("c0")
        turns.cancel()
        yield
        done.append("c1")

    done.clear()
    turns.add("c", cancelled_midway)
    turns.add("b", lambda: done.append("b"))
    qtbot.waitUntil(lambda: "c0" in done)
    turns_pass(3)
    assert done == ["c0"] and not turns.pending and ran == ["a", "b"]


def test_the_window_hands_the_interpreter_lock_to_a_waiting_thread_within_a_millisecond(
    window,
) -> None:
    """Qt calls into Python once per painted cell, each call taking the lock; with a
    loading thread running Python, the default 5 ms switch interval made a paint wait
    up to that long per call (opening 100,000 rows stalled 110-140 ms; 40-65 ms with 1 ms)."""
    import sys

    assert sys.getswitchinterval() <= 0.001
