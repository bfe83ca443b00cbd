"""``aa-review keys create|show|list``: the acting user's signing keys (spec 10.2)."""

from __future__ import annotations

import argparse
import sys

from aa_review.cli._common import EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.core.dossier import KeyStore, KeyStoreError

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
        help="create a key pair for a principal; print its public part",
        description="Never replaces an existing key. Prints "
        '{"principal_id", "public_key"} for principals.json.',
    )
    c.add_argument("principal", help="principal id")
    c.set_defaults(func=run_create)
    s = ksub.add_parser("show", help="print a principal's public key for principals.json")
    s.add_argument("principal", help="principal id")
    s.set_defaults(func=run_show)
    ls = ksub.add_parser("list", help="list the principals whose private key is on this machine")
    ls.set_defaults(func=run_list)


def run_create(args: argparse.Namespace) -> int:
    """``keys create``: exit 0 created, 2 when a key exists or the store cannot be written."""
    store = KeyStore()
    try:
        signer = store.create(args.principal)
    except KeyStoreError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    err(
        f"private key written to {store.path(args.principal)} (keep it; it never leaves "
        "this machine)"
    )
    emit_json({"principal_id": signer.principal_id, "public_key": signer.public_key})
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    """``keys show``: exit 0 printed, 2 when this machine has no key for the principal."""
    store = KeyStore()
    try:
        signer = store.signer(args.principal)
    except KeyStoreError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    if signer is None:
        err(
            f"no key for {args.principal!r} on this machine (key store {store.folder}); "
            f"create one with: aa-review keys create {args.principal}"
        )
        return EXIT_UNUSABLE
    emit_json({"principal_id": signer.principal_id, "public_key": signer.public_key})
    return EXIT_OK


def run_list(args: argparse.Namespace) -> int:
    """``keys list``: one line per key, ``principal_id  public_key``."""
    for pid, public in KeyStore().principals():
        print(f"{pid}\t{public}")
    return EXIT_OK
