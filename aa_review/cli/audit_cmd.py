"""``aa-review audit PACKAGE|DIR``: audit one package, or every package in a folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from aa_review.cli._common import EXIT_UNUSABLE, emit_json, err
from aa_review.core.audits import (
    AuditProgress,
    AuditReport,
    CorpusReport,
    UnknownCheckError,
    audit_corpus,
    audit_package,
    resolve_selection,
)
from aa_review.core.errors import PackageError
from aa_review.core.findings import Severity
from aa_review.core.query import QueryError, filter_findings, needs_package
from aa_review.core.package import Package, find_root, open_package
from aa_review.cli._query_arg import add_query_argument

__all__ = ["register", "run"]

_LEVELS = [s.value for s in Severity]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "audit", help="audit a package (or a folder of packages) for integrity and privacy",
        description="Audit a compiled package: hashes, refs, links, counts, rows, privacy, "
        "contracts, copies and known compiler quirks. A folder that is not itself a package "
        "is audited as a corpus: every sub-folder in parallel. Exit 0: nothing at or above "
        "--fail-on; 1: findings at or above it; 2: could not evaluate (not a package, "
        "unreadable, a check failed).")
    p.add_argument("path", metavar="PACKAGE|DIR",
                   help="package folder (holding experience_compiler/) or a folder of packages")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    p.add_argument("--fail-on", choices=_LEVELS, default="error",
                   help="lowest severity that makes the exit code 1 (default: error)")
    p.add_argument("--check", action="extend", nargs="+", metavar="CODE", dest="checks",
                   help="only these checks, codes or code families (e.g. hashes, "
                   "hash.changed, privacy); repeatable")
    add_query_argument(p, "--query", metavar="QUERY", default="",
                       help='keep only findings matching QUERY (docs/query.md, e.g. '
                       '"severity:error code:privacy -quirk:yes", or row fields: "type:x"); '
                       'the exit code follows what is kept')
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: the machine's cores)")
    p.set_defaults(func=run)


def _progress(p: AuditProgress) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\raa-review: {p.stage:<8} {100 * p.fraction:5.1f}%")
        sys.stderr.flush()


def _filtered(report: AuditReport, query: str, pkg: Package | None = None) -> AuditReport:
    if pkg is None and needs_package(query):  # row fields: findings about matching rows
        pkg = open_package(Path(report.identity.root))
    keep = filter_findings(report.findings, query, pkg)
    return report.model_copy(update={"findings": [report.findings[i] for i in keep]})


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    try:
        resolve_selection(args.checks)
        filter_findings([], args.query)  # a wrong query is reported before any work
    except UnknownCheckError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
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
        pkg = open_package(path) if single and needs_package(args.query) else None
        if single:
            doc: AuditReport | CorpusReport = audit_package(
                pkg or path, checks=args.checks, workers=args.workers, progress=_progress)
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
    if args.query and isinstance(doc, AuditReport):
        doc = _filtered(doc, args.query, pkg)
    elif args.query and isinstance(doc, CorpusReport):
        doc = doc.model_copy(update={"entries": [
            e.model_copy(update={"report": _filtered(e.report, args.query)})
            if e.report is not None else e for e in doc.entries]})
    if args.json:
        emit_json(doc.model_dump(mode="json"))
    elif isinstance(doc, AuditReport):
        _print_report(doc, args.fail_on)
    else:
        _print_corpus(doc, args.fail_on)
    code = doc.exit_code(args.fail_on)
    if not args.json:
        err({0: "passed", 1: f"failed: findings at or above {args.fail_on}",
             2: "could not be fully evaluated"}[code])
    return code


def _print_report(r: AuditReport, fail_on: str) -> None:
    ident, c = r.identity, r.counts
    print(f"package   {ident.package_id}  (task {ident.task_id}, format {ident.format_version})")
    for k, v in ident.schema_versions.items():
        print(f"schema    {k:<13}{v}")
    print(f"digest    {ident.package_digest}")
    print(f"counts    {c.rows} rows, {c.evidence_items} evidence items, {c.links} links")
    print(f"checks    {', '.join(r.checks)}")
    for f in sorted(r.findings, key=lambda f: -f.severity.rank):  # worst first, stable
        tag = " (quirk)" if f.quirk else ""
        print(f"{f.severity.value.upper():<9}{f.code}{tag}  {f.location.short()}")
        print(f"          {f.message}")
    for code, n in r.truncated.items():
        print(f"          ... and {n} more {code} finding(s) not listed")
    sev = ", ".join(f"{n} {k}" for k, n in sorted(r.by_severity.items(),
                                                   key=lambda t: -Severity(t[0]).rank))
    print(f"summary   {sev or 'no findings'}  ({r.seconds:.2f} s)")


def _print_corpus(r: CorpusReport, fail_on: str) -> None:
    for e in r.entries:
        if e.report is None:
            print(f"UNREADABLE  {e.path}: {e.error}")
            continue
        sev = ", ".join(f"{n} {k}" for k, n in sorted(e.report.by_severity.items(),
                                                       key=lambda t: -Severity(t[0]).rank))
        verdict = {0: "ok", 1: "FINDINGS", 2: "INCOMPLETE"}[e.exit_code(fail_on)]
        print(f"{verdict:<11} {e.path}: {e.report.counts.rows} rows; {sev or 'no findings'}")
    t = r.totals
    print(f"total       {t.packages} package(s), {t.audited} audited, {t.failed} unreadable, "
          f"{t.rows} rows, {t.seconds:.2f} s on {t.workers} worker(s)")
    for code, n in t.codes.items():
        print(f"            {code:<32}{n:>8}")
