"""Query speed in the core (no Qt): each query over ``--rows`` synthetic rows, as ratios.

    python -m benchmarks.bench_query [--rows 1000000]

Goal: under 50 ms per query, half of the 100 ms the window's filter-and-repaint
goal allows (``bench ui`` measures the repaint). Covers what the language added:
OR, parentheses, NOT, wildcards on ids, and the precision rule for numbers.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchmarks._measure import Verdicts, load_average, spread
from benchmarks._synthetic import FakePackage, synthetic_index

QUERIES = [
    "type:environment_response_pair confidence<0.7",
    "type:environment_response_pair OR (confidence < 0.5 quality>=0.9)",
    "NOT (type:*_event OR evidence.visibility:hidden_excluded)",
    "confidence>=0.93",
    "evidence<40 -type:failure_case",
    '"0000000000000abc"',
    "id:*_event_*abc",
]
GOAL_MS = 50.0


def main() -> None:
    from aa_review.core.query import RowsScope

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    args = ap.parse_args()
    index, catalog = synthetic_index(args.rows)
    index.row_id_folded()  # the loader does this once, off the GUI thread
    scope = RowsScope(FakePackage(index, catalog))  # type: ignore[arg-type]
    verdicts = Verdicts()  # printed once every query was measured
    for q in QUERIES:
        scope.filter(q)
        samples = []
        for _ in range(7):
            t = time.perf_counter()
            scope.filter(q)
            samples.append(time.perf_counter() - t)
        ms = statistics.median(samples) * 1000
        ratio = ms / GOAL_MS
        print(
            f"{q[:56]:<58}{ms:>9.2f} ms  goal {GOAL_MS:g} ms  ratio {ratio:6.3f} "
            f"({spread(samples, 1000, 'ms')}; load {load_average():.1f})"
        )
        verdicts.add(q[:56], ratio <= 1)
    verdicts.show()


if __name__ == "__main__":
    main()
