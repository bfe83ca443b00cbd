"""``aa-review dossier check|project|change-registry|revise``: what these sub-commands do.

The parser is :mod:`aa_review.cli.dossier_cmd`, built without the dossier core (which
imports pydantic); it imports this module, and the core with it, only when a dossier
sub-command runs. :data:`RUNS` maps each sub-command to its implementation.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aa_review.cli import _dossier_journal_run, _dossier_steps_run
from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.cli._dossier_input import (
    Unusable,
    contamination_hook,
    guarded,
    pairs,
    principal_list,
    read_json,
)
from aa_review.cli.dossier_cmd import CLI_CHECKER
from aa_review.core.dossier import (
    GATE_IDS,
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
    RevisionNotFoundError,
    Workspace,
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
from aa_review.core.dossier._projection import private_strings

__all__ = ["RUNS", "run_change_registry", "run_check", "run_project", "run_revise"]


@guarded
def run_check(args: argparse.Namespace) -> int:
    """``dossier check``: exit 0 eligible-if-decided, 1 blocked, 2 cannot evaluate."""
    if _dossier_steps_run.is_workspace(args.dossier):
        return _dossier_steps_run.run_workspace_check(args)
    if args.dossier_id is not None or args.actor is not None or args.revision is not None:
        err(f"{args.dossier}: not a workspace folder (DOSSIER_ID, --as and --revision are for one)")
        return EXIT_UNUSABLE
    if not args.archive:
        err("checking a dossier file needs --archive ARCHIVE")
        return EXIT_UNUSABLE
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=True)
        fingerprints = pairs(args.fingerprint, "--fingerprint")
        packages = _bound_packages(parsed, locator)
        record = evaluate(
            parsed,
            archive,
            registry,
            now,
            args.checker,
            packages=packages,
            package_contamination=contamination_hook(),
        )
    except Unusable as exc:
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
    # Imported here: the review session's package is large, and only a file check needs it.
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


@guarded
def run_project(args: argparse.Namespace) -> int:
    """``dossier project``: print the public projection JSON."""
    try:
        parsed, archive, registry, now, locator = _load(args, need_archive=False)
    except Unusable as exc:
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
            package_contamination=contamination_hook(),
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


@guarded
def run_change_registry(args: argparse.Namespace) -> int:
    """``dossier change-registry``: exit 0 changed, 1 refused, 2 unreadable."""
    try:
        principals = principal_list(read_json(args.principals), args.principals)
        ws = Workspace.open_folder(args.workspace)
    except Unusable as exc:
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


def _load(args: argparse.Namespace, need_archive: bool) -> tuple[Any, Any, Any, datetime, Any]:
    parsed = _parse(parse_dossier, read_json(args.dossier), "dossier", DossierSchemaError)
    archive = None
    if args.archive:
        archive = _parse(parse_archive, read_json(args.archive), "archive", ArchiveSchemaError)
    principals_path = args.principals
    if principals_path is None and args.archive:
        default = Path(args.archive).with_name("principals.json")
        principals_path = str(default) if default.is_file() else None
    principals: Any = []
    if principals_path is not None:
        principals = read_json(principals_path)
        if isinstance(principals, dict):
            principals = principals.get("principals", [])
    else:
        err("no principal registry given: no one counts as a human maintainer")
    if not isinstance(principals, list):
        raise Unusable(f"{principals_path}: the principal registry must be a list")
    try:
        registry = PrincipalRegistry(principals)
    except PrincipalRegistryError as exc:
        raise Unusable(f"{principals_path}: {exc}") from None
    if args.now is None:
        now = datetime.now(UTC).replace(microsecond=0)
    else:
        parsed_now = parse_timestamp(args.now)
        if parsed_now is None:
            raise Unusable(f"--now {args.now!r} is not of the form YYYY-MM-DDTHH:MM:SSZ")
        now = parsed_now
    locator = _locator(args.package) if args.package else None
    return parsed, archive, registry, now, locator


def _locator(specs: list[str]) -> Any:
    return pairs(specs, "--package").get


def _parse(fn: Any, tree: Any, what: str, error: type[Exception]) -> Any:
    try:
        return fn(tree)
    except (DossierSchemaError, ArchiveSchemaError) as exc:
        # Spec 15: a refusal names the JSON path, the rule and what would satisfy it.
        lines = [p.explain() for p in exc.details]
        raise Unusable(f"{what} refused: {exc.reason}\n  " + "\n  ".join(lines)) from None
    except (error, RecursionError, ValueError) as exc:
        raise Unusable(f"{what}: {exc}") from None


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


@guarded
def run_revise(args: argparse.Namespace) -> int:
    """``dossier revise``: exit 0 created, 1 refused, 2 the workspace cannot be opened."""
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


# Each sub-command of ``aa-review dossier`` to what it runs (the parser's ``func`` looks
# it up here by name: a test holds the names equal to the parser's).
RUNS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": run_check,
    "project": run_project,
    "verify-journal": _dossier_journal_run.run_verify_journal,
    "forget-witness": _dossier_journal_run.run_forget_witness,
    "change-registry": run_change_registry,
    "revise": run_revise,
    **_dossier_steps_run.RUNS,
}
