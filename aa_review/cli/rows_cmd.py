"""``aa-review rows PACKAGE --query Q``: filter a package's training rows and export them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from aa_review.cli._common import EXIT_OK, EXIT_UNUSABLE, err, load_or_exit
from aa_review.cli._query_arg import add_query_argument

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["register", "run"]

EXIT_NONE = 1  # like grep: the query matched no row


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rows",
        help="filter a package's training rows with a query, and export them",
        description="List or export the training rows matching QUERY (the syntax of the "
        "window's filters, docs/query.md), e.g. --query 'type:failure_case OR confidence < 0.7'."
        " Data goes to stdout (or --output FILE, with FILE.meta.json beside a CSV or JSON "
        "Lines file), messages to stderr. Exit 0: rows matched; 1: none matched; 2: a wrong "
        "query, or the package cannot be read.",
    )
    p.add_argument("path", metavar="PACKAGE", help="package folder (holding experience_compiler/)")
    add_query_argument(
        p,
        "--query",
        metavar="QUERY",
        default="",
        help="keep the rows matching QUERY (default: every row); may start with "
        "'-' (--query -type:failure_case)",
    )
    fmt = p.add_mutually_exclusive_group()
    for name, text in (
        ("csv", ("CSV: a header line, then one line per row (index columns unless --columns)")),
        ("jsonl", "JSON Lines: each row with every field, as stored"),
        ("json", ("one JSON document: {meta: {query, package_digest, ...}, rows: [...]}")),
    ):
        fmt.add_argument(f"--{name}", dest="format", action="store_const", const=name, help=text)
    p.add_argument(
        "--columns",
        metavar="A,B,...",
        help="columns (row fields, or file, line, evidence_count); 'all': every field of the rows",
    )
    p.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write FILE (format from its suffix unless given) instead of stdout",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from aa_review.core.query import QueryError, RowsScope, fields_used
    from aa_review.core.query.export import (
        ALL,
        FORMATS,
        export_to_file,
        meta_of,
        rows_export,
        write_export,
    )

    try:
        used = fields_used(args.query, "rows")
    except QueryError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    columns = [c.strip() for c in args.columns.split(",") if c.strip()] if args.columns else None
    if columns is not None and ALL in columns and columns != [ALL]:
        err("--columns: 'all' stands alone (every field), not beside other names")
        return EXIT_UNUSABLE
    fmt = args.format
    if args.output and fmt is None:
        fmt = Path(args.output).suffix.lstrip(".").lower()
        if fmt not in FORMATS:
            err(
                f"--output {args.output}: name a .csv, .jsonl or .json file, or add "
                "--csv, --jsonl or --json"
            )
            return EXIT_UNUSABLE
    pkg = load_or_exit(args.path)
    if pkg is None:
        return EXIT_UNUSABLE
    if pkg.problems:
        err(
            f"{len(pkg.problems)} loading problem(s): rows on unreadable lines are not "
            "listed (aa-review audit names them)"
        )
    findings = None
    if used & {"finding", "severity"}:
        from aa_review.core.audits import audit_package

        err("auditing the package for finding:/severity: terms...")
        findings = audit_package(pkg, digest=False).findings
    try:
        kept = RowsScope(pkg, findings).filter(args.query)
    except QueryError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    positions: Iterable[int] = range(len(pkg.index)) if kept is None else kept.tolist()
    export = rows_export(pkg, positions)
    err(
        f"{export.count:,} of {export.total:,} rows match"
        + (f" {args.query!r}" if args.query else "")
    )
    if fmt is None:
        _print_table(pkg, positions)
    else:
        digest = _digest(pkg) if (args.output or fmt == "json") else None
        try:
            if args.output:
                export_to_file(
                    export,
                    Path(args.output),
                    query=args.query,
                    digest=digest,
                    fmt=fmt,
                    columns=columns,
                )
                err(
                    f"wrote {args.output}"
                    + ("" if fmt == "json" else f" and {args.output}.meta.json")
                )
            else:
                meta = meta_of(export, fmt, columns, query=args.query, digest=digest)
                write_export(sys.stdout.buffer, export, fmt, columns, meta)
                sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            err(f"{args.output or 'stdout'}: cannot be written ({exc.strerror or exc})")
            return EXIT_UNUSABLE
    return EXIT_OK if export.count else EXIT_NONE


def _digest(pkg: Package) -> str:
    from aa_review.core.package import package_digest

    return package_digest(pkg.root)


def _print_table(pkg: Package, positions: Iterable[int]) -> None:
    """One line per row, numbers as the window shows them."""
    from aa_review.core.query import format_number

    ix = pkg.index
    out = sys.stdout
    for p in (int(x) for x in positions):
        rel = ix.files[int(ix.file[p])]
        print(
            f"{ix.row_id_str(p)}  {ix.data_types[int(ix.data_type[p])]}  "
            f"{rel}:{int(ix.line[p])}  confidence {format_number(float(ix.confidence[p])) or '-'}"
            f"  quality {format_number(float(ix.quality[p])) or '-'}",
            file=out,
        )
