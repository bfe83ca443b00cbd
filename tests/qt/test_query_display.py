"""What the rows table shows is what a query compares: a value displayed as 0.930 is
kept by confidence>=0.93 and confidence=0.930, and not by confidence>0.93."""

from __future__ import annotations

from pathlib import Path

import orjson
from PySide6.QtCore import Qt

from aa_review.core.package import open_package
from aa_review.core.query import filter_rows
from aa_review.generator import generate_package
from aa_review.qt.models import RowsTableModel

STORED = [0.9299999999999999, 0.93, 0.6999, 0.0625, 0.1875, 0.3125, 0.5, 1.0, 0.123456]


def test_displayed_numbers_are_the_ones_compared(tmp_path: Path) -> None:
    root = generate_package(tmp_path, rows=60, seed=2).root
    pkg = open_package(root)
    i = 0
    for rel in pkg.index.files:  # spread the stored confidences, ties and noise included
        lines = []
        for line in (root / rel).read_bytes().splitlines():
            row = orjson.loads(line)
            row["confidence"] = STORED[i % len(STORED)]
            lines.append(orjson.dumps(row))
            i += 1
        (root / rel).write_bytes(b"\n".join(lines) + b"\n")
    pkg = open_package(root)
    model = RowsTableModel()
    model.set_index(pkg.index)
    col = [
        model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
    ].index("Confidence")
    shown = {r: model.data(model.index(r, col)) for r in range(model.rowCount())}
    assert {"0.930", "0.700", "0.062", "0.188", "0.312"} <= set(shown.values())
    for text in sorted(set(shown.values())):
        rows_shown = {r for r, t in shown.items() if t == text}
        assert set(filter_rows(pkg, f"confidence={text}").tolist()) == rows_shown, text
        assert rows_shown <= set(filter_rows(pkg, f"confidence>={text}").tolist())
        assert rows_shown.isdisjoint(filter_rows(pkg, f"confidence > {text}").tolist())
