"""SelectionHub without Qt: what one selection holds, its history, and when it says so."""

from __future__ import annotations

import numpy as np
from psygnal.testing import assert_emitted_once, assert_emitted_once_with, assert_not_emitted

from aa_review.core.session import Selection, SelectionHub


def test_update_keeps_other_fields_and_select_replaces_them() -> None:
    hub = SelectionHub()
    with assert_emitted_once(hub.changed):
        hub.update(row=3, evidence=2, source="rows")
    hub.update(evidence=5, source="evidence")
    assert (hub.current.row, hub.current.evidence, hub.current.source) == (3, 5, "evidence")
    hub.select(finding=1, source="findings")
    assert (hub.current.row, hub.current.evidence, hub.current.finding) == (None, None, 1)


def test_the_same_selection_again_says_nothing() -> None:
    hub = SelectionHub()
    rows = np.array([1, 4, 9])
    hub.update(row=1, rows=rows)
    with assert_not_emitted(hub.changed):
        hub.update(row=1, rows=rows, source="another view")
    with assert_emitted_once(hub.changed):  # the same positions in a new array: a new set
        hub.update(rows=np.array([1, 4, 9]))


def test_back_and_forward_walk_the_history() -> None:
    hub = SelectionHub()
    for r in (1, 2, 3):
        hub.update(row=r)
    assert hub.can_go_back() and not hub.can_go_forward()
    with assert_emitted_once_with(hub.changed, Selection(row=2, source="history")):
        hub.back()
    hub.back()
    assert hub.current.row == 1
    hub.forward()
    assert hub.current.row == 2 and hub.can_go_forward()
    hub.update(row=7)  # a new selection ends the forward history
    assert not hub.can_go_forward()


def test_history_is_bounded() -> None:
    hub = SelectionHub(history_limit=5)
    for r in range(20):
        hub.update(row=r)
    steps = 0
    while hub.can_go_back():
        hub.back()
        steps += 1
    assert steps == 5 and hub.current.row == 14


def test_clear_can_defer_its_event() -> None:
    hub = SelectionHub()
    hub.update(row=4)
    with assert_not_emitted(hub.changed):
        hub.clear(emit=False)
    assert hub.current == Selection() and not hub.can_go_back()
    hub.update(row=4)
    with assert_emitted_once_with(hub.changed, Selection()):
        hub.clear()


def test_forget_findings_drops_them_everywhere_in_the_history() -> None:
    hub = SelectionHub()
    hub.select(finding=2, location=1, row=5)
    hub.update(row=6)
    hub.update(finding=3, location=0)
    with assert_emitted_once(hub.changed):
        hub.forget_findings()
    assert hub.current.finding is None and hub.current.location is None
    assert hub.current.row == 6
    while hub.can_go_back():
        hub.back()
        assert hub.current.finding is None
    assert hub.current.row is None


def test_row_count() -> None:
    assert Selection().row_count == 0
    assert Selection(row=3).row_count == 1
    assert Selection(row=3, rows=np.arange(4)).row_count == 4
