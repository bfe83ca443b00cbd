"""Dossier plots: power against clusters per arm, and lower-rung bounds against the useful effect."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QTabWidget

from aa_review.core.dossier import PowerCurve
from aa_review.qt.plot_theme import theme_plot

__all__ = ["DossierPlots"]


class DossierPlots(QTabWidget):
    def __init__(self) -> None:
        super().__init__()
        self.power = pg.PlotWidget()
        self.bounds = pg.PlotWidget()
        for w in (self.power, self.bounds):
            w.setMouseEnabled(x=False, y=False)
            w.hideButtons()
            w.addLegend(offset=(10, 10))
            theme_plot(w)
        self.addTab(self.power, "Power curve")
        self.addTab(self.bounds, "Lower-rung bounds")
        # What is drawn now: a refresh that changes neither (a new acting principal)
        # does not redraw. The initial values differ from anything shown.
        self._shown_power: object = self
        self._shown_bounds: object = None

    def retheme(self) -> None:
        for w in (self.power, self.bounds):
            theme_plot(w)

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
        p.plot(curve.clusters, curve.base, pen=pg.mkPen("#1565c0", width=2), symbol="o",
               symbolSize=5, name="base")
        if curve.worst is not None:
            p.plot(curve.clusters, curve.worst, pen=pg.mkPen("#ef6c00", width=2,
                                                             style=pg.QtCore.Qt.PenStyle.DashLine),
                   name="worst-case corner")
        p.addItem(pg.InfiniteLine(curve.threshold, angle=0,
                                  pen=pg.mkPen("#c62828", style=pg.QtCore.Qt.PenStyle.DotLine),
                                  label=f"{curve.threshold:.2f}",
                                  labelOpts={"position": 0.05}))
        k = curve.planned_clusters
        y = float(np.interp(k, curve.clusters, curve.base))
        p.plot([k], [y], pen=None, symbol="star", symbolSize=14, symbolBrush="#2e7d32",
               name=f"planned: {k} per arm")
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
        b.addItem(pg.BarGraphItem(x=x, height=bounds, width=0.6, brush="#5c6bc0",
                                  name="upper bound"))
        if useful is not None:
            b.addItem(pg.InfiniteLine(useful, angle=0, pen=pg.mkPen("#c62828", width=2),
                                      label=f"useful effect {useful:g}",
                                      labelOpts={"position": 0.85}))
        b.getPlotItem().getAxis("bottom").setTicks([[(i, f"rung {r}") for i, r in
                                                     enumerate(rungs)]])
        top = max([*bounds, useful or 0.0]) * 1.15
        b.setYRange(0, top or 1)
