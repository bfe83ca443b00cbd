"""ReviewSession without Qt: one owner of what is open, replaced in one step, and the
intents the views send. Emissions are asserted with psygnal's testing helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from psygnal.testing import assert_emitted_once, assert_not_emitted

from aa_review.core.package import open_package, package_digest
from aa_review.core.query import QueryError
from aa_review.core.session import ReviewSession, Scope, prepare_package

from .conftest import open_in


def _ids(session: ReviewSession, positions: Any) -> set[str]:
    ix = session.package.index
    return {ix.row_id_str(int(p)) for p in positions}


def _rows_on_disk(root: Path) -> list[dict]:
    pkg = open_package(root)
    return [
        json.loads(line)
        for rel in pkg.index.files
        for line in (root / rel).read_text().splitlines()
        if line.strip()
    ]


def test_opening_another_package_replaces_everything_before_any_event(
    generated_sample: Path, defects: Any
) -> None:
    s = ReviewSession()
    open_in(s, defects.root)  # 120 rows
    s.set_query(Scope.ROWS, "type:environment_response_pair")
    s.select_row(110)
    old = s.version
    seen: list[tuple[str, Any]] = []

    def check(name: str) -> Any:
        def slot(value: Any) -> None:
            # whatever arrives, the whole session already describes the new package
            assert s.version == old + 1 and len(s.package.index) == 60
            assert s.result(Scope.ROWS).version == s.version == s.findings.version
            assert s.facts.root == generated_sample and s.selection.current.row is None
            shown = s.result(Scope.ROWS).positions
            assert shown is not None and shown.max() < 60
            seen.append((name, getattr(value, "version", None)))

        return slot

    s.events.package_changed.connect(check("package"))
    s.events.query_changed.connect(check("query"))
    s.events.findings_changed.connect(check("findings"))
    s.selection.changed.connect(check("selection"))
    open_in(s, generated_sample)
    assert seen[0] == ("package", old + 1)
    assert [n for n, _ in seen].count("query") == 3
    assert all(v in (None, old + 1) for _, v in seen)
    # the query kept its text and was evaluated on the new package
    rows = _rows_on_disk(generated_sample)
    assert _ids(s, s.result(Scope.ROWS).positions) == {
        r["row_id"] for r in rows if r["data_type"] == "environment_response_pair"
    }


def test_an_audit_announces_only_the_tables_whose_result_changed(audited: Any) -> None:
    prepared, findings = audited
    s = ReviewSession()
    s.open(prepared)
    s.set_query(Scope.ROWS, "type:failure_case")  # no finding: term, kept by the audit
    rows = s.result(Scope.ROWS)
    sent: list[Scope] = []
    s.events.query_changed.connect(lambda r: sent.append(r.scope))
    assert s.set_audit(findings)
    assert sent == [Scope.FINDINGS]  # the findings table shows the audit's findings
    assert s.result(Scope.ROWS) is not rows  # evaluated again, the same rows kept
    s.set_query(Scope.ROWS, "finding:link")  # an audit term: its result is sent
    assert sent == [Scope.FINDINGS, Scope.ROWS]


def test_a_query_filters_and_a_bad_one_keeps_the_previous_result(generated_sample: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    with assert_emitted_once(s.events.query_changed):
        res = s.set_query(Scope.ROWS, "type:failure_case")
    rows = _rows_on_disk(generated_sample)
    assert _ids(s, res.positions) == {r["row_id"] for r in rows if r["data_type"] == "failure_case"}
    assert res.count == 3 and res.total == 60 and res.error is None
    with assert_not_emitted(s.events.query_changed), pytest.raises(QueryError):
        s.set_query(Scope.ROWS, "confidence<high")
    assert s.result(Scope.ROWS) is res and s.query(Scope.ROWS) == "type:failure_case"


def test_an_audit_replaces_the_findings_and_gives_the_digest(audited: Any) -> None:
    prepared, findings = audited
    s = ReviewSession()
    s.open(prepared)
    assert not s.findings.audited and s.digest is None
    with (
        assert_emitted_once(s.events.findings_changed),
        assert_emitted_once(s.events.facts_changed),
    ):
        assert s.set_audit(findings)
    assert s.report is findings.report and s.findings.audited
    assert (
        s.digest == findings.report.identity.package_digest == package_digest(prepared.package.root)
    )
    assert s.findings.summary().startswith(f"Audit: {findings.report.summary_line()}")


def test_results_for_a_package_no_longer_open_are_ignored(
    audited: Any, generated_sample: Path
) -> None:
    prepared, findings = audited
    s = ReviewSession()
    s.open(prepared)
    version = s.version
    open_in(s, generated_sample)
    with (
        assert_not_emitted(s.events.findings_changed),
        assert_not_emitted(s.events.facts_changed),
        assert_not_emitted(s.events.hashes_changed),
    ):
        assert not s.set_audit(findings)
        assert not s.set_digest(version, "sha256:" + "0" * 64)
        assert not s.set_hashes(version, ("ok",))
    assert s.report is None and s.digest is None


def _audited_session(audited: Any) -> ReviewSession:
    prepared, findings = audited
    s = ReviewSession()
    s.open(prepared)
    s.set_audit(findings)
    return s


def test_a_finding_selects_its_rows_and_nothing_it_does_not_name(
    audited: Any, defects: Any
) -> None:
    s = _audited_session(audited)
    fs = s.findings.findings
    hidden = next(i for i, f in enumerate(fs) if f.code == "link.hidden_cited")
    want = {r["row_id"] for r in next(d for d in defects.defects if d.name == "hidden_cited").rows}
    s.select_row(0)
    s.select_finding(hidden)
    sel = s.selection.current
    assert _ids(s, sel.rows) == want and len(want) == 5
    assert sel.finding == hidden and sel.location == 0
    assert s.package.index.row_id_str(sel.row) == fs[hidden].locations[0].row_id
    # stepping goes through the locations and keeps the rows
    seen = {sel.row}
    for _ in range(4):
        s.step_location(1)
        seen.add(s.selection.current.row)
    assert _ids(s, seen) == want and s.selection.current.rows is sel.rows
    s.step_location(1)  # past the last: back to the first
    assert s.selection.current.location == 0
    # a finding about a file only: no row, no rows, and the earlier row is not kept
    s.select_row(3)
    filed = next(
        i
        for i, f in enumerate(fs)
        if all(loc.row_id is None and loc.line is None for loc in f.locations)
    )
    s.select_finding(filed)
    sel = s.selection.current
    assert sel.finding == filed and sel.row is None and sel.rows is None
    # a finding naming a contract selects that contract
    named = next(i for i, f in enumerate(fs) if f.location.contract)
    s.select_finding(named)
    assert s.selection.current.contract == fs[named].location.contract
    assert s.contracts.entry_named(s.selection.current.contract) is not None


def test_a_row_among_those_selected_together_keeps_them(audited: Any) -> None:
    s = _audited_session(audited)
    hidden = next(i for i, f in enumerate(s.findings.findings) if f.code == "link.hidden_cited")
    s.select_finding(hidden)
    rows = s.selection.current.rows
    s.select_row(int(rows[2]))
    assert s.selection.current.rows is rows and s.selection.current.row == int(rows[2])
    outside = next(r for r in range(len(s.package.index)) if r not in set(rows.tolist()))
    s.select_row(outside)
    assert s.selection.current.rows is None
    s.select_finding_rows()
    assert np.array_equal(s.selection.current.rows, rows)


def test_only_selected_rows_and_findings_about_the_selection(audited: Any, defects: Any) -> None:
    s = _audited_session(audited)
    fs = s.findings.findings
    hidden = next(i for i, f in enumerate(fs) if f.code == "link.hidden_cited")
    s.select_finding(hidden)
    rows = s.selection.current.rows
    res = s.set_only(Scope.ROWS, True)
    assert np.array_equal(res.positions, rows) and res.only
    assert s.shown_query() == "[only the 5 rows selected together]"
    s.set_query(Scope.ROWS, f"-id:{s.package.index.row_id_str(int(rows[0]))}")
    assert np.array_equal(s.result(Scope.ROWS).positions, rows[1:])
    with assert_emitted_once(s.events.query_changed):
        s.select_rows(None)  # the rows selected together are gone: every row again
    assert s.result(Scope.ROWS).count == len(s.package.index) - 1
    # findings about the selected row: each one of them locates that row
    private = next(d for d in defects.defects if d.name == "private_path")
    first = private.rows[0]
    s.selection.select(row=s.package.index.find_row(first["row_id"]), source="test")
    res = s.set_only(Scope.FINDINGS, True)
    about = [fs[i] for i in res.positions]
    assert any(f.code == "privacy.private_path" for f in about)
    assert all(
        any(
            loc.row_id == first["row_id"] or (loc.file, loc.line) == (first["file"], first["line"])
            for loc in f.locations
        )
        for f in about
    )
    assert len(about) < len(fs)


def test_show_hidden_evidence_is_the_g9_view(audited: Any, defects: Any) -> None:
    s = _audited_session(audited)
    n = s.show_hidden_evidence()
    want = {r["row_id"] for r in next(d for d in defects.defects if d.name == "hidden_cited").rows}
    assert n == 5 and _ids(s, s.result(Scope.ROWS).positions) == want
    assert set(s.facts.hidden_rows) == want
    assert {s.findings.findings[i].code for i in s.result(Scope.FINDINGS).positions} == {
        "link.hidden_cited"
    }
    ev = s.package.evidence_at(s.selection.current.evidence)
    assert ev.visibility == "hidden_excluded"


def test_palette_finds_rows_evidence_and_findings(generated_sample: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    ix = s.package.index
    rid = ix.row_id_str(12)
    (hit,) = [g for g in s.find(rid) if g.kind == "row"]
    s.go(hit)
    assert s.selection.current.row == 12
    ref = s.package.catalog[4].ref
    hits = [g for g in s.find(ref) if g.kind == "evidence"]
    assert 4 in [g.position for g in hits]
    assert s.find("") == [] and s.find("no-such-thing-anywhere") == []


def test_capture_and_restore_find_the_selection_again_by_id(
    generated_sample: Path, sample_copy: Path
) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    s.set_query(Scope.ROWS, "type:*_event")
    s.selection.select(row=7, evidence=5, source="test")
    state = s.capture()
    rid, eid = s.package.index.row_id_str(7), s.package.index.evidence_ids[5]
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    env.write_bytes(b"\n".join(env.read_bytes().split(b"\n")[1:]))  # one row fewer
    t = ReviewSession()
    open_in(t, sample_copy)
    t.restore(state)
    assert t.query(Scope.ROWS) == "type:*_event"
    assert t.package.index.row_id_str(t.selection.current.row) == rid
    assert t.package.index.evidence_ids[t.selection.current.evidence] == eid


def test_the_digest_arrives_once_for_the_open_package(generated_sample: Path) -> None:
    from aa_review.core.session import compute_digest

    s = ReviewSession()
    open_in(s, generated_sample)
    digest = compute_digest(generated_sample)
    assert digest == package_digest(generated_sample)
    with assert_emitted_once(s.events.facts_changed):
        assert s.set_digest(s.version, digest)
        assert not s.set_digest(s.version, digest)  # no change, no event
    assert s.facts.digest == digest and s.facts.package_id == generated_sample.name


def test_export_plan_writes_what_is_shown(generated_sample: Path, tmp_path: Path) -> None:
    from aa_review.core.query.export import meta_path
    from aa_review.core.session import run_export

    s = ReviewSession()
    open_in(s, generated_sample)
    s.set_query(Scope.ROWS, "type:evaluation_example")
    n, digest = run_export(s.export_plan(), tmp_path / "rows.jsonl")
    lines = (tmp_path / "rows.jsonl").read_text().splitlines()
    assert n == len(lines) == 6
    assert {json.loads(x)["data_type"] for x in lines} == {"evaluation_example"}
    meta = json.loads(meta_path(tmp_path / "rows.jsonl").read_text())
    assert meta["query"] == "type:evaluation_example"
    assert meta["package_digest"] == digest == package_digest(generated_sample)


def test_prepare_package_counts_facets_from_the_rows(generated_sample: Path) -> None:
    pkg = open_package(generated_sample)
    prepared = prepare_package(pkg, size_limit=1 << 40)
    rows = _rows_on_disk(generated_sample)
    (types,) = [g for g in prepared.facets if g.field == "type"]
    want: dict[str, int] = {}
    for r in rows:
        want[r["data_type"]] = want.get(r["data_type"], 0) + 1
    assert dict(types.counts) == want
    (vis,) = [g for g in prepared.facets if g.field == "evidence.visibility"]
    by_id = {e.evidence_id: e.visibility for e in pkg.catalog}
    for value, n in vis.counts:
        assert n == sum(
            any(by_id.get(e) == value for e in r["source_evidence_ref_ids"]) for r in rows
        )
    assert prepared.small and not prepare_package(pkg, size_limit=1000).small
    view = prepared.contracts
    for i, e in enumerate(view.entries):
        assert view.entry_named(e.key) == i or view.entries[view.entry_named(e.key)].key == e.key
        if e.artifact_ref:
            assert view.entries[view.entry_backed_by(e.artifact_ref)].artifact_ref == e.artifact_ref


def test_work_stops_when_cancelled(generated_sample: Path) -> None:
    from aa_review.core.session import Cancelled, compute_digest, live_hash_statuses

    with pytest.raises(Cancelled):
        compute_digest(generated_sample, cancelled=lambda: True)
    pkg = open_package(generated_sample)
    with pytest.raises(Cancelled):
        live_hash_statuses(pkg, cancelled=lambda: True)
    statuses = live_hash_statuses(pkg)
    assert len(statuses) == len(pkg.catalog) and "ok" in statuses


def test_an_export_of_rows_selected_together_records_a_query_the_cli_replays(
    audited: Any, tmp_path: Path, capsys: Any
) -> None:
    # Issue 25: the sidecar recorded "[only the N rows selected together]", which
    # `aa-review rows --query` cannot answer; replay_query selects exactly those rows.
    from aa_review.cli import main
    from aa_review.core.session import run_export

    s = _audited_session(audited)
    finding = next(
        i for i, f in enumerate(s.findings.findings) if len(f.locations.row_positions()) > 1
    )
    s.select_finding(finding, 0, source="findings")
    s.set_only(Scope.ROWS, True)
    plan = s.export_plan(Scope.ROWS)
    assert plan is not None and "[only the" in plan.query
    out = tmp_path / "picked.jsonl"
    run_export(plan, out)
    meta = json.loads((tmp_path / "picked.jsonl.meta.json").read_text())
    assert meta["query"] == plan.query
    exported = [json.loads(line)["row_id"] for line in out.read_text().splitlines()]
    capsys.readouterr()
    code = main(["rows", str(s.package.root), "--query", meta["replay_query"], "--jsonl"])
    replayed = [json.loads(line)["row_id"] for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and sorted(replayed) == sorted(exported) and len(exported) > 1
