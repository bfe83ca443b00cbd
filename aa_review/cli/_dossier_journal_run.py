"""``aa-review dossier verify-journal|forget-witness``: a dossier journal, verified or unwitnessed.

Imported only when one of these runs (see :mod:`aa_review.cli.dossier_cmd`, which builds
the parser without the dossier core).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.cli._dossier_input import Unusable, guarded, principal_list, read_regular
from aa_review.core.dossier import PrincipalRegistry, PrincipalRegistryError
from aa_review.core.dossier._journal import is_journal_folder, open_journal
from aa_review.core.dossier._storage import FolderStore
from aa_review.core.dossier._verify import anchor_heads, registry_versions, verify_read
from aa_review.core.dossier._witness import WitnessError, WitnessStore

__all__ = ["run_forget_witness", "run_verify_journal"]


@guarded
def run_verify_journal(args: argparse.Namespace) -> int:
    """``dossier verify-journal``: exit 0 valid, 1 bad entry, 2 unreadable.

    Without a readable registry (absent, not a regular file, unparsable) the
    verification fails (``JOURNAL_REGISTRY_UNTRUSTED``, exit 1): nothing in the journal
    can be attributed to anyone (spec 10.5).
    """
    path = Path(args.journal)
    if not (path.is_file() or is_journal_folder(path)):
        err(f"{path}: no such journal file or folder")
        return EXIT_UNUSABLE
    try:
        read = open_journal(path).read()
    except OSError as exc:
        err(f"{path}: cannot be read ({exc.strerror or exc})")
        return EXIT_UNUSABLE
    try:
        anchors = _anchors(args, path, read.entries)
    except Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    try:
        registries, named = _registries(args.principals, path)
    except Unusable as exc:
        err(f"{exc}; without a readable principal registry no entry can be trusted")
        result: dict[str, Any] = {
            "valid": False,
            "first_bad_seq": 0,
            "reason": "JOURNAL_REGISTRY_UNTRUSTED",
        }
        emit_json(result)
        return EXIT_FINDINGS
    result, verifier, _ = verify_read(read, anchors, registry_versions(registries))
    for fault in read.faults:
        err(fault)
    in_force, beside = verifier.in_force, path.parent / "principals.json"
    if result["valid"] and named is not None and in_force is not None and named != in_force:
        err(
            f"{beside}: not the registry the journal has in force ({in_force}); a registry "
            "changes only through a registry_changed entry signed by a human maintainer"
        )
        result = {
            "valid": False,
            "first_bad_seq": len(read.entries),
            "reason": "JOURNAL_REGISTRY_UNTRUSTED",
        }
    if read.torn_tail:
        result["torn_tail_bytes"] = len(read.torn_tail)
        if result["valid"]:
            err(
                f"{path}: the last append was interrupted ({len(read.torn_tail)} bytes after "
                "the last complete entry, beyond every witnessed head); earlier entries are "
                "unaffected"
            )
    emit_json(result)
    if not result["valid"]:
        err(f"{path}: entry {result['first_bad_seq']} is bad: {result['reason']}")
        if "anchor_refused" in result:
            err(f"the anchor is refused: {result['anchor_refused']}")
    return EXIT_OK if result["valid"] else EXIT_FINDINGS


def _registries(given: str | None, journal: Path) -> tuple[Any, str | None]:
    """The registry versions to verify against, and the digest ``principals.json`` names.

    Given, the file is the registry; else the workspace's own: ``principals.json``
    beside the journal and the kept versions in ``registry/``. Each file is opened as
    package files are (regular files only, never a FIFO, bounded).

    Raises
    ------
    Unusable
        The registry is absent, not a regular file, or not a valid registry.
    """
    if given is not None:
        tree = read_regular(Path(given), "the principal registry")
        try:
            PrincipalRegistry(principal_list(tree, given))
        except (PrincipalRegistryError, ValueError, TypeError) as exc:
            raise Unusable(f"{given}: {exc}") from None
        return tree, None
    beside = journal.parent / "principals.json"
    tree = read_regular(beside, "the principal registry (principals.json)")
    try:
        digest = PrincipalRegistry(principal_list(tree, str(beside))).digest
    except (PrincipalRegistryError, ValueError, TypeError) as exc:
        raise Unusable(f"{beside}: {exc}") from None
    versions: dict[str, Any] = dict(FolderStore(journal.parent).registries())
    versions[digest] = tree
    return versions, digest


def _anchors(args: argparse.Namespace, journal: Path, entries: list[Any]) -> list[Any]:
    anchors: list[Any] = []
    if args.anchor_seq is not None or args.anchor_hash is not None:
        anchors.append({"seq": args.anchor_seq, "entry_hash": args.anchor_hash})
    if args.anchor is not None:
        tree = read_regular(Path(args.anchor), "the anchor")
        if not anchor_heads(tree):
            raise Unusable(
                f"{args.anchor}: not a projection or head file carrying a "
                "journal_head {seq, entry_hash}"
            )
        anchors.append(tree)  # a projection counts once its signature verifies (10.5)
    if not args.no_witness:
        first = entries[0] if entries else None
        genesis = first.get("entry_hash") if isinstance(first, dict) else None
        store = WitnessStore()
        try:
            record = store.record(genesis) if isinstance(genesis, str) else None
            at_path = store.genesis_at(journal)
        except WitnessError as exc:
            raise Unusable(f"the witness store cannot be read: {exc}") from None
        if record is not None:
            anchors.append(record["head"])
        if at_path is not None and at_path["genesis_hash"] != genesis:
            anchors.append({"seq": 0, "entry_hash": at_path["genesis_hash"]})
    return anchors


def run_forget_witness(args: argparse.Namespace) -> int:
    """``dossier forget-witness``: exit 0 forgotten, 2 unreadable store."""
    path = Path(args.journal)
    store = WitnessStore()
    try:
        at_path = store.genesis_at(path)
        read = open_journal(path).read() if path.exists() else None
    except (WitnessError, OSError) as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    first = read.entries[0] if read and read.entries else None
    for genesis in {
        at_path["genesis_hash"] if at_path else None,
        first.get("entry_hash") if isinstance(first, dict) else None,
    } - {None}:
        store.forget(path, genesis)
        err(f"forgot the witnessed head of the journal whose first entry is {genesis}")
    store.forget(path, None)
    return EXIT_OK
