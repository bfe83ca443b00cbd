"""At 1366x768 (issue 25, item 7): the Row detail keeps room for values, the plot tabs
all show."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui


@pytest.fixture
def small(qtbot, settings, sample_copy):
    from aa_review.qt.app import create_window

    w = create_window(settings)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.open_package(sample_copy)
    return w


def test_the_row_detail_values_have_most_of_the_width(small, qtbot) -> None:
    detail = small.detail
    small.docks["detail"].raise_()
    small.session.select_row(0, source="rows")
    qtbot.waitUntil(lambda: detail.model.rowCount() > 0)
    view = detail.view
    width = view.viewport().width()
    assert width > 0
    assert view.columnWidth(0) <= 0.4 * width  # it was 240 px of about 330
    assert width - view.columnWidth(0) >= 0.6 * width
    assert view.textElideMode() is Qt.TextElideMode.ElideMiddle  # a row id keeps its end
    # wider, the keys get their room back, up to what they need
    small.resize(1920, 1080)
    qtbot.waitUntil(lambda: view.viewport().width() != width)
    assert view.columnWidth(0) >= min(240, int(0.34 * view.viewport().width())) - 1


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_every_plot_tab_shows_whole(small, qtbot, size) -> None:
    small.resize(*size)
    small.docks["plots"].raise_()
    bar = small.plots.tabs.tabBar()
    qtbot.waitUntil(lambda: bar.isVisible() and bar.width() > 0)
    last = bar.tabRect(bar.count() - 1)
    assert last.right() <= bar.width(), (last, bar.width())
    for i in range(bar.count()):
        assert bar.tabToolTip(i)  # the whole name
        fm = bar.fontMetrics()
        assert bar.tabRect(i).width() >= fm.horizontalAdvance(bar.tabText(i))
