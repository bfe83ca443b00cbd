"""``aa-review dossier``: the parser of the dossier commands, built without the dossier core.

What each sub-command does is in :mod:`aa_review.cli._dossier_run` (and the modules it
imports), imported only when one runs: ``aa-review dossier --help`` and every
sub-command's ``--help`` start without the core, which imports pydantic. Unreadable,
deeply nested or huge input exits 2 with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from aa_review.cli import dossier_steps
from aa_review.cli._common import EXIT_UNUSABLE

__all__ = ["CLI_CHECKER", "register"]

CLI_CHECKER = "aa-review-cli"


def _run(args: argparse.Namespace) -> int:
    """Run the dossier sub-command ``args`` names: its implementation, and the dossier
    core with it, is imported now and not when the parser is built."""
    from aa_review.cli import _dossier_run

    return _dossier_run.RUNS[args.dossier_command](args)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dossier`` and its sub-commands to the top-level parser."""
    p = sub.add_parser(
        "dossier",
        help="check a training readiness dossier, project it, verify a journal",
        description="Training Readiness Dossier (SPEC-026, "
        "activation deferred): evaluate the eleven gates, print the public "
        "projection, or verify a dossier journal.",
    )
    dsub = p.add_subparsers(dest="dossier_command", metavar="SUBCOMMAND")

    def show_help(args: argparse.Namespace) -> int:  # the command without a sub-command
        p.print_help(sys.stderr)
        return EXIT_UNUSABLE

    p.set_defaults(func=show_help)

    c = dsub.add_parser(
        "check",
        help="evaluate a dossier against archive metadata, or check it in a workspace",
        description="DOSSIER a file: print the CheckRecord (needs --archive). Exit 0: "
        "eligible if decided; 1: a gate is not pass or a dossier-level reason blocks; "
        "2: the input cannot be evaluated. DOSSIER a workspace folder, with DOSSIER_ID "
        "and --as: take the independent check (T2) there. Exit 0: checked (the reducer "
        "may have deferred it); 1: refused or expired; 2: unreadable.",
    )
    _inputs(c, archive_required=False)
    dossier_steps.add_workspace_check_arguments(c)
    c.add_argument("--json", action="store_true", help="print the CheckRecord JSON")
    c.add_argument(
        "--checker",
        default=CLI_CHECKER,
        help=f"principal id recorded as checker (default {CLI_CHECKER})",
    )
    c.add_argument(
        "--fingerprint",
        action="append",
        default=[],
        metavar="ID=FILE",
        help="the fingerprint kept when package ID was bound (default: the one the "
        "binding names, beside a workspace revision file); says what changed "
        "since binding",
    )
    c.set_defaults(func=_run)

    pr = dsub.add_parser(
        "project",
        help="print the public projection of a dossier",
        description="Print the allowlisted public projection. Outside a "
        "workspace no human decision exists, so the outcome is 'deferred', "
        "or 'expired' when the dossier is stale. With --archive the gate "
        "conclusions are evaluated; without, they read 'unknown'. "
        "Exit 0: printed; 1: the projection failed its leak checks; "
        "2: unreadable input.",
    )
    _inputs(pr, archive_required=False)
    pr.set_defaults(func=_run)

    v = dsub.add_parser(
        "verify-journal",
        help="verify a hash-chained dossier journal",
        description="Verify strict lines, sequence, hash chain, registry, "
        "signatures, lifecycle replay and witnessed heads. Exit 0: valid; "
        "1: a bad entry (named in the output); 2: unreadable input.",
    )
    v.add_argument("journal", help="a workspace's journal/ folder, or a journal.jsonl")
    v.add_argument(
        "--principals",
        help="principal registry JSON (default: principals.json "
        "and the kept versions in registry/ beside the journal)",
    )
    v.add_argument(
        "--anchor",
        metavar="FILE",
        help="a projection (or head JSON) file: the "
        "journal must reach its journal_head with the same hash",
    )
    v.add_argument("--anchor-seq", type=int, help="seq of a head saved earlier")
    v.add_argument("--anchor-hash", help="entry_hash of that head")
    v.add_argument(
        "--no-witness",
        action="store_true",
        help="do not check the heads witnessed in this user's witness store",
    )
    v.set_defaults(func=_run)

    f = dsub.add_parser(
        "forget-witness",
        help="drop this machine's witnessed head of a journal",
        description="A human's decision after a reviewed restore or a new "
        "workspace at the same path: the witness store forgets the heads it "
        "kept for this journal (and this path), so the journal as it is now "
        "is trusted on its next opening. Exit 0: forgotten; 2: unreadable.",
    )
    f.add_argument("journal", help="a workspace's journal/ folder, or a journal.jsonl")
    f.set_defaults(func=_run)

    r = dsub.add_parser(
        "change-registry",
        help="put a new principal registry in force",
        description="Append a registry_changed entry signed by a human "
        "maintainer of the registry in force, keep the new version and replace "
        "principals.json. Exit 0: changed; 1: refused; 2: unreadable input.",
    )
    r.add_argument("workspace", help="the workspace folder")
    r.add_argument("principals", help='the new registry JSON ({"principals": [...]})')
    r.add_argument(
        "--as",
        dest="actor",
        required=True,
        metavar="PRINCIPAL",
        help="a human maintainer of the registry in force, with a key on this machine",
    )
    r.set_defaults(func=_run)
    dossier_steps.register(dsub)
    _register_revise(dsub)


def _inputs(p: argparse.ArgumentParser, archive_required: bool) -> None:
    p.add_argument("dossier", help="dossier JSON file")
    p.add_argument("--archive", required=archive_required, help="archive metadata JSON file")
    p.add_argument(
        "--principals",
        help="principal registry JSON (default: principals.json next to the archive, if present)",
    )
    p.add_argument("--now", help="evaluate at this time, YYYY-MM-DDTHH:MM:SSZ (default: now)")
    p.add_argument(
        "--package",
        action="append",
        default=[],
        metavar="ID=FOLDER",
        help="where a bound compiled package lives (repeatable)",
    )


# -- dossier revise: a new revision from an expired one (spec 7.3) ----------------------------
def _register_revise(dsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rv = dsub.add_parser(
        "revise",
        help="start a new revision from an expired one",
        description="From an expired revision, start revision N+1 in draft with its "
        "evidence copied and 'supersedes' naming it (spec 7.3); the expired revision "
        "stays as it is. Exit 0: created; 1: refused (not expired, superseded, not a "
        "training research lead, no key here); 2: the workspace cannot be opened.",
    )
    rv.add_argument("workspace", help="the workspace folder")
    rv.add_argument("dossier_id", help="the dossier id")
    rv.add_argument("revision", type=int, help="the expired revision")
    rv.add_argument(
        "--as",
        dest="actor",
        required=True,
        metavar="PRINCIPAL",
        help="a training research lead with a key on this machine",
    )
    rv.add_argument("--json", action="store_true", help="print the TransitionResult JSON")
    rv.set_defaults(func=_run)
