"""Compare mode in the window, on a generated pair, checked against what the generator
changed: the Change column and facet, ``change:`` queries, the changes listed (removed
rows from the baseline), both versions side by side, closing the baseline; and the
same answers as ``aa-review diff`` for a table of queries."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from aa_review.core.query import QueryError
from aa_review.core.session import Scope
from aa_review.generator import ChangeSpec, derive_package, generate_package
from aa_review.qt.models.rows_table import CHANGE_COLUMN

pytestmark = pytest.mark.gui

CHANGES = {
    "rows_added": 2,
    "rows_removed": 2,
    "rows_changed": 3,
    "rows_moved": 1,
    "rows_reformatted": 1,
    "evidence_hidden": 1,
    "evidence_rehashed": 1,
    "contract_edits": ("column_added",),
}


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    base = generate_package(
        tmp_path_factory.mktemp("win_cmp_base"), rows=60, seed=11, package_id="pkg_win_cmp"
    ).root
    derived = derive_package(
        base, tmp_path_factory.mktemp("win_cmp_new"), ChangeSpec(**CHANGES), seed=5
    )  # type: ignore[arg-type]
    return base, derived


@pytest.fixture
def comparing(window, pair):  # type: ignore[no-untyped-def]
    base, derived = pair
    window.open_package(derived.root)
    window.compare.commands.open_baseline(base)
    assert window.session.comparison is not None
    assert window.session.comparison.prepared is not None
    return window, derived


def _click(qtbot, view, row: int, col: int = 0) -> None:  # type: ignore[no-untyped-def]
    rect = view.visualRect(view.model().index(row, col))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _shown_ids(window) -> set[str]:  # type: ignore[no-untyped-def]
    m, ix = window.rows.model, window.session.package.index
    return {ix.row_id_str(m.position(r)) for r in range(m.rowCount())}


def _listed(window, kind: str | None = None) -> set[str]:  # type: ignore[no-untyped-def]
    m = window.compare.model
    return {
        m.items[r][2]
        for r in range(m.rowCount())
        if m.items[r][1] == "row" and (kind is None or m.items[r][0] == kind)
    }


def _shot(window, name: str) -> None:  # type: ignore[no-untyped-def]
    folder = os.environ.get("AA_REVIEW_SHOTS")
    if folder:
        window.grab().save(str(Path(folder) / f"{name}.png"))


def test_change_column_and_facet_follow_the_record(comparing) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    rec, m, ix = derived.changes, window.rows.model, window.session.package.index
    assert m.columnCount() == CHANGE_COLUMN + 1
    assert m.headerData(CHANGE_COLUMN, Qt.Orientation.Horizontal) == "Change"
    kinds = {
        ix.row_id_str(m.position(r)): m.data(m.index(r, CHANGE_COLUMN)) for r in range(m.rowCount())
    }
    for rid in rec.rows_added:
        assert kinds[rid].startswith("added")
    for rid in rec.rows_changed:
        assert kinds[rid].startswith("changed")
    for rid in rec.rows_moved:
        assert kinds[rid].startswith("moved")
    for rid in rec.rows_reformatted:
        assert kinds[rid].startswith("reformatted")
    touched = {*rec.rows_added, *rec.rows_changed, *rec.rows_moved, *rec.rows_reformatted}
    assert all(k in ("", "linked") for rid, k in kinds.items() if rid not in touched)
    # the facet: counts from the diff, a click sets change: in the rows query
    fm = window.facets.model
    head = next(
        fm.item(i) for i in range(fm.rowCount()) if fm.item(i).text() == "Change (vs baseline)"
    )
    counts = {
        head.child(j, 0).text(): int(head.child(j, 1).text().replace(",", ""))
        for j in range(head.rowCount())
    }
    assert counts["changed"] == len(rec.rows_changed) and counts["added"] == len(rec.rows_added)
    j = next(j for j in range(head.rowCount()) if head.child(j, 0).text() == "changed")
    window.facets._pick(head.child(j, 0).index())
    assert window.session.query(Scope.ROWS) == "change:changed"
    assert _shown_ids(window) == set(rec.rows_changed)
    # the evidence catalog's change column
    em = window.evidence.model
    col = em.columns.index("change")
    by_id = {em.data(em.index(r, 0)): em.data(em.index(r, col)) for r in range(em.rowCount())}
    assert by_id[rec.evidence_hidden[0]] == "visibility"
    assert by_id[rec.evidence_rehashed[0]] == "changed"
    # the contracts list: the entry the generator edited says so, the others nothing
    cm, entries = window.contracts.list_model, window.contracts.entries
    assert cm.header[-1] == "Change"
    edited = {(e.document, e.item) for e in rec.contract_edits}
    docs = {"output": "output_contract", "artifact": "artifact_contract"}
    seen: dict[tuple[str, str], int] = {}
    for i, e in enumerate(entries):
        key = (docs[e.kind], e.item.path)
        seen[key] = n = seen.get(key, 0) + 1  # a repeated path is "path (#2)" (12.17)
        named = (key[0], key[1] if n == 1 else f"{key[1]} (#{n})")
        assert cm.items[i][-1] == ("changed" if named in edited else ""), e.key
    assert any(cm.items[i][-1] for i in range(len(entries)))


def test_change_queries_and_the_changes_listed(comparing) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    rec = derived.changes
    window.rows.query.set_text("change:added OR change:moved")
    assert _shown_ids(window) == set(rec.rows_added) | set(rec.rows_moved)
    assert _listed(window) == set(rec.rows_added) | set(rec.rows_moved)
    window.rows.query.set_text("change:removed")
    assert _shown_ids(window) == set()  # not rows of this package ...
    assert _listed(window, "removed") == set(rec.rows_removed)  # ... listed from the baseline
    window.rows.query.set_text("")
    assert _listed(window, "changed") == set(rec.rows_changed)
    m = window.compare.model
    evidence = {
        m.items[r][2]: m.items[r][0] for r in range(m.rowCount()) if m.items[r][1] == "evidence"
    }
    assert evidence[rec.evidence_hidden[0]] == "visibility"
    assert any(m.items[r][1] == "contract" for r in range(m.rowCount()))


def test_side_by_side_for_rows_and_evidence(comparing, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    rec, s = derived.changes, window.session
    rid, paths = next(iter(rec.rows_changed.items()))
    pos = s.package.index.find_row(rid)
    window.rows.query.set_text(f'id:"{rid}"')
    _click(qtbot, window.rows.view, 0)
    assert s.selection.current.row == pos
    view = window.compare.shown_view
    assert view is not None and view.title == rid and view.kind.startswith("changed")
    for path in paths:
        assert any(p == path or p.startswith((path + ".", path + "[")) for p in view.differing)
    sides = window.compare.sides
    marked = [sides.items[r][1] for r in range(sides.rowCount()) if sides.items[r][0] == "≠"]
    assert marked == list(view.differing) and marked
    assert "changed" in window.compare.title.text()
    # the compare list follows the selection made in the rows table
    cur = window.compare.view.currentIndex()
    assert cur.isValid() and window.compare.model.items[cur.row()][2] == rid
    # a removed row: picked in the list, shown from the baseline, no row of this package
    window.rows.query.set_text("")
    m = window.compare.model
    r = next(r for r in range(m.rowCount()) if m.items[r][0] == "removed")
    _click(qtbot, window.compare.view, r)
    removed_id = m.items[r][2]
    assert removed_id in rec.rows_removed
    assert s.selection.current.row is None and s.comparison.baseline_row is not None
    view = window.compare.shown_view
    assert view.kind == "removed" and view.title == removed_id
    assert all(line.new is None for line in view.lines)
    assert window.detail.model.rowCount() == 0  # the row detail names rows of this package
    _shot(window, "compare_removed")
    # evidence: selected in the catalog, both catalog entries side by side
    hidden = rec.evidence_hidden[0]
    window.evidence.query.set_text(f'id:"{hidden}"')
    _click(qtbot, window.evidence.view, 0)
    view = window.compare.shown_view
    assert view is not None and view.differing == ("visibility",)


def test_closing_the_baseline_returns_to_the_normal_window(comparing) -> None:  # type: ignore[no-untyped-def]
    window, _derived = comparing
    assert window.docks["compare"].isVisible()
    window.rows.query.set_text("change:changed")
    _shot(window, "compare_changed")
    window.compare.close_button.click()
    s = window.session
    assert s.comparison is None
    assert window.rows.model.columnCount() == CHANGE_COLUMN  # the Change column is gone
    assert "change" not in window.evidence.model.columns
    assert window.contracts.list_model.header[-1] == "Status"
    assert not window.docks["compare"].isVisible()
    fm = window.facets.model
    assert all(fm.item(i).text() != "Change (vs baseline)" for i in range(fm.rowCount()))
    # the query that needed the baseline says so, and every row is shown again
    assert window.rows.query.error.isVisible()
    assert "baseline" in window.rows.query.error.text()
    assert window.rows.model.rowCount() == len(s.package.index)
    with pytest.raises(QueryError):
        s.set_query(Scope.ROWS, "change:added")


def test_reopening_the_package_computes_the_diff_again(comparing) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    before = window.session.comparison.prepared
    window.controller.reload()
    after = window.session.comparison
    assert after is not None and after.prepared is not None and after.prepared is not before
    assert after.prepared.package is window.session.package
    window.rows.query.set_text("change:changed")
    assert _shown_ids(window) == set(derived.changes.rows_changed)


def test_a_baseline_that_cannot_be_opened_is_a_message(window, pair, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _base, derived = pair
    window.open_package(derived.root)
    warnings: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "warn", lambda t, x: warnings.append((t, x)))
    window.compare.commands.open_baseline(tmp_path / "not-a-package")
    assert window.session.comparison is None and warnings
    assert "not-a-package" in warnings[0][1]


# -- the same answers as ``aa-review diff`` -------------------------------------------------
PARITY = (
    "",
    "change:added",
    "change:removed",
    "change:changed",
    "change:moved",
    "change:reformatted",
    "-change:moved",
    "change:changed type:training_example",
    "type:training_example",
)
_LISTS = ("added", "removed", "changed", "moved", "reformatted")


def _cli(base: Path, new: Path, query: str) -> dict:  # type: ignore[type-arg]
    from aa_review.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(
            ["diff", str(base), str(new), "--json", *([f"--query={query}"] if query else [])]
        )
    out.flush()
    assert code in (0, 1)
    return json.loads(out.buffer.getvalue())  # type: ignore[attr-defined]


@pytest.mark.parametrize("query", PARITY)
def test_window_and_cli_list_the_same_rows(comparing, pair, query: str) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    base, _ = pair
    doc = _cli(base, derived.root, query)
    window.rows.query.set_text(query)
    assert window.session.result(Scope.ROWS).error is None
    for kind in _LISTS:
        assert _listed(window, kind) == {r["row_id"] for r in doc["rows"][kind]}, kind
    # the rows table agrees for the kinds that are rows of this package
    shown = _shown_ids(window)
    for kind in ("added", "changed", "moved", "reformatted"):
        cli = {r["row_id"] for r in doc["rows"][kind]}
        assert cli <= shown, kind
    if query.startswith("change:") and " " not in query and query != "change:removed":
        assert shown == {r["row_id"] for r in doc["rows"][query.split(":")[1]]}


def test_linked_rows_agree_with_the_cli(comparing, pair) -> None:  # type: ignore[no-untyped-def]
    window, derived = comparing
    base, _ = pair
    doc = _cli(base, derived.root, "change:linked")
    window.rows.query.set_text("change:linked")
    assert _shown_ids(window) == set(doc["links"]["row_ids"])
    assert doc["links"]["row_ids"]  # the hidden and rehashed items are cited


def test_compare_findings_new_and_fixed(comparing, pair) -> None:  # type: ignore[no-untyped-def]
    """Both packages audited: the findings the hidden item brings are new, as
    ``aa-review diff --findings`` says."""
    window, derived = comparing
    base, _ = pair
    assert window.compare.findings_button.isEnabled()
    window.compare.findings_button.click()
    fd = window.session.comparison.findings
    assert fd is not None
    doc = _cli_findings(base, derived.root)
    assert len(fd.new) == doc["counts"]["new"] and len(fd.fixed) == doc["counts"]["fixed"]
    assert any(f["code"] == "link.hidden_cited" for f in fd.new)
    m = window.compare.model
    listed = [m.items[r] for r in range(m.rowCount()) if m.items[r][1] == "finding"]
    assert sorted(x[2] for x in listed if x[0] == "new") == sorted(f["code"] for f in fd.new)
    assert "new" in window.compare.summary.text()


def _cli_findings(base: Path, new: Path) -> dict:  # type: ignore[type-arg]
    from aa_review.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["diff", str(base), str(new), "--json", "--findings"])
    out.flush()
    findings = json.loads(out.buffer.getvalue())["findings"]  # type: ignore[attr-defined]
    findings["counts"] = {k: len(findings[k]) for k in ("new", "fixed")}
    return findings  # type: ignore[no-any-return]


def test_the_commands_are_in_the_file_menu(window, pair, qtbot) -> None:  # type: ignore[no-untyped-def]
    _base, derived = pair
    file_menu = window.menuBar().actions()[0].menu()
    names = [a.text() for a in file_menu.actions()]
    assert "Compare &With…" in names and "Close &Baseline" in names
    _compare_open, compare_close = window.compare.compare_actions
    assert not compare_close.isEnabled()
    qtbot.wait(10)  # the dock is hidden once the window runs, whatever the saved layout
    assert not window.docks["compare"].isVisible()
    window.open_package(derived.root)
    window.compare.commands.open_baseline(_base)
    assert compare_close.isEnabled() and window.docks["compare"].isVisible()
    compare_close.trigger()
    assert window.session.comparison is None and not compare_close.isEnabled()


def test_compare_names_both_folders_and_swaps_them(comparing, pair, qtbot) -> None:
    window, derived = comparing
    base, _ = pair
    panel = window.compare
    text = panel.folders.text()
    assert f"Open (new): {derived.root}" in text and f"Baseline (old): {base}" in text
    assert panel.swap_button.isEnabled()
    before = window.session.comparison.prepared.counts()
    qtbot.mouseClick(panel.swap_button, Qt.MouseButton.LeftButton)
    s = window.session
    assert s.package is not None and s.package.root == base
    assert s.comparison is not None and s.comparison.baseline.root == derived.root
    assert s.comparison.prepared is not None
    assert f"Open (new): {base}" in panel.folders.text()
    assert f"Baseline (old): {derived.root}" in panel.folders.text()
    # the swap compares again at once: nothing says the baseline was closed
    assert window.statusBar().currentMessage() != "Baseline closed"
    assert panel.summary.text().startswith(f"Baseline {derived.package_id}: ")
    # the diff is the other way round: what was added is now removed, and back
    after = s.comparison.prepared.counts()
    assert (after["added"], after["removed"]) == (before["removed"], before["added"])
    assert before["added"] or before["removed"]


def test_a_swap_whose_open_fails_leaves_no_baseline_for_later(comparing, pair, monkeypatch) -> None:
    """The swap opens the baseline folder; had that failed, the next package opened by
    hand is not compared with the folder the swap meant to be its baseline."""
    window, derived = comparing
    base, _ = pair
    warned: list[str] = []
    monkeypatch.setattr(window, "warn", lambda title, text: warned.append(title))
    moved = base.with_name(base.name + "_away")
    base.rename(moved)
    try:
        window.compare.swap_button.click()
    finally:
        moved.rename(base)
    assert warned == ["Cannot open package"]
    assert window.session.package.root == derived.root and window.session.comparison is None
    window.open_package(base)
    assert window.session.package.root == base
    assert window.session.comparison is None
    assert window.compare.folders.text() == ""


def test_the_window_cancel_stops_compare_work_too(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """File > Cancel and the status bar's Cancel stop the baseline's opening, its diff and
    the findings' audits, besides loading and auditing."""
    stopped: list[str] = []
    monkeypatch.setattr(window.runner, "stop", stopped.append)
    for cancel in (window.commands.cancel.trigger, window.cancel_button.click):
        stopped.clear()
        cancel()
        assert {"load", "audit", "baseline", "compare", "compare_findings"} <= set(stopped)
