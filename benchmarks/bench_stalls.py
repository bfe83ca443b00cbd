"""GUI-thread stalls: the longest gap between 10 ms timer ticks while the window works.

    python -m benchmarks.bench_stalls [--rows 100000] [--repeat 3]

A 10 ms ``QTimer`` ticks on the GUI thread while one user action runs in the
offscreen window; whatever runs on the GUI thread delays the next tick. For each
action the benchmark reports the longest gap between two ticks, worst and median of
``--repeat`` runs, their 99th percentile, and the longest gap of the idle window
measured just before each run (the same run's yardstick for what the machine's load
alone does). Goal: the longest gap under 100 ms (a frame or two) for every action in
every run, judged on the worst run, not the best:

- opening the ``--rows`` stress package, from the request to every view filled;
- auditing it in the window (the audit runs in workers; the window shows the report);
- typing a rows query, one key every 40 ms, then waiting for the filter;
- selecting a row, an evidence item and a finding (each propagated to every view);
- changing the acting principal in the Dossier tab;
- binding and checking a dossier whose bound package is that stress package;
- compare mode: comparing the package with a baseline (a copy derived from it with
  2 % of the rows changed, 0.5 % added, 0.5 % removed, some moved, re-serialized, and
  5 evidence items changed), from the request until the Change columns and the
  Compare dock are filled; selecting a changed row in the Compare dock until both
  versions are shown side by side; typing a ``change:`` query; closing the baseline.

``--only package,dossier,compare`` runs some groups of actions (the package is opened
unmeasured first when ``package`` is left out).

The yardstick is the tick interval itself: an idle window shows gaps of 10 to
12 ms on a quiet machine, which the benchmark prints as "idle" first and again before
each action. ``--sample`` also prints, after each run, the stacks of every thread of
the window's process when a watchdog thread waited long for the interpreter lock:
which thread held it, evidence that does not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from benchmarks._measure import Verdicts

GOAL_MS = 100.0
IDLE_S = 0.5  # the idle window measured before each action, as its yardstick
LATE_MS = 40.0  # a wait for the interpreter lock worth a sample (GilHolders)
GROUPS = ("package", "dossier", "compare")

# The baseline of the compare actions, derived once from the open package: per
# ``--rows`` rows, so many changed, added... (the changes list shows 2,000 at most).
BASELINE_CHANGES = {
    "rows_changed": 1 / 50,
    "rows_added": 1 / 200,
    "rows_removed": 1 / 200,
    "rows_moved": 1 / 500,
    "rows_reformatted": 1 / 500,
}
BASELINE_EVIDENCE = {
    "evidence_rehashed": 2,
    "evidence_hidden": 1,
    "evidence_ref_rewritten": 1,
    "evidence_removed": 1,
}


def baseline_package(src: Path, rows: int, into: Path) -> Path:
    """The compare actions' baseline: ``src`` with changes, made for this run in ``into``
    (copied, not hard-linked: a hard link would make every file of ``src`` a
    ``file.hard_link`` finding of the audit measured here and in later benchmarks)."""
    from benchmarks._data import changed_package

    counts = {k: max(1, int(rows * f)) for k, f in BASELINE_CHANGES.items()}
    return changed_package(src, into, seed=7, **counts, **BASELINE_EVIDENCE)


class StallMeter:
    """Ticks every 10 ms on the GUI thread and records when each tick ran."""

    def __init__(self, app: QApplication) -> None:
        self.app = app
        self.ticks: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(lambda: self.ticks.append(time.perf_counter()))

    def measure(
        self,
        start: Callable[[], None],
        done: Callable[[], bool],
        settle: float = 0.3,
        timeout: float = 900.0,
    ) -> tuple[float, float, float]:
        """Run ``start`` from the event loop; tick until ``done()`` and ``settle`` s more.

        Returns the longest gap and the 99th percentile gap (ms), and the wall time (s).
        """
        self.ticks = [time.perf_counter()]
        self.timer.start()
        t0 = time.perf_counter()
        QTimer.singleShot(0, start)
        finished_at: float | None = None
        while True:
            self.app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
            now = time.perf_counter()
            if finished_at is None and done():
                finished_at = now
            if finished_at is not None and now - finished_at >= settle:
                break
            if now - t0 > timeout:
                raise TimeoutError("the action did not finish")
            time.sleep(0.001)
        self.timer.stop()
        gaps = np.diff(np.asarray(self.ticks)) * 1000.0
        wall = (finished_at or time.perf_counter()) - t0
        if len(gaps) == 0:
            return wall * 1000.0, wall * 1000.0, wall
        return float(gaps.max()), float(np.percentile(gaps, 99)), wall


class GilHolders:
    """What the window's process ran during the long gaps between ticks.

    A watchdog thread wakes every 2 ms (sleeping releases the interpreter lock). When
    it wakes more than ``LATE_MS`` late, another thread held the lock all that time; when
    it wakes on time but the GUI thread's last tick is more than ``LATE_MS`` old, the GUI
    thread itself is busy. Either way it takes the stacks of every thread at once (for a
    late wake: the holder's stack shows the call that just returned, or the line after
    it), so the report names the work, independent of the machine's load.
    """

    def __init__(self, ticks: Callable[[], float]) -> None:
        self.last_tick = ticks
        self.samples: list[tuple[str, float, dict[str, list[str]]]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.samples = []
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="gil-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        me = threading.get_ident()
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(0.002)
            now = time.perf_counter()
            late = (now - last) * 1000.0 - 2.0
            tick_age = (now - self.last_tick()) * 1000.0
            last = now
            if late >= LATE_MS:
                kind, ms = "watchdog waited for the lock", late
            elif tick_age >= LATE_MS:
                kind, ms = "GUI thread busy, last tick", tick_age
            else:
                continue
            frames = sys._current_frames()
            names = {t.ident: t.name for t in threading.enumerate()}
            stacks = {
                names.get(ident, str(ident)): [
                    f"{Path(f.filename).name}:{f.lineno} {f.name}"
                    for f in traceback.extract_stack(frame)[-4:]
                ]
                for ident, frame in frames.items()
                if ident != me
            }
            self.samples.append((kind, ms, stacks))
            time.sleep(0.008)  # a sample per 10 ms of a gap
            last = time.perf_counter()

    def show(self, top: int = 6) -> None:
        for kind, ms, stacks in sorted(self.samples, key=lambda s: -s[1])[:top]:
            print(f"    {kind} {ms:.0f} ms ago; threads:", flush=True)
            for name, lines in stacks.items():
                print(f"      {name}: " + " <- ".join(reversed(lines)), flush=True)


VERDICTS = Verdicts()  # printed once every figure was measured


def report(
    name: str,
    runs: list[tuple[float, float, float]],
    loads: list[float],
    idle: list[float],
) -> None:
    """One action's line: the longest gap, worst of the runs (judged) and their median,
    its spread, the median p99 and wall time, the idle window's longest gap measured
    just before each run (worst of them), and the load average while it ran."""
    from benchmarks._measure import finite, spread

    longest = [finite(r[0], f"{name}: longest gap") for r in runs]
    worst = max(longest)
    median = statistics.median(longest)
    p99 = statistics.median(finite(r[1], f"{name}: p99") for r in runs)
    wall = statistics.median(r[2] for r in runs)
    idle_worst = max(finite(v, f"{name}: idle gap") for v in idle)
    ratio = finite(worst / GOAL_MS, name)
    print(
        f"{name:<44} worst {worst:7.1f} ms  median {median:7.1f} ms  "
        f"({spread(longest, unit='ms', digits=1)})  p99 {p99:6.1f} ms  "
        f"idle {idle_worst:5.1f} ms  (took {wall:6.2f} s)  "
        f"load {min(loads):.1f}-{max(loads):.1f}  goal worst < {GOAL_MS:g} ms  ratio {ratio:5.2f}",
        flush=True,
    )
    VERDICTS.add(name, ratio < 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per action")
    ap.add_argument(
        "--sample",
        action="store_true",
        help="print the stacks of the window process's threads after each long wait for "
        "the interpreter lock (which thread held it)",
    )
    ap.add_argument(
        "--only",
        default=",".join(GROUPS),
        help="the groups of actions to run, comma-separated: " + ", ".join(GROUPS),
    )
    args = ap.parse_args()
    groups = {g.strip() for g in args.only.split(",") if g.strip()}
    if not groups or groups - set(GROUPS):
        ap.error(f"--only takes some of {', '.join(GROUPS)}")

    from benchmarks._data import scratch as data_scratch
    from benchmarks._data import stress_package

    root = stress_package(args.rows)
    with data_scratch("stalls") as into:
        baseline = baseline_package(root, args.rows, into) if "compare" in groups else None
        measure(args, groups, root, baseline)


def measure(args: argparse.Namespace, groups: set[str], root: Path, baseline: Path | None) -> None:
    from benchmarks._measure import Unmeasured, load_average
    from benchmarks._window import WindowDriver

    app = QApplication.instance() or QApplication([])
    meter = StallMeter(app)
    scratch = Path(tempfile.mkdtemp(prefix="aa-review-stalls-"))
    # The dossier's keys and witnessed journal heads go to this run's folder, not the user's.
    os.environ["AA_REVIEW_DATA_DIR"] = str(scratch / "data")
    try:
        settings = QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("audit/auto", "false")
        drv = WindowDriver(app, settings, scratch)
        idle = meter.measure(lambda: None, lambda: True, settle=1.0)
        report("idle window", [idle], [load_average()], [idle[0]])
        runs: dict[str, list[tuple[float, float, float]]] = {}
        loads: dict[str, list[float]] = {}
        idles: dict[str, list[float]] = {}
        holders = GilHolders(lambda: meter.ticks[-1]) if args.sample else None

        def run(name: str, start: Callable[[], None], done: Callable[[], bool]) -> None:
            # The idle window's longest gap just before the action: the same run's
            # yardstick for what the machine's load alone does to a tick.
            quiet = meter.measure(lambda: None, lambda: True, settle=IDLE_S)[0]
            try:
                if holders is not None:
                    holders.start()
                r = meter.measure(start, done, timeout=args.timeout)
            except TimeoutError:
                raise Unmeasured(f"{name}: did not finish within {args.timeout:g} s") from None
            finally:
                if holders is not None:
                    holders.stop()
            print(
                f"  {name}: longest {r[0]:.1f} ms, p99 {r[1]:.1f} ms, idle {quiet:.1f} ms, "
                f"{r[2]:.2f} s",
                flush=True,
            )
            if holders is not None:
                holders.show()
            runs.setdefault(name, []).append(r)
            loads.setdefault(name, []).append(load_average())
            idles.setdefault(name, []).append(quiet)

        if "dossier" in groups:
            print("preparing the dossier workspace bound to the stress package…", flush=True)
            drv.prepare_workspace(root)
        for _ in range(args.repeat):
            drv.close_package()
            if "package" in groups:
                run(f"open the {args.rows:,}-row package", lambda: drv.open(root), drv.opened)
                run("audit it in the window", drv.audit, drv.audited)
                run("type a rows query", drv.type_query, drv.query_typed)
                run("select a row", drv.select_row, drv.row_shown)
                run("select an evidence item", drv.select_evidence, drv.idle)
                run("select a finding", drv.select_finding, drv.idle)
            else:  # unmeasured
                meter.measure(lambda: drv.open(root), drv.opened, timeout=args.timeout)
            if baseline is not None:
                drv.clear_query()
                run("compare with a baseline", lambda: drv.compare(baseline), drv.compared)
                run("select a changed row", drv.select_changed_row, drv.changed_row_shown)
                run("type a change: query", drv.type_change_query, drv.change_query_typed)
                run("close the baseline", drv.close_baseline, drv.baseline_closed)
            if "dossier" in groups:
                drv.reset_workspace()
                run("show the Dossier tab", drv.show_dossier, drv.dossier_shown)
                run("bind (as the research lead)", drv.bind, drv.bound)
                run("change the acting principal", drv.change_actor, drv.dossier_idle)
                run("run the independent check", drv.check, drv.checked)
        print()
        for name, r in runs.items():
            report(name, r, loads[name], idles[name])
        VERDICTS.show()
        drv.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
