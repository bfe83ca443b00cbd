"""Peers side by side: aa-review against DuckDB, jq, sha256sum and plain Python loops.

    python -m benchmarks.bench_peers [--rows 100000] [--repeat 5] [--degenerate]

Whole commands, each in a fresh process, on the same package in the same run, taking
turns (A B A B ...) after a warm-up round (page cache warm, the hash cache of
``aa-review info`` filled as from a user's second run on); best of ``--repeat`` for
each, and the ratio aa-review / peer (below 1: aa-review is ahead). Goal: ahead of each
peer on the work both do.

* counting rows by data type over the 23 row files: ``aa-review info PKG --json``
  (which also prints identity, the digest and validated link counts) against
  DuckDB (``read_json_auto`` with ``GROUP BY data_type``, the ``duckdb`` Python
  package), jq (``jq -r .data_type FILES | sort | uniq -c``; skipped when jq is not
  installed) and a one-process orjson loop;
* hashing the catalogued evidence files: ``aa-review audit PKG --check`` on the catalog
  hash codes (the files, their catalog hashes checked) against ``sha256sum`` and a plain
  ``hashlib`` loop over the same files; and ``--check hashes`` (which also reads every
  row, for the rows' ``source_content_hashes``) beside it.

The interpreter's own start (``python -c pass``) and ``aa-review --version`` are shown
too: a command that does little work is mostly its start.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from benchmarks._data import add_data_arguments, stress_package
from benchmarks._measure import Report, Row, commands_in_turns, verdict

DUCKDB = """
import sys, duckdb
files = sys.argv[1:]
con = duckdb.connect()
rows = con.execute("SELECT data_type, count(*) FROM read_json_auto(?, "
                   "format='newline_delimited') GROUP BY 1 ORDER BY 1", [files]).fetchall()
print(rows)
"""

ORJSON = """
import sys, orjson
from collections import Counter
c = Counter()
for f in sys.argv[1:]:
    with open(f, "rb") as fh:
        for line in fh:
            if line.strip():
                c[orjson.loads(line).get("data_type")] += 1
print(dict(c))
"""

HASHLIB = """
import hashlib, sys
for f in sys.argv[1:]:
    h = hashlib.sha256()
    with open(f, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    print(h.hexdigest(), f)
"""

CATALOG_HASH_CODES = [
    "hash.changed",
    "hash.missing",
    "hash.unhashable",
    "hash.not_recorded",
    "hash.malformed",
    "hash.unreadable",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    add_data_arguments(ap)
    args = ap.parse_args()
    from aa_review.core.package import open_package
    from aa_review.core.package.layout import ROW_FILES
    from benchmarks.bench_audit import catalogued_files

    root = stress_package(args.rows, varied=not args.degenerate)
    row_files = [str(root / rel) for rel, _ in ROW_FILES if (root / rel).exists()]
    row_mb = sum(Path(f).stat().st_size for f in row_files) / 1e6
    evidence = [str(p) for p in catalogued_files(open_package(root))]
    ev_mb = sum(Path(f).stat().st_size for f in evidence) / 1e6
    py = sys.executable
    aa = [py, "-m", "aa_review"]
    rep = Report(
        f"peers: {root.name} ({args.rows:,} rows; {len(row_files)} row files, "
        f"{row_mb:,.0f} MB; {len(evidence)} catalogued files, {ev_mb:,.1f} MB)"
    )
    start = commands_in_turns(
        args.repeat, {"python": [py, "-c", "pass"], "version": [*aa, "--version"]}
    )
    rep.note(
        f"start-up: python -c pass {start['python'].best:.2f} s, aa-review --version "
        f"{start['version'].best:.2f} s"
    )

    counting = {
        "info": [*aa, "info", str(root), "--json"],
        "duckdb": [py, "-c", DUCKDB, *row_files],
        "orjson": [py, "-c", ORJSON, *row_files],
    }
    jq = shutil.which("jq")
    if jq:
        quoted = " ".join(f"'{f}'" for f in row_files)
        counting["jq"] = [f"{jq} -r .data_type {quoted} | sort | uniq -c"]
    t = commands_in_turns(args.repeat, {k: v for k, v in counting.items() if k != "jq"})
    if jq:
        t.update(commands_in_turns(args.repeat, {"jq": counting["jq"]}, shell=True))
    else:
        rep.note("jq is not installed: its pairing is skipped (apt-get install jq)")
    info = t["info"].best
    for peer, label in (
        ("duckdb", "DuckDB read_json_auto, GROUP BY data_type"),
        ("jq", "jq -r .data_type | sort | uniq -c"),
        ("orjson", "a one-process orjson loop, Counter by data_type"),
    ):
        if peer in t:
            r = info / t[peer].best
            rep.add(
                Row(
                    f"aa-review info (rows by data type, identity, digest, links) / {peer}",
                    f"{info:.2f} s",
                    f"{label}: {t[peer].best:.2f} s",
                    r,
                    "< 1 (ahead)",
                    verdict(r, 1.0),
                    spread=f"{t['info'].spread()}; {peer} {t[peer].spread()}",
                )
            )

    hashing = {
        "audit": [*aa, "audit", str(root), "--json", "--check", *CATALOG_HASH_CODES],
        "hashes": [*aa, "audit", str(root), "--json", "--check", "hashes"],
        "sha256sum": ["sha256sum", *evidence],
        "hashlib": [py, "-c", HASHLIB, *evidence],
    }
    t = commands_in_turns(args.repeat, hashing)
    for peer, label in (
        ("sha256sum", "sha256sum of the same files"),
        ("hashlib", "a one-process hashlib loop over them"),
    ):
        for mine, what in (
            ("audit", "audit --check <catalog hash codes>"),
            ("hashes", "audit --check hashes (also reads every row)"),
        ):
            r = t[mine].best / t[peer].best
            rep.add(
                Row(
                    f"aa-review {what} / {peer}",
                    f"{t[mine].best:.2f} s",
                    f"{label}: {t[peer].best:.2f} s",
                    r,
                    "< 1 (ahead)",
                    verdict(r, 1.0),
                    spread=f"{t[mine].spread()}; {peer} {t[peer].spread()}",
                )
            )
    rep.table()


if __name__ == "__main__":
    main()
