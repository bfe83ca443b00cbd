"""Audit speed, as ratios measured in the same run on the same machine.

    python -m benchmarks.bench_audit [--evidence-mb 256] [--rows 20000] [--packages 40]
                                     [--only hash|audit|corpus]

Figures (each printed with its ratio and the goal):

* **hash**: catalog hash verification (the ``hashes`` check: every catalogued file read
  in 1 MiB chunks in threads, hashed the compiler's text way) against plain
  ``hashlib.sha256`` of the same bytes in one thread. Goal: >= 70 %.
* **audit**: a full audit of an opened generated package against ``open_package`` of
  it; also open + audit (what ``aa-review audit PATH`` does). Goal: <= 1.5x. Also a
  floor no audit can beat on the machine: every row parsed and its bytes hashed, every
  distinct file hashed once, on all cores (see :func:`audit_floor`).
* **corpus**: ``audit_corpus`` of N small packages on all cores against one worker,
  compared with the speedup a pure-CPU loop gets on the same machine in the same run.
  Goal: >= 80 % of it.

The issue's sizes are ``--evidence-mb 1024`` (1 GB of evidence files),
``--rows 100000`` (the 100,000-row package; generated once, about 7 GB on disk with
every copy the compiler writes) and ``--packages 2000``. The defaults run in a few
minutes. Generated data is cached under ``bench-data/`` (``AA_REVIEW_BENCH_DIR``).
Timings are the best of ``--repeat`` runs; other load on the machine shows in them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks._data import bench_dir, stress_package


def best_of(n: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(max(1, n)):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def line(label: str, value: str, ratio: float | None = None, goal: str = "") -> None:
    tail = f"  ratio {ratio:.2f}" if ratio is not None else ""
    print(f"  {label:<44}{value:>16}{tail}{'  (goal ' + goal + ')' if goal else ''}", flush=True)


# -- hash verification --------------------------------------------------------------
def evidence_package(total_mb: int) -> tuple[Path, list[Path]]:
    """A small generated package plus ``total_mb`` of catalogued evidence files."""
    from aa_review.core.package import derive
    from aa_review.generator import generate_package

    pid = f"pkg_evidence_{total_mb}mb_v2"
    root = bench_dir() / pid
    done = bench_dir() / f".{pid}.complete"
    bulk = root / "input" / "bulk"
    if not done.exists():
        print(f"generating {pid} (first run only)...", flush=True)
        if root.exists():
            shutil.rmtree(root)
        generate_package(bench_dir(), rows=60, seed=3, package_id=pid)
        bulk.mkdir(parents=True)
        rnd = random.Random(7)
        words = [f"{w}" for w in ("invoice", "payment", "vendor", "USD", "EUR", "matched",
                                  "exception", "total", "rate", "2026-01-31", "4512.20")]
        left, i, entries = total_mb * 1_000_000, 0, []
        while left > 0:
            size = min(left, rnd.randint(200_000, 1_900_000))
            nl = "\r\n" if i % 50 == 49 else "\n"  # a few CRLF files: the text-mode path
            text_lines, n = [], 0
            while n < size:
                s = ",".join(rnd.choice(words) for _ in range(12)) + nl
                text_lines.append(s)
                n += len(s)
            data = "".join(text_lines).encode("ascii")
            ref = f"input/bulk/evidence_{i:05d}.csv"
            (root / ref).write_bytes(data)
            entries.append({"evidence_id": derive.evidence_id(ref), "ref": ref,
                            "evidence_type": "package_file", "visibility": "visible",
                            "resolves": True, "content_hash": derive.content_hash_bytes(data),
                            "confidence": 1.0})
            left -= len(data)
            i += 1
        map_path = root / "experience_compiler" / "source_evidence_map.json"
        doc = json.loads(map_path.read_text())
        doc["evidence_catalog"] += entries
        map_path.write_text(json.dumps(doc, indent=2))
        done.write_text("ok\n")
    return root, sorted(bulk.iterdir())


def bench_hash(args: argparse.Namespace) -> None:
    from aa_review.core.audits import audit_package
    from aa_review.core.package import open_package

    print(f"hash verification ({args.evidence_mb} MB of evidence files)")
    root, files = evidence_package(args.evidence_mb)
    nbytes = sum(p.stat().st_size for p in files)
    everything = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())

    def raw() -> None:
        for p in files:
            with open(p, "rb") as fh:
                hashlib.sha256(fh.read()).hexdigest()

    for p in files:  # page cache warm for both
        p.read_bytes()
    pkg = open_package(root)
    t_raw = best_of(args.repeat, raw)
    reports = []
    catalog_hash_codes = ["hash.changed", "hash.missing", "hash.unhashable",
                          "hash.not_recorded", "hash.malformed", "hash.unreadable"]
    t_check = best_of(args.repeat, lambda: reports.append(
        audit_package(pkg, checks=catalog_hash_codes, digest=False)))
    bad = [f.code for f in reports[-1].findings if not f.quirk]
    assert not bad, f"the benchmark package should verify clean: {bad[:3]}"
    raw_mbs = nbytes / t_raw / 1e6
    check_mbs = everything / t_check / 1e6
    line("raw hashlib.sha256, 1 thread", f"{raw_mbs:,.0f} MB/s")
    line("hash verification (audit, text-mode, threads)", f"{check_mbs:,.0f} MB/s",
         check_mbs / raw_mbs, ">= 0.70")


# -- full audit -----------------------------------------------------------------------
def _floor_rows(path: str, offsets: list[int], lengths: list[int]) -> int:
    """Less than a row pass must do per row: parse it and hash as many bytes as its content
    hash covers (the row's own bytes stand in for the sorted JSON it must write first)."""
    import mmap

    import orjson

    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for off, n in zip(offsets, lengths):
            raw = mm[off:off + n]
            orjson.loads(raw)
            hashlib.sha256(raw).digest()
    return len(offsets)


def _floor_hash(path: str) -> int:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return 0


def audit_floor(pkg, distinct: list[Path], workers: int) -> float:  # type: ignore[no-untyped-def]
    """A floor for any full audit, on all cores: every row parsed and its bytes hashed once
    (its content hash, less the sorted JSON it hashes), and every distinct file's bytes
    hashed once (the digest). The audit does that and more (rules, privacy, links, the
    map, every check), so no audit on this machine can be faster."""
    ix = pkg.index
    jobs = []
    for code, rel in enumerate(ix.files):
        sel = (ix.file == code).nonzero()[0]
        for part in [sel[i:i + 4000] for i in range(0, len(sel), 4000)]:
            jobs.append((_floor_rows, str(pkg.root / rel), ix.offset[part].tolist(),
                         ix.length[part].tolist()))
    jobs += [(_floor_hash, str(p)) for p in sorted(distinct, key=lambda p: -p.stat().st_size)]
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        list(pool.map(_burn, [1] * workers))  # workers started before the clock runs
        t = time.perf_counter()
        for fut in [pool.submit(fn, *a) for fn, *a in jobs]:
            fut.result()
        return time.perf_counter() - t


def bench_audit(args: argparse.Namespace) -> None:
    from aa_review.core.audits import audit_package
    from aa_review.core.audits._files import hash_package
    from aa_review.core.audits._mapscan import scan_map
    from aa_review.core.package import open_package

    print(f"full audit of a {args.rows:,}-row generated package")
    root = stress_package(args.rows)
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    open_package(root)  # page cache warm
    holder: dict[str, object] = {}
    t_open = best_of(args.repeat, lambda: holder.update(pkg=open_package(root)))
    pkg = holder["pkg"]
    row_bytes = int(pkg.index.length.sum())  # type: ignore[attr-defined]
    line("package on disk / row files", f"{size / 1e9:.2f} / {row_bytes / 1e9:.2f} GB")
    t_audit = best_of(args.repeat, lambda: holder.update(r=audit_package(pkg)))
    report = holder["r"]
    assert all(f.quirk for f in report.findings), "the stress package should audit clean"  # type: ignore[attr-defined]
    t_nodigest = best_of(args.repeat, lambda: audit_package(pkg, digest=False, checks=[
        "input", "refs", "links", "counts", "rows", "privacy", "contracts", "quirks"]))
    hashes = hash_package(root)
    t_hash = best_of(1, lambda: hash_package(root))
    t_map = best_of(1, lambda: scan_map(pkg.safe))  # type: ignore[attr-defined]
    distinct = [root / rel for rel, f in hashes.files.items() if f.same_as is None]
    t_floor = best_of(1, lambda: audit_floor(pkg, distinct, os.cpu_count() or 1))
    line("open_package", f"{t_open:.2f} s")
    line("audit of the opened package", f"{t_audit:.2f} s", t_audit / t_open, "<= 1.5")
    line("open + audit (aa-review audit PATH)", f"{t_open + t_audit:.2f} s",
         (t_open + t_audit) / t_open)
    line("  of which: hashing every file (digest)", f"{t_hash:.2f} s", t_hash / t_open)
    line(f"    ({hashes.compared / 1e9:.1f} of {hashes.nbytes / 1e9:.1f} GB identical to "
         "another file: compared, not hashed)", "")
    line("  of which: evidence-map links", f"{t_map:.2f} s", t_map / t_open)
    line("  audit without the digest and file checks", f"{t_nodigest:.2f} s",
         t_nodigest / t_open)
    line("floor: parse + SHA-256 of every row, SHA-256", f"{t_floor:.2f} s", t_floor / t_open)
    line("  of every distinct file, on all cores", "")
    line("audit / floor", f"{t_audit / t_floor:.2f}x")


# -- corpus -----------------------------------------------------------------------------
def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i % 7
    return s


def corpus(count: int, rows: int) -> Path:
    from aa_review.generator import generate_package

    d = bench_dir() / f"corpus_{count}x{rows}"
    done = bench_dir() / f".corpus_{count}x{rows}.complete"
    if not done.exists():
        print(f"generating {count} packages (first run only)...", flush=True)
        if d.exists():
            shutil.rmtree(d)
        for i in range(count):
            generate_package(d, rows=rows, seed=1000 + i, package_id=f"pkg_c{i:05d}")
        done.write_text("ok\n")
    return d


def bench_corpus(args: argparse.Namespace) -> None:
    from aa_review.core.audits import audit_corpus

    n = args.workers or os.cpu_count() or 1
    print(f"corpus of {args.packages} packages of {args.corpus_rows} rows, {n} workers")
    folder = corpus(args.packages, args.corpus_rows)
    t1 = best_of(args.repeat, lambda: audit_corpus(folder, workers=1))
    tn = best_of(args.repeat, lambda: audit_corpus(folder, workers=n))
    probe = best_of(3, lambda: _burn(1_000_000))
    per_task = max(1000, int(1_000_000 * (t1 / args.packages) / probe))  # ~ one audit's CPU
    tasks = [per_task] * args.packages

    def serial() -> None:
        for k in tasks:
            _burn(k)

    def parallel() -> None:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(n, mp_context=ctx) as pool:
            list(pool.map(_burn, tasks))

    c1 = best_of(args.repeat, serial)
    cn = best_of(args.repeat, parallel)
    audit_speedup, cpu_speedup = t1 / tn, c1 / cn
    line("audit_corpus, 1 worker", f"{t1:.2f} s")
    line(f"audit_corpus, {n} workers", f"{tn:.2f} s")
    line("audit speedup", f"{audit_speedup:.2f}x")
    line("pure-CPU loop speedup (same tasks, same pool)", f"{cpu_speedup:.2f}x")
    line("audit speedup / CPU-loop speedup", f"{audit_speedup / cpu_speedup:.0%}",
         audit_speedup / cpu_speedup, ">= 0.80")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--evidence-mb", type=int, default=256)
    p.add_argument("--rows", type=int, default=20_000)
    p.add_argument("--packages", type=int, default=40)
    p.add_argument("--corpus-rows", type=int, default=60)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--only", choices=["hash", "audit", "corpus"])
    args = p.parse_args()
    print(f"machine: {os.cpu_count()} logical CPUs, load {os.getloadavg()[0]:.1f}")
    for name, fn in (("hash", bench_hash), ("audit", bench_audit), ("corpus", bench_corpus)):
        if args.only in (None, name):
            fn(args)


if __name__ == "__main__":
    main()
