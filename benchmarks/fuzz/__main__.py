"""``./dev fuzz`` (``python -m benchmarks.fuzz``): the hostile-package campaign.

Mutants: copies of a generated package, each changed by one operator of every class
in turn (FIFO, socket, unreadable file, long path, symlink swaps, deep nesting, huge
integers, NaN, a huge header string, long components, non-UTF-8 names, a corrupt
artifacts_index.json, an edited manifest, injected rows, ...) plus up to two random
others. Each is run through ``aa-review info --json`` and ``audit --json`` in a fresh
process with a timeout: no traceback, no hang, exit codes 0, 1 or 2 only, JSON
output, and no file outside the package opened (the descriptors' real paths, an
audit hook, and ``strace -f`` of the process and its workers when installed).

Then the symlink-swap race: loads (and audits) of one package while a thread swaps
its files for symlinks to outside files and back; no outside content may be read.

    ./dev fuzz [--mutants 1000] [--race 10000] [--seed 1] [--jobs 2] [--timeout 180]

``./dev fuzz dossier [--mutants N] [--seed S]`` runs the readiness-dossier mutation
campaign instead (:mod:`benchmarks.fuzz._dossier`).
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.fuzz._mutants import CLASSES, OPERATORS, apply, plant_bait
from benchmarks.fuzz._race import race

ROOT = Path(__file__).resolve().parents[2]
_STRACE_FD = re.compile(r"= \d+<([^>]*)>")


def _mutant(i: int, base: Path, work: Path, seed: int) -> tuple[Path, list[str]]:
    rng = random.Random(seed * 1_000_003 + i)
    names = sorted(OPERATORS)
    ops = [names[i % len(names)], *rng.sample(names, rng.randint(0, 2))]
    here = work / f"m{i:05d}"
    shutil.rmtree(here, ignore_errors=True)
    here.mkdir(parents=True)
    root = here / base.name
    shutil.copytree(base, root, symlinks=True)
    outside = plant_bait(here / "outside")
    done = []
    for name in ops:
        try:
            root, what = apply(root, name, rng, outside)
            done.append(f"{name}: {what}")
        except (OSError, ValueError) as exc:  # an operator that found nothing to change
            done.append(f"{name}: not applied ({exc})")
    return root, done


def _strace_outside(log: Path, root: str, here: Path) -> list[str]:
    bad = []
    inside = root + os.sep
    for line in log.read_text(errors="replace").splitlines():
        for raw in _STRACE_FD.findall(line):  # strace escapes bytes as \ooo
            path = os.fsdecode(codecs.escape_decode(raw.encode("latin-1"))[0])
            if path == root or path.startswith(inside):
                continue
            if path.startswith((str(here) + os.sep, "/etc/passwd")):
                bad.append(path)
    return bad


def _batch(
    ids: list[int], base: Path, work: Path, args: argparse.Namespace
) -> list[dict[str, object]]:
    """Make the mutants ``ids`` and run them through one runner process (the interpreter
    starts once); a mutant that gives no result within the timeout is a hang: the
    process is killed and the rest of the batch goes on in a new one."""
    made = {i: _mutant(i, base, work, args.seed) for i in ids}
    entries = {i: {"mutant": i, "ops": made[i][1], "failures": []} for i in ids}
    todo = list(ids)
    while todo:
        batch_no = todo[0]
        log = work / f"strace.{batch_no}.log"
        cmd = [sys.executable, "-m", "benchmarks.fuzz._run"]
        use_strace = (
            bool(args.strace)
            and (batch_no // args.batch) % args.strace == 0
            and shutil.which("strace") is not None
        )
        if use_strace:
            cmd = [
                "strace",
                "-f",
                "-qq",
                "-y",
                "-e",
                "trace=open,openat,openat2",
                "-o",
                str(log),
                *cmd,
            ]
        proc = subprocess.Popen(
            cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(
            target=lambda: [lines.put(ln) for ln in proc.stdout],  # type: ignore  # noqa: B023 - runs within this iteration
            daemon=True,
        ).start()
        threading.Thread(target=proc.stderr.read, daemon=True).start()  # type: ignore[union-attr]
        assert proc.stdin is not None
        proc.stdin.write(b"".join(os.fsencode(made[i][0]) + b"\n" for i in todo))
        proc.stdin.close()
        while todo:
            i = todo[0]
            t0 = time.perf_counter()
            try:
                while True:
                    line = lines.get(timeout=args.timeout)
                    if line.startswith(b"{"):
                        break
            except queue.Empty:
                entries[i]["failures"] = [f"hang: no result within {args.timeout} s"]
                entries[i]["seconds"] = args.timeout
                todo.pop(0)
                proc.kill()
                break
            res = json.loads(line)
            entries[i].update(
                info=res["info"],
                audit=res["audit"],
                failures=res["failures"],
                seconds=round(time.perf_counter() - t0, 2),
            )
            todo.pop(0)
        else:
            code = proc.wait()
            if code != 0:
                entries[ids[-1]]["failures"].append(f"runner exit {code}")  # type: ignore
        proc.wait()
        if use_strace:
            for i in ids:
                root, here = os.path.realpath(made[i][0]), os.path.realpath(made[i][0].parent)
                entries[i]["failures"] += [  # type: ignore[operator]
                    f"opened outside (strace): {p}" for p in _strace_outside(log, root, Path(here))
                ]
            log.unlink(missing_ok=True)
    for i in ids:
        if not entries[i]["failures"] and not args.keep:
            shutil.rmtree(made[i][0].parent, ignore_errors=True)
    return [entries[i] for i in ids]


def main() -> None:
    if sys.argv[1:2] == ["dossier"]:  # the readiness-dossier mutation campaign
        from benchmarks.fuzz._dossier import main as dossier_main

        sys.exit(dossier_main(sys.argv[2:]))
    ap = argparse.ArgumentParser(prog="./dev fuzz", description=__doc__.split("\n\n")[1])
    ap.add_argument("--mutants", type=int, default=1000)
    ap.add_argument("--race", type=int, default=10000, help="loads under the swapping race")
    ap.add_argument(
        "--race-audit-every",
        type=int,
        default=100,
        help="also audit every N-th load of the race (0: never)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rows", type=int, default=40)
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds one mutant may take")
    ap.add_argument("--batch", type=int, default=20, help="mutants per runner process")
    ap.add_argument(
        "--strace",
        type=int,
        default=3,
        metavar="N",
        help="run every N-th batch under strace -f (0: never; 1: all, slower)",
    )
    ap.add_argument("--keep", action="store_true", help="keep every mutant, not only failing ones")
    ap.add_argument("--work", type=Path, default=ROOT / "bench-data" / "fuzz")
    args = ap.parse_args()
    from aa_review.generator import generate_package

    work = args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    base = generate_package(work / "base", rows=args.rows, seed=args.seed).root
    traced = f"every {args.strace}. batch" if args.strace and shutil.which("strace") else "off"
    print(
        f"fuzz: {args.mutants} mutants of {base.name} ({len(OPERATORS)} operators in "
        f"{len(set(CLASSES.values()))} classes), {args.jobs} at a time, strace {traced}",
        flush=True,
    )
    t0 = time.perf_counter()
    results: list[dict[str, object]] = []
    batches = [
        list(range(k, min(k + args.batch, args.mutants)))
        for k in range(0, args.mutants, args.batch)
    ]
    with ThreadPoolExecutor(args.jobs) as pool:
        done = (
            e for b in pool.map(lambda ids: _batch(ids, base, work / "m", args), batches) for e in b
        )
        for n, entry in enumerate(done, 1):
            results.append(entry)
            with open(work / "mutants.jsonl", "a") as log:
                log.write(json.dumps(entry) + "\n")
            if entry["failures"]:
                print(f"FAIL mutant {entry['mutant']}: {entry['ops']}", flush=True)
                for f in entry["failures"][:5]:  # type: ignore[index]
                    print("   ", str(f)[:2000], flush=True)
            if n % 50 == 0:
                print(
                    f"fuzz: {n}/{args.mutants} mutants, {time.perf_counter() - t0:.0f} s",
                    flush=True,
                )
    failed = [r for r in results if r["failures"]]
    codes = Counter((r.get("info"), r.get("audit")) for r in results)
    applied = Counter(
        str(op).split(":")[0]
        for r in results
        for op in r["ops"]  # type: ignore
        if "not applied" not in str(op)
    )
    by_class = Counter(CLASSES[name] for name in applied.elements())
    slowest = max((float(r["seconds"]) for r in results), default=0.0)  # type: ignore[arg-type]
    print(
        f"\nmutants: {len(results)}, failing: {len(failed)}, "
        f"seconds: {time.perf_counter() - t0:.0f} (slowest mutant {slowest:.1f} s)"
    )
    print(
        "exit codes (info, audit): "
        + ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str))
    )
    print("operator classes applied: " + ", ".join(f"{k} {v}" for k, v in sorted(by_class.items())))
    race_ok = True
    if args.race:
        rwork = work / "race"
        rbase = generate_package(rwork / "pkg", rows=args.rows, seed=args.seed + 1).root
        t1 = time.perf_counter()
        r = race(rbase, rwork, args.race, audit_every=args.race_audit_every)
        race_ok = not r.outside_opens and not r.bait_seen
        print(
            f"race: {r.loads} loads ({r.audits} with an audit), {r.swaps} swaps, "
            f"{r.saw_link} loads found a swapped file (refused and reported), "
            f"{len(r.outside_opens)} opens outside, {len(r.bait_seen)} with outside "
            f"content; {time.perf_counter() - t1:.0f} s"
        )
    summary = {
        "mutants": len(results),
        "failing": len(failed),
        "exit_codes": {str(k): v for k, v in codes.items()},
        "classes": dict(by_class),
        "failures": failed[:50],
    }
    (work / "summary.json").write_text(json.dumps(summary, indent=2))
    sys.exit(0 if not failed and race_ok else 1)


if __name__ == "__main__":
    main()
