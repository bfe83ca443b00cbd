"""Selection that never lies: every view says what is selected and why (issue 25, item 2)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.gui


def _audited_demo(window: Any) -> Any:
    from aa_review.demo import bundled_package

    window.open_package(bundled_package())
    window.controller.run_audit()
    assert window.session.report is not None
    return window.session


def _finding(session: Any, code: str) -> int:
    return next(i for i, f in enumerate(session.findings.index.findings) if f.code == code)


def test_an_evidence_item_picked_after_a_finding_replaces_its_rows(window) -> None:
    s = _audited_demo(window)
    s.select_finding(_finding(s, "privacy.secret"), source="findings")
    assert window.rows.selected_label.text().startswith("1 row selected: the rows finding ")
    ix = s.package.index
    # an evidence item the finding's row does not cite
    cited = set(ix.evidence_of_row(s.selection.current.row).tolist())
    item = next(e for e in range(len(ix.evidence_ids)) if e not in cited and len(ix.rows_citing(e)))
    n = len(ix.rows_citing(item))
    window.evidence.view.setCurrentIndex(
        window.evidence.model.index(window.evidence.model.table_row_of(item), 0)
    )
    sel = s.selection.current
    assert sel.evidence == item and sel.finding is None and sel.row is None
    eid = ix.evidence_ids[item]
    text = window.rows.selected_label.text()
    assert text.startswith(f"{n:,} row") and f"citing evidence item {eid}" in text
    assert "finding" not in text
    assert window.rows.model.marked_count == n
    # Row detail no longer shows the finding's row: it names the evidence item
    assert eid in window.detail.title.text() and f"{n:,} row" in window.detail.title.text()
    assert window.detail.model.rowCount() == 0


def test_a_finding_on_an_evidence_item_selects_the_rows_citing_it(window) -> None:
    s = _audited_demo(window)
    i = _finding(s, "hash.changed")
    assert len(s.findings.index.rows_of_finding(i)) == 0  # it locates no row itself
    item = s.findings.index.evidence_at(i, 0)
    want = set(s.package.index.rows_citing(item).to_array().tolist())
    assert want
    s.select_finding(i, source="findings")
    sel = s.selection.current
    assert sel.rows is not None and set(sel.rows.tolist()) == want
    text = window.rows.selected_label.text()
    assert text.startswith(f"{len(want):,} row") and "hash.changed" in text
    assert s.package.index.evidence_ids[item] in text
    assert "pick a finding" not in text
    assert f"{len(want):,} row" in window.detail.title.text()


def test_nothing_stale_survives_a_change(window, tmp_path) -> None:
    """Change the package, the selection and the baseline: every view's text follows."""
    from aa_review.generator import generate_package

    s = _audited_demo(window)
    old_ids = set(s.package.index.evidence_ids)
    s.select_finding(_finding(s, "privacy.secret"), source="findings")
    assert window.rows.selected_label.text().startswith("1 row selected")
    # another selection: a row alone, then nothing
    row = int(s.selection.current.row) + 1
    s.select_row(row, source="rows")
    rid = s.package.index.row_id_str(row)
    said = window.rows.selected_label.text()
    assert said.startswith(f"One row: row {rid}, not among the rows of finding ")
    assert "selected" not in said.split("(")[0]  # no count of the finding's rows
    s.select_finding(_finding(s, "hash.changed"), source="findings")
    window.rows.clear_selected.click()
    assert s.selection.current.finding is None
    s.select_row(row, source="rows")
    said = window.rows.selected_label.text()
    cited = set(s.package.index.evidence_of_row(row).tolist())
    item = s.findings.index.evidence_at(_finding(s, "hash.changed"), 0)
    if item in cited:
        eid = s.package.index.evidence_ids[item]
        assert said == f"One row: row {rid}, which cites evidence item {eid}."
    else:
        assert said == f"One row: row {rid}. Pick a finding or an evidence item to select its rows."
    assert window.detail.title.text().startswith(rid)
    # another package: nothing of the demo is said anywhere
    other = generate_package(tmp_path / "other", rows=40, seed=11).root
    window.open_package(other)
    assert window.rows.selected_label.text() == (
        "No row selected: pick a row, a finding or an evidence item."
    )
    assert window.detail.title.text() == "Select a row to see it in full."
    assert window.evidence_rows.model.rowCount() == 0
    assert window.row_evidence.model.rowCount() == 0
    assert window.findings.where.text() in ("", "No finding picked")
    for view in (window.evidence, window.row_evidence):
        shown = {view.model.data(view.model.index(r, 0)) for r in range(view.model.rowCount())}
        assert not shown & (old_ids - set(s.package.index.evidence_ids))
    # a baseline, then closing it: the selection made before says the same thing
    s.select_evidence(0, source="evidence")
    said = window.rows.selected_label.text()
    assert "evidence item" in said or said.startswith("No row cites")
    window.compare.commands.open_baseline(other)
    assert s.comparison is not None
    assert window.rows.selected_label.text() == said
    window.compare.commands.close_baseline()
    assert window.rows.selected_label.text() == said


def test_the_journal_detail_follows_the_dossier(window, qtbot) -> None:
    from aa_review.demo import bundled_workspace

    _audited_demo(window)
    window.open_workspace(bundled_workspace())
    window.show_page("dossier")
    panel = window.dossier
    panel.wait_idle()
    tabs = panel.tabs
    assert tabs.journal_model.rowCount() > 0
    tabs.journal_view.setCurrentIndex(tabs.journal_model.index(0, 0))
    first = panel.dossier_box.currentData()
    assert f"dossier {first} " in tabs.entry_detail.toPlainText()
    other = next(
        panel.dossier_box.itemData(i)
        for i in range(panel.dossier_box.count())
        if panel.dossier_box.itemData(i) != first
    )
    panel.dossier_box.setCurrentIndex(panel.dossier_box.findData(other))
    qtbot.waitUntil(lambda: panel.snapshot is not None and panel.snapshot.dossier_id == other)
    panel.wait_idle()
    assert f"dossier {first} " not in tabs.entry_detail.toPlainText()
