"""A finding with many rows in the window: counted, stepped through, all its rows selected."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def spread(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Per N, a package whose hidden_cited defect sits in N rows (and a private path in 3)."""
    from aa_review.generator import generate_package

    out = {}
    for n, rows in ((2, 60), (500, 540)):
        root = tmp_path_factory.mktemp(f"spread{n}")
        out[n] = generate_package(
            root,
            rows=rows,
            seed=3,
            defects=["hidden_cited", "private_path"],
            defect_rows={"hidden_cited": n, "private_path": 3},
        )
    return out


def _open(window: Any, root: Path) -> Any:
    window.open_package(root)
    window.controller.run_audit()
    assert window.session.report is not None
    return window.session.report


def _table_codes(panel: Any) -> list[str]:
    return [panel.model.data(panel.model.index(r, 1)) for r in range(panel.model.rowCount())]


def _marked_ids(window: Any) -> set[str]:
    ix = window.session.package.index
    return {ix.row_id_str(int(p)) for p in window.rows.model.marked_positions()}


@pytest.mark.parametrize("n", [2, 500])
def test_selecting_a_finding_selects_all_its_rows(window, qtbot, spread, n: int) -> None:
    from PySide6.QtCore import Qt

    g = spread[n]
    hidden = next(d for d in g.defects if d.name == "hidden_cited")
    want = {r["row_id"] for r in hidden.rows}
    report = _open(window, g.root)
    panel = window.findings
    # the table lists every finding with its location count; the counts agree
    assert panel.model.rowCount() == len(report.findings)
    table_row = _table_codes(panel).index("link.hidden_cited")
    assert panel.model.data(panel.model.index(table_row, 2)) == f"{n:,}"
    text = panel.summary.text()
    assert report.summary_line() in text
    m = re.search(r"([\d,]+) findings? at ([\d,]+) locations", text)
    assert m and int(m.group(1).replace(",", "")) == len(report.findings) == sum(
        report.by_severity.values()
    )
    assert int(m.group(2).replace(",", "")) == report.locations
    by_check = dict(re.findall(r"(\w+) (\d+)", text.split("By check:", 1)[1]))
    assert sum(map(int, by_check.values())) == len(report.findings)
    # picking it selects its n rows in the Rows view, the first one current
    panel.view.setCurrentIndex(panel.model.index(table_row, 0))
    sel = window.session.selection.current
    assert sel.rows is not None and len(sel.rows) == n == window.rows.model.marked_count
    assert _marked_ids(window) == want
    first = window.session.package.index.row_id_str(sel.row)
    assert first == min(want, key=lambda rid: window.session.package.index.find_row(rid))
    assert window.rows.selected_label.text().startswith(f"{n:,} row")
    assert panel.where.text() == f"Location 1 of {n:,}"
    assert first in panel.where.toolTip() and first in window.statusBar().currentMessage()
    # stepping goes through the rows one by one and keeps them selected
    seen = [sel.row]
    for _ in range(min(n, 4) - 1):
        panel.next_button.click()
        seen.append(window.session.selection.current.row)
    assert len(set(seen)) == min(n, 4) and window.rows.model.marked_count == n
    qtbot.keyClick(panel.view, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert window.session.selection.current.row == seen[-2]
    assert panel.where.text() == f"Location {len(seen) - 1} of {n:,}"
    current = window.rows.view.currentIndex().row()
    assert window.rows.model.position(current) == window.session.selection.current.row


def test_rows_view_counts_clears_and_shows_only_the_selection(
    window, spread, tmp_path: Path
) -> None:
    import json

    g = spread[2]
    want = {r["row_id"] for r in next(d for d in g.defects if d.name == "hidden_cited").rows}
    _open(window, g.root)
    panel, rows = window.findings, window.rows
    panel.view.setCurrentIndex(panel.model.index(_table_codes(panel).index("link.hidden_cited"), 0))
    rows.only_selected.setChecked(True)
    assert rows.model.rowCount() == 2
    assert {
        window.session.package.index.row_id_str(rows.model.position(r)) for r in range(2)
    } == want
    out = tmp_path / "rows.jsonl"  # exporting now writes those rows, and says why
    window.controller.export(out)
    from aa_review.core.query.export import meta_path

    lines = out.read_text().splitlines()
    assert json.loads(meta_path(out).read_text())["query"] == "[only the 2 rows selected together]"
    assert {json.loads(line)["row_id"] for line in lines} == want
    rows.only_selected.setChecked(False)
    # a filter hiding one of them says so
    one = sorted(want)[0]
    rows.query.set_text(f"-id:{one}")
    assert rows.selected_label.text().startswith("2 rows selected: the rows finding ")
    assert rows.selected_label.text().endswith(" locates, 1 hidden by the filter")
    rows.query.set_text("")
    # picking a row outside the selection ends it; "Select all rows" brings it back
    outside = next(
        r for r in range(rows.model.rowCount()) if not rows.model.is_marked(rows.model.position(r))
    )
    rows.view.setCurrentIndex(rows.model.index(outside, 0))
    assert window.session.selection.current.rows is None and rows.model.marked_count == 0
    assert not rows.clear_selected.isEnabled()
    panel.all_button.click()
    assert rows.model.marked_count == 2 and _marked_ids(window) == want
    rows.clear_selected.click()
    assert rows.model.marked_count == 0


def test_query_and_only_selection_use_every_location(window, spread) -> None:
    g = spread[2]
    private = next(d for d in g.defects if d.name == "private_path")
    _open(window, g.root)
    panel = window.findings
    last = private.rows[-1]["row_id"]
    panel.query.set_text(f"row:{last}")
    codes = _table_codes(panel)
    assert "privacy.private_path" in codes and "Shown:" in panel.summary.text()
    panel.query.set_text("")
    row = window.session.package.index.find_row(
        sorted({r["row_id"] for r in next(d for d in g.defects if d.name == "hidden_cited").rows})[
            -1
        ]
    )
    window.session.selection.select(row=row, source="test")
    panel.only_selection.setChecked(True)
    assert "link.hidden_cited" in _table_codes(panel)
    panel.only_selection.setChecked(False)
    # the rows query's finding: term reaches every row of a finding
    window.rows.query.set_text("finding:link.hidden_cited")
    assert window.rows.model.rowCount() == 2
