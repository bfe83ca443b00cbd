"""Loading speed and memory, as ratios measured in the same run.

    python -m benchmarks.bench_load [--rows 100000] [--million]

Figures: index build time against the "parse floor" (orjson.loads of every line of
the 23 row files plus the whole source_evidence_map.json, results discarded; goal
ratio <= 1.0), memory retained after loading against the package's bytes (goal
<= 10%), time to the first rows (core partial index; and the window's first paint
offscreen; goal <= 1 s), row <-> evidence lookups (goal < 1 ms). ``--million`` also
opens a 1,000,000-row package in a subprocess and reports its peak memory (goal < 2 GB);
that package is lean (only what opening reads: a full one would take about 70 GB).
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import orjson

from benchmarks._data import stress_package


def package_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def parse_floor(root: Path) -> tuple[float, int]:
    from aa_review.core.package.layout import ROW_FILES

    t = time.perf_counter()
    nbytes = 0
    for rel, _ in ROW_FILES:
        p = root / rel
        if p.exists():
            with open(p, "rb") as fh:
                for line in fh:
                    orjson.loads(line)
                    nbytes += len(line)
    data = (root / "experience_compiler/source_evidence_map.json").read_bytes()
    nbytes += len(data)
    orjson.loads(data)
    del data
    return time.perf_counter() - t, nbytes


def best_of(n: int, fn):  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


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
    return seen[0] if seen else float("nan")


FIRST_PAINT = """
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from aa_review.qt.app import create_window
w = create_window(QSettings(sys.argv[2], QSettings.Format.IniFormat))
w.show()
app.processEvents()
t = time.perf_counter()
w.open_package(sys.argv[1])
def poll():
    if w.rows.model.rowCount() > 0:
        w.rows.view.viewport().grab()
        print(time.perf_counter() - t, flush=True)
        w.loader.cancel()
        app.quit()
timer = QTimer(); timer.timeout.connect(poll); timer.start(5)
app.exec()
"""


def first_paint(root: Path) -> float:
    out = subprocess.run([sys.executable, "-c", FIRST_PAINT, str(root),
                          str(root.parent / "bench-settings.ini")],
                         capture_output=True, text=True, timeout=600)
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print(out.stderr[-2000:], file=sys.stderr)
        return float("nan")


PEAK = """
import sys
from aa_review.core.package import open_package
if __name__ == "__main__":
    pkg = open_package(sys.argv[1])
    with open("/proc/self/status") as fh:
        peak = next(int(l.split()[1]) for l in fh if l.startswith("VmHWM"))
    print(len(pkg.index), peak * 1024)
"""


def report(name: str, value: float, goal: float, unit: str, lower_is_better: bool = True) -> None:
    ratio = value / goal
    ok = ratio <= 1.0 if lower_is_better else ratio >= 1.0
    print(f"{name:<44}{value:>12.4g} {unit:<4} goal {goal:g} {unit:<4} ratio {ratio:6.3f} "
          f"{'ok' if ok else 'MISSED'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--million", action="store_true", help="also the 1,000,000-row package")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from aa_review.core.package import open_package

    root = stress_package(args.rows)
    size = package_bytes(root)
    print(f"package {root.name}: {args.rows:,} rows, {size / 1e9:.2f} GB on disk")
    floor = min(parse_floor(root)[0] for _ in range(args.repeat))
    index = best_of(args.repeat, lambda: open_package(root))
    print(f"parse floor {floor:.3f} s, index build {index:.3f} s")
    report("index build / parse floor", index / floor, 1.0, "x")
    gc.collect()
    tracemalloc.start()
    pkg = open_package(root)
    gc.collect()
    retained = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    report("memory retained / package bytes", retained / size, 0.10, "")
    report("first rows (core partial index)", first_rows(root), 1.0, "s")
    report("first rows painted (window, offscreen)", first_paint(root), 1.0, "s")
    report("row<->evidence lookup (mean)", lookups(pkg) * 1000, 1.0, "ms")
    if args.million:
        big = stress_package(1_000_000, lean=True)
        out = subprocess.run([sys.executable, "-c", PEAK, str(big)], capture_output=True,
                             text=True, timeout=3600)
        rows, peak = map(int, out.stdout.split())
        print(f"package {big.name}: {rows:,} rows, {package_bytes(big) / 1e9:.1f} GB")
        report("1M rows: peak memory while opening", peak / 2**30, 2.0, "GiB")


if __name__ == "__main__":
    main()
