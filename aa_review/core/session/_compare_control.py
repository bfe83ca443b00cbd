"""CompareController: compare mode's commands, Qt-free; the Compare dock is its view.

Beside :class:`~aa_review.core.session.ReviewSession` (which holds the comparison), this
object does what compare mode's commands do: it opens the baseline through its
:class:`~aa_review.core.session.Runner` (an index build, with progress and cancel), has
the diff computed off the GUI thread and handed to the session, computes it again when
the open package is replaced, swaps the two packages, audits both to compare their
findings, and closes the baseline. What it tells the user goes to a
:class:`CompareView` (the window, or a recording fake in tests).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from aa_review.core.session._compare import (
    compare_findings,
    compare_findings_in_process,
    prepare_comparison,
)
from aa_review.core.session._compare_list import comparison_summary
from aa_review.core.session._prepare import Cancelled
from aa_review.core.util import gcpause
from aa_review.core.util.errors import failure_message

if TYPE_CHECKING:
    from aa_review.core.diff import FindingsDiff
    from aa_review.core.package import Package
    from aa_review.core.session._compare import Comparison, PreparedComparison
    from aa_review.core.session._prepare import OpenPackage
    from aa_review.core.session._review import ReviewSession
    from aa_review.core.session._runner import Job, Runner

__all__ = [
    "CompareController",
    "CompareView",
    "BASELINE_LANE",
    "COMPARE_LANE",
    "SIDE_LANE",
    "FINDINGS_LANE",
]

log = logging.getLogger(__name__)

# The runner's lanes of compare mode (the side-by-side view reads rows on SIDE_LANE).
BASELINE_LANE, COMPARE_LANE = "baseline", "compare"
SIDE_LANE, FINDINGS_LANE = "compare_side", "compare_findings"


class CompareView(Protocol):
    """What the controller tells the user (the window's status bar and message boxes)."""

    def show_busy(self, text: str, fraction: float | None = None) -> None: ...

    def show_idle(self, text: str) -> None: ...

    def status(self, text: str, ms: int = 6000) -> None: ...

    def warn(self, title: str, text: str) -> None: ...


class CompareController:
    """Opening and closing the baseline; the diff, computed in the background.

    Parameters
    ----------
    session : ReviewSession
        Holds the comparison (``start_comparison``, ``set_comparison``...).
    view : CompareView
        Told what is under way and what came of it.
    runner : Runner
        Runs the slow work on the lanes above.
    niceness : int or None
        Audit (Compare Findings) in processes of their own, that many steps nicer;
        None audits in the runner's thread, as tests do.
    open_package : callable, optional
        The window's opener of a package folder, which a swap uses; a swap whose open
        fails or is cancelled is called off through :meth:`open_gave_up`.
    """

    def __init__(
        self,
        session: ReviewSession,
        view: CompareView,
        runner: Runner,
        niceness: int | None = None,
        open_package: Callable[[Path], object] | None = None,
    ) -> None:
        self.session, self.view, self.runner = session, view, runner
        self.niceness = niceness
        self.open_package = open_package
        self._starting = False
        # After a swap: the package being opened, and the baseline to open once it is.
        self._swap_to: tuple[Path, Path] | None = None
        session.events.baseline_changed.connect(self._on_baseline)
        session.events.package_changed.connect(self._package_opened)

    def swap(self) -> None:
        """Open the baseline as the package, and compare it with the package open now
        (its baseline then): the same two folders, the other way round."""
        c, pkg = self.session.comparison, self.session.package
        if c is None or pkg is None or self.open_package is None:
            return
        old, new = c.baseline.root, pkg.root
        self.close_baseline(say=False)  # nothing compared while the other one opens
        self._swap_to = (old, new)
        self.open_package(old)

    def open_gave_up(self, path: Path) -> None:
        """An open failed or was cancelled: a swap waiting for it is off."""
        if self._swap_to is not None and self._swap_to[0] == path:
            self._swap_to = None

    def _package_opened(self, opened: OpenPackage | None) -> None:
        # Only the package the swap opened gets the swap's baseline: had that open
        # failed, a package opened later is not compared with anything.
        swap, self._swap_to = self._swap_to, None
        if swap is not None and opened is not None and opened.package.root == swap[0]:
            self.open_baseline(swap[1])

    def open_baseline(self, path: Path) -> None:
        """Open ``path`` as the baseline of the open package and diff the two, in a worker."""
        from aa_review.core.package import LoadCancelled, LoadProgress, open_package

        pkg = self.session.package
        if pkg is None:
            self.view.warn(
                "Nothing to compare",
                "Open a package first, then compare it with another one (its baseline).",
            )
            return
        path = Path(path)
        self.view.show_busy(f"Opening the baseline {path.name}…", 0.0)

        def work(job: Job) -> tuple[Package, PreparedComparison]:
            # The baseline stays while compared: no collector pass over it (gcpause).
            with gcpause.paused(freeze=True):
                try:
                    baseline = open_package(path, progress=job.progress, cancelled=job.cancelled)
                except LoadCancelled:
                    raise Cancelled from None
                job.progress("diff")
                return baseline, prepare_comparison(baseline, pkg, job.cancelled)

        def progress(p: Any) -> None:
            if isinstance(p, LoadProgress):
                self.view.show_busy(
                    f"Opening the baseline {path.name}… {p.rows:,} rows", p.fraction
                )
            elif p == "diff":
                self.view.show_busy(f"Comparing with {path.name}…", None)

        def failed(exc: BaseException) -> None:
            self.view.show_idle("Could not open the baseline")
            self.view.warn("Cannot compare", failure_message(path, exc, "comparing with"))

        self.runner.run(
            BASELINE_LANE,
            work,
            done=self._opened,
            progress=progress,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing cancelled"),
        )

    def _opened(self, result: tuple[Package, PreparedComparison]) -> None:
        baseline, prepared = result
        self._starting = True
        try:
            started = self.session.start_comparison(baseline)
        finally:
            self._starting = False
        if started is None:
            self.view.show_idle("No package is open to compare")
            return
        if not self.session.set_comparison(prepared):
            self._recompute()  # the open package was replaced meanwhile
            return
        self.view.show_idle(
            f"Compared with the baseline {baseline.package_id}: {comparison_summary(prepared)}"
        )

    def _on_baseline(self, c: Comparison | None) -> None:
        if (
            c is not None
            and c.prepared is None
            and not self._starting
            and c.version == self.session.version
        ):
            self._recompute()

    def _recompute(self) -> None:
        c, pkg = self.session.comparison, self.session.package
        if c is None or pkg is None:
            return
        baseline = c.baseline
        self.view.show_busy(f"Comparing with {baseline.package_id}…", None)

        def done(prepared: PreparedComparison) -> None:
            if self.session.set_comparison(prepared):
                self.view.show_idle(
                    f"Compared with the baseline {baseline.package_id}: "
                    f"{comparison_summary(prepared)}"
                )

        def failed(exc: BaseException) -> None:
            log.error("comparing with %s failed", baseline.root, exc_info=exc)
            self.view.show_idle(f"The comparison could not finish: {exc}")

        self.runner.run(
            COMPARE_LANE,
            lambda job: prepare_comparison(baseline, pkg, job.cancelled),
            done=done,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing cancelled"),
        )

    def compare_findings(self) -> None:
        """Audit both packages (every finding) in the background and show which findings
        are new, fixed or persisting."""
        c = self.session.comparison
        pkg = self.session.package
        if c is None or c.prepared is None or pkg is None:
            return
        prepared, old, new, niceness = c.prepared, c.baseline.root, pkg.root, self.niceness
        self.view.show_busy("Auditing both packages to compare their findings…", None)

        def work(job: Job) -> FindingsDiff:
            if niceness is None:
                return compare_findings(old, new, job.cancelled)
            return compare_findings_in_process(old, new, cancelled=job.cancelled, niceness=niceness)

        def done(fd: FindingsDiff) -> None:
            if self.session.set_comparison_findings(prepared, fd):
                self.view.show_idle(
                    f"Findings: {len(fd.new):,} new, {len(fd.fixed):,} fixed, "
                    f"{len(fd.persisting):,} persisting"
                )

        def failed(exc: BaseException) -> None:
            log.error("comparing findings failed", exc_info=exc)
            self.view.show_idle(f"Comparing the findings could not finish: {exc}")

        self.runner.run(
            FINDINGS_LANE,
            work,
            done=done,
            failed=failed,
            cancelled=lambda: self.view.show_idle("Comparing findings cancelled"),
        )

    def cancel(self) -> None:
        """Stop opening the baseline, diffing and auditing (each says so once stopped)."""
        for lane in (BASELINE_LANE, COMPARE_LANE, FINDINGS_LANE):
            self.runner.stop(lane)

    def close_baseline(self, *, say: bool = True) -> None:
        """Leave compare mode: the window is the normal window again (``say``: the
        status bar says so; not during a swap, which compares again at once)."""
        for lane in (BASELINE_LANE, COMPARE_LANE, SIDE_LANE, FINDINGS_LANE):
            self.runner.cancel(lane)
        if self.session.comparison is not None:
            self.session.close_comparison()
            if say:
                self.view.status("Baseline closed", 4000)
