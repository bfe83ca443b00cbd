"""Plots follow the application's light or dark palette."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

__all__ = ["theme_plot"]


def theme_plot(widget: pg.PlotWidget) -> None:
    """Background and axes from the application palette (set at once by a theme change)."""
    palette = QApplication.palette()
    widget.setBackground(palette.color(QPalette.ColorRole.Base))
    fg = palette.color(QPalette.ColorRole.Text)
    item = widget.getPlotItem()
    for side in ("left", "bottom"):
        axis = item.getAxis(side)
        axis.setPen(pg.mkPen(fg))
        axis.setTextPen(pg.mkPen(fg))
    item.titleLabel.setAttr("color", fg)
