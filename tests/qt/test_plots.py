"""Plots as selection sources: bar -> rows query, histogram range -> rows, selection -> marker."""

from __future__ import annotations

import numpy as np
import pytest

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
