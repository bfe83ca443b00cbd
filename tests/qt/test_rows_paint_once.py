"""A reset of the rows table's model is laid out and painted once, not two or three times.

A paint of the rows table costs tens of milliseconds of the GUI thread on a large
package; Qt left alone lays a reset table out inside its first paint and paints again
(see ``table_header.lay_out_now``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject

pytestmark = pytest.mark.gui


class _Paints(QObject):
    """Counts the paint events of the widgets it filters."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_reset_of_the_rows_table_paints_it_once(
    window, qtbot, sample_copy: Path, turns_pass
) -> None:
    window.open_package(sample_copy)  # 60 rows: more than the table shows, a scroll bar
    rows = window.rows
    pkg = window.session.package
    assert pkg is not None
    rows.show_index(pkg.index, np.arange(3))  # as the loader's first rows: no scroll bar
    paints = _Paints()
    viewport, header = rows.view.viewport(), rows.view.horizontalHeader()
    qtbot.waitUntil(lambda: not viewport.visibleRegion().isEmpty())
    turns_pass(4)
    viewport.installEventFilter(paints)
    resized: list[int] = []
    header.sectionResized.connect(lambda col, _old, _new: resized.append(col))

    rows.show_index(pkg.index)  # the whole package: the scroll bar comes, columns refit
    qtbot.waitUntil(lambda: paints.count >= 1)
    turns_pass(4)
    assert paints.count == 1
    assert rows.view.verticalScrollBar().maximum() > 0
    # the columns still fill the view's width, the last one stretched to its edge
    shown = sum(header.sectionSize(c) for c in range(header.count()))
    assert abs(shown - viewport.width()) <= 1
