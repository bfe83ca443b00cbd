"""PlotsPanel: pyqtgraph plots that are selection sources for the linked views."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QShowEvent
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from aa_review.core.query import QueryError
from aa_review.core.session import (
    OpenPackage,
    QueryResult,
    ReviewSession,
    Scope,
    Selection,
    charts,
)
from aa_review.qt.plot_theme import theme_plot
from aa_review.qt.views._turns import Gate
from aa_review.qt.views.points_plot import PointsPlot

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["PlotsPanel"]


# The widest a bar's label may be before it is elided in the middle (its tooltip is whole).
MAX_LABEL_PX = 220


class _BarPlot(pg.PlotWidget):
    """Bars; clicking a bar calls ``on_pick(index)``. Every bar is labelled: a label too
    wide is elided in the middle, and hovering a bar shows its whole label and count."""

    def __init__(self, on_pick: Callable[[int], None]) -> None:
        super().__init__()
        self._on_pick = on_pick
        self._n = 0
        self.subset_bars: pg.BarGraphItem | None = None
        self.bars: charts.Bars | None = None
        self.tick_labels: list[str] = []
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.scene().sigMouseClicked.connect(self._clicked)
        self.scene().sigMouseMoved.connect(self._hovered)

    def show_bars(self, bars: charts.Bars, brush: str) -> None:
        """Horizontal bars, largest on top, labels on the left axis (they stay readable)."""
        self.clear()
        self.bars = bars
        self._n = len(bars.labels)
        y = np.arange(self._n)[::-1]
        self.addItem(pg.BarGraphItem(x0=0, y=y, width=bars.values, height=0.7, brush=brush))
        self.subset_bars = None  # removed by clear()
        axis = self.getPlotItem().getAxis("left")
        # The axis draws a label only when it fits the axis: measure with the axis's own
        # font, elide what is too wide, and make the axis as wide as the widest label.
        font = axis.style.get("tickFont") or axis.font()
        fm = QFontMetrics(font)
        self.tick_labels = [
            fm.elidedText(label, Qt.TextElideMode.ElideMiddle, MAX_LABEL_PX)
            for label in bars.labels
        ]
        axis.setTicks([[(int(y[i]), label) for i, label in enumerate(self.tick_labels)]])
        widest = max((fm.horizontalAdvance(t) for t in self.tick_labels), default=20)
        axis.setWidth(widest + int(axis.style.get("tickTextOffset", [5, 2])[0]) + 16)
        self.getPlotItem().setLabel("bottom", bars.unit)
        self.setYRange(-0.6, max(self._n - 0.4, 0.6), padding=0)
        self.setXRange(0, max(1, int(bars.values.max()) if len(bars.values) else 1))

    def show_subset(self, counts: np.ndarray | None, color: str) -> None:
        """Overlay each bar's count in the active subset (thinner bars of its colour)."""
        if self.subset_bars is not None:
            self.removeItem(self.subset_bars)
            self.subset_bars = None
        if counts is None or self._n == 0:
            return
        y = np.arange(self._n)[::-1]
        self.subset_bars = pg.BarGraphItem(
            x0=0, y=y, width=counts, height=0.35, brush=QColor(color)
        )
        self.subset_bars.setZValue(5)
        self.addItem(self.subset_bars)

    def bar_at(self, scene_pos: object) -> int | None:
        """The bar under a scene position (on its row, anywhere along it), if any."""
        pos = self.getPlotItem().vb.mapSceneToView(scene_pos)
        i: int = self._n - 1 - round(pos.y())
        if 0 <= i < self._n and abs(pos.y() - round(pos.y())) <= 0.35:
            return i
        return None

    def _clicked(self, event: Any) -> None:  # pyqtgraph's click event (no stubs)
        i = self.bar_at(event.scenePos())
        if i is not None:
            self._on_pick(i)

    def _hovered(self, scene_pos: object) -> None:
        i = self.bar_at(scene_pos)
        b = self.bars
        self.setToolTip(
            ""
            if i is None or b is None
            else f"{b.labels[i]}: {int(b.values[i]):,} {b.unit}"
            + (f"\nclick: {b.fields[i]}" if b.fields[i] else "")
        )


class _HistPlot(pg.PlotWidget):
    """A histogram with a draggable range; releasing it calls ``on_range(lo, hi)``.

    The selected row is marked by ONE overlay line, moved rather than re-created.
    """

    def __init__(self, label: str, on_range: Callable[[float, float], None]) -> None:
        super().__init__()
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getPlotItem().setLabel("bottom", label)
        self.getPlotItem().setLabel("left", "rows")
        self.curve = pg.PlotCurveItem(pen=pg.mkPen((40, 90, 140)))
        self.addItem(self.curve)
        self.region = pg.LinearRegionItem(brush=(255, 160, 0, 50))
        self.region.setZValue(10)
        self.region.setVisible(False)
        self.addItem(self.region)
        self.edges = np.array([0.0, 1.0])
        # The active subset's histogram over the whole one (same bins).
        self.subset_curve = pg.PlotCurveItem()
        self.subset_curve.setZValue(5)
        self.addItem(self.subset_curve)
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen((200, 40, 40), width=2))
        self.marker.setVisible(False)
        self.addItem(self.marker)
        self.region.sigRegionChangeFinished.connect(
            lambda r: on_range(*r.getRegion()) if r.isVisible() else None
        )
        self.scene().sigMouseClicked.connect(self._clicked)

    def show_subset(self, values: np.ndarray | None, color: str) -> None:
        """Overlay the histogram of ``values`` (the active subset's), None: no overlay."""
        if values is None:
            self.subset_curve.clear()
            self.subset_curve.setVisible(False)
            return
        self.subset_curve.setVisible(True)
        ok = values[~np.isnan(values)]
        counts, _ = np.histogram(ok, bins=self.edges)
        c = QColor(color)
        self.subset_curve.setData(
            self.edges,
            counts,
            stepMode="center",
            fillLevel=0,
            pen=pg.mkPen(c, width=2),
            brush=(c.red(), c.green(), c.blue(), 150),
        )

    def show_hist(self, h: charts.Histogram) -> None:
        self.edges = h.edges
        self.curve.setData(
            h.edges, h.counts, stepMode="center", fillLevel=0, brush=(70, 130, 180, 150)
        )
        self.region.blockSignals(True)
        span = h.edges[-1] - h.edges[0]
        self.region.setRegion((h.edges[0] + span * 0.25, h.edges[0] + span * 0.75))
        self.region.setBounds((h.edges[0], h.edges[-1]))
        self.region.blockSignals(False)

    def _clicked(self, event: object) -> None:
        if getattr(event, "double", lambda: False)():
            self.region.setVisible(not self.region.isVisible())
            if self.region.isVisible():
                self.region.sigRegionChangeFinished.emit(self.region)

    def mark(self, value: float | None) -> None:
        if value is None or np.isnan(value):
            self.marker.setVisible(False)
        else:
            self.marker.setPos(value)
            self.marker.setVisible(True)


class PlotsPanel(QWidget):
    """Rows by data type, evidence per row, confidence, quality, coverage, the rows map.

    The numbers are the session's (computed when the package was opened); a bar or a
    range sets the rows query; the rows the query keeps are highlighted on the map.
    """

    # A coverage bar filtered the evidence catalog: the window brings it forward.
    evidence_filtered = Signal()

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.setWindowTitle("Plots")
        self.session = session
        self.pkg: Package | None = None
        self.version = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        hint = QLabel(
            "Click a bar to filter the rows (Coverage: the evidence items); "
            "double-click a histogram for a range to drag; drag a rectangle on "
            "the rows map to make a subset of its rows."
        )
        hint.setWordWrap(True)
        lay.addWidget(hint)
        self.tabs = QTabWidget()
        lay.addWidget(self.tabs)
        self.types = _BarPlot(self._pick_type)
        self.coverage = _BarPlot(self._pick_coverage)
        self.hists = {
            m: _HistPlot(label, partial(self._pick_range, m))
            for m, (_a, label, _f) in charts.ROW_MEASURES.items()
        }
        # Short tab names, shorter still when the dock is narrow (the whole name in the
        # tooltip): all six show whole, none cut off behind the scroll arrows.
        self.tabs.setElideMode(Qt.TextElideMode.ElideNone)
        self._names: list[tuple[str, str]] = []  # (short, shortest) per tab
        self._add_tab(self.types, ("Types", "Type"), "Rows by type")
        for m, w in self.hists.items():
            names, long = {
                "evidence": (("Evidence", "Evid."), "Evidence per row"),
                "confidence": (("Confidence", "Conf."), "Confidence"),
                "quality": (("Quality", "Qual."), "Quality"),
            }[m]
            self._add_tab(w, names, long)
        self._add_tab(self.coverage, ("Coverage", "Cov."), "Coverage of the evidence items")
        self.points = PointsPlot()
        self._add_tab(self.points, ("Map", "Map"), "Rows map")
        self.tabs.installEventFilter(self)
        self._bars: charts.Bars | None = None
        self._stale = False  # a selection arrived while hidden
        plots: list[Any] = [self.types, self.coverage, self.points, *self.hists.values()]
        for w in plots:
            theme_plot(w)
        self.gate = Gate()  # held by the window while the plots' fill waits (_turns)
        session.events.package_changed.connect(lambda o: self.gate.call(self.show_package, o))
        session.events.query_changed.connect(lambda r: self.gate.call(self._on_result, r))
        session.selection.changed.connect(lambda sel: self.gate.call(self.follow, sel))
        session.subsets.changed.connect(lambda subs: self.gate.call(self.show_subset, subs))
        self.points.on_brush = self._brushed

    def retheme(self) -> None:
        for w in (self.types, self.coverage, self.points, *self.hists.values()):
            theme_plot(w)

    def show_package(self, opened: OpenPackage | None) -> None:
        self.pkg = opened.package if opened is not None else None
        self.version = opened.version if opened is not None else self.session.version
        if opened is None:
            return
        prepared = opened.prepared
        self._bars = prepared.rows_by_type
        self.types.show_bars(self._bars, "#4682b4")
        self.coverage.show_bars(prepared.coverage, "#7b9e4f")
        for m, w in self.hists.items():
            w.show_hist(prepared.histograms[m])
        self.points.set_points(prepared.rows_map, "row (package order)", "confidence")
        self.highlight_rows(self.session.result(Scope.ROWS).positions)
        self.show_subset()

    def _on_result(self, result: QueryResult) -> None:
        if result.scope is Scope.ROWS and result.version == self.version:
            self.highlight_rows(result.positions)

    def highlight_rows(self, positions: np.ndarray | None) -> None:
        """Mark the rows the rows view shows now (None: all of them, so no highlight)."""
        self.points.highlight(positions)

    def _pick_type(self, i: int) -> None:
        if self._bars is not None and self._bars.fields[i]:
            self._set_query(self._bars.fields[i] or "")

    def _pick_coverage(self, i: int) -> None:
        """A coverage bar filters the evidence catalog, shown in its query box."""
        cov = self.coverage.bars
        if cov is not None and cov.fields[i]:
            with contextlib.suppress(QueryError):
                self.session.set_query(Scope.EVIDENCE, cov.fields[i] or "")
                self.evidence_filtered.emit()

    def _pick_range(self, measure: str, lo: float, hi: float) -> None:
        field = charts.ROW_MEASURES[measure][2]
        self._set_query(f"{field}>={lo:.4g} {field}<={hi:.4g}")

    def _set_query(self, text: str) -> None:
        with contextlib.suppress(QueryError):  # the rows bar shows what is wrong
            self.session.set_query(Scope.ROWS, text)

    def _add_tab(self, widget: QWidget, names: tuple[str, str], long: str) -> None:
        i = self.tabs.addTab(widget, names[0])
        self.tabs.setTabToolTip(i, long)
        self._names.append(names)

    def _fit_tabs(self) -> None:
        """The short names when they fit the tab widget's width, else the shortest."""
        bar = self.tabs.tabBar()
        for which in (0, 1):
            for i, names in enumerate(self._names):
                bar.setTabText(i, names[which])
            if bar.sizeHint().width() <= self.tabs.width() - 8:  # its frame, a margin
                return

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if obj is self.tabs and event.type() == QEvent.Type.Resize:
            self._fit_tabs()
        return super().eventFilter(obj, event)

    def _brushed(self, rows: np.ndarray) -> None:
        """A rectangle on the rows map: its rows become a new subset, selected together."""
        if self.pkg is None or len(rows) == 0:
            return
        sub = self.session.make_subset(rows)
        if sub is not None:
            self.session.select_rows(sub.rows, "plots", why=f"subset:{sub.name}")

    def show_subset(self, _subsets: object = None) -> None:
        """The active subset on every plot of rows: the map, the histograms, the types."""
        pkg, active = self.pkg, self.session.subsets.active
        if pkg is None or active is None or self.session.version != self.version:
            self.points.subset.show(None)
            for w in self.hists.values():
                w.show_subset(None, "")
            self.types.show_subset(None, "")
            return
        rows = active.rows
        self.points.subset.set_color(QColor(active.color))
        self.points.subset.show(rows)
        ix = pkg.index
        for m, w in self.hists.items():
            attr = charts.ROW_MEASURES[m][0]
            w.show_subset(np.asarray(getattr(ix, attr), dtype=np.float64)[rows], active.color)
        if self._bars is not None:
            per_type = np.bincount(ix.data_type[rows], minlength=len(ix.data_types))
            order = {name: k for k, name in enumerate(ix.data_types)}
            counts = np.array(
                [per_type[order[label]] if label in order else 0 for label in self._bars.labels],
                dtype=np.int64,
            )
            self.types.show_subset(counts, active.color)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self.catch_up()

    def catch_up(self) -> None:
        """Draw the selection that arrived while hidden (the window calls this when the
        plots' dock tab comes to the front)."""
        if self._stale:
            self.follow(self.session.selection.current)

    def follow(self, sel: Selection) -> None:
        if self.pkg is None or self.session.version != self.version:
            return
        # Hidden (a tab behind another): drawn when shown, not on every selection.
        self._stale = not self.isVisible() or self.visibleRegion().isEmpty()
        if self._stale:
            return
        # The rows selected together, or those citing the selected evidence item.
        ix = self.pkg.index
        if sel.rows is not None:
            self.points.selected.show(sel.rows)
        elif sel.evidence is not None:
            self.points.selected.show(ix.citing_mask(np.array([sel.evidence])).nonzero()[0])
        else:
            self.points.selected.show(None if sel.row is None else np.array([sel.row]))
        for m, w in self.hists.items():
            attr = charts.ROW_MEASURES[m][0]
            w.mark(None if sel.row is None else float(getattr(self.pkg.index, attr)[sel.row]))
