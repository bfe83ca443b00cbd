"""Dossier plots: power against clusters per arm; lower-rung bounds against the useful effect."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QTabWidget

from aa_review.core.dossier import PowerCurve
from aa_review.qt.plot_theme import theme_plot

__all__ = ["DossierPlots"]


def _dark() -> bool:
    return QApplication.palette().color(QPalette.ColorRole.Base).lightness() < 128


# Series colours legible on both backgrounds (light, dark).
_BASE = ("#1565c0", "#64b5f6")
_WORST = ("#e65100", "#ffb74d")
_LINE = ("#c62828", "#ef9a9a")
_PLANNED = ("#2e7d32", "#81c784")
_BARS = ("#5c6bc0", "#9fa8da")


def _c(pair: tuple[str, str]) -> str:
    return pair[1] if _dark() else pair[0]


class DossierPlots(QTabWidget):
    def __init__(self) -> None:
        super().__init__()
        self.power = pg.PlotWidget()
        self.bounds = pg.PlotWidget()
        # The power curves rise from the lower left: their legend sits at the lower right,
        # clear of the curves and of the 0.80 label at the left. The bounds sit under the
        # useful-effect line: their legend goes to the upper left.
        self.power.addLegend(offset=(-10, -10), colCount=3)  # one line: it fits small plots
        self.bounds.addLegend(offset=(10, 10), colCount=2)
        for w in (self.power, self.bounds):
            w.setMouseEnabled(x=False, y=False)
            w.hideButtons()
            theme_plot(w)
            self._theme_legend(w)
        self.addTab(self.power, "Power curve")
        self.addTab(self.bounds, "Lower-rung bounds")
        # What is drawn now: a refresh that changes neither (a new acting principal)
        # does not redraw. The initial values differ from anything shown.
        self._shown_power: object = self
        self._shown_bounds: object = None

    def retheme(self) -> None:
        for w in (self.power, self.bounds):
            theme_plot(w)
            self._theme_legend(w)
        # Series colours follow the scheme: draw again.
        power, bounds = self._shown_power, self._shown_bounds
        self._shown_power, self._shown_bounds = self, None
        if power is not self:
            self.show_power(power)  # type: ignore[arg-type]  # not the sentinel: a curve or None
        if bounds is not None:
            self.show_bounds(*bounds)  # type: ignore[misc]  # the arguments it was last shown with

    @staticmethod
    def _theme_legend(w: pg.PlotWidget) -> None:
        legend = w.getPlotItem().legend
        if legend is None:
            return
        palette = QApplication.palette()
        base = QColor(palette.color(QPalette.ColorRole.Base))
        base.setAlpha(230)
        legend.setBrush(pg.mkBrush(base))
        legend.setPen(pg.mkPen(palette.color(QPalette.ColorRole.Mid)))
        legend.setLabelTextColor(palette.color(QPalette.ColorRole.Text))

    def show_power(self, curve: PowerCurve | None) -> None:
        if curve is self._shown_power:  # the core hands back the same curve while unchanged
            return
        self._shown_power = curve
        p = self.power
        p.clear()
        if curve is None:
            p.setTitle("No power parameters in this revision")
            return
        p.setTitle("Simulated power against clusters per arm")
        p.plot(
            curve.clusters,
            curve.base,
            pen=pg.mkPen(_c(_BASE), width=2),
            symbol="o",
            symbolSize=5,
            symbolBrush=_c(_BASE),
            symbolPen=_c(_BASE),
            name="base",
        )
        if curve.worst is not None:
            p.plot(
                curve.clusters,
                curve.worst,
                pen=pg.mkPen(_c(_WORST), width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
                name="worst-case corner",
            )
        text = QApplication.palette().color(QPalette.ColorRole.Text)
        p.addItem(
            pg.InfiniteLine(
                curve.threshold,
                angle=0,
                pen=pg.mkPen(_c(_LINE), style=pg.QtCore.Qt.PenStyle.DotLine),
                label=f"goal {curve.threshold:.2f}",
                labelOpts={"position": 0.04, "color": text, "anchors": [(0, 1), (0, 1)]},
            )
        )
        k = curve.planned_clusters
        y = float(np.interp(k, curve.clusters, curve.base))
        p.plot(
            [k],
            [y],
            pen=None,
            symbol="star",
            symbolSize=14,
            symbolBrush=_c(_PLANNED),
            name=f"planned: {k} per arm",
        )
        p.setLabel("bottom", "clusters per arm")
        p.setLabel("left", "power")
        p.setYRange(0, 1.02)

    def show_bounds(self, rungs: list[str], bounds: list[float], useful: float | None) -> None:
        if (rungs, bounds, useful) == self._shown_bounds:
            return
        self._shown_bounds = (rungs, bounds, useful)
        b = self.bounds
        b.clear()
        if not rungs:
            b.setTitle("No lower-rung bounds (the check has not run, or G4 has none)")
            return
        b.setTitle("One-sided upper bounds per rung against the useful effect")
        x = np.arange(len(rungs))
        b.addItem(
            pg.BarGraphItem(x=x, height=bounds, width=0.6, brush=_c(_BARS), name="upper bound")
        )
        if useful is not None:
            text = QApplication.palette().color(QPalette.ColorRole.Text)
            b.addItem(
                pg.InfiniteLine(
                    useful,
                    angle=0,
                    pen=pg.mkPen(_c(_LINE), width=2),
                    label=f"useful effect {useful:g}",
                    labelOpts={"position": 0.85, "color": text},
                )
            )
        b.getPlotItem().getAxis("bottom").setTicks(
            [[(i, f"rung {r}") for i, r in enumerate(rungs)]]
        )
        top = max([*bounds, useful or 0.0]) * 1.15
        b.setYRange(0, top or 1)
