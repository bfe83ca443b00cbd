"""PointsPlot: every row as a point, drawn as a raster so 100,000s of points cost one image."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from aa_review.core.session.charts import MAP_SHAPE, MAX_MARKERS, RowsMap, rasterize

__all__ = ["PointsPlot"]


def _lut(rgb: tuple[int, int, int]) -> np.ndarray:
    lut = np.zeros((2, 4), np.uint8)
    lut[1, :3] = rgb
    lut[1, 3] = 230
    return lut


class PointsPlot(pg.PlotWidget):
    """Points (row position, value) as one raster image; the highlighted rows as one overlay.

    Per-point brushes would cost hundreds of milliseconds at this size; one image
    and one overlay item keep a redraw within a frame.
    """

    SHAPE = MAP_SHAPE

    def __init__(self) -> None:
        super().__init__()
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.base = pg.ImageItem()
        self.base.setLookupTable(_lut((70, 130, 180)))
        self.over = pg.ImageItem()
        self.over.setLookupTable(_lut((230, 90, 30)))
        self.over.setZValue(5)
        self.markers = pg.ScatterPlotItem(size=6, pen=None, brush=(230, 90, 30, 220))
        self.markers.setZValue(6)
        self.dots = pg.ScatterPlotItem(size=4, pen=None, brush=(70, 130, 180, 200))
        for item in (self.base, self.dots, self.over, self.markers):
            self.addItem(item)
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self.bounds = (0.0, 1.0, 0.0, 1.0)

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
        self.base.setRect(rect)
        self.over.setRect(rect)
        self.getPlotItem().setLabel("bottom", x_label)
        self.getPlotItem().setLabel("left", y_label)
        self.setXRange(0, x1, padding=0.02)
        self.setYRange(y0, y1, padding=0.05)
        self.highlight(None)

    def highlight(self, positions: np.ndarray | None) -> None:
        """Mark the rows at ``positions`` (None: no highlight)."""
        if positions is None or len(positions) == 0:
            self.markers.setData([], [])
            self.over.setVisible(False)
            return
        pos = np.asarray(positions, dtype=np.int64)
        if len(pos) <= MAX_MARKERS:
            self.over.setVisible(False)
            self.markers.setData(self.x[pos], self.y[pos])
        else:
            self.markers.setData([], [])
            img = rasterize(self.x[pos], self.y[pos], self.bounds, self.SHAPE)
            self.over.setImage(img.astype(np.uint8), autoLevels=False, levels=(0, 1))
            self.over.setVisible(True)
