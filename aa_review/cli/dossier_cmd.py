"""``aa-review dossier check|project|verify-journal|change-registry``: the dossier without a window.

Unreadable, deeply nested or huge input exits 2 with a message, never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.cli import dossier_steps
from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err

if TYPE_CHECKING:
    from aa_review.core.dossier import (
        ActorUnavailableError,
        ArchiveSchemaError,
        BoundChanges,
        CheckRecord,
        DossierError,
        DossierSchemaError,
        DossierState,
        PrincipalRegistry,
        PrincipalRegistryError,
        ProjectionError,
        assess_freshness,
        build_projection,
        changes_since_binding,
        check_projection,
        evaluate,
        inspect_packages,
        kept_fingerprints,
        parse_archive,
        parse_dossier,
        parse_timestamp,
        recorded_folders,
    )
    from aa_review.core.dossier._journal import is_journal_folder, open_journal
    from aa_review.core.dossier._projection import private_strings
    from aa_review.core.dossier._storage import FolderStore
    from aa_review.core.dossier._strict import nesting_depth
    from aa_review.core.dossier._verify import anchor_heads, registry_versions, verify_read
    from aa_review.core.dossier._witness import WitnessError, WitnessStore
    from aa_review.core.package.safepath import read_beneath


def _load_core() -> None:
    """Import the dossier core when a sub-command runs, not when the parser is built:
    ``aa-review dossier --help`` starts without it (the core imports pydantic)."""
    if "parse_dossier" in globals():
        return
    import importlib

    names = globals()
    for module, attrs in _CORE_NAMES:
        mod = importlib.import_module(module)
        names.update({a: getattr(mod, a) for a in attrs})


_CORE_NAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "aa_review.core.dossier",
        (
            "ActorUnavailableError",
            "ArchiveSchemaError",
            "BoundChanges",
            "CheckRecord",
            "DossierError",
            "DossierSchemaError",
            "DossierState",
            "PrincipalRegistry",
            "PrincipalRegistryError",
            "ProjectionError",
            "assess_freshness",
            "build_projection",
            "changes_since_binding",
            "check_projection",
            "evaluate",
            "inspect_packages",
            "kept_fingerprints",
            "parse_archive",
            "parse_dossier",
            "parse_timestamp",
            "recorded_folders",
        ),
    ),
    (
        "aa_review.core.dossier._journal",
        (
            "is_journal_folder",
            "open_journal",
        ),
    ),
    ("aa_review.core.dossier._projection", ("private_strings",)),
    ("aa_review.core.dossier._storage", ("FolderStore",)),
    ("aa_review.core.dossier._strict", ("nesting_depth",)),
    (
        "aa_review.core.dossier._verify",
        (
            "anchor_heads",
            "registry_versions",
            "verify_read",
        ),
    ),
    (
        "aa_review.core.dossier._witness",
        (
            "WitnessError",
            "WitnessStore",
        ),
    ),
    ("aa_review.core.package.safepath", ("read_beneath",)),
)


def _lazy(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run`` with the core imported first."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        _load_core()
        return run(args)

    return wrapper


__all__ = [
    "register",
    "run_change_registry",
    "run_check",
    "run_forget_witness",
    "run_project",
    "run_revise",
    "run_verify_journal",
]

CLI_CHECKER = "aa-review-cli"
# Input files: a dossier or archive is never this large or this deep; beyond, exit 2.
MAX_INPUT_BYTES = 256 << 20
MAX_INPUT_DEPTH = 200


class _Unusable(Exception):
    """Input that cannot be evaluated; the message goes to stderr, exit 2."""


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
    c.set_defaults(func=_lazy(run_check))

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
    pr.set_defaults(func=_lazy(run_project))

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
    v.set_defaults(func=_lazy(run_verify_journal))

    f = dsub.add_parser(
        "forget-witness",
        help="drop this machine's witnessed head of a journal",
        description="A human's decision after a reviewed restore or a new "
        "workspace at the same path: the witness store forgets the heads it "
        "kept for this journal (and this path), so the journal as it is now "
        "is trusted on its next opening. Exit 0: forgotten; 2: unreadable.",
    )
    f.add_argument("journal", help="a workspace's journal/ folder, or a journal.jsonl")
    f.set_defaults(func=_lazy(run_forget_witness))

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
    r.set_defaults(func=_lazy(run_change_registry))
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


def _contamination_hook() -> Any:
    """The audit engine's G9 hook: rows of a bound package citing hidden evidence."""
    from aa_review.core.audits import contamination_rows

    return contamination_rows


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Exit 2, with a message, when input is too deep or too large to evaluate."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (RecursionError, MemoryError) as exc:
            err(
                f"the input cannot be evaluated: too deeply nested or too large "
                f"({type(exc).__name__})"
            )
            return EXIT_UNUSABLE

    return wrapper


@_guarded
def run_check(args: argparse.Namespace) -> int:
    """``dossier check``: exit 0 eligible-if-decided, 1 blocked, 2 cannot evaluate."""
    if dossier_steps.is_workspace(args.dossier):
        return dossier_steps.run_workspace_check(args)
    if args.dossier_id is not None or args.actor is not None or args.revision is not None:
        err(f"{args.dossier}: not a workspace folder (DOSSIER_ID, --as and --revision are for one)")
        return EXIT_UNUSABLE
    if not args.archive:
        err("checking a dossier file needs --archive ARCHIVE")
        return EXIT_UNUSABLE
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=True)
        fingerprints = _pairs(args.fingerprint, "--fingerprint")
        packages = _bound_packages(parsed, locator)
        record = evaluate(
            parsed,
            archive,
            registry,
            now,
            args.checker,
            packages=packages,
            package_contamination=_contamination_hook(),
        )
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    changes = _bound_changes(args.dossier, parsed, packages, fingerprints)
    others = _other_versions(packages)
    if args.json:
        emit_json(record.to_json())
        for c in changes:  # the CheckRecord is the data; what changed is said beside it
            err(c.message)
            for line in c.more:
                err(f"  {line}")
        for line in others:
            err(line)
    else:
        _print_check(record)
        for c in changes:
            print(f"changed   {c.message}")
            for line in c.more:
                print(f"          {line}")
        for line in others:
            print(f"package   {line}")
    return EXIT_OK if record.eligible_if_decided else EXIT_FINDINGS


def _bound_packages(parsed: Any, locator: Any) -> Any:
    """The bound packages as found now: the folder given for each id, and the folder
    recorded at binding when the given one is not the bound content."""
    return inspect_packages(
        parsed.model.evidence.source_packages, locator, recorded=recorded_folders(parsed.raw)
    )


def _other_versions(packages: Any) -> list[str]:
    """One line per bound package whose given folder holds another version."""
    return [
        f"{st.package_id}: {st.other_root} is another version ({st.other_digest}); "
        f"the bound one is at {st.root}, unchanged since binding"
        for st in packages
        if st.other_root is not None
    ]


def _bound_changes(
    dossier_file: str, parsed: Any, packages: Any, given: dict[str, Path]
) -> list[BoundChanges]:
    """What changed since binding in each bound package whose digest changed.

    The fingerprint is the file given for the package, else the one the binding names
    beside the revision file (a workspace keeps ``fingerprints/<hex>.npz`` next to its
    ``revisions/`` folder);
    it is used only when its bytes still have the digest the binding records.
    """
    from aa_review.core.session.dossier_hooks import DiffFingerprints

    kept = kept_fingerprints(parsed.raw)
    here = Path(dossier_file).resolve().parent
    # A workspace keeps revisions in ``revisions/``, fingerprints in ``fingerprints/`` beside it.
    beside = (here.parent if here.name == "revisions" else here) / "fingerprints"

    def loader(pid: str) -> Callable[[str], bytes | None]:
        def load(digest: str) -> bytes | None:
            path = given.get(pid) or beside / f"{digest.removeprefix('sha256:')}.npz"
            return path.read_bytes() if path.is_file() else None

        return load

    out = []
    for status in packages:
        pid = str(status.package_id)
        found = changes_since_binding(status, kept.get(pid), loader(pid), DiffFingerprints())
        if found is not None:
            out.append(found)
    return out


@_guarded
def run_project(args: argparse.Namespace) -> int:
    """``dossier project``: print the public projection JSON."""
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=False)
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    state = (
        DossierState.EXPIRED
        if parsed.model.state is DossierState.EXPIRED
        else (DossierState.DEFERRED)
    )
    check: dict[str, Any] | None = None
    if archive is not None:
        packages = _bound_packages(parsed, locator)
        if assess_freshness(parsed, archive, now, packages).expires:
            state = DossierState.EXPIRED
        check = evaluate(
            parsed,
            archive,
            registry,
            now,
            CLI_CHECKER,
            packages=packages,
            package_contamination=_contamination_hook(),
        ).to_json()
    projection = build_projection(state, check, now)
    private = private_strings(parsed.raw, archive.raw if archive else None, registry.raw)
    try:
        check_projection(projection, private)
    except ProjectionError as exc:
        err(str(exc))
        return EXIT_FINDINGS
    emit_json(projection)
    return EXIT_OK


@_guarded
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
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    try:
        registries, named = _registries(args.principals, path)
    except _Unusable as exc:
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
    _Unusable
        The registry is absent, not a regular file, or not a valid registry.
    """
    if given is not None:
        tree = _read_regular(Path(given), "the principal registry")
        try:
            PrincipalRegistry(_principal_list(tree, given))
        except (PrincipalRegistryError, ValueError, TypeError) as exc:
            raise _Unusable(f"{given}: {exc}") from None
        return tree, None
    beside = journal.parent / "principals.json"
    tree = _read_regular(beside, "the principal registry (principals.json)")
    try:
        digest = PrincipalRegistry(_principal_list(tree, str(beside))).digest
    except (PrincipalRegistryError, ValueError, TypeError) as exc:
        raise _Unusable(f"{beside}: {exc}") from None
    versions: dict[str, Any] = dict(FolderStore(journal.parent).registries())
    versions[digest] = tree
    return versions, digest


def _read_regular(path: Path, what: str) -> Any:
    """JSON of a regular file, read without following a symlink out of its folder or
    blocking on a FIFO (the package reader's opener), at most ``MAX_INPUT_BYTES``."""
    try:
        data = read_beneath(str(path.parent), path.name, limit=MAX_INPUT_BYTES)
    except FileNotFoundError:
        raise _Unusable(f"{path}: {what} is missing") from None
    except OSError as exc:
        raise _Unusable(f"{path}: {what} cannot be read ({exc})") from None
    if nesting_depth(data) > MAX_INPUT_DEPTH:
        raise _Unusable(f"{path}: nested deeper than {MAX_INPUT_DEPTH}")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _Unusable(f"{path}: {what} is not JSON ({exc})") from None


def _anchors(args: argparse.Namespace, journal: Path, entries: list[Any]) -> list[Any]:
    anchors: list[Any] = []
    if args.anchor_seq is not None or args.anchor_hash is not None:
        anchors.append({"seq": args.anchor_seq, "entry_hash": args.anchor_hash})
    if args.anchor is not None:
        tree = _read_regular(Path(args.anchor), "the anchor")
        if not anchor_heads(tree):
            raise _Unusable(
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
            raise _Unusable(f"the witness store cannot be read: {exc}") from None
        if record is not None:
            anchors.append(record["head"])
        if at_path is not None and at_path["genesis_hash"] != genesis:
            anchors.append({"seq": 0, "entry_hash": at_path["genesis_hash"]})
    return anchors


@_guarded
def run_change_registry(args: argparse.Namespace) -> int:
    """``dossier change-registry``: exit 0 changed, 1 refused, 2 unreadable."""
    from aa_review.core.dossier import Workspace

    try:
        principals = _principal_list(_read(args.principals), args.principals)
        ws = Workspace.open_folder(args.workspace)
    except _Unusable as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    except DossierError as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    try:
        digest = ws.change_registry(principals, args.actor)
    except (ActorUnavailableError, PrincipalRegistryError, DossierError) as exc:
        err(str(exc))
        return EXIT_FINDINGS
    finally:
        ws.close()
    print(digest)
    return EXIT_OK


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


def _principal_list(tree: Any, where: str) -> list[Any]:
    if isinstance(tree, dict):
        tree = tree.get("principals")
    if not isinstance(tree, list):
        raise _Unusable(f"{where}: the principal registry must be a list")
    return tree


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
    return _pairs(specs, "--package").get


def _pairs(specs: list[str], option: str) -> dict[str, Path]:
    table: dict[str, Path] = {}
    for spec in specs:
        pid, sep, path = spec.partition("=")
        if not sep or not pid or not path:
            what = "FOLDER" if option == "--package" else "FILE"
            raise _Unusable(f"{option} {spec!r}: write it as PACKAGE_ID={what}")
        table[pid] = Path(path)
    return table


def _read(path: str) -> Any:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise _Unusable(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise _Unusable(f"{path}: larger than {MAX_INPUT_BYTES >> 20} MiB")
    depth = nesting_depth(data)
    if depth > MAX_INPUT_DEPTH:
        raise _Unusable(f"{path}: nested {depth} deep (at most {MAX_INPUT_DEPTH})")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _Unusable(f"{path}: not UTF-8 ({exc})") from None
    except (ValueError, RecursionError) as exc:  # includes over-long integers
        raise _Unusable(f"{path}: not JSON ({exc})") from None


def _parse(fn: Any, tree: Any, what: str, error: type[Exception]) -> Any:
    try:
        return fn(tree)
    except (DossierSchemaError, ArchiveSchemaError) as exc:
        # Spec 15: a refusal names the JSON path, the rule and what would satisfy it.
        lines = [p.explain() for p in exc.details]
        raise _Unusable(f"{what} refused: {exc.reason}\n  " + "\n  ".join(lines)) from None
    except (error, RecursionError, ValueError) as exc:
        raise _Unusable(f"{what}: {exc}") from None


def _print_check(record: CheckRecord) -> None:
    verdict = "eligible if decided" if record.eligible_if_decided else "not eligible"
    print(f"evidence  {record.evidence_digest}")
    print(f"checked   {record.checked_at} by {record.checked_by} ({record.validator_version})")
    print(f"result    {verdict}")
    for code in record.dossier_reason_codes:
        print(f"dossier   {code}")
    from aa_review.core.dossier import GATE_IDS  # the check ran: the core is loaded

    for gid in GATE_IDS:
        gate = record.gates[gid]
        codes = ", ".join(gate.reason_codes)
        print(f"{gid:<4} {gate.status.value:<8} {codes}".rstrip())


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
    rv.set_defaults(func=_lazy(run_revise))


@_guarded
def run_revise(args: argparse.Namespace) -> int:
    """``dossier revise``: exit 0 created, 1 refused, 2 the workspace cannot be opened."""
    from aa_review.core.dossier import RevisionNotFoundError, Workspace

    try:
        ws = Workspace.open_folder(args.workspace)
    except (DossierError, OSError) as exc:
        err(str(exc))
        return EXIT_UNUSABLE
    try:
        try:
            result = ws.revise(args.dossier_id, args.revision, args.actor)
        except RevisionNotFoundError as exc:
            err(str(exc))
            return EXIT_UNUSABLE
    finally:
        ws.close()
    created = result.outcome.value == "applied_as_new_revision"
    if args.json:
        emit_json(result.to_dict())
    elif created:
        print(
            f"{args.dossier_id} revision {args.revision + 1}: draft, from expired "
            f"revision {args.revision}"
        )
    if not created:
        err(f"{args.dossier_id} revision {args.revision}: refused ({result.reason})")
    return EXIT_OK if created else EXIT_FINDINGS
