"""The active subset's mark in a table: a coloured square before the first column."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, Qt
from PySide6.QtGui import QColor

__all__ = ["SubsetMark"]


class SubsetMark:
    """A mask over a table's items and the colour drawn for those in it."""

    def __init__(self) -> None:
        self.mask: np.ndarray | None = None
        self.color: QColor | None = None

    def set(self, model: QAbstractTableModel, mask: np.ndarray | None, color: str | None) -> None:
        """Mark the items of ``mask`` (None: none) and repaint the first column."""
        self.mask = mask
        self.color = QColor(color) if color else None
        if model.rowCount():
            model.dataChanged.emit(
                model.index(0, 0),
                model.index(model.rowCount() - 1, 0),
                [Qt.ItemDataRole.DecorationRole],
            )

    def __contains__(self, position: int) -> bool:
        m = self.mask
        return m is not None and 0 <= position < len(m) and bool(m[position])

    def decoration(self, column: int, position: int) -> Any:
        return self.color if column == 0 and position in self else None
