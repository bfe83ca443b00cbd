"""Item models alone (no view), then through pytest-qt's model tester."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from aa_review.core.package import open_package
from aa_review.qt.models import CountsTableModel, EvidenceTableModel, JsonTreeModel, RowsTableModel
from aa_review.qt.models.findings_table import FindingsTableModel

pytestmark = pytest.mark.gui


@pytest.fixture
def pkg(sample_copy):
    return open_package(sample_copy)


def test_rows_model_reads_index(pkg) -> None:
    m = RowsTableModel()
    m.set_index(pkg.index)
    assert m.rowCount() == 60
    assert m.data(m.index(0, 0)) == pkg.index.row_id_str(0)
    assert m.data(m.index(0, 1)) == pkg.read_row(0)["data_type"]
    assert m.data(m.index(0, 5)) == len(pkg.read_row(0)["source_evidence_ref_ids"])
    m.set_positions(np.array([5, 7]))
    assert m.rowCount() == 2 and m.position(1) == 7 and m.table_row_of(7) == 1
    assert m.table_row_of(3) is None


def test_rows_model_sorts_in_core(pkg) -> None:
    m = RowsTableModel()
    m.set_index(pkg.index)
    m.sort(0, Qt.SortOrder.DescendingOrder)
    ids = [m.data(m.index(r, 0)) for r in range(m.rowCount())]
    assert ids == sorted(ids, reverse=True)


def test_evidence_model_lists_every_field(pkg) -> None:
    m = EvidenceTableModel()
    m.set_package(pkg)
    assert m.rowCount() == len(pkg.catalog)
    assert m.columns[:7] == [
        "evidence_id",
        "ref",
        "evidence_type",
        "visibility",
        "resolves",
        "content_hash",
        "confidence",
    ]
    first = pkg.catalog[0]
    assert m.data(m.index(0, 1)) == first.ref
    assert m.data(m.index(0, 5)) == first.content_hash
    assert m.data(m.index(0, m.columns.index("cited_by_rows"))) == 60  # every row cites it


def test_models_pass_modeltester(qtmodeltester, pkg) -> None:
    rows = RowsTableModel()
    rows.set_index(pkg.index, pkg.index.rows_citing(0))
    qtmodeltester.check(rows)
    ev = EvidenceTableModel()
    ev.set_package(pkg)
    qtmodeltester.check(ev)
    tree = JsonTreeModel()
    tree.set_value(pkg.read_row(0))
    qtmodeltester.check(tree)
    counts = CountsTableModel()
    counts.set_counts(pkg.index.counts_by("data_type"))
    qtmodeltester.check(counts)
    findings = FindingsTableModel()
    findings.set_findings(pkg.problems)
    qtmodeltester.check(findings)


def test_json_tree_updates_in_place_when_shape_is_unchanged(pkg, qtmodeltester) -> None:
    tree = JsonTreeModel()
    first, second = pkg.read_row(0), pkg.read_row(1)
    assert [type(v) for v in first.values()] == [type(v) for v in second.values()]
    tree.set_value(first)
    assert tree.rowCount() == len(first)
    resets, changes = [], []
    tree.modelReset.connect(lambda: resets.append(1))
    tree.dataChanged.connect(lambda a, b: changes.append((a.row(), b.row())))
    tree.set_value(second)
    assert resets == [] and changes == [(0, len(second) - 1)]
    key_col = [tree.data(tree.index(r, 0)) for r in range(tree.rowCount())]
    val_col = [tree.data(tree.index(r, 1)) for r in range(tree.rowCount())]
    assert key_col == list(second) and val_col[key_col.index("row_id")] == second["row_id"]
    # expanded nodes or another shape: a reset, so nothing stale is shown
    tree.index(key_col.index("task_lineage"), 0)
    tree.rowCount(tree.index(key_col.index("task_lineage"), 0))
    tree.set_value({"other": 1})
    assert resets == [1] and tree.rowCount() == 1
    qtmodeltester.check(tree)


def test_small_models_pass_modeltester(qtmodeltester, pkg) -> None:
    from aa_review.core import contracts
    from aa_review.qt.models.artifact_table import ArtifactTableModel
    from aa_review.qt.models.tuple_table import TupleTableModel

    t = TupleTableModel(("a", "status"), 1)
    t.set_items([("x", "pass"), ("y", "fail"), ("z", None)], tooltips=["one", "", "three"])
    qtmodeltester.check(t)
    assert (
        t.data(t.index(2, 1)) == "" and t.data(t.index(0, 1), Qt.ItemDataRole.ToolTipRole) == "one"
    )
    entry = next(e for e in contracts.contract_entries(pkg) if e.item.kind == "csv")
    a = ArtifactTableModel()
    a.set_preview(contracts.preview(pkg, entry))
    qtmodeltester.check(a)
    assert a.rowCount() > 0 and a.headerData(0, Qt.Orientation.Vertical) == 2  # file line
