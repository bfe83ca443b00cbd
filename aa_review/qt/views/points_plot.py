"""PointsPlot: every row as a point, drawn as a raster so 100,000s of points cost one image."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

__all__ = ["PointsPlot", "rasterize"]

MAX_MARKERS = 5000  # above this, points are a raster image rather than markers


def rasterize(x: np.ndarray, y: np.ndarray, bounds: tuple[float, float, float, float],
              shape: tuple[int, int]) -> np.ndarray:
    """A boolean (nx, ny) image: True where at least one point falls in the pixel."""
    nx, ny = shape
    x0, x1, y0, y1 = bounds
    ok = ~(np.isnan(x) | np.isnan(y))
    ix = np.clip(((x[ok] - x0) * (nx / ((x1 - x0) or 1.0))).astype(np.int64), 0, nx - 1)
    iy = np.clip(((y[ok] - y0) * (ny / ((y1 - y0) or 1.0))).astype(np.int64), 0, ny - 1)
    counts = np.bincount(ix * ny + iy, minlength=nx * ny)
    img = (counts > 0).reshape(nx, ny)
    # Grow each lit pixel to 2x2 so a lone point stays visible once the image is scaled.
    img[1:, :] |= img[:-1, :]
    img[:, 1:] |= img[:, :-1]
    return img


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

    SHAPE = (600, 300)

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

    def set_points(self, x: np.ndarray, y: np.ndarray, x_label: str, y_label: str) -> None:
        self.x, self.y = np.asarray(x, float), np.asarray(y, float)
        finite = self.y[~np.isnan(self.y)]
        y0, y1 = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        if y1 == y0:
            y0, y1 = y0 - 0.5, y1 + 0.5
        x1 = float(self.x.max()) + 1 if self.x.size else 1.0
        self.bounds = (0.0, x1, y0, y1)
        few = len(self.x) <= MAX_MARKERS
        self.dots.setData(self.x, self.y) if few else self.dots.setData([], [])
        self.base.setVisible(not few)
        if not few:
            self.base.setImage(rasterize(self.x, self.y, self.bounds, self.SHAPE)
                               .astype(np.uint8), autoLevels=False, levels=(0, 1))
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
