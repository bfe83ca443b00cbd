"""The streaming evidence-map reader: peak memory and time on maps of hundreds of MB.

    python -m benchmarks.bench_jsonstream [--mb 300]

Three maps are written once into bench-data/ (git-ignored): a valid one of ``--mb``
megabytes (the catalog and the links of a generated package, links repeated with
unique row ids), the same map broken near its start (a stray byte in the first
link), and a map whose header holds one string of that size. Each is read in a
fresh process by ``ObjectStream`` the way opening and auditing read it (header and
catalog, then every link streamed), and the process reports its peak resident
memory (``VmHWM``) above what it held before reading, and the time taken. The
reader's promise is memory bounded by the largest value it accepts, not by the file:
the figures show it against the file's size. With ``--before REV`` the reader of
that git revision is measured too (the hand-written one before this version took
421 MB and 9.5 s on a 206 MB map broken near its start).
"""

from __future__ import annotations

import argparse
import ast
import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks._data import bench_dir

_CHILD = r"""
import sys, time, importlib.util
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
path, module = sys.argv[1], sys.argv[2]
if module == "current":
    from aa_review.core.package.jsonstream import ObjectStream
else:
    spec = importlib.util.spec_from_file_location("old_jsonstream", module)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    ObjectStream = mod.ObjectStream
from aa_review.core.util.errors import RecordError
before = hwm()
t = time.perf_counter()
links = catalog = 0
error = None
try:
    with open(path, "rb") as fh:
        kwargs = {"max_value": 16 << 20} if module == "current" else {}
        for key, value in ObjectStream(fh, "map", **kwargs).items(
                frozenset({"evidence_catalog", "row_evidence_links"})):
            if key == "evidence_catalog":
                catalog = sum(1 for _ in value)
            elif key == "row_evidence_links":
                links = sum(1 for _ in value)
except RecordError as exc:
    error = str(exc)[:120]
print({"seconds": time.perf_counter() - t, "peak": hwm() - before, "links": links,
       "catalog": catalog, "error": error})
"""


def _maps(mb: int) -> dict[str, Path]:
    """The three maps, written once per size."""
    d = bench_dir() / f"jsonstream_{mb}mb"
    out = {
        "valid": d / "valid.json",
        "broken near start": d / "broken.json",
        "one huge header string": d / "header_string.json",
    }
    if all(p.exists() for p in out.values()):
        return out
    d.mkdir(parents=True, exist_ok=True)
    print(f"writing {mb} MB maps into {d} (first run only)…", flush=True)
    if not out["valid"].exists():
        _write_valid(out["valid"], d, mb)
    data = out["valid"].read_bytes()
    at = data.index(b"{", data.index(b'"row_evidence_links"'))  # the first link
    at = data.index(b"{", at + 1)  # the second: a stray byte where it starts
    out["broken near start"].write_bytes(data[:at] + b"@" + data[at + 1 :])
    del data
    with open(out["one huge header string"], "w") as fh:
        fh.write('{\n  "schema_version": "')
        chunk = "a" * (1 << 20)
        for _ in range(mb):
            fh.write(chunk)
        fh.write('",\n  "row_evidence_links": []\n}\n')
    return out


def _write_valid(path: Path, d: Path, mb: int) -> None:
    from aa_review.generator import generate_package

    g = generate_package(d / "src", rows=200, seed=3)
    doc = json.loads((g.root / "experience_compiler/source_evidence_map.json").read_bytes())
    links = doc.pop("row_evidence_links")
    tail = {
        k: doc.pop(k)
        for k in list(doc)
        if k not in ("schema_version", "source_package_id", "source_task_id", "evidence_catalog")
    }
    head = json.dumps(doc, indent=2)[:-2]
    target = mb << 20
    with open(path, "w") as fh:
        fh.write(head + ',\n  "row_evidence_links": [\n')
        n = written = 0
        while written < target:
            link = dict(links[n % len(links)], row_id=f"row_bench_{n}")
            line = ("    " if n == 0 else ",\n    ") + json.dumps(link)
            fh.write(line)
            written += len(line)
            n += 1
        fh.write("\n  ],\n" + json.dumps(tail, indent=2)[2:] + "\n")


def _measure(path: Path, module: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), module],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0:
        return {"failed": proc.stderr.strip().splitlines()[-1] if proc.stderr else "?"}
    return ast.literal_eval(proc.stdout.strip().splitlines()[-1])  # the child prints a dict


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=300, help="size of the maps (MB)")
    ap.add_argument("--before", metavar="REV", help="also measure the reader of this revision")
    args = ap.parse_args()
    maps = _maps(args.mb)
    readers = {"current": "current"}
    if args.before:
        # The old reader in a folder of this run, not in bench-data/ (left as found).
        here = tempfile.mkdtemp(prefix="aa-review-jsonstream-")
        atexit.register(shutil.rmtree, here, True)
        old = Path(here) / f"jsonstream_{args.before}.py"
        src = subprocess.run(
            ["git", "show", f"{args.before}:aa_review/core/package/jsonstream.py"],
            capture_output=True,
            text=True,
            check=True,
        )
        old.write_text(src.stdout)
        readers[args.before] = str(old)
    print(f"{'map':<24}{'reader':<10}{'size':>9}{'peak memory':>14}{'ratio':>8}{'time':>9}  result")
    for label, path in maps.items():
        size = path.stat().st_size
        for name, module in readers.items():
            r = _measure(path, module)
            if "failed" in r:
                print(f"{label:<24}{name:<10}{size / 1e6:>7.0f} MB  failed: {r['failed']}")
                continue
            peak = int(r["peak"])  # type: ignore[call-overload]
            what = r["error"] or f"{r['links']:,} links, {r['catalog']} catalog entries"
            print(
                f"{label:<24}{name:<10}{size / 1e6:>7.0f} MB{peak / 1e6:>11.1f} MB"
                f"{peak / size:>8.3f}{float(r['seconds']):>8.1f} s  {what}",
                flush=True,
            )


if __name__ == "__main__":
    main()
