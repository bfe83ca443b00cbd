"""WindowController: what the review window does, as a plain object (no Qt imported here).

It drives the :class:`~aa_review.core.session.ReviewSession` from the window's commands
(open, reload, audit, export, session files, the dossier's gates, the palette) and
hands slow work to a :class:`Runner`; the window it talks to is any object with the
:class:`WindowView` methods, so tests drive it with a mock view and a synchronous
runner (as ndv tests its controller). Selection and queries do not pass through
here: panels send those intents to the session directly.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from aa_review.core.query import QueryError
from aa_review.core.session import (
    SESSION_SUFFIX,
    Cancelled,
    Job,
    ReviewSession,
    Runner,
    Scope,
    Selection,
    SessionState,
    audit_in_process,
    compute_digest,
    live_hash_statuses,
    load_session,
    prepare_findings,
    prepare_package,
    run_export,
    save_session,
)
from aa_review.core.util import gcpause
from aa_review.core.util.errors import AAReviewError, failure_message

if TYPE_CHECKING:
    from aa_review.core.package import Package, RowIndex
    from aa_review.core.session import PreparedFindings, PreparedPackage

__all__ = [
    "WindowController",
    "WindowView",
    "Runner",
    "Job",
    "Prefs",
    "MAX_RECENT",
    "AUTO_AUDIT_MAX_BYTES",
]

log = logging.getLogger(__name__)

MAX_RECENT = 10
AUTO_AUDIT_MAX_BYTES = 512 * 1024 * 1024  # larger packages are audited on request only

# The runner's lanes: a new job on a lane supersedes the one before (whose result is
# then dropped); jobs on different lanes run side by side.
LOAD, AUDIT, DIGEST, HASHES, EXPORT, DEMO = "load", "audit", "digest", "hashes", "export", "demo"
# Shown once, the first time the demo opens (remembered in the settings).
DOSSIER_HINT_KEY = "hints/dossier_tab"
DOSSIER_HINT = "New here? The Dossier tab signs off the demo's readiness dossier: show it"


class Prefs(Protocol):
    """Remembered settings (QSettings has this shape)."""

    def value(self, key: str, default: Any = None) -> Any: ...

    def setValue(self, key: str, value: Any) -> None: ...  # noqa: N802


class WindowView(Protocol):
    """What the controller asks of the window."""

    def show_busy(self, text: str, fraction: float | None = None) -> None: ...

    def show_idle(self, text: str) -> None: ...

    def show_partial(self, index: RowIndex) -> None: ...

    def show_opened(self, pkg: Package) -> None: ...

    def show_page(self, name: str) -> None: ...

    def status(self, text: str, ms: int = 6000) -> None: ...

    def warn(self, title: str, text: str) -> None: ...

    def inform(self, title: str, text: str) -> None: ...

    def ask_save_path(self, title: str, suggested: str, filters: str) -> Path | None: ...

    def ask_open_path(self, title: str, filters: str) -> Path | None: ...

    def watch(self, root: Path | None) -> None: ...

    def refresh_recent(self, paths: list[str]) -> None: ...

    def layout_state(self) -> tuple[int, str]: ...

    def restore_layout_state(self, tab: int, layout: str | None) -> None: ...

    def offer(self, label: str | None, take: Callable[[], object] | None = None) -> None:
        """Offer a step the user may take (a button in the status bar); None withdraws it."""


class WindowController:
    """The window's commands over one :class:`ReviewSession`."""

    def __init__(
        self,
        session: ReviewSession,
        view: WindowView,
        runner: Runner,
        prefs: Prefs,
        *,
        audit_niceness: int | None = None,
    ) -> None:
        """``audit_niceness``: audit in a process of its own, that many steps nicer than
        this one (the window does; None audits in the runner's thread)."""
        self.session = session
        self.audit_niceness = audit_niceness
        self.view = view
        self.runner = runner
        self.prefs = prefs
        self._loading: Path | None = None
        self.open_gave_up: list[Callable[[Path], object]] = []  # an open failed or cancelled
        # The open package's digest could not be computed (why): whoever waits for it
        # stops waiting (the Dossier tab).
        self.digest_gave_up: list[Callable[[str], object]] = []
        self.cancel_also: list[Callable[[], object]] = []  # what else Cancel stops
        self._pending: SessionState | None = None
        self._hint = False  # the first-run hint, offered once the demo package is open
        self._hint_offered = False  # ... and still on offer
        session.selection.changed.connect(self._on_selection)

    # -- opening -----------------------------------------------------------------------
    def open(self, path: Path) -> None:
        """Open a package folder: read and prepared in a worker, shown when ready."""
        from aa_review.core.package import LoadCancelled, LoadProgress, open_package

        path = Path(path)
        self._loading = path
        self.prefs.setValue("last_dir", str(path.parent))
        self.view.show_busy(f"Loading {path.name}…", 0.0)
        limit = AUTO_AUDIT_MAX_BYTES

        def work(job: Job) -> PreparedPackage:
            # What is loaded stays: no collector pass over it, now or later (gcpause).
            with gcpause.paused(freeze=True):
                try:
                    pkg = open_package(
                        path,
                        progress=job.progress,
                        on_partial=job.progress,
                        cancelled=job.cancelled,
                    )
                except LoadCancelled:
                    raise Cancelled from None
                return prepare_package(pkg, size_limit=limit, cancelled=job.cancelled)

        def progress(p: Any) -> None:
            if isinstance(p, LoadProgress):
                self.view.show_busy(f"Loading {path.name}… {p.rows:,} rows", p.fraction)
            elif self.session.package is None or self.session.package.root != path:
                self.view.show_partial(p)  # the first rows, while the rest loads

        self.runner.run(
            LOAD,
            work,
            done=self._opened,
            progress=progress,
            failed=lambda exc: self._open_failed(path, exc),
            cancelled=lambda: self._open_cancelled(path),
        )

    def _opened(self, prepared: PreparedPackage) -> None:
        self._loading = None
        pkg = prepared.package
        for lane in (AUDIT, DIGEST, HASHES):  # about the package that was open
            self.runner.cancel(lane)
        self.session.set_auditing(False)
        audit_follows = self.auto_audit() and prepared.small
        self.session.open(prepared, auditing=audit_follows)
        self.view.offer(None)  # an offer was about the package open before
        self._hint_offered = False
        problems = f", {len(pkg.problems)} loading problems" if pkg.problems else ""
        self.view.show_idle(f"{pkg.package_id} ({pkg.version}){problems}")
        self.view.show_opened(pkg)
        self.remember_recent(pkg.root)
        self.view.watch(pkg.root)
        if self._pending is not None:
            state, self._pending = self._pending, None
            self.session.restore(state)
            self.view.restore_layout_state(state.central_tab, state.layout)
        self._check_hashes()
        if self._hint:
            self._hint = False
            self.prefs.setValue(DOSSIER_HINT_KEY, "shown")
            self.view.offer(DOSSIER_HINT, self._take_hint)
            self._hint_offered = True
        if audit_follows:
            self.run_audit()
        elif prepared.small:
            self.ensure_digest()

    def _take_hint(self) -> None:
        self._hint_offered = False
        self.view.offer(None)
        self.view.show_page("dossier")

    def page_shown(self, name: str) -> None:
        """A central page came forward: the Dossier tab found, its hint is withdrawn."""
        if name == "dossier" and self._hint_offered:
            self._hint_offered = False
            self.view.offer(None)

    # -- the demo ----------------------------------------------------------------------
    def open_demo(self, then: Callable[[Path, Path], object]) -> None:
        """The demo package and its dossier workspace: ``then(package, workspace)``. The
        first time they are made, in a worker, the status saying so; the first time the
        demo opens, a hint points to the Dossier tab (once: remembered)."""
        from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample, sample_home, sample_ready

        home = sample_home()
        self._hint = not self.prefs.value(DOSSIER_HINT_KEY, "")

        def opened(folder: Path) -> None:
            then(folder / SAMPLE_PACKAGE_ID, folder / "dossier_workspace")

        if sample_ready(home):
            opened(home)
            return
        self.view.show_busy("Making the demo package (first run only)…", 0.0)

        def progress(p: tuple[str, float]) -> None:
            self.view.show_busy(f"Making the demo: {p[0]}…", p[1])

        def failed(exc: BaseException) -> None:
            self._hint = False
            self.view.show_idle("The demo could not be made")
            self.view.warn("Cannot make the demo", failure_message(home, exc, "making the demo"))

        self.runner.run(
            DEMO,
            lambda job: ensure_sample(home, progress=job.progress),
            done=opened,
            progress=progress,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Opening the demo cancelled"),
        )

    def _open_failed(self, path: Path, exc: BaseException) -> None:
        self._loading = None
        self._pending = None
        self.view.show_idle("Could not open the package")
        self.view.warn("Cannot open package", failure_message(path, exc, "loading"))
        for tell in self.open_gave_up:
            tell(path)

    def _open_cancelled(self, path: Path) -> None:
        self._loading = None
        self.view.show_idle(f"Loading {path.name} cancelled")
        if self.session.opened is not None:
            self.view.show_opened(self.session.opened.package)
        for tell in self.open_gave_up:
            tell(path)

    def reload(self) -> None:
        """Read the open package again, keeping queries, selection and layout."""
        pkg = self.session.package
        if pkg is not None:
            self._pending = self.capture()
            self.open(pkg.root)

    def on_disk_change(self) -> None:
        if self.session.package is not None and not self.runner.is_running(LOAD):
            self.view.status("The package changed on disk: reloading", 5000)
            self.reload()

    def cancel(self) -> None:
        """Stop loading and auditing, and what ``cancel_also`` names (each says so once
        it has stopped)."""
        self.runner.stop(LOAD)
        self.runner.stop(AUDIT)
        self.runner.stop(DEMO)  # the demo is still made, for next time; not opened now
        for stop in self.cancel_also:  # compare mode's work
            stop()

    def busy(self, lane: str) -> bool:
        return self.runner.is_running(lane)

    # -- the audit, the digest, the live hashes --------------------------------------------
    def auto_audit(self) -> bool:
        return str(self.prefs.value("audit/auto", "true")).lower() == "true"

    def run_audit(self) -> None:
        """Audit the open package in a worker; its findings replace the loading problems."""
        pkg = self.session.package
        if pkg is None:
            return
        self.runner.cancel(DIGEST)  # the audit computes the digest itself
        self.view.show_busy("Auditing…", 0.0)
        self.session.set_auditing(True)

        niceness = self.audit_niceness

        def work(job: Job) -> PreparedFindings:
            if niceness is not None:
                report = audit_in_process(
                    pkg.root, progress=job.progress, cancelled=job.cancelled, niceness=niceness
                )
                return prepare_findings(pkg, report)
            # Imported here: loading the audit's checks takes longer than a frame.
            from aa_review.core.audits import AuditCancelled, audit_package

            try:
                report = audit_package(pkg, progress=job.progress, cancelled=job.cancelled)
            except AuditCancelled:
                raise Cancelled from None
            return prepare_findings(pkg, report)

        def progress(p: Any) -> None:  # an AuditProgress
            self.view.show_busy(f"Auditing: {p.stage}…", p.fraction)

        def failed(exc: BaseException) -> None:
            log.error("the audit of %s failed", pkg.root, exc_info=exc)
            self.session.set_auditing(False)
            self.view.show_idle(f"The audit could not finish: {exc}")

        def cancelled() -> None:
            self.session.set_auditing(False)
            self.view.show_idle("Audit cancelled")

        self.runner.run(
            AUDIT,
            work,
            done=self._audited,
            progress=progress,
            failed=failed,
            cancelled=cancelled,
        )

    def _audited(self, prepared: PreparedFindings) -> None:
        # The findings and facts first, then the audit's end: the dossier, which waits
        # for the end of an audit, is told about the package once, with its digest.
        current = self.session.set_audit(prepared)
        self.session.set_auditing(False)
        if not current:
            return  # about a package no longer open
        report = prepared.report
        assert report is not None
        self.view.show_idle(
            f"{prepared.package.package_id}: audited, "
            f"{len(report.findings)} findings at {report.locations:,} locations"
        )

    def ensure_digest(self) -> None:
        """Compute the package digest in the background, unless known or being computed."""
        pkg, version = self.session.package, self.session.version
        if (
            pkg is None
            or self.session.digest is not None
            or self.runner.is_running(DIGEST)
            or self.runner.is_running(AUDIT)
        ):
            return
        root = pkg.root

        def failed(exc: BaseException) -> None:
            log.warning("no digest of %s: %s", root, exc)
            if version == self.session.version:
                for tell in self.digest_gave_up:
                    tell(f"{type(exc).__name__}: {exc}")

        self.runner.run(
            DIGEST,
            lambda job: compute_digest(root, job.cancelled),
            done=lambda d: self.session.set_digest(version, d),
            failed=failed,
        )

    def _check_hashes(self) -> None:
        pkg, version = self.session.package, self.session.version
        if pkg is None:
            return
        self.runner.run(
            HASHES,
            lambda job: live_hash_statuses(pkg, job.cancelled),
            done=lambda st: self.session.set_hashes(version, st),
            failed=lambda exc: log.warning("live hashes of %s: %s", pkg.root, exc),
        )

    # -- what the views ask of the window -------------------------------------------------
    def _on_selection(self, sel: Selection) -> None:
        # A finding that names a contract entry shows it on the Contracts page.
        if (
            sel.source == "findings"
            and sel.contract
            and self.session.contracts is not None
            and self.session.contracts.entry_named(sel.contract) is not None
        ):
            self.view.show_page("contracts")

    def gate_selected(self, gate: str) -> None:
        """Offer to show in the package views what a dossier gate rests on, where the
        package holds it. The user's queries are changed only when the offer is taken."""
        facts = self.session.facts
        if gate != "G9" or self.session.package is None or facts is None:
            self.view.offer(None)
            return
        if facts.rows_citing_hidden is None:
            self.view.offer(None)
            self.view.status(
                "G9: the audit tells which rows cite hidden evidence; run it (Audit menu)", 8000
            )
            return
        n = len(facts.rows_citing_hidden)
        if n == 0:
            self.view.offer(None)
            self.view.status("G9: no row of the package cites hidden evidence", 8000)
            return
        rows = f"{n:,} row{'s' if n != 1 else ''}"
        self.view.offer(f"Show the {rows} citing hidden evidence", self.show_hidden_evidence)
        self.view.status(f"G9: {rows} of the package cite hidden evidence", 15000)

    def show_hidden_evidence(self) -> None:
        """G9's offer taken: the rows citing hidden evidence, the findings about them."""
        self.view.offer(None)
        s = self.session
        if s.package is None:
            return
        before = {scope: s.query(scope) for scope in (Scope.ROWS, Scope.FINDINGS)}
        n = s.show_hidden_evidence()
        self.view.show_page("rows")
        self.view.status(
            f"G9: {n:,} rows of the package cite hidden evidence (Rows tab, filtered)", 8000
        )
        if any(before.values()):  # the user's own queries, one click away
            self.view.offer("Restore your queries", partial(self._restore_queries, before))

    def _restore_queries(self, texts: dict[Scope, str]) -> None:
        self.view.offer(None)
        for scope, text in texts.items():
            try:
                self.session.set_query(scope, text)
            except QueryError:  # valid when typed; kept as it was all the same
                continue

    # -- files ------------------------------------------------------------------------------
    def export(
        self, path: Path | None = None, scope: Scope = Scope.ROWS, full: bool = False
    ) -> None:
        """Write what a table shows now (the rows by default), with its query and the
        package digest; the writing (and the digest, when not known yet) runs in a worker.
        ``full``: rows with every field, in CSV too (JSON Lines always has every field)."""
        plan = self.session.export_plan(scope)
        if plan is None:
            return
        what = f"full {scope.value}" if full else scope.value
        if path is None:
            first = "JSON Lines (*.jsonl)" if full else "CSV (*.csv)"
            filters = [first] + [
                f for f in ("CSV (*.csv)", "JSON Lines (*.jsonl)", "JSON (*.json)") if f != first
            ]
            path = self.view.ask_save_path(
                f"Export the {what} shown",
                f"{plan.package.package_id}-{scope.value}.{'jsonl' if full else 'csv'}",
                ";;".join(filters),
            )
            if path is None:
                return
        columns = ["all"] if full and scope is Scope.ROWS else None
        version = self.session.version
        target = Path(path)

        def done(result: tuple[int, str]) -> None:
            n, digest = result
            self.session.set_digest(version, digest)
            self.view.status(f"Exported {n:,} {scope.value} to {target}", 8000)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, (OSError, ValueError)):
                log.error("export to %s failed", target, exc_info=exc)
            self.view.warn("Export failed", f"{target}: {exc}")

        self.view.status(f"Exporting {len(plan.positions):,} {scope.value}…", 4000)
        self.runner.run(
            EXPORT,
            lambda job: run_export(plan, target, job.cancelled, columns),
            done=done,
            failed=failed,
        )

    def capture(self) -> SessionState:
        """The session file's content: queries, selection, central tab and layout."""
        tab, layout = self.view.layout_state()
        return self.session.capture().model_copy(update={"central_tab": tab, "layout": layout})

    def save_session(self, path: Path | None = None) -> Path | None:
        if path is None:
            path = self.view.ask_save_path(
                "Save the review session",
                f"review{SESSION_SUFFIX}",
                f"aa-review session (*{SESSION_SUFFIX})",
            )
            if path is None:
                return None
        pkg = self.session.package
        try:
            save_session(path, self.capture(), pkg.root if pkg else None)
        except OSError as exc:
            self.view.warn("Cannot save the session", f"{path}: {exc}")
            return None
        self.prefs.setValue("last_session", str(path))
        self.view.status(f"Session saved to {path}", 6000)
        return Path(path)

    def open_session(self, path: Path | None = None) -> bool:
        """Open a session file: its package, then its queries, selection and layout."""
        if path is None:
            path = self.view.ask_open_path(
                "Open a review session", f"aa-review session (*{SESSION_SUFFIX})"
            )
            if path is None:
                return False
        try:
            state, pkg_root = load_session(path)
        except AAReviewError as exc:
            self.view.warn("Cannot open the session", str(exc))
            return False
        self.prefs.setValue("last_session", str(path))
        if pkg_root is not None:
            self._pending = state  # applied once the package is open
            self.open(pkg_root)
        else:
            self.session.restore(state)
            self.view.restore_layout_state(state.central_tab, state.layout)
        return True

    def reopen_last_session(self) -> None:
        last = self.prefs.value("last_session")
        if last and Path(str(last)).is_file():
            self.open_session(Path(str(last)))
        else:
            self.view.inform("No session", "No saved session to reopen yet.")

    # -- recent packages ----------------------------------------------------------------------
    def recent(self) -> list[str]:
        value = self.prefs.value("recent", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [str(v) for v in items if v]

    def remember_recent(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.prefs.setValue("recent", items[:MAX_RECENT])
        self.view.refresh_recent(self.recent())

    # -- the palette ------------------------------------------------------------------------
    def palette_entries(self, text: str) -> list[tuple[str, Callable[[], object]]]:
        """Rows, evidence items and findings named by ``text``, each with what picking does."""
        return [
            (target.label, partial(self.session.go, target)) for target in self.session.find(text)
        ]


def encode_layout(state: bytes) -> str:
    """A window layout (``QMainWindow.saveState``) as the text a session file keeps."""
    return base64.b64encode(state).decode("ascii")


def decode_layout(text: str | None) -> bytes | None:
    if not text:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None
