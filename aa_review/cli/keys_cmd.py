"""``aa-review keys create|show|list``: the acting user's signing keys (spec 10.2)."""

from __future__ import annotations

import argparse
import json
import sys

from aa_review.cli._common import EXIT_OK, EXIT_UNUSABLE, err

# ``Role``'s values but the system reducer's, in its order (a test holds them equal); the
# dossier core is imported where a key is read or made, not for ``--help``.
ROLES = ("training_research_lead", "independent_evaluator", "human_maintainer", "agent")

__all__ = ["register", "run_create", "run_list", "run_show"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``keys`` and its sub-commands to the top-level parser."""
    p = sub.add_parser(
        "keys",
        help="create and show the Ed25519 keys that sign journal entries",
        description="Private keys stay in this user's key store (a 0600 file "
        "per principal in a 0700 folder of the user's data folder; "
        "$AA_REVIEW_DATA_DIR moves it). Only the public part goes into a "
        "workspace's principals.json.",
    )
    ksub = p.add_subparsers(dest="keys_command", metavar="SUBCOMMAND")

    def show_help(args: argparse.Namespace) -> int:  # the command without a sub-command
        p.print_help(sys.stderr)
        return EXIT_UNUSABLE

    p.set_defaults(func=show_help)
    c = ksub.add_parser(
        "create",
        help="create your key pair for a principal; print the line to hand to a maintainer",
        description="Keys are personal: create the key of the principal you are, in "
        "your own data folder (never someone else's). Never replaces an existing key. "
        'Prints {"principal_id", "role", "kind", "public_key"}: the record a human '
        "maintainer adds with 'aa-review dossier add-principal' (role and kind "
        "grant nothing until the maintainer's signed registry change).",
    )
    c.add_argument("principal", help="principal id")
    c.add_argument("--role", choices=ROLES, help="the role you ask for (printed in the record)")
    c.add_argument(
        "--kind",
        choices=("human", "agent"),
        default="human",
        help="human (default) or agent",
    )
    c.set_defaults(func=run_create)
    s = ksub.add_parser(
        "show", help="print a principal's public record again (the line for a maintainer)"
    )
    s.add_argument("principal", help="principal id")
    s.set_defaults(func=run_show)
    ls = ksub.add_parser("list", help="list the principals whose private key is on this machine")
    ls.set_defaults(func=run_list)


def run_create(args: argparse.Namespace) -> int:
    """``keys create``: exit 0 created, 2 when a key exists or the store cannot be written."""
    from aa_review.core.dossier import KeyStore, KeyStoreError

    store = KeyStore()
    role = getattr(args, "role", None)
    kind = getattr(args, "kind", None) if role else None
    try:
        others = [pid for pid, _ in store.principals() if pid != args.principal]
        store.create(args.principal, role=role, kind=kind)
        record = store.record(args.principal)
    except KeyStoreError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    assert record is not None
    err(
        f"private key written to {store.path(args.principal)} (keep it; it never leaves "
        "this machine). Hand the line below to a human maintainer of the workspace."
    )
    if role is None:
        err("no --role given: the maintainer adds the role to the record")
    if others:
        err(
            f"this key store also holds the keys of {', '.join(others)}: keys are "
            "personal, so create another person's key in their own data folder"
        )
    _emit_line(record)
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    """``keys show``: exit 0 printed, 2 when this machine has no key for the principal."""
    from aa_review.core.dossier import KeyStore, KeyStoreError

    store = KeyStore()
    try:
        record = store.record(args.principal)
    except KeyStoreError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    if record is None:
        err(
            f"no key for {args.principal!r} on this machine (key store {store.folder}); "
            f"create one with: aa-review keys create {args.principal}"
        )
        return EXIT_UNUSABLE
    _emit_line(record)
    return EXIT_OK


def _emit_line(record: dict[str, str]) -> None:
    """The public record on one line: what a person pastes to a maintainer."""
    print(json.dumps(record, ensure_ascii=False))


def run_list(args: argparse.Namespace) -> int:
    """``keys list``: one line per key, ``principal_id  public_key``."""
    from aa_review.core.dossier import KeyStore

    for pid, public in KeyStore().principals():
        print(f"{pid}\t{public}")
    return EXIT_OK
