"""Plots as selection sources: bar -> rows query, histogram range -> rows, selection -> marker."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt

from aa_review.core.package import open_package
from aa_review.core.session import charts

pytestmark = pytest.mark.gui


def test_chart_numbers(sample_copy) -> None:
    pkg = open_package(sample_copy)
    bars = charts.rows_by_type(pkg)
    assert bars.labels[0] == "environment_response_pair" and bars.values[0] == 20
    assert int(bars.values.sum()) == 60
    h = charts.histogram(pkg, "confidence")
    assert int(h.counts.sum()) + h.missing == 60
    cov = charts.coverage(pkg)
    assert dict(zip(cov.labels, cov.values.tolist(), strict=True))["resolved"] == 33


def test_bar_click_filters_rows(window, sample_copy) -> None:
    window.open_package(sample_copy)
    labels = charts.rows_by_type(window.session.package).labels
    i = labels.index("failure_case")
    window.plots._pick_type(i)
    assert window.rows.query.text() == "type:failure_case"
    assert window.rows.model.rowCount() == 3


def test_histogram_range_filters_rows(window, sample_copy) -> None:
    window.open_package(sample_copy)
    plot = window.plots.hists["evidence"]
    plot.region.setVisible(True)
    plot.region.setRegion((30, 40))
    plot.region.sigRegionChangeFinished.emit(plot.region)
    lo, hi = plot.region.getRegion()  # clamped to the histogram's range
    ix = window.session.package.index
    expected = np.flatnonzero((ix.n_evidence >= lo) & (ix.n_evidence <= hi))
    assert window.rows.model.rowCount() == len(expected) > 0
    assert window.rows.query.text() == f"evidence>={lo:.4g} evidence<={hi:.4g}"


def test_selected_row_marked_by_one_overlay(window, sample_copy) -> None:
    window.open_package(sample_copy)
    window.focus_view(window.plots)
    window.session.selection.update(row=4, source="test")
    plot = window.plots.hists["confidence"]
    assert plot.marker.isVisible()
    assert plot.marker.value() == pytest.approx(float(window.session.package.index.confidence[4]))
    items_before = len(plot.getPlotItem().items)
    window.session.selection.update(row=5, source="test")
    assert len(plot.getPlotItem().items) == items_before


def test_rows_map_raster_marks_every_point(sample_copy) -> None:
    pkg = open_package(sample_copy)
    small = charts.rows_map(pkg)
    assert small.image is None and len(small.x) == 60  # few points: markers, no raster
    x = np.arange(20_000, dtype=float)
    y = np.where(x % 2 == 0, 0.25, 0.75)
    img = charts.rasterize(x, y, (0.0, 20_000.0, 0.0, 1.0), charts.MAP_SHAPE)
    assert img.shape == charts.MAP_SHAPE
    rows_lit = {int(r) for r in np.flatnonzero(img.any(axis=0))}
    # both values drawn (each grown by one pixel), nothing else
    want = {int(0.25 * 300), int(0.75 * 300)}
    assert want <= rows_lit <= want | {w + 1 for w in want}
    assert img.any(axis=1).all()  # every column of the map has a point


def _drawn_labels(plot) -> list[str]:
    """The tick labels the bar plot's left axis draws now (pyqtgraph drops a label that
    does not fit its axis)."""
    from PySide6.QtGui import QImage, QPainter

    axis = plot.getPlotItem().getAxis("left")
    img = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(img)
    try:
        painter.setFont(axis.style.get("tickFont") or axis.font())
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [t for _r, _f, t in texts]


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_every_bar_is_labelled(window, sample_copy, size) -> None:
    window.open_package(sample_copy)
    window.resize(*size)
    window.focus_view(window.plots)
    window.plots.tabs.setCurrentWidget(window.plots.types)
    window.plots.types.resize(520, 400)
    bars = window.plots.types.bars
    drawn = _drawn_labels(window.plots.types)
    assert len(drawn) == len(bars.labels) == len(window.plots.types.tick_labels)
    # the longest type, the biggest bar, is labelled too
    assert window.plots.types.tick_labels[0] in drawn
    longest = max(bars.labels, key=len)
    assert window.plots.types.tick_labels[bars.labels.index(longest)] in drawn


def test_long_bar_labels_are_elided_in_the_middle_with_a_tooltip(window, qtbot) -> None:
    from aa_review.qt.views.plots_panel import MAX_LABEL_PX

    plot = window.plots.types
    window.focus_view(window.plots)
    window.plots.tabs.setCurrentWidget(plot)
    long = "a_very_long_data_type_name_" * 4 + "end"
    bars = charts.Bars([long, "short"], np.array([9, 3]), ["type:x", "type:short"])
    plot.resize(520, 400)
    plot.show_bars(bars, "#4682b4")
    qtbot.wait(20)
    elided = plot.tick_labels[0]
    assert elided != long and "…" in elided
    assert elided.startswith("a_very") and elided.endswith("end")  # middle elided
    assert plot.tick_labels[1] == "short"
    assert set(_drawn_labels(plot)) == set(plot.tick_labels)
    assert MAX_LABEL_PX > 0
    top = plot.getPlotItem().vb.mapViewToScene(pg.Point(4, 1))  # the top bar (y = n-1)
    plot._hovered(top)
    assert plot.toolTip().startswith(f"{long}: 9 rows")


def test_coverage_counts_evidence_items_and_clicks_filter_the_catalog(window, sample_copy) -> None:
    from aa_review.core.session import Scope

    window.open_package(sample_copy)
    cov = window.plots.coverage
    assert cov.getPlotItem().getAxis("bottom").labelText == "evidence items"
    assert cov.bars.unit == "evidence items" and cov.bars.scope == "evidence"
    i = cov.bars.labels.index("resolved")
    window.plots._pick_coverage(i)
    # through the session: the evidence query box shows it, the catalog keeps those items
    assert window.session.query(Scope.EVIDENCE) == "resolves:yes"
    assert window.evidence.query.text() == "resolves:yes"
    assert window.evidence.model.rowCount() == int(cov.bars.values[i]) > 0
    assert window.session.query(Scope.ROWS) == ""  # the rows are left alone
    assert window.docks["evidence"].isVisible()  # brought forward
    for label in ("unresolved", "hidden", "orphan ids"):
        k = cov.bars.labels.index(label)
        window.plots._pick_coverage(k)
        assert window.evidence.model.rowCount() == int(cov.bars.values[k])


def test_coverage_click_on_the_plot_filters(window, sample_copy, qtbot) -> None:
    from PySide6.QtCore import QPoint

    from aa_review.core.session import Scope

    window.open_package(sample_copy)
    window.focus_view(window.plots)
    window.plots.tabs.setCurrentWidget(window.plots.coverage)
    cov = window.plots.coverage
    cov.resize(500, 300)
    qtbot.wait(10)
    i = cov.bars.labels.index("unresolved")
    y = len(cov.bars.labels) - 1 - i
    scene = cov.getPlotItem().vb.mapViewToScene(pg.Point(0.2, y))
    view_pos = cov.mapFromScene(scene)
    qtbot.mouseClick(
        cov.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(int(view_pos.x()), int(view_pos.y()))
    )
    assert window.session.query(Scope.EVIDENCE) == "resolves:no"


def test_hidden_plots_catch_up_when_shown(window, sample_copy, qtbot) -> None:
    qtbot.waitExposed(window)
    window.open_package(sample_copy)
    window.docks["detail"].raise_()  # the plots are a tab behind the row detail
    qtbot.wait(10)
    assert window.plots.visibleRegion().isEmpty()
    window.session.selection.update(row=7, source="test")
    plot = window.plots.hists["confidence"]
    assert not plot.marker.isVisible()  # nothing drawn while hidden
    window.focus_view(window.plots)
    qtbot.wait(10)
    assert plot.marker.isVisible()
    assert plot.marker.value() == pytest.approx(float(window.session.package.index.confidence[7]))
