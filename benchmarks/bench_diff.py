"""Diff and fingerprint speed and memory, as ratios measured in the same run.

    python -m benchmarks.bench_diff [--rows 100000] [--repeat 3] [--full]

Two generated packages of ``--rows`` rows that differ in 1% of the rows (0.5% changed,
0.25% added, 0.25% removed) and 5 evidence items (2 rehashed, 1 hidden while cited,
1 ref rewritten, 1 removed). Figures, each against a yardstick measured in this run,
best of ``--repeat`` for both, taken in turns:

- diff / index build: opening both packages (both index builds) and diffing them,
  as ``aa-review diff`` does, against opening one package. Goal <= 2x.
- memory retained: resident and Python heap (tracemalloc) after the diff, against
  one opened package; measured in fresh processes. Goal <= 2x. The diff is what a
  diff keeps (the command's result once the packages are closed); with both packages
  still open it is shown too, for information.
- fingerprint / index build: the fingerprint of an opened package. Goal < 10%.

The packages are lean by default (only what opening reads; the same rows, catalog
and links as full ones, see ``aa-review generate --lean``); ``--full`` uses full ones.
The changed copy is made for the run in a scratch folder and removed after it (copied,
not hard-linked: a hard link would change the source package's files for later runs).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from benchmarks._data import changed_package, scratch, stress_package
from benchmarks._measure import Verdicts, in_turns, load_average

SPEC = {
    "evidence_rehashed": 2,
    "evidence_hidden": 1,
    "evidence_ref_rewritten": 1,
    "evidence_removed": 1,
}


def best_of(n: int, fn: Callable[[], object]) -> float:
    """The best of ``n`` timed runs of ``fn`` (no warm-up round)."""
    return in_turns(n, {"run": fn}, warmup=False)["run"].best


def changed_copy(src: Path, rows: int, into: Path) -> Path:
    """The derived package, made in ``into`` for this run (copied, never hard-linked to
    the source: see :func:`benchmarks._data.changed_package`)."""
    return changed_package(
        src,
        into,
        seed=1,
        rows_changed=rows // 200,
        rows_added=rows // 400,
        rows_removed=rows // 400,
        **SPEC,
    )


MEMORY = """
import gc, json, sys, tracemalloc
from pathlib import Path

def rss():
    # Freed heap the allocator keeps is not retained by anything: give it back first.
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096

if __name__ == "__main__":
    mode, what, a, b = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
    from aa_review.core.diff import diff, open_pair
    from aa_review.core.package import open_package
    import aa_review.core.diff._rowdetail, aa_review.core.package.loader  # imports aside
    gc.collect()
    if what == "heap":
        tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0] if what == "heap" else rss()
    if mode == "one":
        kept = open_package(a)
    else:
        old, new = open_pair(a, b)
        kept = diff(old, new)
        if mode == "diff+packages":
            kept = (kept, old, new)
        else:
            del old, new
    gc.collect()
    after = tracemalloc.get_traced_memory()[0] if what == "heap" else rss()
    print(after - before)
"""


def memory(mode: str, a: Path, b: Path) -> dict[str, int]:
    """Retained bytes: resident (a run without tracing, which costs memory of its own) and
    Python heap (tracemalloc, numpy arrays included), each in a fresh process."""
    out: dict[str, int] = {}
    for what in ("rss", "heap"):
        run = subprocess.run(
            [sys.executable, "-c", MEMORY, mode, what, str(a), str(b)],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if run.returncode:
            print(run.stderr[-2000:], file=sys.stderr)
            raise SystemExit(2)
        out[what] = int(run.stdout.strip().splitlines()[-1])
    return out


VERDICTS = Verdicts()  # printed once every figure was measured


def report(name: str, value: float, goal: float, unit: str = "x") -> None:
    from benchmarks._measure import finite

    ratio = finite(value, name) / goal  # a figure not measured fails the benchmark
    print(f"{name:<58}{value:>9.3f} {unit:<2} goal {goal:g} {unit:<2} ratio {ratio:6.3f}")
    VERDICTS.add(name, ratio <= 1.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--full", action="store_true", help="full packages instead of lean ones")
    args = ap.parse_args()
    a = stress_package(args.rows, lean=not args.full)
    with scratch("diff") as tmp:
        measure(args, a, changed_copy(a, args.rows, tmp))


def measure(args: argparse.Namespace, a: Path, b: Path) -> None:
    from aa_review.core.diff import diff, fingerprint, open_pair
    from aa_review.core.package import open_package

    print(f"packages {a.name} and its changed copy: {args.rows:,} rows")
    result = {}

    def run_diff() -> None:
        old, new = open_pair(a, b)
        result["diff"] = diff(old, new)

    # Interleaved, so that both see the same share of a machine others use too.
    t = in_turns(args.repeat, {"index": lambda: open_package(a), "both": run_diff}, warmup=False)
    index, both = t["index"].best, t["both"].best
    print(
        f"runs: index build {t['index'].spread()}; open both + diff {t['both'].spread()} "
        f"(load {load_average():.1f})"
    )
    serial = best_of(1, lambda: diff(open_package(a), open_package(b)))
    pkg = open_package(a)
    fp = best_of(max(args.repeat, 5), lambda: fingerprint(pkg))
    d = result["diff"]
    lv = d.levels()
    print(
        f"index build {index:.3f} s; open both + diff {both:.3f} s (opened one after the "
        f"other: {serial:.3f} s); fingerprint {fp * 1000:.1f} ms"
    )
    print(
        f"found: {len(d.rows.changed)} changed, {len(d.rows.added)} added, "
        f"{len(d.rows.removed)} removed rows; {len(d.evidence)} evidence changes; "
        f"{len(d.links.rows):,} rows cite changed evidence; levels {lv}"
    )
    report("diff of two packages (both index builds) / index build", both / index, 2.0)
    report("fingerprint / index build", fp / index, 0.10)
    one = memory("one", a, b)
    alone = memory("diff", a, b)
    held = memory("diff+packages", a, b)
    print(
        f"retained: one package {one['rss'] / 2**20:.1f} MB resident, {one['heap'] / 2**20:.1f}"
        f" MB heap; the diff {alone['rss'] / 2**20:.1f} / {alone['heap'] / 2**20:.1f} MB; "
        f"the diff with both packages still open {held['rss'] / 2**20:.1f} / "
        f"{held['heap'] / 2**20:.1f} MB"
    )
    report("memory retained by the diff / one package (resident)", alone["rss"] / one["rss"], 2.0)
    report("memory retained by the diff / one package (heap)", alone["heap"] / one["heap"], 2.0)
    print(
        f"the diff with both packages still open / one package: {held['rss'] / one['rss']:.2f}x "
        f"resident, {held['heap'] / one['heap']:.2f}x heap (two packages are 2x by themselves: "
        "the window's compare mode would hold both)"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        fingerprint(pkg).save(Path(tmp) / "fp.npz")
        size = (Path(tmp) / "fp.npz").stat().st_size
    print(f"fingerprint file: {size / 2**20:.2f} MB for {len(pkg.index):,} rows")
    VERDICTS.show()


if __name__ == "__main__":
    main()
