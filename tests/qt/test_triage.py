"""Findings triage in the window: sorting, groups with counts, the findings column."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Findings of several codes and severities; 4 rows cite hidden evidence."""
    from aa_review.generator import generate_package

    return generate_package(
        tmp_path_factory.mktemp("triage"),
        rows=80,
        seed=7,
        defects=["hidden_cited", "private_path", "missing_lineage", "contract_drift"],
        defect_rows={"hidden_cited": 4, "private_path": 3},
    )


def _audited(window: Any, root: Any) -> Any:
    window.open_package(root)
    window.controller.run_audit()
    assert window.session.report is not None
    return window.session.findings


def _column(model: Any, col: int) -> list[Any]:
    return [model.data(model.index(r, col)) for r in range(model.rowCount())]


def test_every_findings_column_sorts_both_ways(window, many) -> None:
    from PySide6.QtCore import Qt

    state = _audited(window, many.root)
    panel = window.findings
    assert panel.model.rowCount() == len(state.findings) > 3
    ranks = {"info": 0, "low": 1, "warning": 2, "error": 3, "critical": 4}
    panel.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    sev = [ranks[v.split(" ")[0]] for v in _column(panel.model, 0)]
    assert sev == sorted(sev, reverse=True) and sev[0] > sev[-1]
    panel.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    codes = _column(panel.model, 1)
    assert codes == sorted(codes)
    panel.view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    locs = [int(v.replace(",", "")) for v in _column(panel.model, 2)]
    assert locs == sorted(locs, reverse=True)
    panel.view.sortByColumn(4, Qt.SortOrder.AscendingOrder)
    msgs = [m.lower() for m in _column(panel.model, 4)]
    assert msgs == sorted(msgs)
    # Picking a sorted line picks that finding, and the order survives a new filter.
    panel.view.selectRow(0)
    assert window.session.selection.current.finding == panel.model.position(0)
    window.session.set_query("findings", "severity:warning")
    msgs = [m.lower() for m in _column(panel.model, 4)]
    assert msgs == sorted(msgs) and len(msgs) < len(state.findings)


def test_groups_count_findings_and_open_one(window, many) -> None:
    state = _audited(window, many.root)
    panel = window.findings
    assert not panel.groups.isVisibleTo(panel)
    panel.group_by.setCurrentIndex(panel.group_by.findData("code"))
    groups = panel.groups
    assert groups.isVisibleTo(panel)
    by_code: dict[str, int] = {}
    for f in state.findings:
        by_code[f.code] = by_code.get(f.code, 0) + 1
    shown = {
        groups.model.item(r, 0).text(): groups.model.item(r, 1).data(0)
        for r in range(groups.model.rowCount())
    }
    assert shown == by_code
    # Picking a group shows its findings alone, and the counts of the others stay.
    code = "link.hidden_cited"
    row = next(r for r in range(groups.model.rowCount()) if groups.model.item(r, 0).text() == code)
    groups.view.selectRow(row)
    assert window.findings.query.text() == f"code={code}"
    assert set(_column(panel.model, 1)) == {code}
    assert groups.model.rowCount() == len(by_code)
    # By severity, within a query: counts follow the query.
    window.session.set_query("findings", "-quirk:yes")
    panel.group_by.setCurrentIndex(panel.group_by.findData("severity"))
    want: dict[str, int] = {}
    for f in state.findings:
        if not f.quirk:
            want[f.severity.value] = want.get(f.severity.value, 0) + 1
    got = {
        groups.model.item(r, 0).text(): groups.model.item(r, 1).data(0)
        for r in range(groups.model.rowCount())
    }
    assert got == want


def test_rows_and_evidence_show_their_findings(window, many) -> None:
    from PySide6.QtCore import Qt

    from aa_review.qt.models.rows_table import FINDINGS_COLUMN

    state = _audited(window, many.root)
    hidden = next(d for d in many.defects if d.name == "hidden_cited")
    ids = {r["row_id"] for r in hidden.rows}
    model = window.rows.model
    ix = window.session.package.index
    cells = {
        ix.row_id_str(model.position(r)): model.data(model.index(r, FINDINGS_COLUMN))
        for r in range(model.rowCount())
    }
    for rid in ids:
        assert cells[rid] is not None and cells[rid].endswith("critical"), cells[rid]
    assert sum(1 for v in cells.values() if v) < len(cells)  # clean rows show nothing
    window.rows.view.sortByColumn(FINDINGS_COLUMN, Qt.SortOrder.DescendingOrder)
    top = {ix.row_id_str(model.position(r)) for r in range(len(ids))}
    assert top == ids
    # finding: and severity: still filter the rows.
    window.session.set_query("rows", "severity:critical")
    assert {ix.row_id_str(model.position(r)) for r in range(model.rowCount())} >= ids
    ev = window.evidence.model
    col = ev.columns.index("findings")
    hidden_pos = set(window.session.package.hidden_evidence().tolist())
    marked = {ev.position(r) for r in range(ev.rowCount()) if ev.data(ev.index(r, col))}
    assert hidden_pos <= marked
    assert state.prepared.marks.evidence_count[list(hidden_pos)].min() >= 1


def test_exports_from_the_window(window, many, tmp_path, monkeypatch) -> None:
    import csv
    import json

    from aa_review.core.query.export import meta_path
    from aa_review.core.session import Scope

    state = _audited(window, many.root)
    window.session.set_query("findings", "severity:critical")
    shown = window.session.result(Scope.FINDINGS).count
    assert 0 < shown < len(state.findings)
    out = tmp_path / "findings.csv"
    monkeypatch.setattr(window, "ask_save_path", lambda *_a: out)
    window.commands.export_findings.trigger()  # File > Export Filtered Findings…
    with out.open(newline="") as fh:
        lines = list(csv.DictReader(fh))
    assert {r["severity"] for r in lines} == {"critical"}
    assert len({r["finding_index"] for r in lines}) == shown
    meta = json.loads(meta_path(out).read_text())
    assert meta["query"] == "severity:critical"
    assert meta["package_digest"] == window.session.digest

    window.session.set_query("evidence", "visibility:hidden_excluded")
    ev = tmp_path / "evidence.jsonl"
    monkeypatch.setattr(window, "ask_save_path", lambda *_a: ev)
    window.commands.export_evidence.trigger()
    items = [json.loads(line) for line in ev.read_text().splitlines()]
    assert items and {i["visibility"] for i in items} == {"hidden_excluded"}

    window.session.set_query("rows", "severity:critical")
    full = tmp_path / "rows.csv"
    monkeypatch.setattr(window, "ask_save_path", lambda *_a: full)
    window.commands.export_full.trigger()
    with full.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == window.session.result(Scope.ROWS).count > 0
    summary = tmp_path / "summary.csv"
    window.controller.export(summary)
    with summary.open(newline="") as fh:
        header = next(csv.reader(fh))
    assert len(rows[0]) > len(header)  # every field, not the summary columns
    assert "source_evidence_ref_ids" in rows[0]


def test_completion_proposes_fields_then_values_from_the_package(window, many, qtbot) -> None:
    from PySide6.QtCore import Qt

    _audited(window, many.root)
    bar = window.rows.query
    edit, comp = bar.edit, bar.completer
    edit.setFocus()
    qtbot.keyClicks(edit, "ty")
    assert comp.open and comp.labels()[0] == "type"
    qtbot.keyClick(edit, Qt.Key.Key_Tab)  # accepts, keeps the focus in the bar
    assert edit.text() == "type:"
    # The values of type: are the package's data types, with their counts.
    ix = window.session.package.index
    types = {t for t in ix.data_types if t}
    assert comp.open and set(comp.labels()) == types
    qtbot.keyClicks(edit, "fail")
    assert comp.labels() == ["failure_case"]
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert edit.text() == "type:failure_case" and not comp.open
    bar.run()
    assert window.session.query("rows") == "type:failure_case"
    # Arrows move, Esc closes without changing the text.
    qtbot.keyClicks(edit, " conf")
    assert comp.open and comp.labels() == ["confidence"]
    qtbot.keyClick(edit, Qt.Key.Key_Escape)
    assert not comp.open and edit.text() == "type:failure_case conf"
    edit.setText("")
    qtbot.keyClicks(edit, "evid")
    many_labels = comp.labels()
    assert len(many_labels) > 1
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    qtbot.keyClick(edit, Qt.Key.Key_Enter)
    assert edit.text().startswith(many_labels[1])
    # The findings bar completes the findings' own fields and codes.
    fbar = window.findings.query
    fbar.edit.setFocus()
    qtbot.keyClicks(fbar.edit, "code:link.h")
    assert "link.hidden_cited" in fbar.completer.labels()


@pytest.fixture(scope="module")
def placed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Findings placed in files without rows: a malformed line, a manifest's key path, a
    row rejected as a duplicate (only in reports/rejected_rows.jsonl)."""
    from aa_review.generator import generate_package

    g = generate_package(
        tmp_path_factory.mktemp("placed"),
        rows=60,
        seed=2,
        defects=["malformed_line", "counts_mismatch"],
    )
    rejected = g.root / "experience_compiler/reports/rejected_rows.jsonl"
    with rejected.open("ab") as fh:
        fh.write(b'{"row_id": "dup-7", "rejection_reason": "duplicate_row_id"}\n')
    return g


def _pick(window: Any, code: str) -> Any:
    fs = window.session.findings.findings
    i = next(i for i, f in enumerate(fs) if f.code == code)
    window.findings.view.selectRow(window.findings.model.table_row_of(i))
    return fs[i]


@pytest.mark.parametrize("code", ["input.malformed_line", "quirk.duplicate_row_rejected"])
def test_a_finding_on_a_line_without_a_row_shows_that_line(window, placed, code) -> None:
    _audited(window, placed.root)
    f = _pick(window, code)
    doc = window.detail.document
    assert doc.isVisibleTo(window.detail) and not window.detail.view.isVisibleTo(window.detail)
    loc = f.locations[0]
    lines = (placed.root / loc.file).read_bytes().decode("utf-8", "replace").split("\n")
    assert doc.document is not None and doc.document.target == loc.line
    from aa_review.core.session.document import MAX_LINE_CHARS

    want = lines[loc.line - 1]
    assert doc.target_text().startswith(want[:MAX_LINE_CHARS])
    assert len(want) <= MAX_LINE_CHARS or doc.target_text().endswith("more characters)")
    assert f.message in doc.title.toolTip() and loc.file in doc.title.toolTip()
    if code == "quirk.duplicate_row_rejected":
        assert '"rejection_reason": "duplicate_row_id' in doc.target_text()
        i = window.session.selection.current.finding
        window.session.step_location(-1, "findings")  # the last: the line added above
        assert doc.target_text() == '{"row_id": "dup-7", "rejection_reason": "duplicate_row_id"}'
        assert window.session.selection.current.finding == i
    # Picking a row shows the row again.
    window.session.select_row(0, "rows")
    assert not doc.isVisibleTo(window.detail) and window.detail.view.isVisibleTo(window.detail)


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("count.rows_by_type", "compiler_manifest.json"),
        ("quirk.bogus_list_ref", "environment_spec.json"),
    ],
)
def test_a_finding_in_a_json_document_opens_at_its_key_path(window, placed, code, name) -> None:
    import json

    from aa_review.core.session.document import locate_key_path

    _audited(window, placed.root)
    f = _pick(window, code)
    loc = f.location
    assert loc.file.endswith(name) and loc.key_path
    doc = window.detail.document
    assert doc.isVisibleTo(window.detail)
    text = (placed.root / loc.file).read_text()
    json.loads(text)  # a real JSON document
    offset, walked = locate_key_path(text, loc.key_path)
    assert walked == loc.key_path
    assert doc.document.target == text.count("\n", 0, offset) + 1
    assert f"key {loc.key_path}" in doc.title.toolTip() and f.message in doc.title.toolTip()
    last = loc.key_path.rsplit(".", 1)[-1].split("[")[0]
    if "[" not in loc.key_path.rsplit(".", 1)[-1]:
        assert f'"{last}"' in doc.target_text()


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from aa_review.generator import generate_package

    root = tmp_path_factory.mktemp("corpus")
    generate_package(root, rows=30, seed=1, package_id="a_clean")
    generate_package(root, rows=40, seed=2, package_id="b_bad", defects=["hidden_cited"])
    (root / "c_empty").mkdir()
    return root


def _lines(w: Any) -> list[str]:
    return [w.model.item(r, 0).text() for r in range(w.model.rowCount())]


def test_corpus_view_opens_a_report_sorts_and_opens_a_package(window, corpus_dir, tmp_path) -> None:
    from PySide6.QtCore import Qt

    from aa_review.core.audits import AuditDocument, audit_corpus

    report = tmp_path / "corpus.json"
    report.write_text(AuditDocument(audit_corpus(corpus_dir, 1)).model_dump_json())
    w = window.show_corpus()
    w.open_report(report)
    assert w.corpus is not None and len(w.corpus.lines) == 3
    headers = [w.model.horizontalHeaderItem(c).text() for c in range(w.model.columnCount())]
    assert "links" in headers and headers[-1] == "Problem"
    # Worst first, then by a column clicked: rows, as numbers.
    assert _lines(w)[0] == "b_bad"
    assert w.model.item(0, headers.index("Worst")).text() == "critical"
    w.view.sortByColumn(headers.index("Rows"), Qt.SortOrder.AscendingOrder)
    rows = [
        w.model.item(r, headers.index("Rows")).data(Qt.ItemDataRole.UserRole + 1) for r in range(3)
    ]
    assert rows == sorted(rows) and rows[-1] == 40
    empty = _lines(w).index("c_empty")
    assert "c_empty" in w.line_at(empty).path and w.line_at(empty).error
    w.open_line(empty)  # a folder that is no package says so, opens nothing
    assert window.session.package is None and "could not be audited" in w.summary.text()
    w.open_line(_lines(w).index("b_bad"))
    assert window.session.package is not None
    assert window.session.package.root == corpus_dir / "b_bad"


def test_corpus_view_audits_a_folder_and_refuses_a_bad_report(window, corpus_dir, tmp_path) -> None:
    w = window.show_corpus()
    w.workers = 1
    w.audit(corpus_dir)
    assert sorted(_lines(w)) == ["a_clean", "b_bad", "c_empty"]
    assert not w.progress.isVisibleTo(w)
    bad = tmp_path / "nope.json"
    bad.write_text('{"kind": "corpus"}')
    w.open_report(bad)
    assert "nope.json" in w.summary.text() and "not an aa-review audit report" in w.summary.text()
    assert len(_lines(w)) == 3  # what was shown stays


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The query tests' package: spread confidence and quality, partial citations."""
    from aa_review.generator import generate_package
    from tests.core.query.conftest import vary_rows

    root = generate_package(
        tmp_path_factory.mktemp("parity"),
        rows=120,
        seed=3,
        defects=["hidden_cited", "private_path", "missing_lineage"],
    ).root
    vary_rows(root)
    return root


def test_the_window_filters_answer_the_parity_table_as_the_core(window, varied) -> None:
    """Each query of the parity table, typed in the window's bars, shows what the core's
    filter (and so the command line) keeps, in the same order (findings worst first, as
    ``audit --query`` lists them)."""
    from aa_review.core.findings import worst_first
    from aa_review.core.query import filter_findings, filter_rows
    from tests.core.query import parity

    _audited(window, varied)
    pkg, findings = window.session.package, window.session.findings.findings
    for query in parity.ROWS:
        window.rows.query.set_text(query)
        assert not window.rows.query.error.isVisibleTo(window), query
        core = filter_rows(pkg, query, findings)
        want = list(range(len(pkg.index))) if core is None else core.tolist()
        m = window.rows.model
        assert [m.position(r) for r in range(m.rowCount())] == want, query
        assert window.count_label.text() == f"{len(want):,} of {len(pkg.index):,} rows"
    for query in parity.FINDINGS:
        window.findings.query.set_text(query)
        assert not window.findings.query.error.isVisibleTo(window), query
        want = worst_first(findings, filter_findings(findings, query, pkg))
        m = window.findings.model
        assert want and [m.position(r) for r in range(m.rowCount())] == want, query


def test_the_document_viewer_never_leaves_the_package(window, tmp_path, monkeypatch) -> None:
    """A finding about a ref out of the package shows the file that holds the ref, not
    what it names; a place in a file out of the package is refused with the reason."""
    from aa_review.generator import generate_package
    from aa_review.qt.views import detail_panel

    g = generate_package(tmp_path / "g", rows=30, seed=2, defects=["ref_dotdot"])
    secret = g.root.parent / "outside.txt"
    secret.write_text("SECRET-CONTENT")
    _audited(window, g.root)
    fs = window.session.findings.findings
    i = next(
        i
        for i, f in enumerate(fs)
        if f.code == "ref.escape" and f.location.file.endswith("source_evidence_map.json")
    )
    window.session.select_finding(i, 0, "findings")
    doc = window.detail.document
    assert doc.document is not None and doc.document.rel.endswith("source_evidence_map.json")
    assert "../outside.txt" in "\n".join(doc.document.lines)
    assert "SECRET" not in doc.text.toPlainText()

    monkeypatch.setattr(
        detail_panel, "finding_place", lambda _s, _sel: ("../outside.txt", 1, None, "error x: y")
    )
    window.session.select_finding(i, 0, "palette")
    window.session.select_finding((i + 1) % len(fs), 0, "palette")
    assert doc.document is None and "cannot be shown" in doc.title.toolTip()
    assert "climbs out of the package" in doc.title.toolTip()
    assert "SECRET" not in doc.text.toPlainText()


def test_auditing_a_folder_can_be_cancelled(window, corpus_dir) -> None:
    w = window.show_corpus()
    w.workers = 1
    w.progress.valueChanged.connect(lambda v: w.cancel_button.click() if v > 0 else None)
    w.audit(corpus_dir)
    assert "cancelled" in w.summary.text()
    assert w.corpus is None and w.model.rowCount() == 0
    assert not w.cancel_button.isVisibleTo(w)


def test_a_long_token_in_the_document_title_wraps_inside_the_dock(qtbot) -> None:
    """Seen in a screenshot: a hash in the finding's message made the title wider than
    the dock; the label, unable to wrap inside a word, was clipped top, right and
    bottom. The title wraps the hash and keeps its text whole in the tooltip."""
    from aa_review.qt.views.document_view import DocumentView

    view = DocumentView()
    qtbot.addWidget(view)
    about = "error hash.changed: catalog sha256:" + "4f5d2117cf7ad6669f1acc71eb" * 4
    view.reading("input/invoices.csv", about)
    fm = view.title.fontMetrics()
    assert view.title.minimumSizeHint().width() < fm.horizontalAdvance("sha256:" + "4f5d" * 8)
    assert view.title.text().replace("\u200b", "") == f"input/invoices.csv  (reading…)\n{about}"
    assert view.title.toolTip() == f"input/invoices.csv  (reading…)\n{about}"
