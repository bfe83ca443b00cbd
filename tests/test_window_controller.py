"""The window's controller against a mock view and a runner of our own: no Qt, no widgets.

As ndv tests its controller: the view is a ``Mock`` with the WindowView methods, the
runner runs each job when told to, and the assertions are about what the session
holds and what the view was asked to show.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import Mock

import pytest

from aa_review.core.package import package_digest
from aa_review.core.session import Cancelled, ReviewSession, Scope
from aa_review.qt.controller import MAX_RECENT, WindowController


class Runner:
    """Runs jobs in this thread, at once or when ``flush`` is called (``deferred``)."""

    def __init__(self, deferred: bool = False) -> None:
        self.deferred = deferred
        self.queue: list[tuple[str, Callable[[], None]]] = []
        self.lanes: list[str] = []
        self.stopped: set[str] = set()

    class _Job:
        def __init__(self, stop: Callable[[], bool], report: Callable[[Any], None] | None) -> None:
            self._stop, self._report = stop, report

        def cancelled(self) -> bool:
            return self._stop()

        def progress(self, value: Any) -> None:
            if self._report is not None:
                self._report(value)

    def run(
        self,
        lane: str,
        work: Callable[[Any], Any],
        *,
        done: Callable[[Any], None],
        failed: Callable[[BaseException], None] | None = None,
        progress: Callable[[Any], None] | None = None,
        cancelled: Callable[[], None] | None = None,
    ) -> None:
        self.lanes.append(lane)
        self.stopped.discard(lane)

        def body() -> None:
            try:
                result = work(self._Job(lambda: lane in self.stopped, progress))
            except Cancelled:
                if cancelled:
                    cancelled()
            except Exception as exc:  # noqa: BLE001 - handed to the callback, as the real one
                if failed:
                    failed(exc)
            else:
                done(result)

        if self.deferred:
            self.queue.append((lane, body))
        else:
            body()

    def flush(self, lane: str | None = None) -> None:
        todo = [j for j in self.queue if lane is None or j[0] == lane]
        self.queue = [j for j in self.queue if j not in todo]
        for _lane, body in todo:
            body()

    def stop(self, lane: str) -> None:
        self.stopped.add(lane)

    def cancel(self, lane: str) -> None:
        self.stopped.add(lane)

    def is_running(self, lane: str) -> bool:
        return any(j[0] == lane for j in self.queue)


class Prefs(dict):  # type: ignore[type-arg]
    def value(self, key: str, default: Any = None) -> Any:
        return self.get(key, default)

    def setValue(self, key: str, value: Any) -> None:  # noqa: N802
        self[key] = value


@pytest.fixture
def parts() -> tuple[WindowController, ReviewSession, Mock, Runner, Prefs]:
    session, view, runner, prefs = ReviewSession(), Mock(), Runner(), Prefs()
    prefs["audit/auto"] = "false"
    view.layout_state.return_value = (1, "")
    return WindowController(session, view, runner, prefs), session, view, runner, prefs


def test_the_controller_needs_no_qt() -> None:
    import subprocess
    import textwrap

    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
                    raise ImportError(name)
        sys.meta_path.insert(0, Block())
        import aa_review.qt.controller
        print("ok")
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert out.stdout.strip() == "ok", out.stderr


def test_open_shows_the_package_everywhere_and_computes_its_digest(parts, sample_copy) -> None:
    c, s, view, runner, prefs = parts
    c.open(sample_copy)
    assert s.package is not None and s.package.root == sample_copy
    view.show_opened.assert_called_once_with(s.package)
    view.watch.assert_called_once_with(sample_copy)
    assert prefs["recent"] == [str(sample_copy)] and prefs["last_dir"] == str(sample_copy.parent)
    # small and not audited automatically: the digest is computed in the background
    assert runner.lanes == ["load", "hashes", "digest"]
    assert s.digest == package_digest(sample_copy)
    assert s.hashes is not None and len(s.hashes.statuses) == len(s.package.catalog)
    assert view.show_idle.call_args.args[0].startswith(sample_copy.name)


def test_a_digest_that_fails_is_told_to_whoever_waits_for_it(
    parts, sample_copy, monkeypatch
) -> None:
    import aa_review.qt.controller as controller

    c, s, _view, _runner, _prefs = parts
    told: list[str] = []
    c.digest_gave_up.append(told.append)

    def unreadable(root: Path, cancelled: Any) -> str:
        raise PermissionError(13, "Permission denied", str(root / "evidence_map.json"))

    monkeypatch.setattr(controller, "compute_digest", unreadable)
    c.open(sample_copy)
    assert s.digest is None
    assert len(told) == 1 and told[0].startswith("PermissionError: [Errno 13] Permission denied")


def test_open_audits_small_packages_when_asked_to(parts, sample_copy) -> None:
    c, s, _view, runner, prefs = parts
    prefs["audit/auto"] = "true"
    c.open(sample_copy)
    assert "audit" in runner.lanes and "digest" not in runner.lanes
    assert s.report is not None and s.digest == s.report.identity.package_digest
    assert not s.auditing  # the audit's end, after its findings: the dossier is told


def test_a_folder_that_is_no_package_is_said_and_nothing_changes(
    parts, sample_copy, tmp_path
) -> None:
    c, s, view, _runner, _prefs = parts
    c.open(sample_copy)
    opened = s.opened
    c.open(tmp_path)
    title, message = view.warn.call_args.args
    assert title == "Cannot open package" and str(tmp_path) in message
    assert "not a compiled package" in message
    assert s.opened is opened


def test_an_audit_finishing_after_another_package_opened_is_dropped(
    sample_copy, generated_sample
) -> None:
    session, view, runner, prefs = ReviewSession(), Mock(), Runner(deferred=True), Prefs()
    prefs["audit/auto"] = "false"
    c = WindowController(session, view, runner, prefs)
    c.open(sample_copy)
    runner.flush("load")
    c.run_audit()  # of sample_copy, still running when ...
    c.open(generated_sample)
    runner.flush("load")
    runner.stopped.clear()  # a runner that delivers it anyway: the session must refuse it
    runner.flush("audit")
    assert session.package.root == generated_sample and session.report is None


def test_a_finding_naming_a_contract_shows_the_contracts_page(parts, tmp_path) -> None:
    from aa_review.generator import generate_package

    c, s, view, _runner, _prefs = parts
    g = generate_package(tmp_path, rows=40, seed=1, defects=["contract_drift"])
    c.open(g.root)
    c.run_audit()
    fs = s.findings.findings
    named = next(i for i, f in enumerate(fs) if f.code == "contract.numeric")
    s.select_finding(named, 0, source="palette")
    view.show_page.assert_not_called()  # only a pick in the findings table switches pages
    s.selection.clear()
    s.select_finding(named, 0, source="findings")
    view.show_page.assert_called_once_with("contracts")


def test_gate_g9_offers_the_rows_citing_hidden_evidence(parts, tmp_path) -> None:
    from aa_review.generator import generate_package

    c, s, view, _runner, _prefs = parts
    g = generate_package(
        tmp_path, rows=60, seed=3, defects=["hidden_cited"], defect_rows={"hidden_cited": 4}
    )
    c.open(g.root)
    s.set_query(Scope.ROWS, "type:failure_case")
    c.gate_selected("G9")  # before the audit: which rows cite hidden evidence is not known
    view.offer.assert_called_with(None)
    assert "run it" in view.status.call_args.args[0]
    c.run_audit()
    c.gate_selected("G4")
    view.offer.assert_called_with(None)
    c.gate_selected("G9")
    # Selecting the gate only offers: the user's query stays until the offer is taken.
    assert s.query(Scope.ROWS) == "type:failure_case"
    label, take = view.offer.call_args.args
    assert label == "Show the 4 rows citing hidden evidence"
    view.show_page.assert_not_called()
    take()
    assert s.query(Scope.ROWS) == "finding:link.hidden_cited"
    assert s.result(Scope.ROWS).count == 4
    view.show_page.assert_called_with("rows")
    assert view.status.call_args.args[0].startswith("G9: 4 rows")
    # Then the user's own queries are one click away.
    label, restore = view.offer.call_args.args
    assert label == "Restore your queries"
    restore()
    view.offer.assert_called_with(None)
    assert s.query(Scope.ROWS) == "type:failure_case"
    assert s.query(Scope.FINDINGS) == ""


def test_the_g9_offer_the_finding_and_the_gate_count_the_same_rows(parts, tmp_path) -> None:
    # Issue 24: a row that lists a hidden file only in its raw refs. The window's offer, the
    # audit's link.hidden_cited finding and G9's hook (contamination_rows) are one
    # definition (contamination_positions), so they name the same rows.
    import shutil

    import orjson

    from aa_review.core.audits import contamination_rows
    from aa_review.generator import generate_package

    c, s, view, _runner, _prefs = parts
    g = generate_package(tmp_path / "gen", rows=40, seed=5)
    root = tmp_path / g.root.name
    shutil.copytree(g.root, root)
    rel = "experience_compiler/training_time_package/failure_cases.jsonl"
    lines = (root / rel).read_bytes().splitlines()
    row = orjson.loads(lines[0])
    row["source_artifact_refs"] = [*row["source_artifact_refs"], "hidden_reference/answers.csv"]
    lines[0] = orjson.dumps(row)
    (root / rel).write_bytes(b"\n".join(lines) + b"\n")
    c.open(root)
    c.run_audit()
    gate_rows = contamination_rows(root)
    assert gate_rows == [row["row_id"]]
    assert s.facts is not None and list(s.facts.hidden_rows or ()) == gate_rows
    c.gate_selected("G9")
    label, take = view.offer.call_args.args
    assert label == "Show the 1 row citing hidden evidence"
    take()
    shown = [s.package.index.row_id_str(int(i)) for i in s.result(Scope.ROWS).positions]
    assert shown == gate_rows
    cited = {
        s.package.index.row_id_str(int(i))
        for f in s.findings.findings
        if f.code == "link.hidden_cited"
        for i in f.locations.row_positions().tolist()
    }
    assert sorted(cited) == gate_rows


def test_reload_keeps_queries_and_selection(parts, sample_copy) -> None:
    c, s, view, _runner, _prefs = parts
    c.open(sample_copy)
    s.set_query(Scope.ROWS, "type:environment_response_pair")
    rid = s.package.index.row_id_str(30)
    s.select_row(30)
    env = sample_copy / "experience_compiler/environment/environment_response_pairs.jsonl"
    env.write_bytes(b"\n".join(env.read_bytes().split(b"\n")[1:]))  # the first row goes
    c.on_disk_change()
    assert len(s.package.index) == 59
    assert s.query(Scope.ROWS) == "type:environment_response_pair"
    assert s.result(Scope.ROWS).count == 19
    assert s.package.index.row_id_str(s.selection.current.row) == rid
    view.restore_layout_state.assert_called_once_with(1, "")


def test_export_writes_in_the_background_and_says_so(parts, sample_copy, tmp_path) -> None:
    c, s, view, runner, _prefs = parts
    c.open(sample_copy)
    s.set_query(Scope.ROWS, "type:evaluation_example")
    out = tmp_path / "rows.jsonl"
    c.export(out)
    assert runner.lanes[-1] == "export"
    assert len(out.read_text().splitlines()) == 6
    assert json.loads(Path(f"{out}.meta.json").read_text())["package_digest"] == s.digest
    assert view.status.call_args.args[0] == f"Exported 6 rows to {out}"
    c.export(tmp_path / "rows.xlsx")
    title, message = view.warn.call_args.args
    assert title == "Export failed" and "unknown export format" in message
    view.ask_save_path.return_value = None
    c.export()  # the user closed the dialog: nothing happens
    assert runner.lanes[-1] == "export" and runner.lanes.count("export") == 2


def test_session_files_round_trip(parts, sample_copy, tmp_path) -> None:
    c, s, view, _runner, prefs = parts
    c.open(sample_copy)
    s.set_query(Scope.ROWS, "type:*_event")
    s.selection.select(row=3, evidence=5, source="test")
    view.layout_state.return_value = (1, "bGF5b3V0")
    path = c.save_session(tmp_path / "s.aareview.json")
    assert prefs["last_session"] == str(path)
    other_view = Mock()
    other = WindowController(ReviewSession(), other_view, Runner(), prefs)
    other.reopen_last_session()
    t = other.session
    assert t.package.root.resolve() == sample_copy.resolve()
    assert t.query(Scope.ROWS) == "type:*_event"
    assert (t.selection.current.row, t.selection.current.evidence) == (3, 5)
    other_view.restore_layout_state.assert_called_once_with(1, "bGF5b3V0")
    (tmp_path / "bad.aareview.json").write_text("{not json")
    assert not other.open_session(tmp_path / "bad.aareview.json")
    assert other_view.warn.call_args.args[0] == "Cannot open the session"


def test_recent_packages_newest_first_and_bounded(parts, tmp_path) -> None:
    c, _s, view, _runner, _prefs = parts
    for i in range(MAX_RECENT + 3):
        c.remember_recent(tmp_path / f"p{i}")
    c.remember_recent(tmp_path / "p5")
    recent = c.recent()
    assert recent[0] == str(tmp_path / "p5") and len(recent) == MAX_RECENT
    assert recent.count(str(tmp_path / "p5")) == 1
    assert view.refresh_recent.call_args.args[0] == recent


def test_palette_entries_jump_through_the_session(parts, sample_copy) -> None:
    c, s, _view, _runner, _prefs = parts
    c.open(sample_copy)
    rid = s.package.index.row_id_str(12)
    (label, run), *_ = c.palette_entries(rid)
    assert label == f"Go to row {rid}"
    run()
    assert s.selection.current.row == 12


def test_the_window_audits_in_a_process_of_its_own(sample_copy) -> None:
    session, view, runner, prefs = ReviewSession(), Mock(), Runner(), Prefs()
    prefs["audit/auto"] = "true"
    c = WindowController(session, view, runner, prefs, audit_niceness=0)
    c.open(sample_copy)
    assert session.report is not None and session.findings.audited
    assert session.digest == package_digest(sample_copy)
    shown = [call.args[0] for call in view.show_busy.call_args_list]
    assert any(text.startswith("Auditing: ") for text in shown)
