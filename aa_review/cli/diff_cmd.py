"""``aa-review diff OLD NEW``: what changed from one package to another."""

from __future__ import annotations

import argparse
import logging
import sys

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.cli._query_arg import add_query_argument

__all__ = ["register", "run"]

log = logging.getLogger(__name__)
_LEVELS = ("moved", "added", "removed", "changed", "visibility")  # = aa_review.core.diff.LEVELS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "diff",
        help="say what changed from one package (or fingerprint) to another",
        description="Compare two compiled packages: rows by stable id (added, removed, "
        "changed with the fields, moved), evidence by id and ref (added, removed, hash, "
        "visibility, ref), the rows citing changed evidence, contracts and checklists, "
        "counts and, with --findings, audit findings. OLD may also be a fingerprint file "
        "(--save-fingerprint). Exit 0: nothing changed at or above --fail-on; 1: something "
        "did; 2: could not compare (not a package, unreadable, a bad query).",
    )
    p.add_argument("old", metavar="OLD", help="the earlier package folder, or a fingerprint file")
    p.add_argument("new", metavar="NEW", help="the later package folder")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    add_query_argument(
        p,
        "--query",
        metavar="QUERY",
        default="",
        help="list only the rows matching QUERY (the window's rows query, docs/query.md, "
        "e.g. 'change:added OR change:moved', 'change:re*', 'type:training_example "
        "-change:linked'; change: takes added|removed|changed|moved|reformatted|linked); "
        "evidence and contract changes are not filtered; the exit code follows what is "
        "listed; QUERY may start with '-'",
    )
    p.add_argument(
        "--fail-on",
        choices=_LEVELS,
        default=_LEVELS[0],
        metavar="LEVEL",
        help="the least severe kind of change that makes the exit code 1, of "
        f"{', '.join(_LEVELS)} (least to most severe; default: any change)",
    )
    p.add_argument(
        "--findings",
        action="store_true",
        help="also audit both packages and compare their findings (new, fixed, "
        "persisting): this costs a full audit of each",
    )
    p.add_argument(
        "--save-fingerprint",
        metavar="FILE",
        help="also write NEW's fingerprint to FILE, to diff against later as OLD",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from aa_review.core.query import QueryError, check_query
    from aa_review.core.util.errors import AAReviewError

    try:
        check_query(args.query, "rows")  # a wrong query is reported before any work
        return _run(args)
    except QueryError as exc:
        err(str(exc))
    except AAReviewError as exc:
        err(str(exc))
    except OSError as exc:  # a file that cannot be read, or --save-fingerprint not written
        where = f"{exc.filename}: " if exc.filename else ""
        err(f"diff: {where}{exc.strerror or exc}")
    except Exception as exc:  # never a traceback: say what failed, exit 2
        log.debug("diff failed", exc_info=True)
        err(f"diff: could not compare: {type(exc).__name__}: {exc}")
    return EXIT_UNUSABLE


def _run(args: argparse.Namespace) -> int:
    from aa_review import __version__
    from aa_review.core.diff import (
        Fingerprint,
        audit_findings,
        diff,
        filter_diff,
        fingerprint,
        open_pair,
        to_json,
        to_text,
    )
    from aa_review.core.query import fields_used

    old, new = open_pair(args.old, args.new)
    old_pkg = None if isinstance(old, Fingerprint) else old
    # A query on findings (finding:, severity:) audits both packages first, as `rows` does.
    asks = bool(args.query) and bool(fields_used(args.query, "rows") & {"finding", "severity"})
    audit = args.findings or asks
    new_findings = audit_findings(new) if audit else None
    old_findings = audit_findings(old_pkg) if audit and old_pkg is not None else None
    if args.findings:
        d = diff(old, new, old_findings=old_findings, new_findings=new_findings)
    else:
        d = diff(old, new)
    if args.findings and d.findings is None:
        err("findings not compared: the fingerprint OLD was saved without findings")
    if args.query:
        d = filter_diff(d, args.query, old_pkg, new, findings=(old_findings, new_findings))
    if args.save_fingerprint:
        fingerprint(new, findings=new_findings if args.findings else None).save(
            args.save_fingerprint
        )
    doc = to_json(
        d,
        fail_on=args.fail_on,
        tool=f"aa-review {__version__}",
        old_path=str(args.old),
        new_path=str(args.new),
    )
    if args.json:
        emit_json(doc)
    else:
        sys.stdout.write(to_text(doc))
        sys.stdout.flush()
    return EXIT_FINDINGS if doc["result"]["fails"] else EXIT_OK
