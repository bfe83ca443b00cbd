"""PointsPlot: every row as a point, drawn as a raster so 100,000s of points cost one image."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from aa_review.core.session.charts import MAP_SHAPE, MAX_MARKERS, RowsMap, rasterize

__all__ = ["PointsPlot"]


def _lut(rgb: tuple[int, int, int]) -> np.ndarray:
    lut = np.zeros((2, 4), np.uint8)
    lut[1, :3] = rgb
    lut[1, 3] = 230
    return lut


class _Overlay:
    """Some rows drawn over the points in one colour: markers when few, else a raster."""

    def __init__(self, plot: PointsPlot, color: QColor, z: float) -> None:
        self.plot = plot
        self.image = pg.ImageItem()
        self.image.setZValue(z)
        self.markers = pg.ScatterPlotItem(size=7, pen=None)
        self.markers.setZValue(z + 0.5)
        self.set_color(color)
        plot.addItem(self.image)
        plot.addItem(self.markers)
        self.count = 0

    def set_color(self, color: QColor) -> None:
        self.image.setLookupTable(_lut((color.red(), color.green(), color.blue())))
        self.markers.setBrush(pg.mkBrush(color.red(), color.green(), color.blue(), 230))

    def show(self, positions: np.ndarray | None) -> None:
        p = self.plot
        if positions is None or len(positions) == 0 or len(p.x) == 0:
            self.markers.setData([], [])
            self.image.setVisible(False)
            self.count = 0
            return
        pos = np.asarray(positions, dtype=np.int64)
        pos = pos[(pos >= 0) & (pos < len(p.x))]
        self.count = len(pos)
        if len(pos) <= MAX_MARKERS:
            self.image.setVisible(False)
            self.markers.setData(p.x[pos], p.y[pos])
        else:
            self.markers.setData([], [])
            img = rasterize(p.x[pos], p.y[pos], p.bounds, p.SHAPE)
            self.image.setImage(img.astype(np.uint8), autoLevels=False, levels=(0, 1))
            self.image.setRect(p.rect)
            self.image.setVisible(True)


class _BrushBox(pg.ViewBox):
    """A view box where dragging with the left button draws a rectangle (the brush)."""

    def __init__(self) -> None:
        super().__init__()
        self.on_brush: Callable[[float, float, float, float], object] | None = None
        self.band = pg.QtWidgets.QGraphicsRectItem()
        self.band.setPen(pg.mkPen((230, 90, 30), width=1, style=Qt.PenStyle.DashLine))
        self.band.setBrush(pg.mkBrush(230, 90, 30, 40))
        self.band.setZValue(20)
        self.band.setVisible(False)
        self.addItem(self.band, ignoreBounds=True)

    def mouseDragEvent(self, ev: Any, axis: object = None) -> None:  # noqa: N802 - pyqtgraph's event, no stubs
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        a = self.mapToView(ev.buttonDownPos())
        b = self.mapToView(ev.pos())
        rect = QRectF(a, b).normalized()
        self.band.setRect(rect)
        self.band.setVisible(not ev.isFinish())
        if ev.isFinish() and self.on_brush is not None:
            self.on_brush(rect.left(), rect.right(), rect.top(), rect.bottom())


class PointsPlot(pg.PlotWidget):
    """Points (row position, value) as one raster image; the highlighted rows as one overlay.

    Per-point brushes would cost hundreds of milliseconds at this size; one image
    and one overlay item keep a redraw within a frame.
    """

    SHAPE = MAP_SHAPE

    def __init__(self) -> None:
        self.box = _BrushBox()
        super().__init__(viewBox=self.box)
        self.on_brush: Callable[[np.ndarray], None] | None = None
        self.box.on_brush = self.brush
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.base = pg.ImageItem()
        self.base.setLookupTable(_lut((70, 130, 180)))
        self.dots = pg.ScatterPlotItem(size=4, pen=None, brush=(70, 130, 180, 200))
        for item in (self.base, self.dots):
            self.addItem(item)
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self.bounds = (0.0, 1.0, 0.0, 1.0)
        self.rect = QRectF(0.0, 0.0, 1.0, 1.0)
        # Over the points, each in its own colour: the rows the query keeps, the active
        # subset, the selected rows (a finding's rows, those citing the selected evidence).
        self.kept = _Overlay(self, QColor(230, 90, 30), 5)
        self.over, self.markers = self.kept.image, self.kept.markers
        self.subset = _Overlay(self, QColor("#31a354"), 7)
        self.selected = _Overlay(self, QColor(200, 30, 30), 8)

    def set_points(self, points: RowsMap, x_label: str, y_label: str) -> None:
        """Show ``points`` (made off the GUI thread: ``charts.rows_map``)."""
        self.x, self.y = points.x, points.y
        self.bounds = points.bounds
        _x0, x1, y0, y1 = points.bounds
        few = points.image is None
        self.dots.setData(self.x, self.y) if few else self.dots.setData([], [])
        self.base.setVisible(not few)
        if points.image is not None:
            self.base.setImage(points.image, autoLevels=False, levels=(0, 1))
        rect = QRectF(0.0, y0, x1, y1 - y0)
        self.rect = rect
        self.base.setRect(rect)
        self.getPlotItem().setLabel("bottom", x_label)
        self.getPlotItem().setLabel("left", y_label)
        self.setXRange(0, x1, padding=0.02)
        self.setYRange(y0, y1, padding=0.05)
        self.highlight(None)
        self.subset.show(None)
        self.selected.show(None)

    def brush(self, x0: float, x1: float, y0: float, y1: float) -> np.ndarray:
        """The rows whose point lies in the rectangle; handed to ``on_brush``."""
        inside = (self.x >= x0) & (self.x <= x1) & (self.y >= y0) & (self.y <= y1)
        rows = np.flatnonzero(inside)
        if self.on_brush is not None:
            self.on_brush(rows)
        return rows

    def highlight(self, positions: np.ndarray | None) -> None:
        """Mark the rows at ``positions`` (None: no highlight)."""
        self.kept.show(positions)
