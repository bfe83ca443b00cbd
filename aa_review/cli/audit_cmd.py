"""``aa-review audit PACKAGE|DIR``: audit one package, or every package in a folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from aa_review.cli._common import EXIT_UNUSABLE, err
from aa_review.cli._query_arg import add_query_argument

if TYPE_CHECKING:  # imported where used: ``audit --help`` starts without the core
    from aa_review.core.audits import AuditProgress, AuditReport, CorpusReport
    from aa_review.core.findings import Finding

__all__ = ["register", "run"]

# ``Severity``'s values, lowest first (a test holds them equal); the enum lives with the
# findings' models, which ``--help`` does not import.
_LEVELS = ["info", "low", "warning", "error", "critical"]
_NO_DIGEST = (
    "not computed: --check narrows the audit to what its checks read "
    "(aa-review info prints the digest)"
)
SHOWN_LOCATIONS = 10  # locations printed per finding in the text output; --json lists all


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "audit",
        help="audit a package (or a folder of packages) for integrity and privacy",
        description="Audit a compiled package: hashes, refs, links, counts, rows, privacy, "
        "contracts, copies and known compiler quirks. A whole audit reads every row, the "
        "evidence map and every file's bytes (hashed for the package digest, always afresh); "
        "--check reads only what the chosen checks need (no digest). A folder that is not "
        "itself a package is audited as a corpus: every sub-folder in parallel. Exit 0: "
        "nothing at or above "
        "--fail-on; 1: findings at or above it; 2: could not evaluate (not a package, "
        "unreadable, a check failed).",
    )
    p.add_argument(
        "path",
        metavar="PACKAGE|DIR",
        help="package folder (holding experience_compiler/) or a folder of packages",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument(
        "--fail-on",
        choices=_LEVELS,
        default="error",
        help="lowest severity that makes the exit code 1 (default: error)",
    )
    p.add_argument(
        "--check",
        action="extend",
        nargs="+",
        metavar="CODE",
        dest="checks",
        help="only these checks, codes or code families (e.g. hashes, "
        "hash.changed, privacy); repeatable",
    )
    add_query_argument(
        p,
        "--query",
        metavar="QUERY",
        default="",
        help="keep only findings matching QUERY (docs/query.md, e.g. "
        '"severity:error code:privacy -quirk:yes", or row fields: "type:x"); '
        "the summary, the counts and the exit code follow what is kept, and "
        "the JSON records the query",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: the machine's cores)"
    )
    p.set_defaults(func=run)


def _progress(p: AuditProgress) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\raa-review: {p.stage:<8} {100 * p.fraction:5.1f}%")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from aa_review.core.audits import (
        AuditReport,
        CorpusReport,
        UnknownCheckError,
        audit_corpus,
        audit_package,
        resolve_selection,
    )
    from aa_review.core.package import find_root, open_package
    from aa_review.core.util.errors import PackageError

    path = Path(args.path)
    # Without a query the query language is not imported: it is most audits' case.
    query = bool(args.query.strip())
    try:
        resolve_selection(args.checks)
    except UnknownCheckError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    if query:
        from aa_review.core.query import QueryError, filter_findings

        try:
            filter_findings([], args.query)  # a wrong query is reported before any work
        except QueryError as exc:
            err(str(exc))
            return EXIT_UNUSABLE
    if not path.exists():
        err(f"{path}: no such file or folder")
        return EXIT_UNUSABLE
    try:
        find_root(path)
        single = True
    except PackageError as exc:
        if not path.is_dir():
            err(str(exc))
            return EXIT_UNUSABLE
        single = False
    try:
        pkg = None
        if single and query:
            from aa_review.core.query import needs_package

            pkg = open_package(path) if needs_package(args.query) else None
        if single:
            doc: AuditReport | CorpusReport = audit_package(
                pkg or path, checks=args.checks, workers=args.workers, progress=_progress
            )
        else:
            doc = audit_corpus(path, args.workers, checks=args.checks, progress=_progress)
    except PackageError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    except OSError as exc:
        err(f"{path}: cannot be read ({exc.strerror or exc})")
        return EXIT_UNUSABLE
    finally:
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
    if isinstance(doc, CorpusReport) and not doc.entries:
        err(f"{path}: not a package, and holds no package folders")
        return EXIT_UNUSABLE
    if query:
        from aa_review.core.query import filter_corpus, filter_report

        # Findings, summary and every count; row fields read the package (opened once).
        doc = (
            filter_report(doc, args.query, pkg)
            if isinstance(doc, AuditReport)
            else filter_corpus(doc, args.query)
        )
    if args.json:
        _emit_json(doc)
    elif isinstance(doc, AuditReport):
        _print_report(doc, args.fail_on)
    else:
        _print_corpus(doc, args.fail_on)
    code = doc.exit_code(args.fail_on)
    if not args.json:
        err(
            {
                0: "passed",
                1: f"failed: findings at or above {args.fail_on}",
                2: "could not be fully evaluated",
            }[code]
        )
    return code


def _json_default(value: object) -> object:
    from aa_review.core.findings import Locations

    if isinstance(value, Locations):
        return value.to_json()  # one finding's locations at a time, not all of them at once
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _emit_json(doc: AuditReport | CorpusReport) -> None:
    """The document on stdout, as ``model_dump(mode="json")`` would give it."""
    data = doc.model_dump(mode="python")
    sys.stdout.buffer.write(
        orjson.dumps(
            data, default=_json_default, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE
        )
    )
    sys.stdout.flush()


def _print_finding(f: Finding) -> None:
    tag = " (quirk)" if f.quirk else ""
    n = len(f.locations)
    where = f.location.short() if n == 1 else f"{n:,} locations"
    print(f"{f.severity.value.upper():<9}{f.code}{tag}  {where}")
    print(f"          {f.message}")
    if n > 1:
        for i in range(min(n, SHOWN_LOCATIONS)):
            print(f"            at {f.locations[i].short()}")
        if n > SHOWN_LOCATIONS:
            print(
                f"            ... and {n - SHOWN_LOCATIONS:,} more locations "
                "(--json lists every one)"
            )


def _print_report(r: AuditReport, fail_on: str) -> None:
    from aa_review.core.findings import worst_first

    ident, c = r.identity, r.counts
    print(f"package   {ident.package_id}  (task {ident.task_id}, format {ident.format_version})")
    for k, v in ident.schema_versions.items():
        print(f"schema    {k:<13}{v}")
    print(f"digest    {ident.package_digest or _NO_DIGEST}")
    rows = f"{c.rows} rows" if c.rows_read else "rows not read (the checks chosen read none)"
    print(f"counts    {rows}, {c.evidence_items} evidence items, {c.links} links")
    print(f"checks    {', '.join(r.checks)}")
    if r.query is not None:
        print(f"query     {r.query}")
    for i in worst_first(r.findings):  # severity, then locations; ties in check order
        _print_finding(r.findings[i])
    print(f"summary   {r.summary_line()}  ({r.seconds:.2f} s)")


def _print_corpus(r: CorpusReport, fail_on: str) -> None:
    if r.query is not None:
        print(f"query       {r.query}")
    for e in r.entries:
        if e.report is None:
            print(f"UNREADABLE  {e.path}: {e.error}")
            continue
        verdict = {0: "ok", 1: "FINDINGS", 2: "INCOMPLETE"}[e.exit_code(fail_on)]
        print(f"{verdict:<11} {e.path}: {e.report.counts.rows} rows; {e.report.summary_line()}")
    from aa_review.core.findings import Severity

    t = r.totals
    sev = ", ".join(
        f"{n:,} {k}" for k, n in sorted(t.by_severity.items(), key=lambda kv: -Severity(kv[0]).rank)
    )
    print(
        f"total       {t.packages} package(s), {t.audited} audited, {t.failed} unreadable, "
        f"{t.rows} rows, {t.findings:,} findings at {t.locations:,} locations"
        f"{f' ({sev})' if sev else ''}, {t.seconds:.2f} s on {t.workers} worker(s)"
    )
    for code, n in t.codes.items():
        print(f"            {code:<32}{n:>8}")
