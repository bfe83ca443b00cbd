"""The audit in the window: findings listed, filtered, and each one navigable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui

ENV = "experience_compiler/environment/environment_response_pairs.jsonl"


def _inject_private_path(root: Path) -> str:
    """Put a private path into one row's text; returns that row's id."""
    path = root / ENV
    lines = path.read_text().splitlines()
    row = json.loads(lines[3])
    row["observed_environment_response"] = "saved to /home/alice/secret/report.csv"
    lines[3] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    return row["row_id"]


def test_audit_finding_selects_its_row(window, sample_copy: Path, settings) -> None:
    rid = _inject_private_path(sample_copy)
    settings.setValue("audit/auto", "true")
    window.open_package(sample_copy)
    report = window.session.report
    assert report is not None
    codes = {f.code for f in report.findings}
    assert "privacy.private_path" in codes
    panel = window.findings
    assert "Audit:" in panel.summary.text()
    panel.query.set_text("code:privacy.private_path")
    assert panel.model.rowCount() >= 1
    panel.view.setCurrentIndex(panel.model.index(0, 0))
    sel = window.session.selection.current
    assert sel.finding is not None and window.session.package.index.row_id_str(sel.row) == rid
    assert window.rows.model.position(window.rows.view.currentIndex().row()) == sel.row
    assert window.detail.title.text().startswith(rid)
    # the rows query can use the audit: rows with privacy findings
    window.rows.query.set_text("finding:privacy")
    assert [window.rows.model.position(r) for r in range(window.rows.model.rowCount())] == [sel.row]
    # facets list the finding codes
    fm = window.facets.model
    titles = [fm.data(fm.index(r, 0)) for r in range(fm.rowCount())]
    assert "Finding code" in titles


def test_only_selection_filter(window, sample_copy: Path) -> None:
    rid = _inject_private_path(sample_copy)
    window.open_package(sample_copy)
    window.controller.run_audit()
    row = window.session.package.index.find_row(rid)
    window.session.selection.select(row=row, source="test")
    window.findings.only_selection.setChecked(True)
    shown = [window.findings.model.finding(r) for r in range(window.findings.model.rowCount())]
    assert shown and all(f.location.row_id == rid or f.location.line for f in shown)
    assert any(f.code == "privacy.private_path" for f in shown)
    window.session.selection.select(row=0, source="test")
    shown = [window.findings.model.finding(r) for r in range(window.findings.model.rowCount())]
    assert all(f.code != "privacy.private_path" for f in shown)


def test_evidence_query_and_live_hash(window, sample_copy: Path) -> None:
    changed = sample_copy / "attempts/revised/artifacts/vendor_totals.csv"
    changed.write_text(changed.read_text() + "extra,1\n")
    window.open_package(sample_copy)
    window.controller.run_audit()
    ev = window.evidence
    ev.query.set_text("finding:hash")
    shown = [
        window.session.package.evidence_at(ev.model.position(r)).ref
        for r in range(ev.model.rowCount())
    ]
    assert shown == ["attempts/revised/artifacts/vendor_totals.csv"]
    col = ev.model.columns.index("hash_now")
    assert ev.model.data(ev.model.index(0, col)) == "changed"
    ev.query.set_text("type:rubric")
    assert ev.model.data(ev.model.index(0, col)) == "ok"
    ev.query.set_text("visibility:nonsense-typo typ:x")
    assert ev.query.error.text().startswith("Column")
