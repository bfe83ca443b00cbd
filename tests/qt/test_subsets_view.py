"""Subsets across views: rows picked in one table show in the other tables and the
plots; brushing the rows map selects rows and makes a subset; subset:name filters;
subsets are saved in a session and exported."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel

from aa_review.core.session import Scope

pytestmark = pytest.mark.gui


def _pick_rows(view, table_rows: list[int]) -> None:
    """Ctrl+click several rows: the selection a user makes."""
    model = view.model()
    sel = QItemSelection()
    for r in table_rows:
        sel.select(model.index(r, 0), model.index(r, model.columnCount() - 1))
    view.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)


def test_rows_picked_in_a_table_become_a_subset_shown_everywhere(
    window, sample_copy: Path, qtbot
) -> None:
    window.open_package(sample_copy)
    view = window.rows.view
    _pick_rows(view, [3, 4, 5, 20])
    sel = window.session.selection.current
    assert sel.rows is not None and sel.rows.tolist() == [3, 4, 5, 20]
    assert "4 rows selected" in window.rows.selected_label.text()
    sub = window.subset_bar.new_from_selection("picked")
    assert sub is not None and sub.rows.tolist() == [3, 4, 5, 20]
    assert window.subset_bar.combo.currentText() == "picked (4)"
    # the rows tables mark it
    m = window.rows.model
    assert [m.in_subset(p) for p in (3, 4, 5, 20, 6)] == [True] * 4 + [False]
    window.session.select_rows(None)
    window.focus_view(window.plots)
    window.session.select_evidence(int(window.session.package.index.evidence_of_row(3)[0]))
    em = window.evidence_rows.model
    shown = [em.position(r) for r in range(em.rowCount())]
    assert 3 in shown and em.in_subset(3)
    # the evidence tables mark the items its rows cite, and only those
    ix = window.session.package.index
    cited = set(np.concatenate([ix.evidence_of_row(r) for r in (3, 4, 5, 20)]).tolist())
    cm = window.evidence.model
    marked = {cm.position(r) for r in range(cm.rowCount()) if cm.in_subset(cm.position(r))}
    assert marked == cited
    # the plots show it: the map, each histogram, the types
    plots = window.plots
    assert plots.points.subset.count == 4
    for w in plots.hists.values():
        _x, counts = w.subset_curve.getData()
        assert int(np.sum(counts)) <= 4 and int(np.sum(counts)) >= 3  # NaNs are not counted
    widths = plots.types.subset_bars.opts["width"]
    assert int(np.sum(widths)) == 4
    # selecting an evidence item highlights the rows citing it on the map
    cited = window.session.package.index.rows_citing(window.session.selection.current.evidence)
    assert plots.points.selected.count == len(cited) > 0


def test_brushing_the_rows_map_makes_a_subset(window, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    points = window.plots.points
    rows = points.box.on_brush(-0.5, 9.5, -1.0, 2.0)  # the first ten rows, every value
    assert rows is not None and rows.tolist() == list(range(10))
    active = window.session.subsets.active
    assert active is not None and active.rows.tolist() == list(range(10))
    assert window.session.selection.current.rows.tolist() == list(range(10))
    assert points.subset.count == 10
    # an empty rectangle makes nothing
    before = len(window.session.subsets)
    points.brush(1000, 2000, 5, 6)
    assert len(window.session.subsets) == before


def test_subset_filter_export_and_session(window, sample_copy: Path, tmp_path: Path) -> None:
    window.open_package(sample_copy)
    window.session.make_subset(np.array([1, 2, 40]), "three")
    window.subset_bar.actions_["filter"].trigger()
    assert window.rows.query.text() == "subset:three"
    assert window.rows.model.rowCount() == 3
    # export: the rows of the subset, the query recorded
    out = tmp_path / "three.jsonl"
    window.subset_bar.export("three", out)
    assert len([x for x in out.read_text().splitlines() if x.strip()]) == 3
    meta = json.loads(out.with_name(out.name + ".meta.json").read_text())
    assert "subset:three" in json.dumps(meta)
    # saved in a session and restored with its package
    path = tmp_path / "s.aareview.json"
    window.controller.save_session(path)
    window.session.subsets.remove("three")
    assert window.subset_bar.combo.currentText().startswith("none")
    assert window.controller.open_session(path)
    assert window.session.subsets.names() == ["three"]
    assert window.session.subsets.get("three").rows.tolist() == [1, 2, 40]
    assert window.rows.model.rowCount() == 3 and window.rows.query.text() == "subset:three"


def test_evidence_items_picked_together_select_their_rows(window, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    ev = window.evidence
    _pick_rows(ev.view, [0, 1])
    ix = window.session.package.index
    items = np.array([ev.model.position(0), ev.model.position(1)])
    want = np.flatnonzero(ix.citing_mask(items))
    assert window.session.selection.current.rows.tolist() == want.tolist()
    # the same in the evidence a row cites
    window.session.select_row(5)
    rev = window.row_evidence
    _pick_rows(rev.view, [0, 1, 2])
    items = np.array([rev.model.position(r) for r in range(3)])
    want = np.flatnonzero(ix.citing_mask(items))
    assert window.session.selection.current.rows.tolist() == want.tolist()


def test_subset_commands_in_the_palette(window, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    window.session.make_subset(np.array([1]), "one")
    labels = [e.label for e in window.show_palette().entries]
    for text in ("New Subset from Selected Rows", "Filter Rows by Subset", "Export Subset…"):
        assert text in labels


def test_reload_keeps_the_subsets(window, sample_copy: Path) -> None:
    window.open_package(sample_copy)
    window.session.make_subset(np.array([2, 8]), "kept")
    window.session.set_query(Scope.ROWS, "subset:kept")
    window.controller.reload()
    assert window.session.subsets.get("kept").rows.tolist() == [2, 8]
    assert window.rows.model.rowCount() == 2
