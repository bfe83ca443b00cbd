"""``./dev fuzz dossier``: the long mutation campaign over the readiness dossier.

Mutants of the spec-written dossier and archive (``tests/core/conformance/mutations.py``):
first the representative per-field walk (every field shape deleted, set null, emptied,
retyped), then the rest of the full walk (every field of every record), then random
one-to-three-edit mutants, each re-sealed so that only the semantic change remains.
Each runs through the headless ``Workspace`` (import, bind, check, decide, project,
verify the journal) and is judged by the invariants; the summary gives, per
invariant, the mutants it judged and its violations, each violation with its mutation
and its result. Exit 1 on any violation.

    ./dev fuzz dossier [--mutants 5000] [--seed 1] [--random-share 0.4] [--jobs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "core" / "conformance"


def _import_mutations() -> Any:
    """The generator lives with the conformance tests (they import it as a top-level module)."""
    if str(CONFORMANCE) not in sys.path:
        sys.path.insert(0, str(CONFORMANCE))
    import mutations

    return mutations


@cache
def plan(n: int, seed: int, random_share: float) -> list[Any]:
    """The ``n`` mutants of a campaign, in order (deterministic for a seed)."""
    mu = _import_mutations()
    walk_n = max(0, n - round(n * random_share))
    chosen = list(mu.field_mutations(representative=True))
    seen = {str(m) for m in chosen}
    rest = [m for m in mu.field_mutations() if str(m) not in seen]
    room = walk_n - len(chosen)
    if room > 0 and rest:
        stride = max(1, len(rest) / room)
        chosen += [rest[int(i * stride)] for i in range(min(room, len(rest)))]
    chosen = chosen[:walk_n]
    rng = random.Random(seed)
    chosen += [mu.random_mutation(rng) for _ in range(n - len(chosen))]
    return chosen


def _judged(mu: Any, m: Any, o: Any) -> set[str]:
    """The invariants that apply to a mutant (each judges the mutants it speaks of)."""
    out = {"I2_result_never_exception", "I5_journal_and_projection"}
    if o.record is not None or o.refused:
        out.add("I4_codes_are_spec_codes")
    if len(m.changes) == 1:
        need = mu.need_of(m.changes[0])
        if need is not None and mu.is_absent(m, need):
            out |= {"I1_required_absent_never_eligible", "I3_absent_is_unknown_missing"}
    if m.kind == "retype":
        out.add("I6_wrong_type_refused")
    return out


def _run_batch(args: tuple[list[int], int, int, float, str]) -> list[dict[str, Any]]:
    ids, n, seed, share, work = args
    mu = _import_mutations()
    mutants = plan(n, seed, share)
    rows = []
    for i in ids:
        m = mutants[i]
        t0 = time.perf_counter()
        o = mu.run_mutation(m, Path(work))
        found = mu.violations(m, o)
        rows.append(
            {
                "i": i,
                "kind": m.kind,
                "mutation": str(m),
                "pattern": ";".join(f"{c.place}:{c.shape}" for c in m.changes),
                "judged": sorted(_judged(mu, m, o)),
                "violations": [{"invariant": inv, "what": msg} for inv, msg in found],
                "result": o.summary(),
                "error": o.error,
                "seconds": round(time.perf_counter() - t0, 4),
            }
        )
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="./dev fuzz dossier", description=__doc__.split("\n\n")[1])
    ap.add_argument("--mutants", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-share", type=float, default=0.4, help="share of random mutants")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--work", type=Path, default=ROOT / "bench-data" / "fuzz-dossier")
    args = ap.parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    # Keys and witnessed journal heads of the mutants' workspaces: never the user's own.
    os.environ.setdefault("AA_REVIEW_DATA_DIR", tempfile.mkdtemp(prefix="data-", dir=work))
    mu = _import_mutations()
    parent = mu.scratch_parent()
    scratch = Path(tempfile.mkdtemp(prefix="aa-review-mutants-", dir=parent or work))
    mutants = plan(args.mutants, args.seed, args.random_share)
    kinds = Counter(m.kind for m in mutants)
    print(
        f"fuzz dossier: {len(mutants)} mutants ("
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        + f"), seed {args.seed}, {args.jobs} at a time",
        flush=True,
    )
    t0 = time.perf_counter()
    step = 50
    batches = [
        (
            list(range(k, min(k + step, len(mutants)))),
            args.mutants,
            args.seed,
            args.random_share,
            str(scratch),
        )
        for k in range(0, len(mutants), step)
    ]
    rows: list[dict[str, Any]] = []
    log = work / "mutants.jsonl"
    log.unlink(missing_ok=True)
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else _Inline() as pool:
        for batch in pool.map(_run_batch, batches):
            rows += batch
            with open(log, "a", encoding="utf-8") as f:
                for r in batch:
                    f.write(json.dumps(r) + "\n")
            print(
                f"  {len(rows)}/{len(mutants)} mutants, {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
    seconds = time.perf_counter() - t0
    shutil.rmtree(scratch, ignore_errors=True)
    judged: Counter[str] = Counter(inv for r in rows for inv in r["judged"])
    bad: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        for v in r["violations"]:
            bad[v["invariant"]].append(r | {"what": v["what"]})
    classes: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for inv, rs in bad.items():
        for r in rs:
            classes[(inv, r["what"].split(" (")[0].split(" with ")[0], r["pattern"])].append(r)
    print()
    for inv in mu.INVARIANTS:
        print(f"{inv}: {judged[inv]} mutants judged, {len(bad[inv])} violations")
        for r in bad[inv]:
            print(
                f"    {r['what']}\n      mutant {r['i']}: {r['mutation']}\n      -> {r['result']}"
            )
    print(
        f"\nmutants: {len(rows)} ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}), "
        f"seconds: {seconds:.0f}, violating mutants: {sum(1 for r in rows if r['violations'])}, "
        f"violations: {sum(len(v) for v in bad.values())} in {len(classes)} classes"
    )
    summary = {
        "mutants": len(rows),
        "kinds": dict(kinds),
        "seed": args.seed,
        "seconds": round(seconds, 1),
        "judged": dict(judged),
        "violations": {inv: len(rs) for inv, rs in bad.items() if rs},
        "classes": [
            {
                "invariant": k[0],
                "what": k[1],
                "where": k[2],
                "count": len(v),
                "example": v[0]["mutation"],
                "result": v[0]["result"],
            }
            for k, v in sorted(classes.items())
        ],
    }
    (work / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 1 if any(bad.values()) else 0


class _Inline:
    """``map`` in this process (``--jobs 1``), shaped like an executor."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, items: list[Any]) -> Any:
        return map(fn, items)
