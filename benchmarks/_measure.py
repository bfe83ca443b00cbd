"""Timing and memory helpers shared by the benchmarks: like for like, in turns, best of N.

Every figure is a ratio to a yardstick measured in the same run. Both are timed the
same number of times, taking turns (A B A B ...), and the best of each is compared:
on a machine others use too, the best run is the one least disturbed, and turns give
both the same share of the disturbance. Memory is resident memory (RSS) of the whole
process tree (a process and its worker processes), beside the Python heap.

A figure that could not be measured (NaN, infinite, or no ratio at all) is an error,
not a result: :meth:`Report.add` raises :class:`Unmeasured`, the benchmark stops with a
non-zero exit and prints no verdict. Verdicts are printed only in the final table, once
every figure was measured; each figure carries its spread over the runs (min / median /
max) and the load average when it was taken.
"""

from __future__ import annotations

import gc
import math
import os
import re
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import psutil

__all__ = [
    "Unmeasured",
    "Timing",
    "in_turns",
    "commands_in_turns",
    "TreePeak",
    "tree_rss",
    "verdict",
    "trim",
    "Row",
    "Report",
    "spread",
    "measured",
    "finite",
    "load_average",
    "Verdicts",
]


class Unmeasured(Exception):
    """A figure could not be measured: the benchmark fails (exit 1) and judges nothing."""


@dataclass
class Timing:
    """Every run's seconds of one contender."""

    runs: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        return min(self.runs)

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def spread(self, scale: float = 1.0, unit: str = "s", digits: int = 2) -> str:
        """``min / median / max`` of the runs (times ``scale``, in ``unit``) and how many."""
        return spread(self.runs, scale, unit, digits)


def spread(runs: Sequence[float], scale: float = 1.0, unit: str = "s", digits: int = 2) -> str:
    """``min a / median b / max c unit, n runs`` of ``runs``; Unmeasured if there is none
    or one is not a finite number."""
    values = [float(r) * scale for r in runs]
    if not values or not all(math.isfinite(v) for v in values):
        raise Unmeasured(f"runs {list(runs)!r} hold no measured figure")
    if len(values) == 1:
        return f"one run: {values[0]:.{digits}f} {unit}"
    lo, mid, hi = min(values), statistics.median(values), max(values)
    d = digits
    return f"min {lo:.{d}f} / median {mid:.{d}f} / max {hi:.{d}f} {unit}, {len(values)} runs"


def finite(value: float | None, figure: str) -> float:
    """``value`` when it is a finite number; else :class:`Unmeasured` (for benchmarks that
    print their own lines instead of a :class:`Report`)."""
    if value is None or not math.isfinite(value):
        raise Unmeasured(f"{figure}: not measured ({value!r})")
    return value


def load_average() -> float:
    """The 1-minute load average of the machine, now."""
    return os.getloadavg()[0]


def in_turns(
    repeat: int, contenders: dict[str, Callable[[], object]], warmup: bool = True
) -> dict[str, Timing]:
    """Time each contender ``repeat`` times, in turns; one untimed warm-up round first
    (page cache, imports) unless ``warmup`` is False."""
    out = {name: Timing() for name in contenders}
    if warmup:
        for fn in contenders.values():
            fn()
    for _ in range(max(1, repeat)):
        for name, fn in contenders.items():
            gc.collect()
            t = time.perf_counter()
            fn()
            out[name].runs.append(time.perf_counter() - t)
    return out


def commands_in_turns(
    repeat: int, commands: dict[str, Sequence[str]], *, shell: bool = False, timeout: float = 3600
) -> dict[str, Timing]:
    """Whole commands (fresh processes), in turns, after one warm-up round each; output
    discarded. A command that fails stops the benchmark with its error."""

    def run(cmd: Sequence[str]) -> None:
        proc = subprocess.run(
            cmd if not shell else cmd[0],
            shell=shell,
            timeout=timeout,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if proc.returncode not in (0, 1):  # 1: aa-review found something; still ran
            raise SystemExit(f"{cmd!r} failed ({proc.returncode}): {proc.stderr[-500:]!r}")

    return in_turns(repeat, {name: (lambda c=cmd: run(c)) for name, cmd in commands.items()})


def tree_rss(proc: psutil.Process) -> int:
    """Resident bytes of ``proc`` and all its descendants (worker processes included)."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


class TreePeak:
    """Samples the resident memory of a process tree every ``interval`` seconds in a
    thread, keeping the peak (``with TreePeak() as peak: ...; peak.bytes``)."""

    def __init__(self, pid: int | None = None, interval: float = 0.01) -> None:
        self.proc = psutil.Process(pid or os.getpid())
        self.interval = interval
        self.bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.bytes = max(self.bytes, tree_rss(self.proc))
            self._stop.wait(self.interval)

    def __enter__(self) -> TreePeak:
        self.bytes = tree_rss(self.proc)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.bytes = max(self.bytes, tree_rss(self.proc))


def trim() -> None:
    """Give freed heap back to the system, so resident memory counts what is retained."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def verdict(
    ratio: float, goal: float, *, higher_is_better: bool = False, yardstick_ok: bool = True
) -> str:
    """``met``, ``missed``, or ``inconclusive`` when the yardstick does not itself show
    the effect it is meant to measure (then no figure can be judged against it)."""
    if not yardstick_ok:
        return "inconclusive"
    ok = ratio >= goal if higher_is_better else ratio <= goal
    return "met" if ok else "missed"


@dataclass
class Row:
    """One printed figure: what, its value, its yardstick, the ratio, the goal, the verdict,
    the spread of the value over the runs (see :func:`spread`; empty: a single measurement)
    and the load average when it was added (filled by :meth:`Report.add`)."""

    figure: str
    value: str
    yardstick: str
    ratio: float | None = None
    goal: str = ""
    verdict: str = ""
    spread: str = ""
    load: float | None = None


_NOT_A_NUMBER = re.compile(r"\b(nan|inf)\b", re.IGNORECASE)


def measured(row: Row) -> None:
    """Raise :class:`Unmeasured` unless ``row`` holds a measured figure: a finite ratio,
    and no NaN or infinity in its value or yardstick."""
    if row.ratio is None or not math.isfinite(row.ratio):
        raise Unmeasured(f"{row.figure}: no measured ratio ({row.ratio!r}; value {row.value})")
    for text in (row.value, row.yardstick, row.spread):
        if _NOT_A_NUMBER.search(text):
            raise Unmeasured(f"{row.figure}: not measured ({text})")


class Verdicts:
    """The verdicts of a benchmark that prints a line per figure, held back until every
    figure was measured: each line is printed without one, and :meth:`show` (the
    benchmark's last step) prints them all; a figure not measured stops the benchmark
    before it, so nothing is judged."""

    def __init__(self) -> None:
        self.items: list[tuple[str, bool]] = []

    def add(self, figure: str, ok: bool) -> None:
        self.items.append((figure, ok))

    def show(self) -> None:
        print("\nverdicts (every figure above was measured):")
        for figure, ok in self.items:
            print(f"  {figure}: {'ok' if ok else 'MISSED'}")
        print(flush=True)


class Report:
    """Prints figures as they come (without verdicts), and at the end a Markdown table
    with the verdicts; a figure that was not measured stops it (:class:`Unmeasured`)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[Row] = []
        print(
            f"== {title}  (machine: {os.cpu_count()} logical CPUs, load {load_average():.1f})",
            flush=True,
        )

    def add(self, row: Row) -> None:
        measured(row)
        row.load = load_average()
        self.rows.append(row)
        print(
            f"  {row.figure}: {row.value} ({row.spread or 'one measurement'})  |  yardstick: "
            f"{row.yardstick}  |  ratio {row.ratio:.2f}  goal {row.goal or '-'}"
            f"  (load {row.load:.1f})",
            flush=True,
        )

    def note(self, text: str) -> None:
        print(f"  note: {text}", flush=True)

    def table(self) -> None:
        print(f"\n{self.title} (load average at the end {load_average():.1f})\n")
        print(
            "| figure | value | spread over runs | yardstick (same run) | ratio | goal | load "
            "| verdict |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for r in self.rows:
            print(
                f"| {r.figure} | {r.value} | {r.spread or 'one measurement'} | {r.yardstick} "
                f"| {r.ratio:.2f} | {r.goal} | {r.load:.1f} | {r.verdict} |"
            )
        print(flush=True)
