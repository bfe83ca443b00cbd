"""DossierSession: the Dossier tab's state and actions, Qt-free; the tab is its view.

As :class:`~aa_review.core.session.ReviewSession` owns what the window has open, this
object owns what the Dossier tab shows and does: the workspace open, the acting
principal, the dossier and revision wanted, the last snapshot and its
:class:`~aa_review.core.dossier.PanelState`, whether work is under way, the last
step's result, and the confirmations a step asks for. The tab renders its events and
forwards the user's intents to its methods; it decides nothing.

Slow work (the gates, hashing a bound package, signing) never runs here: the session
hands each job to a :class:`DossierRunner` (the Qt side's dossier worker, or a
synchronous one in tests), whose callbacks come back on the caller's thread in order.
Questions to the user go to a :class:`DossierView`.

The open package comes in one way: :meth:`DossierSession.set_open_package` with the
review session's :class:`~aa_review.core.dossier.PackageFacts` value and audit, as
they are (``ReviewSession`` is their only maker; the window hands them on at each
``facts_changed`` once the open's audit is over). A value without a digest makes the
session ask the window once (``request_digest``) and wait, saying
:data:`WAITING_FOR_DIGEST`, until the value holding it comes.

Events (:class:`DossierEvents`), in the order they come for one job: ``busy_changed(True)``
and ``progress_changed(words)`` when it is handed over; ``snapshot_changed`` and
``state_changed`` once its result is in place, then ``audit_changed(summary)``; then,
for a step, ``step_done(step, outcome)``; ``busy_changed(False)`` only after all of
that, when no job is left. Outside jobs: ``workspace_changed(folder)`` and
``actor_changed(id)`` when those change, ``nothing_shown(why)`` when there is nothing
to show, and ``audit_changed(summary)`` when the open package's audit is replaced.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from psygnal import Signal, SignalGroup

from aa_review.core import dossier as dz
from aa_review.core.package.safepath import read_beneath
from aa_review.core.util.atomic import atomic_write

if TYPE_CHECKING:
    from aa_review.core.audits import AuditReport

__all__ = [
    "DossierSession",
    "DossierEvents",
    "DossierView",
    "DossierRunner",
    "EditPrompt",
    "Prefs",
    "write_projection",
    "WAITING_FOR_DIGEST",
]

log = logging.getLogger(__name__)

WAITING_FOR_DIGEST = "Waiting for the package digest…"


class Prefs(Protocol):
    """Remembered settings (QSettings has this shape)."""

    def value(self, key: str, default: Any = None) -> Any: ...

    def setValue(self, key: str, value: Any) -> None: ...  # noqa: N802


class EditPrompt(Protocol):
    """The evidence editor: ``exec()`` true when the user accepted, then what to change."""

    def exec(self) -> Any: ...

    def path(self) -> list[Any]: ...

    def value(self) -> Any: ...


class DossierView(Protocol):
    """What the session asks of the tab (tests give a mock with these methods)."""

    def showing(self) -> bool:
        """Whether the tab is on screen: the gates are evaluated only when it is."""
        ...

    def confirm(self, title: str, text: str) -> bool: ...

    def inform(self, title: str, text: str) -> None: ...

    def warn(self, title: str, text: str) -> None: ...

    def edit_dialog(self) -> EditPrompt: ...

    def ask_text(self, title: str, label: str, text: str) -> str | None:
        """One line of text from the user, or None when cancelled."""
        ...

    def projection_path(self, preview: dict[str, Any], suggested: str) -> Path | None:
        """Show what a projection would publish; where to export it, or None."""
        ...


class DossierRunner(Protocol):
    """Runs jobs one after the other off the GUI thread.

    Exactly one of ``done(result)`` or ``failed(message)`` is called per job, on the
    thread that submitted it, in submission order.
    """

    def submit(
        self, fn: Callable[[], Any], done: Callable[[Any], None], failed: Callable[[str], None]
    ) -> None: ...

    def stop(self) -> None:
        """Finish the jobs submitted so far (their callbacks may be dropped)."""
        ...


class DossierEvents(SignalGroup):
    """What the session says changed."""

    workspace_changed = Signal(object)  # the folder open (Path | None)
    nothing_shown = Signal(str)  # nothing to show, and why (no workspace, no dossier)
    snapshot_changed = Signal(object)  # Snapshot: dossiers and revisions to list
    state_changed = Signal(object)  # PanelState: what the tab draws, for the acting principal
    actor_changed = Signal(str)  # the acting principal's id ("" for nobody)
    busy_changed = Signal(bool)
    progress_changed = Signal(str)  # what is under way, "" when nothing is
    step_done = Signal(object, object)  # (step, outcome) once the outcome is in place
    audit_changed = Signal(str)  # audit_summary: the bound package's audit, beside the verdict
    notice = Signal(str)  # one line for the window's status bar (what happened by itself)


_IMPORT_LIMIT = 256 << 20  # a dossier file, as `aa-review dossier check` accepts


def bound_audit_line(
    packages: Any, facts: dz.PackageFacts | None, report: AuditReport | None
) -> str:
    """One line on the audit of each bound package, beside (never part of) the verdict.

    A bound package's audit is told only when it is the package open (its facts, the
    bound content unchanged) and the open package's audit is of that content: the
    report's own ``summary_line`` (its counts by severity, not counted again here) and
    its worst finding(s). Otherwise it says the audit was not run. "" when nothing is
    bound. Gates never read this.
    """
    parts = []
    for st in packages or ():
        pid = st.package_id or "?"
        head = f"Audit of the bound package {pid}"
        if not _is_open(st, facts):
            parts.append(f"{head}: not run (it is not the package open)")
        elif report is None or not audit_of(st, facts, report):
            parts.append(f"{head}: not run")
        else:
            parts.append(f"{head}: {_worst(report)}{report.summary_line()}")
    return "; ".join(parts)


def audit_of(st: Any, facts: dz.PackageFacts | None, report: AuditReport | None) -> bool:
    """Whether ``report`` (the open package's) is the audit of bound package ``st``."""
    return (
        report is not None
        and _is_open(st, facts)
        and report.identity.package_id == st.package_id
        and _same_content(st, report)
    )


def _is_open(st: Any, facts: dz.PackageFacts | None) -> bool:
    known = getattr(st, "facts", None)
    return (
        facts is not None
        and known is not None
        and known.package_id == facts.package_id == st.package_id
        and Path(known.root) == Path(facts.root)
        and st.state is dz.PackageState.UNCHANGED
        and getattr(st, "other_root", None) is None
    )


def _same_content(st: Any, report: AuditReport) -> bool:
    digest = report.identity.package_digest
    return digest is None or digest == st.bound_digest


def _worst(report: AuditReport) -> str:
    """``worst privacy.secret (critical) — ``: the findings of the worst severity listed,
    two at most, worst first (said first: a narrow line cuts the counts' tail instead)."""
    from aa_review.core.findings import worst_first

    order = worst_first(report.findings)
    if not order:
        return ""
    top = report.findings[order[0]].severity
    same = [report.findings[i] for i in order if report.findings[i].severity is top]
    named = ", ".join(f.code for f in same[:2])
    more = f" and {len(same) - 2:,} more" if len(same) > 2 else ""
    return f"worst {named}{more} ({top.value}) — "


def write_projection(path: Path, projection: dict[str, Any]) -> None:
    """Write an exported projection atomically (called in the worker)."""
    atomic_write(
        path, lambda fh: fh.write(orjson.dumps(projection, option=orjson.OPT_INDENT_2)), "wb"
    )


_STEP_CALLS = {
    dz.Action.BIND: "bind",
    dz.Action.CHECK: "check",
    dz.Action.DECIDE_ELIGIBLE: "decide_eligible",
    dz.Action.DEFER: "decide_deferred",
}


class DossierSession:
    """The Dossier tab's state and actions, for one window."""

    def __init__(self, view: DossierView, runner: DossierRunner, prefs: Prefs) -> None:
        self.events = DossierEvents()
        self.view = view
        self.runner = runner
        self.prefs = prefs
        self.ws: dz.Workspace | None = None
        self.folder: Path | None = None
        self.cache: dz.PreviewCache | None = None  # used in the worker only
        self.dossiers: tuple[str, ...] = ()  # the workspace's dossiers, as last read
        self.snapshot: dz.Snapshot | None = None
        self.state: dz.PanelState | None = None
        self.actor_id = ""
        self.actor_note = ""  # why a remembered principal is not acting any more
        self.last_result: Any = None
        self.last_projection_preview: dict[str, Any] | None = None
        # The window's way to compute the open package's digest (its review session then
        # replaces the facts, handed on with set_open_package); None: the workspace
        # hashes the package itself.
        self.request_digest: Callable[[], Any] | None = None
        self.working = ""
        self._facts: dz.PackageFacts | None = None
        self._audit: AuditReport | None = None  # the open package's, as the window has it
        self._package_key: tuple[Any, ...] | None = None
        self._digest_wanted = False
        self._digest_asked: tuple[Any, ...] | None = None
        self._want: tuple[str, int | None] | None = None  # the revision asked for
        self._generation = 0  # bumped per workspace: results of a closed one are dropped
        self._stale = True
        self._pending = 0
        self._reopen_wanted = False  # the journal moved on disk while a job ran

    # -- what is shown -------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """True from a job's hand-over until its result is in place and reported."""
        return self._pending > 0

    @property
    def current(self) -> tuple[str, int] | None:
        s = self.snapshot
        return (s.dossier_id, s.revision) if s is not None else None

    @property
    def record(self) -> dz.CheckRecord | None:
        return self.snapshot.record if self.snapshot is not None else None

    @property
    def wanted_dossier(self) -> str | None:
        return self._want[0] if self._want is not None else None

    def key(self, what: str) -> str:
        """A settings key of this workspace (its folder, hashed)."""
        where = hashlib.sha256(str(self.folder).encode("utf-8")).hexdigest()[:16]
        return f"dossier/{what}/{where}"

    # -- the workspace -------------------------------------------------------------------
    def open_workspace(self, folder: Path) -> bool:
        """Open (and lock) a workspace folder; a folder another window holds is refused.

        Opening verifies the journal (on this thread: it reads the journal, never a
        package); the gates are evaluated in the worker when the tab is shown.
        """
        from aa_review.core.session.dossier_hooks import DiffFingerprints

        self.close_workspace()
        try:
            ws = dz.Workspace.open_folder(
                folder,
                package_facts=self._facts_for,
                package_contamination=self._contamination,
                fingerprint_hooks=DiffFingerprints(),
            )
        except dz.WorkspaceLockedError as exc:
            self.events.nothing_shown.emit(
                f"{exc}\nClose the other aa-review window that has it open."
            )
            self.view.warn("Workspace in use", str(exc))
            return False
        except (dz.WorkspaceError, dz.DossierError, OSError) as exc:
            self.events.nothing_shown.emit(str(exc))
            self.view.warn("Cannot open the workspace", str(exc))
            return False
        self.ws, self.folder = ws, Path(folder).resolve()
        self.cache = dz.PreviewCache(ws)
        self._generation += 1
        self.prefs.setValue("dossier/last_workspace", str(folder))
        ids = ws.dossier_ids()  # no job runs for this workspace yet
        self.dossiers = tuple(ids)
        self._restore_actor(ws)
        remembered = self.prefs.value(self.key("dossier"))
        first = remembered if remembered in ids else (ids[0] if ids else None)
        self._want = (first, None) if first is not None else None
        self._stale = True
        self.events.workspace_changed.emit(self.folder)
        if first is None:
            self.events.nothing_shown.emit("This workspace holds no dossier yet.")
        else:
            self._load()
        return True

    def journal_changed(self) -> bool:
        """The workspace's journal changed on disk (the window watches it). When another
        writer's actions arrived (a ``git pull`` or a shared drive while the workspace is
        open), the workspace is opened again, which verifies them before anything they
        imply is shown and lists them as arrived (spec 10.5, 10.6); otherwise the next
        step would be refused with ``JOURNAL_CONCURRENT_WRITE``. With a job under way,
        after it. True when the workspace was opened again."""
        if self.ws is None or self.folder is None:
            return False
        if self.busy:
            self._reopen_wanted = True
            return False
        why = self.ws.journal_moved()
        if why is None:  # this writer's own append, or nothing that matters
            return False
        log.info(
            "dossier workspace %s: the journal moved on disk (%s); opening it again",
            self.folder,
            why,
        )
        if not self.reopen():
            return False
        assert self.ws is not None
        n = len(self.ws.arrived())
        came = f"{n} {'entry' if n == 1 else 'entries'} arrived, verified" if n else "verified"
        self.events.notice.emit(f"The dossier journal changed on disk: opened again ({came})")
        return True

    def reopen(self) -> bool:
        """Open the same workspace again (verifying its journal), keeping the dossier
        shown when it is still there; its latest revision is shown."""
        folder, want = self.folder, self._want
        if folder is None:
            return False
        if not self.open_workspace(folder):
            return False
        if want is not None and want[0] in self.dossiers and self.wanted_dossier != want[0]:
            self.select_dossier(want[0])
        return True

    def close_workspace(self) -> None:
        """Finish the worker's jobs, then release the journal's lock."""
        self.runner.stop()
        if self.ws is not None:
            self.ws.close()
        self._generation += 1
        self.ws = None
        self.cache = None
        self.snapshot = self.state = None

    # -- the bound package ---------------------------------------------------------------
    def set_package_facts(self, facts: dz.PackageFacts | None) -> None:
        """What the window holds of the open package: the workspace takes its digest and
        hidden citations from it and never hashes or re-reads that package."""
        self._facts = facts
        if self.ws is not None and self._want is not None:
            self._stale = True
            self._load()

    @property
    def audit_summary(self) -> str:
        """The bound packages' audit (:func:`bound_audit_line`): information shown beside
        the verdict, for the revision shown; "" before a snapshot or with nothing bound."""
        if self.snapshot is None:
            return ""
        facts = self._facts
        report = self._audit if facts is not None else None
        return bound_audit_line(self.snapshot.packages, facts, report)

    @property
    def audit_told(self) -> bool:
        """Whether :attr:`audit_summary` tells an audit (its findings can be shown)."""
        if self.snapshot is None or self._facts is None:
            return False
        return any(audit_of(st, self._facts, self._audit) for st in self.snapshot.packages)

    def _set_audit(self, report: AuditReport | None) -> None:
        if report is not self._audit:
            self._audit = report
            self.events.audit_changed.emit(self.audit_summary)

    def set_open_package(
        self, facts: dz.PackageFacts | None, audit: AuditReport | None = None
    ) -> None:
        """The review session's facts of the open package (``ReviewSession.facts``),
        taken as they are: the same value, not a copy, so the digest the session holds
        is the one the workspace reads. The same value twice does nothing; without a
        digest the window is asked for one (``request_digest``) rather than hashing
        the package a second time.

        ``audit``: the open package's audit (``ReviewSession.report``), None before one
        ran; only told beside the verdict (:attr:`audit_summary`), never read by a gate."""
        self._set_audit(audit if facts is not None else None)
        if facts is self._facts and facts is not None:
            return
        self._package_key = None if facts is None else (id(facts),)
        self._digest_wanted = (
            facts is not None and facts.digest is None and self.request_digest is not None
        )
        self.set_package_facts(facts)

    def digest_unavailable(self, why: str) -> None:
        """The window could not compute the open package's digest (``why``): stop
        waiting for it; the workspace hashes the bound package itself, and what it
        cannot read is what the gates say (unknown, never pass)."""
        if not self._digest_wanted:
            return
        log.warning(
            "the window's digest of the open package failed (%s): the workspace hashes it itself",
            why,
        )
        self._digest_wanted = False
        if self.ws is not None and self._want is not None:
            self._stale = True
            self._load()

    def _facts_for(self, package_id: str) -> dz.PackageFacts | None:
        facts = self._facts  # read in the worker: one immutable value, swapped whole
        return facts if facts is not None and facts.package_id == package_id else None

    def _contamination(self, root: Path) -> list[str]:
        """The audit engine's G9 hook; the open package is read from its index, not again."""
        from aa_review.core.audits import contamination_rows

        facts = self._facts
        if facts is not None and facts.package is not None and Path(facts.root) == Path(root):
            return contamination_rows(facts.package)
        return contamination_rows(root)

    # -- who acts ------------------------------------------------------------------------
    def _restore_actor(self, ws: dz.Workspace) -> None:
        remembered = self.prefs.value(self.key("actor"))
        self.actor_note = ""
        if remembered and ws.principals.get(remembered) is not None:
            self.actor_id = str(remembered)
        else:
            if remembered:
                self.actor_note = (
                    f"{remembered}, remembered for this workspace, is not in "
                    "its principal registry any more."
                )
            self.actor_id = ""
        self.events.actor_changed.emit(self.actor_id)

    def actor_choices(self) -> list[tuple[str, str, str, str | None, str | None]]:
        """Who may be chosen to act: ``(principal_id, role, kind, why it cannot sign here
        or None, key place or None)`` for each principal but the reducer."""
        if self.ws is None:
            return []
        snap = self.snapshot
        holdings = {h.principal.principal_id: h for h in snap.holdings} if snap else {}
        return [
            (
                p.principal_id,
                p.role.value,
                p.kind.value,
                snap.signable.get(p.principal_id) if snap is not None else None,
                holdings[p.principal_id].place.value if p.principal_id in holdings else None,
            )
            for p in self.ws.principals
            if p.role is not dz.Role.SYSTEM_REDUCER
        ]

    def set_actor(self, principal_id: str) -> None:
        """Act as ``principal_id`` from now on (remembered for this workspace).

        Nothing is read or evaluated: the session words the snapshot it holds for them.
        """
        self.actor_id = principal_id
        self.actor_note = ""
        if self.folder is not None:
            self.prefs.setValue(self.key("actor"), principal_id)
        self.events.actor_changed.emit(principal_id)
        self._word()

    # -- which dossier and revision ------------------------------------------------------
    def select_dossier(self, dossier_id: str, revision: int | None = None) -> None:
        """Show a dossier (its latest revision unless ``revision``); remembered."""
        self._want = (dossier_id, revision)
        if self.folder is not None:
            self.prefs.setValue(self.key("dossier"), dossier_id)
        self._stale = True
        self._load()

    def select_revision(self, revision: int) -> None:
        """Show another revision of the dossier shown."""
        if self._want is not None and self.current != (self._want[0], revision):
            self._want = (self._want[0], int(revision))
            self._load()

    def refresh(self) -> None:
        """Verify again: bound packages are hashed and audited anew (the window's digest
        and audit of the open one are set aside), the journal re-read, every gate
        re-evaluated."""
        if self.ws is None or self._want is None:
            return
        if self._facts is not None:
            self._facts = dataclasses.replace(self._facts, digest=None, hidden_rows=None)
        self._stale = True
        self._load(reverify=True)

    def shown(self) -> None:
        """The tab came on screen: evaluate what changed while it was hidden."""
        if self._stale and self.ws is not None:
            self._load()

    def _load(self, reverify: bool = False) -> None:
        """Take a snapshot of the wanted revision in the worker."""
        if self.ws is None or self._want is None:
            return
        if not self.view.showing():
            self._stale = True
            return
        if self._digest_wanted and not reverify:
            # The window computes the open package's digest: wait for it (Verify again
            # does not wait) instead of hashing the package a second time.
            self._stale = True
            if self._digest_asked != self._package_key and self.request_digest is not None:
                self._digest_asked = self._package_key
                self.request_digest()  # set_open_package comes back with the digest
            if self._digest_wanted:
                self.events.progress_changed.emit(WAITING_FOR_DIGEST)
            return
        self._stale = False
        ws, cache = self.ws, self.cache
        d, r = self._want

        def job() -> dz.Snapshot:
            if reverify:
                ws.forget_package_facts()
                assert cache is not None
                cache.clear()
            rev = r if r is not None and r in ws.revisions(d) else ws.revisions(d)[-1]
            return dz.take_snapshot(ws, d, rev, cache)

        self._submit("Evaluating the gates…", job, self._take)

    def _take(self, snap: dz.Snapshot) -> None:
        if self._want is not None and snap.dossier_id != self._want[0]:
            return  # the user moved on to another dossier meanwhile
        self.snapshot = snap
        self.dossiers = tuple(snap.dossiers)
        self.events.snapshot_changed.emit(snap)
        self._word()
        self.events.audit_changed.emit(self.audit_summary)

    def _word(self) -> None:
        """Word the snapshot for the acting principal (pure: no reading)."""
        if self.snapshot is None:
            return
        self.state = dz.panel_state(self.snapshot, self.actor_id)
        self.events.state_changed.emit(self.state)

    # -- jobs ----------------------------------------------------------------------------
    def _submit(
        self,
        words: str,
        fn: Callable[[], Any],
        done: Callable[[Any], None],
    ) -> None:
        """Hand ``fn`` to the runner; ``done(result)`` runs when it is back, unless the
        workspace was closed since. Busy clears only after ``done`` has put the result
        in place."""
        generation = self._generation
        self.working = words
        self._pending += 1
        if self._pending == 1:
            self.events.busy_changed.emit(True)
        self.events.progress_changed.emit(words)  # the latest job's words

        def ok(result: Any) -> None:
            try:
                if generation == self._generation:
                    done(result)
            finally:
                self._finished()

        def bad(message: str) -> None:
            try:
                if generation == self._generation:
                    self.view.inform("Dossier", f"The dossier could not be updated: {message}")
            finally:
                self._finished()

        self.runner.submit(fn, ok, bad)

    def _finished(self) -> None:
        self._pending -= 1
        if self._pending == 0:
            self.working = ""
            self.events.progress_changed.emit("")
            self.events.busy_changed.emit(False)
            if self._reopen_wanted:
                self._reopen_wanted = False
                self.journal_changed()

    # -- steps ---------------------------------------------------------------------------
    def request(self, step: Any) -> Any:
        """Take ``step`` as the acting principal, when the panel state allows it.

        A disabled step writes nothing and returns None. A step that would expire the
        revision instead asks first, naming the consequence; binding and deciding
        eligible are confirmed first, naming the evidence digest being signed; an edit
        opens its dialog. Returns the TransitionResult once done (at once with a
        synchronous runner).
        """
        st, ws = self.state, self.ws
        if st is None or ws is None or self.busy or step not in st.steps:
            return None
        view = st.steps[step]
        if not view.enabled:
            return None
        snap = st.snapshot
        d, r, actor = snap.dossier_id, snap.revision, self.actor_id
        if step is dz.AUTHORIZE:
            return self.authorize()
        if step is dz.Action.EDIT:
            return self._edit(st)
        if step in (dz.Action.BIND, dz.Action.CHECK, dz.Action.DECIDE_ELIGIBLE) and (
            snap.freshness.expires
        ):
            # The core says this step expires the revision instead: ask first, naming it.
            why = "; ".join(dz.explain(c).sentence for c in snap.freshness.expiring)
            if not self.view.confirm(
                "This step expires the revision",
                f"{dz.STEPS[step].label.rstrip('…')} now EXPIRES {d} revision {r} "
                f"instead, for good: {why}\n\nAn expired revision can no longer be "
                "checked or decided; a training research lead can then start a new "
                f"revision from it. Expire revision {r} as {actor}?",
            ):
                return None
        elif step in (dz.Action.BIND, dz.Action.DECIDE_ELIGIBLE):
            what = "Bind" if step is dz.Action.BIND else "Decide eligible for"
            if not self.view.confirm(
                "Sign off",
                f"{what} {d} revision {r} as {actor}?\n\n"
                f"You are signing the evidence digest\n{snap.evidence_digest}",
            ):
                return None
        call = getattr(ws, _STEP_CALLS[step])
        words = {
            dz.Action.CHECK: "Running the independent check…",
            dz.Action.BIND: "Binding the evidence…",
        }.get(step, "Recording the decision…")
        return self._run(step, words, lambda: call(d, r, actor))

    def _edit(self, st: dz.PanelState) -> Any:
        assert self.ws is not None
        snap, ws, actor = st.snapshot, self.ws, self.actor_id
        d, r = snap.dossier_id, snap.revision
        dialog = self.view.edit_dialog()
        if not dialog.exec():
            return None
        path, value = dialog.path(), dialog.value()
        if snap.state is not dz.DossierState.DRAFT and not self.view.confirm(
            "Edit bound evidence",
            f"Revision {r} is {snap.state.value}. Editing its evidence creates revision "
            f"{snap.revisions[-1] + 1} in draft and EXPIRES revision {r}.\n\nGo ahead?",
        ):
            return None
        return self._run(
            dz.Action.EDIT,
            "Editing the evidence…",
            lambda: ws.edit_evidence(d, r, actor, path, value),
        )

    def authorize(self, ref: str | None = None, digest: str | None = None) -> Any:
        """G8 sign-off: the amendment ref and digest (asked when not given), a
        confirmation naming the evidence digest, then the workspace."""
        st, ws = self.state, self.ws
        if st is None or ws is None or not st.steps[dz.AUTHORIZE].enabled or self.busy:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        current = snap.parsed.raw.get("authorization") or {}
        values = {"amendment_ref": ref, "amendment_digest": digest}
        for label, key in (
            ("Amendment ref", "amendment_ref"),
            ("Amendment digest (sha256:…)", "amendment_digest"),
        ):
            if values[key] is None:
                value = self.view.ask_text(
                    "Authorize amendment proposal", label, str(current.get(key) or "")
                )
                if value is None:
                    return None
                values[key] = value
        if not self.view.confirm(
            "Sign off",
            f"Authorize proposing amendment {values['amendment_ref']}"
            f" for {d} revision {r} as {actor}?\n\nYou are signing the evidence "
            f"digest\n{snap.evidence_digest}",
        ):
            return None
        a_ref, a_digest = str(values["amendment_ref"]), str(values["amendment_digest"])
        return self._run(
            dz.AUTHORIZE,
            "Signing the authorization…",
            lambda: ws.authorize_amendment(d, r, actor, a_ref, a_digest),
        )

    def request_revise(self) -> Any:
        """From an expired revision, start the next one in draft (spec 7.3), confirmed
        first; the session then shows the new revision."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.busy or not st.may_revise.enabled:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        if not self.view.confirm(
            "New revision",
            f"Start {d} revision {snap.revisions[-1] + 1} from expired revision {r} as "
            f"{actor}?\n\nIts evidence is copied into a draft that you then edit, bind "
            f"and have checked again; revision {r} stays expired. The new revision is "
            "signed into the journal.",
        ):
            return None
        return self._run(("revise",), "Starting a new revision…", lambda: ws.revise(d, r, actor))

    # -- importing a dossier file (T0) ---------------------------------------------------
    def import_file(self, path: Path) -> Any:
        """Import a dossier file as the acting principal (spec 7.2, T0). A file that does
        not parse to the shapes of section 2 is refused (spec 15): the view is told each
        JSON path, the contract's rule and what would satisfy it, and nothing changes."""
        ws, actor, path = self.ws, self.actor_id, Path(path)
        if ws is None or self.busy:
            return None
        if not actor:
            self.view.inform("Import", "Choose who you act as first (Change…).")
            return None

        def job() -> Any:
            try:
                tree = orjson.loads(read_beneath(str(path.parent), path.name, limit=_IMPORT_LIMIT))
            except (OSError, ValueError) as exc:
                return exc
            if not isinstance(tree, dict):
                return ValueError("a dossier file holds one JSON object")
            try:
                return ws.import_dossier(tree, actor)
            except (
                dz.DossierSchemaError,
                dz.ActorUnavailableError,
                dz.RevisionConflictError,
                dz.WorkspaceReadOnlyError,
                dz.JournalWriteError,
            ) as exc:
                return exc

        def done(result: Any) -> None:
            self.last_result = result
            if isinstance(result, dz.DossierSchemaError):
                lines = "\n".join(f"• {line}" for line in result.explain())
                self.view.warn(
                    "Dossier file refused",
                    f"{path.name} was not imported and nothing was journaled.\n\n"
                    f"{result.reason}:\n{lines}",
                )
            elif isinstance(result, Exception):
                self.view.warn("Not imported", f"{path.name}: {result}")
            else:
                self.events.step_done.emit(("import",), result)
                self.select_dossier(result.dossier_id, result.revision)

        self.last_result = None
        self._submit("Importing the dossier file…", job, done)
        return self.last_result

    # -- refusals and denials on request -------------------------------------------------
    # -- not-applied actions (spec 10.6) ----------------------------------------------------
    def resolve_not_applied(self, how: str, na: dz.NotAppliedView) -> Any:
        """Redo (``how="redo"``) or withdraw a not-applied action as its author; confirmed
        first."""
        st, ws = self.state, self.ws
        allowed = na.can_redo if how == "redo" else na.can_withdraw
        if st is None or ws is None or self.busy or not allowed:
            return None
        actor, h = self.actor_id, na.entry_hash
        text = (
            f"Take the {na.what} again on the kept branch, validated against the state "
            f"there and signed again by {actor}? A redo the kept state refuses is journaled "
            "as refused, and the action stays not applied (to be withdrawn)."
            if how == "redo"
            else f"Withdraw your {na.what} of {na.when} UTC? A permanent 'withdrawn' entry, "
            f"signed by {actor}, names it; the action stays listed, never deleted."
        )
        if not self.view.confirm("Redo" if how == "redo" else "Withdraw", text):
            return None

        def call() -> Any:
            try:
                return ws.redo(h, actor) if how == "redo" else ws.withdraw(h, actor)
            except (dz.ForkResolutionError, dz.ProjectionError, dz.WorkspaceReadOnlyError) as e:
                return e

        return self._run(("resolve", how), "Writing the entry…", call)

    def request_refusal(self, step: Any) -> Any:
        """Ask for a step the acting principal may not take, so that it is refused and the
        refusal journaled: an explicit action, confirmed first (spec 7.2, 12)."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.busy or step not in st.steps:
            return None
        view = st.steps[step]
        if view.enabled or not view.journals_refusal:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        noun = dz.STEPS[view.step].noun
        if not self.view.confirm(
            "Journal a refused request",
            f"{view.why_not}\n\nAsking for {noun} anyway makes the workspace "
            f"refuse it and write a permanent transition_refused entry, signed "
            f"by {actor}, to the journal of {d}. Nothing else changes.\n\n"
            "Request it and journal the refusal?",
        ):
            return None
        effective = view.step

        def ask() -> Any:
            # Ask only what is still refused: a request must never take the step itself.
            if ws.admission(effective, d, r, actor) is None and not (
                effective is dz.Action.DECIDE_ELIGIBLE
                and not dz.eligible_precondition(ws.parsed(d, r), ws.freshness(d, r))
            ):
                return None
            if effective is dz.AUTHORIZE:
                return ws.authorize_amendment(d, r, actor, "", "")
            if effective in (dz.Action.EDIT, dz.Action.EDIT_DRAFT):
                plan = ws.parsed(d, r).raw["evidence"].get("dataset_plan")
                return ws.edit_evidence(d, r, actor, ["dataset_plan"], plan)
            assert isinstance(effective, dz.Action)
            return getattr(ws, _STEP_CALLS[effective])(d, r, actor)

        return self._run(step, "Journaling the refused request…", ask, asked_refusal=True)

    def attempt_operation(self, op: str) -> Any:
        """Ask for a deferred operation as the acting principal: it is always denied, and
        the denial journaled (spec 8); confirmed first."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.busy or not self.actor_id:
            return None
        d, actor = st.snapshot.dossier_id, self.actor_id
        words = op.replace("_", " ")
        if not self.view.confirm(
            "Request a deferred operation",
            f"While activation is deferred, {words} is denied whoever asks, in "
            f"every state (spec 7.5, 8). Asking writes a permanent "
            f"operation_denied entry, signed by {actor}, naming {d}.\n\n"
            "Request it and journal the denial?",
        ):
            return None
        return self._run(
            ("operation", op),
            "Journaling the denied request…",
            lambda: ws.attempt_operation(op, actor, d),
        )

    # -- the public projection -----------------------------------------------------------
    def show_projection(self, path: Path | None = None) -> Any:
        """Preview exactly what leaves, then export it (journaled) to ``path`` or to the
        file the view chooses after showing the preview."""
        st, ws = self.state, self.ws
        if st is None or ws is None or not st.may_project.enabled or self.busy:
            return None
        d, r = st.snapshot.dossier_id, st.snapshot.revision
        self._submit(
            "Preparing the projection…",
            lambda: ws.projection_preview(d, r),
            lambda preview: self._projection_previewed(d, r, path, preview),
        )
        return self.last_result

    def _projection_previewed(
        self, d: str, r: int, path: Path | None, preview: dict[str, Any]
    ) -> None:
        self.last_projection_preview = preview
        if path is None:
            path = self.view.projection_path(preview, f"{d}-projection.json")
            if path is None:
                return
        ws, actor, target = self.ws, self.actor_id, Path(path)
        assert ws is not None

        def export() -> Any:
            try:
                projection = ws.project(d, r, actor)
            except (dz.ProjectionError, dz.WorkspaceReadOnlyError) as exc:
                return exc
            write_projection(target, projection)
            return projection

        self._run(("export", str(target)), "Exporting the projection…", export)

    # -- running and reporting -----------------------------------------------------------
    def _run(self, step: Any, words: str, call: Any, asked_refusal: bool = False) -> Any:
        """Run ``call`` in the worker, then a snapshot of the (possibly new) revision."""
        ws, cache, before = self.ws, self.cache, self.state
        assert ws is not None and before is not None
        d, r = before.snapshot.dossier_id, before.snapshot.revision

        def job() -> tuple[Any, dz.Snapshot]:
            result = call()
            new = getattr(result, "new_revision", None)
            return result, dz.take_snapshot(ws, d, new if new is not None else r, cache)

        def done(result: tuple[Any, dz.Snapshot]) -> None:
            outcome, snap = result
            self.last_result = outcome
            if self._want is not None and snap.dossier_id == self._want[0]:
                self._want = (snap.dossier_id, snap.revision)
            self._take(snap)
            self.events.step_done.emit(step, outcome)
            self._report(step, before, outcome, asked_refusal)

        self.last_result = None
        self._submit(words, job, done)
        return self.last_result

    def _report(self, step: Any, before: dz.PanelState, outcome: Any, asked_refusal: bool) -> None:
        inform = self.view.inform
        if isinstance(step, tuple) and step[0] == "operation":
            fault = outcome.get("not_journaled") or outcome.get("journal_fault")
            where = f"It was not journaled ({fault})." if fault else "The denial is in the journal."
            inform(
                "Denied",
                f"{step[1].replace('_', ' ').capitalize()} was denied "
                f"({dz.denial_words(outcome.get('reason_code', ''))}). {where} "
                "Nothing in this app can perform it.",
            )
            return
        if isinstance(step, tuple) and step[0] == "resolve":
            if isinstance(outcome, Exception):
                inform("Not done", str(outcome))
            elif getattr(outcome, "outcome", None) in (dz.Outcome.REFUSED, dz.Outcome.EXPIRED):
                inform(
                    "Not redone",
                    f"The kept state does not allow it ({outcome.reason}); it stays not "
                    "applied: withdraw it.",
                )
            return
        if isinstance(step, tuple) and step[0] == "export":
            if isinstance(outcome, Exception):
                inform("Not exported", str(outcome))
            return
        if isinstance(step, tuple) and step[0] == "revise":
            if outcome.outcome is dz.Outcome.REFUSED:
                inform(
                    "No new revision",
                    f"{before.may_revise.why_not or 'The workspace refused it.'} "
                    f"({outcome.reason})",
                )
            return
        if outcome is None:
            inform(
                "Not journaled",
                "The step is no longer refused for you, so nothing was asked and nothing written.",
            )
            return
        if outcome.outcome is dz.Outcome.REFUSED:
            view = before.steps.get(step)
            effective = view.step if view is not None else step
            text = dz.refusal_text(
                effective,
                outcome.reason or "",
                before.actor,
                before.actor_id,
                before.snapshot.standing,
                view.could if view else (),
                before.snapshot.read_only_fault,
            )
            written = (
                "Nothing was journaled: the principal you act as cannot sign here, or "
                "the journal cannot be written."
                if outcome.reason
                in ("ACTOR_KEY_UNAVAILABLE", "WORKSPACE_READ_ONLY", "JOURNAL_WRITE_FAILED")
                else "The refusal is recorded in the journal."
            )
            inform("Refused", f"{text}\n\n({outcome.reason}. {written})")
        elif outcome.outcome is dz.Outcome.EXPIRED:
            inform(
                "Expired",
                f"The revision has expired instead: {dz.explain(outcome.reason or '').sentence}",
            )
