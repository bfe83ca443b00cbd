"""Worst first in the window: the findings list, its groups and their Worst header."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.gui

RANK = {"info": 0, "low": 1, "warning": 2, "error": 3, "critical": 4}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The demo package: its only critical finding (a leaked secret) comes late in check
    order, below the fold of a small window."""
    from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample

    return ensure_sample(tmp_path_factory.mktemp("worst") / "demo") / SAMPLE_PACKAGE_ID


def _audited(window: Any, root: Any) -> Any:
    window.open_package(root)
    window.controller.run_audit()
    assert window.session.report is not None
    return window.session.findings


def _keys(model: Any) -> list[tuple[int, int]]:
    out = []
    for r in range(model.rowCount()):
        f = model.finding(r)
        out.append((-f.severity.rank, -len(f.locations)))
    return out


def test_the_findings_list_starts_with_the_worst(window, mixed) -> None:
    from aa_review.core.findings import worst_first

    state = _audited(window, mixed)
    model = window.findings.model
    first = [f.severity.value for f in state.findings]
    assert first.index("critical") > 0  # the checks do not list it first
    assert model.finding(0).severity.value == "critical"
    assert [model.position(r) for r in range(model.rowCount())] == worst_first(state.findings)
    keys = _keys(model)
    assert keys == sorted(keys)
    # Within a query, too; and a header click, then "no sort", comes back to it.
    window.session.set_query("findings", "-quirk:yes")
    keys = _keys(model)
    assert keys == sorted(keys) and 0 < len(keys) < len(state.findings)
    model.sort(1)
    model.sort(-1)
    assert _keys(model) == keys


def test_groups_come_worst_first_and_the_worst_header_sorts_by_rank(window, mixed) -> None:
    from PySide6.QtCore import Qt

    _audited(window, mixed)
    panel = window.findings
    panel.group_by.setCurrentIndex(panel.group_by.findData("severity"))
    groups = panel.groups

    def column(col: int) -> list[str]:
        return [groups.model.item(r, col).text() for r in range(groups.model.rowCount())]

    names = column(0)
    assert len(names) >= 3 and names == sorted(names, key=lambda s: -RANK[s])
    panel.group_by.setCurrentIndex(panel.group_by.findData("code"))
    worst = [RANK[s] for s in column(3)]
    assert worst == sorted(worst, reverse=True)  # by default, worst first
    groups.view.sortByColumn(3, Qt.SortOrder.AscendingOrder)
    worst = [RANK[s] for s in column(3)]
    assert worst == sorted(worst) and worst[0] < worst[-1]
    groups.view.sortByColumn(3, Qt.SortOrder.DescendingOrder)
    worst = [RANK[s] for s in column(3)]
    assert worst == sorted(worst, reverse=True)
    # Among equals, the group with more findings first, as by default.
    counts = [groups.model.item(r, 1).data(0) for r in range(groups.model.rowCount())]
    pairs = list(zip(worst, counts, strict=True))
    assert pairs == sorted(pairs, key=lambda p: (-p[0], -p[1]))
    groups.view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    counts = [groups.model.item(r, 1).data(0) for r in range(groups.model.rowCount())]
    assert counts == sorted(counts, reverse=True)  # numbers, not text
