"""``python -m benchmarks NAME [ARGS]`` (or ``./dev bench NAME``): run one benchmark.

Without NAME, list them. Each benchmark must leave ``bench-data/`` as it found it (the
names, sizes, modification times and link counts of its files, compared before and
after; new cached data sets may be added) and must measure every figure it reports: a
benchmark that changed the data, or that could not measure a figure, exits with 1.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from benchmarks._data import data_changes, data_listing
from benchmarks._measure import Unmeasured


def main() -> int:
    names = sorted(
        m.name[len("bench_") :]
        for m in pkgutil.iter_modules([str(Path(__file__).parent)])
        if m.name.startswith("bench_")
    )
    if len(sys.argv) < 2 or sys.argv[1] not in names:
        print(
            "usage: python -m benchmarks NAME [ARGS]   (NAME: " + ", ".join(names) + ")",
            file=sys.stderr,
        )
        for name in names:
            doc = (importlib.import_module(f"benchmarks.bench_{name}").__doc__ or "").strip()
            print(f"  {name:<8} {doc.splitlines()[0] if doc else ''}")
        return 2
    name = sys.argv.pop(1)
    sys.argv[0] = f"benchmarks.bench_{name}"
    return run(name, importlib.import_module(f"benchmarks.bench_{name}").main)


def run(name: str, bench: Callable[[], object]) -> int:
    """Run one benchmark's ``main``, checking ``bench-data/`` before and after; 1 when the
    data changed or a figure was not measured (NaN, infinity, or a measurement that
    raised: its traceback is printed, then the failure, never a verdict)."""
    before = data_listing()
    failed: str | None = None
    try:
        bench()
    except Unmeasured as exc:
        failed = f"a figure could not be measured: {exc}"
    except Exception as exc:  # noqa: BLE001 - a measurement that raised measured nothing
        traceback.print_exc()
        failed = f"a figure could not be measured: the measurement raised {exc!r}"
    finally:
        changes = data_changes(before, data_listing())
        if changes:
            shown = "\n  ".join(changes[:20])
            more = f"\n  ... and {len(changes) - 20} more" if len(changes) > 20 else ""
            print(f"bench {name} FAILED: it changed bench-data/:\n  {shown}{more}", file=sys.stderr)
    if failed:
        print(f"bench {name} FAILED, no verdict: {failed}", file=sys.stderr)
    return 1 if changes or failed else 0


if __name__ == "__main__":
    sys.exit(main())
