"""Opening a package: index build against a like-for-like parse floor, resident memory, first rows.

    python -m benchmarks.bench_load [--rows 100000] [--repeat 3] [--degenerate] [--million]

On the varied stress package (``--degenerate``: every row alike, a labelled extra).
Figures, each with its yardstick measured in this run:

* index build (``open_package``) against the **parse floor**: the same bytes the loader
  reads (every line of the 23 row files, parsed with orjson and given a 64-bit digest,
  and the evidence map's header and catalog), split into the loader's byte ranges on
  the same number of spawned worker processes, started inside the timing as the
  loader starts its own. Best of ``--repeat`` for both, in turns. Goal <= 1.0x.
* memory, in a fresh process: resident memory (RSS) of the process tree at its peak
  while opening (worker processes included) and retained after it, beside the Python
  heap (tracemalloc), against the package's bytes. Goal: retained <= 10 %.
* first rows (the core's partial index) and first rows painted (the window, offscreen,
  in a subprocess, with the window's resident memory before and after). Goal <= 1 s.
* row <-> evidence lookups, mean of 1,000. Goal < 1 ms.
* ``--million``: a 1,000,000-row *lean* package (only what opening reads; a full one
  would take about 70 GB) opened in a subprocess: time, and peak RSS of the tree
  against a 2 GB goal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import _floors
from benchmarks._data import add_data_arguments, stress_package
from benchmarks._measure import Report, Row, Timing, Unmeasured, in_turns, verdict


def package_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def parse_floor(root: Path, workers: int) -> None:
    from aa_review.core.package import loader
    from aa_review.core.package.layout import ROW_FILES

    ranges = _floors.row_ranges(str(root), [rel for rel, _ in ROW_FILES], loader.CHUNK)
    jobs = [(_floors.parse_rows, *r) for r in ranges]
    jobs.append((_floors.map_header, str(root / "experience_compiler/source_evidence_map.json")))
    if sum(end - start for _, start, end in ranges) < loader.PARALLEL_MIN_BYTES:
        for fn, *a in jobs:  # the loader reads a small package in its own process too
            fn(*a)
    else:
        _floors.run_pool(workers, jobs)


def lookups(pkg) -> float:  # type: ignore[no-untyped-def]
    ix = pkg.index
    n = len(ix)
    rows = [int(i) for i in range(0, n, max(1, n // 1000))][:1000]
    t = time.perf_counter()
    for r in rows:
        ev = ix.evidence_of_row(r)
        rs = ix.rows_citing(int(ev[0]))
        len(rs)
        ix.find_row(ix.row_id_str(r))
    return (time.perf_counter() - t) / len(rows)


def first_rows(root: Path) -> float:
    from aa_review.core.package import open_package

    seen: list[float] = []
    t = time.perf_counter()
    open_package(root, on_partial=lambda _ix: seen.append(time.perf_counter() - t))
    if not seen:
        raise Unmeasured("first rows: opening gave no partial index")
    return seen[0]


MEMORY = """
import gc, json, sys, time, tracemalloc
from benchmarks._measure import TreePeak, trim, tree_rss
import psutil
if __name__ == "__main__":
    from aa_review.core.package import open_package
    import aa_review.core.package.loader  # imports aside
    me = psutil.Process()
    trim()
    before = tree_rss(me)
    t = time.perf_counter()
    with TreePeak() as peak:
        pkg = open_package(sys.argv[1])
    seconds = time.perf_counter() - t
    trim()
    after = tree_rss(me)
    tracemalloc.start()
    heap0 = tracemalloc.get_traced_memory()[0]
    pkg2 = open_package(sys.argv[1])
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0] - heap0
    print(json.dumps({"rows": len(pkg.index), "seconds": seconds, "before": before,
                      "peak": peak.bytes, "retained": after - before, "heap": heap}))
"""


def memory(root: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", MEMORY, str(root)],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=Path(__file__).resolve().parents[1],
    )
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


FIRST_PAINT = """
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import psutil
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from aa_review.qt.app import create_window
from benchmarks._measure import tree_rss, trim
me = psutil.Process()
w = create_window(QSettings(sys.argv[2], QSettings.Format.IniFormat))
w.show()
app.processEvents()
trim()
before = tree_rss(me)
t = time.perf_counter()
state = {"first": None}
w.open_package(sys.argv[1])
def loaded():  # the whole package in the session and in the rows table
    pkg = w.session.package
    return (pkg is not None and not w.controller.busy("load")
            and w.rows.model.row_index is pkg.index)
def poll():
    if state["first"] is None and w.rows.model.rowCount() > 0:
        w.rows.view.viewport().grab()
        state["first"] = time.perf_counter() - t
    if state["first"] is not None and loaded():
        app.processEvents()
        trim()
        print(state["first"], before, tree_rss(me), flush=True)
        app.quit()
timer = QTimer(); timer.timeout.connect(poll); timer.start(5)
app.exec()
"""


def first_paint(root: Path) -> tuple[float, int, int]:
    """The window's first rows painted (s) and its resident memory before and after; the
    window's settings in a folder of its own (not in ``bench-data/``). Unmeasured when
    the window process did not report them."""
    with tempfile.TemporaryDirectory(prefix="aa-review-load-") as tmp:
        out = subprocess.run(
            [sys.executable, "-c", FIRST_PAINT, str(root), str(Path(tmp) / "settings.ini")],
            capture_output=True,
            text=True,
            timeout=1200,
            cwd=Path(__file__).resolve().parents[1],
        )
    try:
        first, before, after = out.stdout.strip().splitlines()[-1].split()
        return float(first), int(before), int(after)
    except (ValueError, IndexError):
        raise Unmeasured(
            f"first rows painted: the window reported nothing (exit {out.returncode}): "
            f"{out.stderr[-2000:]}"
        ) from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--million", action="store_true", help="also the 1,000,000-row package")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-window", action="store_true", help="no window (Qt) figures")
    add_data_arguments(ap)
    args = ap.parse_args()
    from aa_review.core.package import open_package

    root = stress_package(args.rows, varied=not args.degenerate)
    size = package_bytes(root)
    rep = Report(
        f"load: {root.name} ({args.rows:,} rows, {size / 1e9:.2f} GB on disk"
        f"{', degenerate: every row alike' if args.degenerate else ', varied'})"
    )
    workers = min(4, os.cpu_count() or 1)  # what the loader uses
    t = in_turns(
        args.repeat,
        {"index": lambda: open_package(root), "floor": lambda: parse_floor(root, workers)},
    )
    ratio = t["index"].best / t["floor"].best
    rep.add(
        Row(
            "index build (open_package)",
            f"{t['index'].best:.2f} s",
            f"parse floor {t['floor'].best:.2f} s (same bytes, {workers} processes; "
            f"{t['floor'].spread()})",
            ratio,
            "<= 1.0x",
            verdict(ratio, 1.0),
            spread=t["index"].spread(),
        )
    )
    m = memory(root)
    rep.add(
        Row(
            "memory retained after opening, resident (process tree)",
            f"{m['retained'] / 1e6:.0f} MB",
            f"package bytes {size / 1e9:.2f} GB",
            m["retained"] / size,
            "<= 10%",
            verdict(m["retained"] / size, 0.10),
        )
    )
    rep.add(
        Row(
            "memory retained after opening, Python heap (tracemalloc)",
            f"{m['heap'] / 1e6:.0f} MB",
            f"package bytes {size / 1e9:.2f} GB",
            m["heap"] / size,
            "<= 10%",
            verdict(m["heap"] / size, 0.10),
        )
    )
    rep.add(
        Row(
            "peak resident memory while opening (process tree, workers included)",
            f"{m['peak'] / 1e6:.0f} MB",
            f"before opening {m['before'] / 1e6:.0f} MB",
            m["peak"] / max(1, m["before"]),
        )
    )
    firsts = Timing([first_rows(root) for _ in range(max(1, args.repeat))])
    fr = firsts.best
    rep.add(
        Row(
            "first rows (core partial index)",
            f"{fr * 1000:.0f} ms",
            "goal 1 s",
            fr,
            "<= 1 s",
            verdict(fr, 1.0),
            spread=firsts.spread(1000, "ms", 0),
        )
    )
    if not args.skip_window:
        paints = [first_paint(root) for _ in range(max(1, args.repeat))]
        painted = Timing([p[0] for p in paints])
        paint, before, after = min(paints)
        rep.add(
            Row(
                "first rows painted (window, offscreen)",
                f"{paint * 1000:.0f} ms",
                "goal 1 s",
                paint,
                "<= 1 s",
                verdict(paint, 1.0),
                spread=painted.spread(1000, "ms", 0),
            )
        )
        rep.add(
            Row(
                "window resident memory, before and after opening",
                f"{after / 1e6:.0f} MB",
                f"before {before / 1e6:.0f} MB",
                after / max(1, before),
            )
        )
    pkg = open_package(root)
    lk = lookups(pkg) * 1000
    rep.add(
        Row(
            "row <-> evidence lookup (mean of 1,000)",
            f"{lk:.3f} ms",
            "goal 1 ms",
            lk,
            "< 1 ms",
            verdict(lk, 1.0),
        )
    )
    rep.note(
        f"{len(pkg.index.sets):,} distinct evidence sets over {len(pkg.index):,} rows, "
        f"catalog of {len(pkg.catalog)} items"
    )
    if args.million:
        big = stress_package(1_000_000, lean=True, varied=not args.degenerate)
        mm = memory(big)
        rep.add(
            Row(
                f"1,000,000-row lean package ({package_bytes(big) / 1e9:.1f} GB): peak "
                "resident memory while opening (tree)",
                f"{mm['peak'] / 2**30:.2f} GiB",
                "goal 2 GB",
                mm["peak"] / 2e9,
                "< 2 GB",
                verdict(mm["peak"] / 2e9, 1.0),
            )
        )
        rep.add(
            Row(
                "1,000,000-row lean package: time to open",
                f"{mm['seconds']:.1f} s",
                "100,000-row index build x 10",
                mm["seconds"] / (10 * t["index"].best),
            )
        )
    rep.table()


if __name__ == "__main__":
    main()
