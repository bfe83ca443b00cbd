"""``aa-review dossier check|project|verify-journal``: the readiness dossier without a window."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.core.dossier import (
    GATE_IDS,
    ArchiveSchemaError,
    CheckRecord,
    DossierSchemaError,
    DossierState,
    JournalFile,
    PrincipalRegistry,
    PrincipalRegistryError,
    ProjectionError,
    assess_freshness,
    build_projection,
    check_projection,
    evaluate,
    inspect_packages,
    parse_archive,
    parse_dossier,
    parse_timestamp,
    verify_journal,
)
from aa_review.core.dossier._projection import private_strings

__all__ = ["register", "run_check", "run_project", "run_verify_journal"]

CLI_CHECKER = "aa-review-cli"


class _Unusable(Exception):
    """Input that cannot be evaluated; the message goes to stderr, exit 2."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``dossier`` and its sub-commands to the top-level parser."""
    p = sub.add_parser("dossier", help="check a training readiness dossier, project it, "
                       "verify a journal", description="Training Readiness Dossier (SPEC-026, "
                       "activation deferred): evaluate the eleven gates, print the public "
                       "projection, or verify a dossier journal.")
    dsub = p.add_subparsers(dest="dossier_command", metavar="SUBCOMMAND")
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), EXIT_UNUSABLE)[1])

    c = dsub.add_parser("check", help="evaluate a dossier against archive metadata",
                        description="Print the CheckRecord. Exit 0: eligible if decided; "
                        "1: a gate is not pass or a dossier-level reason blocks; "
                        "2: the input cannot be evaluated.")
    _inputs(c, archive_required=True)
    c.add_argument("--json", action="store_true", help="print the CheckRecord JSON")
    c.add_argument("--checker", default=CLI_CHECKER,
                   help=f"principal id recorded as checker (default {CLI_CHECKER})")
    c.set_defaults(func=run_check)

    pr = dsub.add_parser("project", help="print the public projection of a dossier",
                         description="Print the allowlisted public projection. Outside a "
                         "workspace no human decision exists, so the outcome is 'deferred', "
                         "or 'expired' when the dossier is stale. With --archive the gate "
                         "conclusions are evaluated; without, they read 'unknown'. "
                         "Exit 0: printed; 1: the projection failed its leak checks; "
                         "2: unreadable input.")
    _inputs(pr, archive_required=False)
    pr.set_defaults(func=run_project)

    v = dsub.add_parser("verify-journal", help="verify a hash-chained dossier journal",
                        description="Verify sequence, hash chain and lifecycle replay. "
                        "Exit 0: valid; 1: a bad entry (named in the output); 2: unreadable.")
    v.add_argument("journal", help="journal.jsonl")
    v.add_argument("--anchor-seq", type=int, help="seq of a head saved earlier")
    v.add_argument("--anchor-hash", help="entry_hash of that head")
    v.set_defaults(func=run_verify_journal)


def _inputs(p: argparse.ArgumentParser, archive_required: bool) -> None:
    p.add_argument("dossier", help="dossier JSON file")
    p.add_argument("--archive", required=archive_required, help="archive metadata JSON file")
    p.add_argument("--principals", help="principal registry JSON (default: principals.json "
                   "next to the archive, if present)")
    p.add_argument("--now", help="evaluate at this time, YYYY-MM-DDTHH:MM:SSZ (default: now)")
    p.add_argument("--package", action="append", default=[], metavar="ID=FOLDER",
                   help="where a bound compiled package lives (repeatable)")


def _contamination_hook() -> Any:
    """The audit engine's G9 hook: rows of a bound package citing hidden evidence."""
    from aa_review.core.audits import contamination_rows

    return contamination_rows


def run_check(args: argparse.Namespace) -> int:
    """``dossier check``: exit 0 eligible-if-decided, 1 blocked, 2 cannot evaluate."""
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=True)
        record = evaluate(parsed, archive, registry, now, args.checker, package_locator=locator,
                          package_contamination=_contamination_hook())
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    if args.json:
        emit_json(record.to_json())
    else:
        _print_check(record)
    return EXIT_OK if record.eligible_if_decided else EXIT_FINDINGS


def run_project(args: argparse.Namespace) -> int:
    """``dossier project``: print the public projection JSON."""
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=False)
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    state = DossierState.EXPIRED if parsed.model.state is DossierState.EXPIRED else (
        DossierState.DEFERRED)
    check: dict[str, Any] | None = None
    if archive is not None:
        packages = inspect_packages(parsed.model.evidence.source_packages, locator)
        if assess_freshness(parsed, archive, now, packages).expires:
            state = DossierState.EXPIRED
        check = evaluate(parsed, archive, registry, now, CLI_CHECKER, packages=packages,
                         package_contamination=_contamination_hook()).to_json()
    projection = build_projection(state, check, now)
    private = private_strings(parsed.raw, archive.raw if archive else None, registry.raw)
    try:
        check_projection(projection, private)
    except ProjectionError as exc:
        err(str(exc))
        return EXIT_FINDINGS
    emit_json(projection)
    return EXIT_OK


def run_verify_journal(args: argparse.Namespace) -> int:
    """``dossier verify-journal``: exit 0 valid, 1 bad entry, 2 unreadable."""
    path = Path(args.journal)
    if not path.is_file():
        err(f"{path}: no such journal file")
        return EXIT_UNUSABLE
    try:
        read = JournalFile(path).read()
    except OSError as exc:
        err(f"{path}: cannot be read ({exc.strerror or exc})")
        return EXIT_UNUSABLE
    anchor = None
    if args.anchor_seq is not None or args.anchor_hash is not None:
        anchor = {"seq": args.anchor_seq, "entry_hash": args.anchor_hash}
    result = verify_journal(read.entries, anchor)
    if read.torn_tail:
        result["torn_tail_bytes"] = len(read.torn_tail)
        err(f"{path}: the last append was interrupted ({len(read.torn_tail)} bytes after the "
            "last complete entry); earlier entries are unaffected")
    emit_json(result)
    if not result["valid"]:
        err(f"{path}: entry {result['first_bad_seq']} is bad: {result['reason']}")
    return EXIT_OK if result["valid"] else EXIT_FINDINGS


def _load(args: argparse.Namespace, need_archive: bool) -> tuple[Any, Any, Any, datetime, Any]:
    parsed = _parse(parse_dossier, _read(args.dossier), "dossier", DossierSchemaError)
    archive = None
    if args.archive:
        archive = _parse(parse_archive, _read(args.archive), "archive", ArchiveSchemaError)
    principals_path = args.principals
    if principals_path is None and args.archive:
        default = Path(args.archive).with_name("principals.json")
        principals_path = str(default) if default.is_file() else None
    principals: Any = []
    if principals_path is not None:
        principals = _read(principals_path)
        if isinstance(principals, dict):
            principals = principals.get("principals", [])
    else:
        err("no principal registry given: no one counts as a human maintainer")
    if not isinstance(principals, list):
        raise _Unusable(f"{principals_path}: the principal registry must be a list")
    try:
        registry = PrincipalRegistry(principals)
    except PrincipalRegistryError as exc:
        raise _Unusable(f"{principals_path}: {exc}") from None
    if args.now is None:
        now = datetime.now(UTC).replace(microsecond=0)
    else:
        parsed_now = parse_timestamp(args.now)
        if parsed_now is None:
            raise _Unusable(f"--now {args.now!r} is not of the form YYYY-MM-DDTHH:MM:SSZ")
        now = parsed_now
    locator = _locator(args.package) if args.package else None
    return parsed, archive, registry, now, locator


def _locator(specs: list[str]) -> Any:
    table: dict[str, Path] = {}
    for spec in specs:
        pid, sep, folder = spec.partition("=")
        if not sep or not pid or not folder:
            raise _Unusable(f"--package {spec!r}: write it as PACKAGE_ID=FOLDER")
        table[pid] = Path(folder)
    return table.get


def _read(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise _Unusable(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _Unusable(f"{path}: not JSON ({exc})") from None


def _parse(fn: Any, tree: Any, what: str, error: type[Exception]) -> Any:
    try:
        return fn(tree)
    except error as exc:
        raise _Unusable(f"{what}: {exc}") from None


def _print_check(record: CheckRecord) -> None:
    verdict = "eligible if decided" if record.eligible_if_decided else "not eligible"
    print(f"evidence  {record.evidence_digest}")
    print(f"checked   {record.checked_at} by {record.checked_by} ({record.validator_version})")
    print(f"result    {verdict}")
    for code in record.dossier_reason_codes:
        print(f"dossier   {code}")
    for gid in GATE_IDS:
        gate = record.gates[gid]
        codes = ", ".join(gate.reason_codes)
        print(f"{gid:<4} {gate.status.value:<8} {codes}".rstrip())
