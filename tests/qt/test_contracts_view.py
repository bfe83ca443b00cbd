"""Contract previews: contract -> artifact file, evidence -> contract, differences shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.gui

CSV = "attempts/revised/artifacts/reconciliation_report.csv"


def test_contract_to_artifact_and_back(window, sample_copy) -> None:
    path = sample_copy / CSV
    lines = path.read_text().splitlines()
    cells = lines[2].split(",")
    cells[lines[0].split(",").index("amount")] = "eight"
    lines[2] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    window.open_package(sample_copy)
    panel = window.contracts
    row = next(
        i for i, e in enumerate(panel.entries) if e.artifact_ref == CSV and e.kind == "output"
    )
    panel.list_view.setCurrentIndex(panel.list_model.index(row, 0))
    sel = window.session.selection.current
    assert sel.contract == panel.entries[row].key
    ev = window.session.package.evidence_at(sel.evidence)
    assert ev is not None and ev.ref == CSV
    # the artifact is shown as a table with the bad cell marked
    assert panel.stack.currentWidget() is panel.table_view
    tm = panel.table_model
    header = [tm.headerData(c, Qt.Orientation.Horizontal) for c in range(tm.columnCount())]
    col = header.index("amount")
    assert tm.data(tm.index(1, col)) == "eight"
    assert tm.data(tm.index(1, col), Qt.ItemDataRole.BackgroundRole) is not None
    assert tm.data(tm.index(0, col), Qt.ItemDataRole.BackgroundRole) is None
    assert panel.diff_model.items[0][0] == "non_numeric"
    # selecting another evidence item that backs a contract selects that entry
    other = next(
        i
        for i, e in enumerate(window.session.package.catalog)
        if e.ref == "attempts/revised/artifacts/vendor_totals.csv"
    )
    window.session.selection.update(evidence=other, source="test")
    cur = panel.list_view.currentIndex().row()
    assert panel.entries[cur].artifact_ref == "attempts/revised/artifacts/vendor_totals.csv"
    assert [c[1] for c in panel.check_model.items] == ["pass"] * 4


def test_tab_agrees_with_the_audit_and_findings_reach_entries(window, tmp_path) -> None:
    from aa_review.generator import generate_package

    g = generate_package(tmp_path / "gen", rows=40, seed=1, defects=["contract_drift"])
    (d,) = g.defects
    window.open_package(g.root)
    window.controller.run_audit()
    panel = window.contracts
    numeric = [f for f in window.session.report.findings if f.code == "contract.numeric"]
    assert numeric and {f.location.file for f in numeric} == {d.ref}
    for i, (e, p) in enumerate(zip(panel.entries, panel.previews, strict=True)):
        assert p.ok is (e.artifact_ref != d.ref), (e.key, p.status)
        if not p.ok:  # "fail (1 differences)" is coloured as a failure
            color = panel.list_model.data(
                panel.list_model.index(i, 3), Qt.ItemDataRole.ForegroundRole
            )
            assert color is not None and color.color().name() == "#c62828"
    assert [c[1] for c in panel.check_model.items] == ["pass"] * 4
    # the finding names the transfer checklist's contract: the tab shows an entry of that file
    window.session.select_finding(window.session.findings.findings.index(numeric[0]), 0, "findings")
    row = panel.list_view.currentIndex().row()
    assert panel.entries[row].artifact_ref == d.ref
    assert numeric[0].location.contract in panel.entries[row].group
    assert window.center.currentWidget() is panel
    diffs = panel.diff_model.items
    assert diffs and diffs[0][0] == "non_numeric" and d.extra["column"] in diffs[0][2]


def test_a_blank_non_empty_column_is_marked(window, sample_copy) -> None:
    path = sample_copy / CSV
    lines = path.read_text().splitlines()
    path.write_text(
        "\n".join([lines[0]] + [",".join(["", *ln.split(",")[1:]]) for ln in lines[1:]]) + "\n"
    )
    window.open_package(sample_copy)
    panel = window.contracts
    row = next(
        i for i, e in enumerate(panel.entries) if e.artifact_ref == CSV and e.kind == "output"
    )
    panel.list_view.setCurrentIndex(panel.list_model.index(row, 0))
    assert [(k, f) for k, f, _ in panel.diff_model.items] == [("empty", "invoice_id")]
    tm = panel.table_model
    assert tm.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.BackgroundRole) is not None
    assert "blank" in tm.headerData(0, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tm.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.BackgroundRole) is None
