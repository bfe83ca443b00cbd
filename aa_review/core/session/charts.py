"""Numbers behind the window's plots (no plotting here): bars, histograms, coverage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = [
    "Bars",
    "Histogram",
    "RowsMap",
    "rows_by_type",
    "histogram",
    "coverage",
    "rows_map",
    "points_map",
    "rasterize",
    "ROW_MEASURES",
    "MAX_MARKERS",
    "MAP_SHAPE",
]

MAX_MARKERS = 5000  # above this, points are drawn as a raster image rather than markers
MAP_SHAPE = (600, 300)  # pixels of that image

# Plottable row columns: name -> (index attribute, axis label, query field)
ROW_MEASURES = {
    "evidence": ("n_evidence", "evidence ids cited per row", "evidence"),
    "confidence": ("confidence", "row confidence", "confidence"),
    "quality": ("quality", "quality score", "quality"),
}


@dataclass(frozen=True)
class Bars:
    labels: list[str]
    values: np.ndarray
    fields: list[str | None]  # query term (field:value) a bar stands for, if any
    unit: str = "rows"  # what a bar counts (the value axis says it)
    scope: str = "rows"  # the table whose query a bar's term filters


@dataclass(frozen=True)
class Histogram:
    edges: np.ndarray
    counts: np.ndarray
    missing: int  # rows without a value (NaN)
    field: str


def rows_by_type(pkg: Package) -> Bars:
    counts = pkg.index.counts_by("data_type")
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return Bars(
        [k for k, _ in items],
        np.array([v for _, v in items], dtype=np.int64),
        [f"type:{k}" for k, _ in items],
    )


def histogram(pkg: Package, measure: str, bins: int = 40) -> Histogram:
    """Histogram of a row column; integer columns get one bin per value when few."""
    attr, _label, field = ROW_MEASURES[measure]
    values = np.asarray(getattr(pkg.index, attr), dtype=np.float64)
    ok = values[~np.isnan(values)]
    if ok.size == 0:
        return Histogram(np.array([0.0, 1.0]), np.zeros(1, np.int64), int(values.size), field)
    lo, hi = float(ok.min()), float(ok.max())
    if measure == "evidence" and hi - lo < 200:
        edges = np.arange(lo - 0.5, hi + 1.5)
    else:
        if hi == lo:
            lo, hi = lo - 0.5, hi + 0.5
        edges = np.linspace(lo, hi, bins + 1)
    counts, edges = np.histogram(ok, bins=edges)
    return Histogram(edges, counts.astype(np.int64), int(values.size - ok.size), field)


def coverage(pkg: Package) -> Bars:
    """Catalog items resolved / unresolved / hidden, and ids rows cite that the catalog
    lacks: evidence items, each bar an evidence query."""
    resolved = sum(1 for e in pkg.catalog if e.resolves)
    orphans = len(pkg.index.evidence_ids) - pkg.index.catalog_size
    hidden = sum(1 for e in pkg.catalog if e.visibility == "hidden_excluded")
    return Bars(
        ["resolved", "unresolved", "hidden", "orphan ids"],
        np.array([resolved, len(pkg.catalog) - resolved, hidden, orphans], np.int64),
        ["resolves:yes", "resolves:no", "visibility:hidden_excluded", "catalogued:no"],
        unit="evidence items",
        scope="evidence",
    )


@dataclass(frozen=True, eq=False)
class RowsMap:
    """Every row as a point (position in the package, confidence); ``image`` is the raster
    drawn instead of markers when there are more than :data:`MAX_MARKERS`."""

    x: np.ndarray
    y: np.ndarray
    bounds: tuple[float, float, float, float]  # x0, x1, y0, y1
    image: np.ndarray | None


def rows_map(pkg: Package) -> RowsMap:
    """Every row of ``pkg`` at (its position, its confidence)."""
    ix = pkg.index
    return points_map(np.arange(len(ix), dtype=float), ix.confidence)


def points_map(x: np.ndarray, y: np.ndarray) -> RowsMap:
    """Points ``x >= 0`` against ``y``, rasterized when there are many."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    finite = y[~np.isnan(y)]
    y0, y1 = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if y1 == y0:
        y0, y1 = y0 - 0.5, y1 + 0.5
    bounds = (0.0, float(x.max()) + 1 if len(x) else 1.0, y0, y1)
    image = None if len(x) <= MAX_MARKERS else rasterize(x, y, bounds, MAP_SHAPE).astype(np.uint8)
    return RowsMap(x, y, bounds, image)


def rasterize(
    x: np.ndarray, y: np.ndarray, bounds: tuple[float, float, float, float], shape: tuple[int, int]
) -> np.ndarray:
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
