"""The Dossier tab's session against a mock view and a runner of our own: no Qt, no widgets.

As the window's controller is tested (``test_window_controller.py``): the view answers the
session's questions and records what it was told, the runner runs each job at once or
when told to, and the assertions are about what the session holds, which events it sent
and what the journal holds.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.dossier import Action, DossierState, Outcome
from aa_review.core.package import open_package
from aa_review.core.session import ReviewSession, prepare_findings, prepare_package
from aa_review.core.session.dossier_session import WAITING_FOR_DIGEST, DossierSession
from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample

READY = "dos-demo-ready"


class View:
    """The tab as the session sees it: always on screen; answers ``answer`` to questions."""

    def __init__(self) -> None:
        self.confirms: list[tuple[str, str]] = []
        self.infos: list[tuple[str, str]] = []
        self.warnings: list[tuple[str, str]] = []
        self.answer = True
        self.on_screen = True

    def showing(self) -> bool:
        return self.on_screen

    def confirm(self, title: str, text: str) -> bool:
        self.confirms.append((title, text))
        return self.answer

    def inform(self, title: str, text: str) -> None:
        self.infos.append((title, text))

    def warn(self, title: str, text: str) -> None:
        self.warnings.append((title, text))

    def edit_dialog(self) -> Any:
        raise AssertionError("no edit in these tests")

    def ask_text(self, title: str, label: str, text: str) -> str | None:
        return None

    def projection_path(self, preview: dict[str, Any], suggested: str) -> Path | None:
        return None


class Runner:
    """Runs each job in this thread, at once or, ``deferred``, when ``flush`` is called."""

    def __init__(self, deferred: bool = False) -> None:
        self.deferred = deferred
        self.queue: list[Callable[[], None]] = []
        self.submitted = 0

    def submit(
        self, fn: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None:
        self.submitted += 1

        def body() -> None:
            try:
                result = fn()
            except Exception as exc:  # noqa: BLE001  # as the worker: any failure is told
                failed(f"{type(exc).__name__}: {exc}")
            else:
                done(result)

        if self.deferred:
            self.queue.append(body)
        else:
            body()

    def flush(self) -> None:
        while self.queue:
            self.queue.pop(0)()

    def stop(self) -> None:
        self.flush()


class Prefs(dict[str, Any]):
    def value(self, key: str, default: Any = None) -> Any:
        return self.get(key, default)

    def setValue(self, key: str, value: Any) -> None:  # noqa: N802
        self[key] = value


class Events:
    """Every event the session sends, in order, as (name, value)."""

    def __init__(self, session: DossierSession) -> None:
        self.seen: list[tuple[str, Any]] = []
        ev = session.events
        for name in (
            "workspace_changed",
            "nothing_shown",
            "snapshot_changed",
            "state_changed",
            "actor_changed",
            "busy_changed",
            "progress_changed",
            "step_done",
        ):
            getattr(ev, name).connect(lambda *a, _n=name: self.seen.append((_n, a)))

    def names(self) -> list[str]:
        return [n for n, _ in self.seen]

    def clear(self) -> None:
        self.seen.clear()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    # A demo of its own per test: each workspace's witnessed head is kept by identity.
    return ensure_sample(tmp_path / "demo")


def _review(demo: Path) -> ReviewSession:
    """The window's review session with the demo package open (no audit, no digest yet):
    the one maker of the package facts the dossier is handed."""
    review = ReviewSession()
    review.open(prepare_package(open_package(demo / SAMPLE_PACKAGE_ID)))
    return review


def _tell(session: DossierSession, review: ReviewSession) -> None:
    """What the window does on ``facts_changed``: hand the session's value as it is."""
    session.set_open_package(review.facts, review.report)


def _open(
    demo: Path,
    runner: Runner | None = None,
    prefs: Prefs | None = None,
    review: ReviewSession | None = None,
) -> Any:
    view, runner = View(), runner or Runner()
    session = DossierSession(view, runner, prefs if prefs is not None else Prefs())
    _tell(session, review or _review(demo))  # the window's open package
    assert session.open_workspace(demo / "dossier_workspace")
    session.select_dossier(READY)
    runner.flush()
    return session, view, runner


@pytest.fixture
def opened(demo: Path):
    session, view, runner = _open(demo)
    yield session, view, runner
    session.close_workspace()


def _journal_kinds(session: DossierSession) -> list[str]:
    assert session.ws is not None
    return [e["kind"] for e in session.ws.journal_entries()]


def test_opening_shows_the_wanted_dossier_for_nobody(opened) -> None:
    session, view, _ = opened
    assert session.current == (READY, 1) and session.state is not None
    assert session.state.actor_id == "" and session.actor_id == ""
    assert session.state.snapshot.state is DossierState.DRAFT
    assert not session.busy and view.warnings == []


def test_choosing_an_actor_words_the_snapshot_again_and_reads_nothing(opened, demo) -> None:
    session, _, runner = opened
    events = Events(session)
    before = runner.submitted
    session.set_actor("p-lead-ada")
    assert runner.submitted == before  # no job: the snapshot held is worded anew
    assert events.names() == ["actor_changed", "state_changed"]
    assert session.state is not None and session.state.actor_id == "p-lead-ada"
    assert session.state.steps[Action.BIND].enabled  # a lead may bind a draft
    session.set_actor("p-agent-gus")
    assert not session.state.steps[Action.BIND].enabled
    # Remembered for this workspace: a new session on the same folder acts as them.
    prefs = session.prefs
    session.close_workspace()
    again, _, _ = _open(demo, prefs=prefs)
    assert again.actor_id == "p-agent-gus" and again.state.actor_id == "p-agent-gus"
    again.close_workspace()


def test_a_remembered_actor_gone_from_the_registry_acts_as_nobody(demo) -> None:
    prefs = Prefs()
    session, _, _ = _open(demo, prefs=prefs)
    prefs[session.key("actor")] = "p-gone"
    session.close_workspace()
    again, _, _ = _open(demo, prefs=prefs)
    assert again.actor_id == "" and "p-gone" in again.actor_note
    again.close_workspace()


def test_a_steps_result_updates_the_state_once(opened) -> None:
    session, view, _ = opened
    session.set_actor("p-lead-ada")
    digest = session.state.snapshot.evidence_digest
    events = Events(session)
    result = session.request(Action.BIND)
    assert result is not None and result.outcome is Outcome.APPLIED
    assert session.last_result is result
    # The sign-off named the evidence digest being signed, before anything was written.
    assert view.confirms[-1][0] == "Sign off" and digest in view.confirms[-1][1]
    names = events.names()
    assert names.count("state_changed") == 1 and names.count("snapshot_changed") == 1
    assert names.count("step_done") == 1
    assert names[0] == "busy_changed" and names[-1] == "busy_changed"
    assert session.state.snapshot.state is DossierState.EVIDENCE_BOUND
    assert _journal_kinds(session)[-1] == "transition"


def test_a_sign_off_declined_writes_nothing(opened) -> None:
    session, view, runner = opened
    session.set_actor("p-lead-ada")
    before, submitted = _journal_kinds(session), runner.submitted
    view.answer = False
    assert session.request(Action.BIND) is None
    assert runner.submitted == submitted and _journal_kinds(session) == before
    assert session.state.snapshot.state is DossierState.DRAFT


def test_a_disabled_step_asks_nothing_and_writes_nothing(opened) -> None:
    session, view, runner = opened
    session.set_actor("p-agent-gus")
    before, submitted = _journal_kinds(session), runner.submitted
    for step in (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE, Action.DEFER):
        assert session.request(step) is None
    assert view.confirms == [] and runner.submitted == submitted
    assert _journal_kinds(session) == before


def test_a_refused_step_is_journaled_only_when_asked_for_and_reported(opened) -> None:
    session, view, _ = opened
    session.set_actor("p-agent-gus")
    view.answer = False
    assert session.request_refusal(Action.BIND) is None  # declined: nothing written
    assert "transition_refused" not in _journal_kinds(session)
    view.answer = True
    result = session.request_refusal(Action.BIND)
    assert result is not None and result.outcome is Outcome.REFUSED
    assert "transition_refused" in view.confirms[-1][1]  # the question named the entry
    assert _journal_kinds(session)[-1] == "transition_refused"
    title, text = view.infos[-1]
    assert title == "Refused" and result.reason in text
    assert session.state.snapshot.state is DossierState.DRAFT  # nothing else changed


def test_a_step_that_would_expire_the_revision_asks_first(opened, demo) -> None:
    session, view, _ = opened
    session.set_actor("p-lead-ada")
    session.request(Action.BIND)
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    session.refresh()
    assert session.state.stale
    session.set_actor("p-eval-cy")
    before = _journal_kinds(session)
    view.answer = False
    assert session.request(Action.CHECK) is None
    title, question = view.confirms[-1]
    assert title == "This step expires the revision"
    assert f"EXPIRES {READY} revision 1" in question and "for good" in question
    assert _journal_kinds(session) == before
    assert session.state.snapshot.state is DossierState.EVIDENCE_BOUND
    view.answer = True
    result = session.request(Action.CHECK)
    assert result.outcome is Outcome.EXPIRED
    assert session.state.snapshot.state is DossierState.EXPIRED
    assert view.infos[-1][0] == "Expired"


def test_busy_clears_only_after_the_result_is_in_place(demo) -> None:
    runner = Runner(deferred=True)
    session, _, _ = _open(demo, runner)
    session.set_actor("p-lead-ada")
    seen: list[tuple[bool, Any, Any]] = []
    session.events.busy_changed.connect(
        lambda busy: seen.append((busy, session.last_result, session.state.snapshot.state))
    )
    assert session.request(Action.BIND) is None  # deferred: the result comes later
    assert session.busy and session.state.snapshot.state is DossierState.DRAFT
    assert session.request(Action.BIND) is None  # no second step while one is under way
    assert len(runner.queue) == 1
    runner.flush()
    assert not session.busy
    assert seen[0] == (True, None, DossierState.DRAFT)
    busy, result, state = seen[-1]
    assert not busy and result is not None and result.outcome is Outcome.APPLIED
    assert state is DossierState.EVIDENCE_BOUND
    session.close_workspace()


def test_a_result_of_a_closed_workspace_is_dropped(demo) -> None:
    runner = Runner(deferred=True)
    session, _, _ = _open(demo, runner)
    session.set_actor("p-lead-ada")
    session.request(Action.BIND)
    job = runner.queue.pop()
    session.close_workspace()  # the runner finishes nothing more: the job was taken
    job()  # its result arrives after the workspace closed
    assert session.state is None and session.last_result is None and not session.busy


def test_a_failed_job_is_told_and_clears_busy(opened, monkeypatch) -> None:
    from aa_review.core import dossier as dz

    session, view, _ = opened
    monkeypatch.setattr(dz, "take_snapshot", lambda *a, **k: 1 / 0)
    session.refresh()
    assert not session.busy
    assert view.infos[-1] == (
        "Dossier",
        "The dossier could not be updated: ZeroDivisionError: division by zero",
    )


def test_a_hidden_tab_evaluates_nothing_until_shown(demo) -> None:
    view, runner = View(), Runner()
    view.on_screen = False
    session = DossierSession(view, runner, Prefs())
    assert session.open_workspace(demo / "dossier_workspace")
    assert runner.submitted == 0 and session.state is None
    view.on_screen = True
    session.shown()
    assert runner.submitted == 1 and session.state is not None
    session.close_workspace()


def test_the_session_waits_for_the_digest_the_window_computes(demo) -> None:
    from aa_review.core.package.digest import package_digest

    view, runner = View(), Runner()
    session = DossierSession(view, runner, Prefs())
    asked: list[int] = []
    session.request_digest = lambda: asked.append(1)
    progress: list[str] = []
    session.events.progress_changed.connect(progress.append)
    review = _review(demo)
    assert review.facts is not None and review.facts.digest is None  # not hashed yet
    _tell(session, review)
    assert session.open_workspace(demo / "dossier_workspace")
    assert asked == [1] and session.state is None and progress[-1] == WAITING_FOR_DIGEST
    # The window's background digest arrives: the review session replaces its facts.
    assert review.set_digest(review.version, package_digest(review.facts.root))
    _tell(session, review)
    assert session.state is not None and progress[-1] == "" and asked == [1]
    assert session._facts is review.facts  # the one value, not a copy of its digest
    session.close_workspace()


def test_a_digest_the_window_cannot_compute_stops_the_wait(demo) -> None:
    view, runner = View(), Runner()
    session = DossierSession(view, runner, Prefs())
    session.request_digest = lambda: None
    progress: list[str] = []
    session.events.progress_changed.connect(progress.append)
    _tell(session, _review(demo))
    assert session.open_workspace(demo / "dossier_workspace")
    assert session.state is None and progress[-1] == WAITING_FOR_DIGEST
    session.digest_unavailable("PermissionError: [Errno 13] Permission denied")
    # The workspace hashed the bound package itself: the gates are evaluated, not waiting.
    assert session.state is not None and progress[-1] == ""
    session.digest_unavailable("again")  # nothing is waited for any more: nothing happens
    session.close_workspace()


def test_the_session_imports_no_qt() -> None:
    import subprocess

    code = (
        "import sys, aa_review.core.session.dossier_session; "
        "print(any(m.startswith('PySide6') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_bound_packages_audit_is_told_beside_the_verdict_only_when_run(demo) -> None:
    """Issue 25 item 4: the audit of the bound package (the report's own summary line
    and its worst finding) beside the verdict; "not run" before it, or when the bound
    package is not the one open; the gates are the same either way."""
    from aa_review.core.audits import audit_package

    review = _review(demo)
    session, _, runner = _open(demo, review=review)
    told: list[str] = []
    session.events.audit_changed.connect(told.append)
    assert session.audit_summary == f"Audit of the bound package {SAMPLE_PACKAGE_ID}: not run"
    assert not session.audit_told
    gates = session.state.gates
    pkg = review.package
    report = audit_package(pkg)
    assert report.by_severity.get("critical") == 1  # the demo's leaked secret
    assert review.set_audit(prepare_findings(pkg, report))  # its digest, its hidden rows
    _tell(session, review)
    runner.flush()
    text = session.audit_summary
    assert text == (
        f"Audit of the bound package {SAMPLE_PACKAGE_ID}: worst privacy.secret (critical)"
        f" — {report.summary_line()}"
    )
    assert "1 critical" in text and told[-1] == text and session.audit_told
    assert session.state.gates == gates  # information only: no gate reads it
    # The package closed: its audit is no longer the bound package's.
    review.close()
    _tell(session, review)
    runner.flush()
    assert session.audit_summary == (
        f"Audit of the bound package {SAMPLE_PACKAGE_ID}: not run (it is not the package open)"
    )
    assert not session.audit_told
    session.close_workspace()


# -- a teammate's actions arriving while the workspace is open (spec 10.5, 10.6) ------------
def _arrive(session: DossierSession, tmp_path: Path) -> None:
    """Another clone of the workspace records a denied operation; its action file comes
    into this one as ``git pull`` brings it (files added, none rewritten)."""
    import shutil

    from aa_review.core.dossier import Workspace

    assert session.folder is not None
    theirs = tmp_path / "their-clone"
    shutil.copytree(session.folder, theirs)
    with Workspace.open_folder(theirs) as ws:
        assert ws.attempt_operation("export_dataset", "p-lead-ada", READY)["decision"] == "denied"
    for src in (theirs / "journal").iterdir():
        dst = session.folder / "journal" / src.name
        if not dst.exists():
            shutil.copy2(src, dst)


def test_a_journal_that_moved_is_opened_again_verified_and_its_arrival_listed(
    opened, tmp_path: Path
) -> None:
    session, _, _ = opened
    first = session.ws
    assert session.journal_changed() is False and session.ws is first  # nothing moved
    _arrive(session, tmp_path)
    assert first.journal_moved() is not None
    notices: list[str] = []
    session.events.notice.connect(notices.append)
    assert session.journal_changed() is True
    assert notices == ["The dossier journal changed on disk: opened again (verified)"]
    ws = session.ws
    assert ws is not first and not ws.read_only
    assert [e["kind"] for e in ws.journal_entries()][-1] == "operation_denied"
    # (Not listed as arrived here: the same account acted in the other clone and witnessed
    # it; tests/qt/test_dossier_pull_while_open.py has two people, two data folders.)
    assert session.wanted_dossier == READY and session.current is not None
    assert session.current[0] == READY
    session.set_actor("p-lead-ada")
    result = session.request(Action.BIND)
    assert result is not None and result.outcome is Outcome.APPLIED  # not a concurrent write


def test_a_journal_that_moved_during_a_job_is_opened_again_after_it(demo, tmp_path) -> None:
    runner = Runner(deferred=True)
    session, _, _ = _open(demo, runner)
    first = session.ws
    _arrive(session, tmp_path)
    session.refresh()  # a job under way
    assert session.busy
    assert session.journal_changed() is False and session.ws is first  # not now
    runner.flush()
    assert session.ws is not first and not session.ws.read_only
    assert not session.busy and session.current is not None and session.current[0] == READY
    session.close_workspace()


def test_the_sessions_own_steps_are_not_a_moved_journal(opened) -> None:
    session, _, _ = opened
    first = session.ws
    session.set_actor("p-lead-ada")
    assert session.request(Action.BIND).outcome is Outcome.APPLIED
    assert first.journal_moved() is None
    (first.journal_path / "notes.txt").write_text("not an action file\n")
    assert first.journal_moved() is None
    assert session.journal_changed() is False and session.ws is first
    session.close_workspace()
    assert first.journal_moved() is None  # no writer any more: nothing to refuse


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_an_unsafe_registry_opens_the_workspace_read_only_with_its_reason(demo) -> None:
    # 10.5: "such a file makes the workspace open read-only with its reason".
    registry = demo / "dossier_workspace" / "principals.json"
    registry.unlink()
    os.mkfifo(registry)
    session, view, _ = _open(demo)
    try:
        assert view.warnings == []  # opened, not refused
        assert session.state is not None
        fault = session.state.snapshot.read_only_fault
        assert fault is not None and fault.startswith("WORKSPACE_FILE_UNSAFE: principals.json")
        assert session.state.snapshot.state is DossierState.DRAFT  # the journal's, verified
    finally:
        session.close_workspace()
