"""``aa-review info PACKAGE``: identity and counts of a package."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, open_or_exit

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "info",
        help="print a package's identity and counts",
        description="Print a package's identity (ids, schema versions, digest) "
        "and counts. Reads every row (to count them) and the evidence map's "
        "links (to count and validate them). The digest takes each file's "
        "SHA-256 from a cache in the user's cache folder when the file's "
        "device, inode, size and times are unchanged, and hashes the others: "
        "fast, but no protection against tampering (restored times pass); "
        "--verify, every audit and the dossier re-hash every byte. Exit 0: "
        "everything read cleanly; 1: something could not be read or parsed "
        "(each problem named with its file and line); 2: not a package or "
        "unreadable.",
    )
    p.add_argument("package", help="package folder (the one holding experience_compiler/)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument(
        "--verify",
        action="store_true",
        help="hash every file's bytes for the digest, ignoring the cache (and refreshing it)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from aa_review.core.package.hashcache import HashCache
    from aa_review.core.package.loader import count_rows
    from aa_review.core.package.summary import count_links_now, summary

    # The rows are only counted (in worker processes), and the map's links are counted
    # here meanwhile: the two biggest reads overlap.
    links: list[Callable[[], int]] = []
    opened = open_or_exit(
        args.package,
        lambda p: count_rows(p, meanwhile=lambda pkg: links.append(count_links_now(pkg))),
    )
    if opened is None:
        return EXIT_UNUSABLE
    pkg, rows = opened
    cache = HashCache(pkg.root)
    if args.verify:
        cache.clear()  # every file is hashed again, and remembered afresh
    doc = summary(pkg, cache=cache, counted=links[0], rows=rows)
    if args.json:
        emit_json(doc)
    else:
        _print_text(doc)
    # Anything that could not be read or parsed (loading, links, digest) is a problem.
    return EXIT_FINDINGS if doc["problems"] else EXIT_OK


def _print_text(doc: dict[str, Any]) -> None:
    ident, counts = doc["identity"], doc["counts"]
    print(
        f"package   {ident['package_id']}  (task {ident['task_id']}, "
        f"format {ident['format_version']})"
    )
    for k, v in ident["schema_versions"].items():
        print(f"schema    {k:<13}{v}")
    print(f"digest    {ident['package_digest']}")
    if ident["catalog_derived_from_rows"]:
        print("catalog   derived from the rows' evidence_refs (the map has none: v0.1)")
    print(f"rows      {counts['rows']}")
    for k, v in counts["rows_by_data_type"].items():
        print(f"  {k:<32}{v:>10}")
    print("rows by file")
    for k, v in counts["rows_by_file"].items():
        print(f"  {k:<40}{v:>10}")
    print(f"evidence  {counts['evidence_items']}")
    for k, v in counts["evidence_by_type"].items():
        print(f"  {k:<32}{v:>10}")
    for k, v in counts["evidence_by_visibility"].items():
        print(f"  visibility {k:<21}{v:>10}")
    print(f"links     {counts['links']}")
    print(f"problems  {counts['loading_problems']}")
    for p in doc["problems"]:
        loc = p.get("location", {})
        where = f"{loc.get('file', '')}:{loc['line']}" if loc.get("line") else loc.get("file", "")
        print(f"  {p['severity']:<8} {p['code']:<22} {where}  {p['message']}")
