"""What the workspace steps of ``aa-review dossier`` do: init, add-principal, import, bind,
check, decide, publish, redo, withdraw, status.

The parser is :mod:`aa_review.cli.dossier_steps`, built without the dossier core; this
module, and the core with it, is imported only when a step runs. The rules are the core
:class:`Workspace`'s: this module only reads arguments, calls it and words the result.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err
from aa_review.cli._dossier_input import Unusable, contamination_hook, pairs, read_json
from aa_review.cli._dossier_status import print_status, what_action, workspace_status
from aa_review.core.dossier import (
    Action,
    ActorUnavailableError,
    DossierError,
    DossierSchemaError,
    ForkResolutionError,
    KeyHolding,
    KeyPlace,
    KeyStore,
    Kind,
    Outcome,
    PrincipalRegistry,
    PrincipalRegistryError,
    ProjectionError,
    RevisionConflictError,
    RevisionNotFoundError,
    Role,
    TransitionResult,
    Workspace,
    WorkspaceError,
    WorkspaceLockedError,
    admission,
    init_workspace_folder,
    key_holdings,
    one_machine_note,
    parse_archive,
    refusal_text,
)
from aa_review.core.dossier._keys import parse_public_key
from aa_review.core.util.atomic import atomic_write

__all__ = ["RUNS", "is_workspace", "run_workspace_check"]

# A step done (applied, or applied as a new revision), and the roles a record may name
# (the system reducer is the workspace's own, never a person's).
_DONE = (Outcome.APPLIED, Outcome.APPLIED_AS_NEW_REVISION)
_ROLES = tuple(r.value for r in Role if r is not Role.SYSTEM_REDUCER)


class _Refused(Exception):
    """A refusal that is not a TransitionResult (an import, a registry change): exit 1."""


def is_workspace(path: str) -> bool:
    """Whether ``path`` names a workspace folder (``check`` then takes a step in it)."""
    return Path(path).is_dir()


def _guard(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run`` with its failures worded: exit 2 unusable input, exit 1 a refusal."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except Unusable as exc:
            err(str(exc))
            return EXIT_UNUSABLE
        except _Refused as exc:
            err(f"refused: {exc}")
            return EXIT_FINDINGS
        except WorkspaceLockedError as exc:
            err(f"{exc}; close the window or command that has it open")
            return EXIT_UNUSABLE
        except (RecursionError, MemoryError) as exc:
            err(f"the input cannot be evaluated: too deeply nested or too large ({exc!r})")
            return EXIT_UNUSABLE

    return wrapper


def _records(specs: list[str]) -> list[dict[str, Any]]:
    """Principal records given as files or as JSON text (one record or a list each)."""
    out: list[dict[str, Any]] = []
    for spec in specs:
        text = spec.strip()
        if text.startswith(("{", "[")):
            try:
                tree = json.loads(text)
            except ValueError as exc:
                raise Unusable(f"--record {spec[:40]!r}: not JSON ({exc})") from None
        else:
            tree = read_json(spec)
        if isinstance(tree, dict) and "principals" in tree:
            tree = tree["principals"]
        for rec in tree if isinstance(tree, list) else [tree]:
            out.append(_record(rec, spec))
    return out


def _record(rec: Any, where: str) -> dict[str, Any]:
    """A complete principal record, or exit 2 naming what is missing."""
    if not isinstance(rec, dict):
        raise Unusable(f"{where}: a principal record is a JSON object")
    pid = rec.get("principal_id")
    if not isinstance(pid, str) or not pid:
        raise Unusable(f"{where}: the record has no principal_id")
    if rec.get("role") not in _ROLES:
        raise Unusable(f"{where}: {pid}'s role must be one of {', '.join(_ROLES)}")
    if rec.get("kind") not in (Kind.HUMAN.value, Kind.AGENT.value):
        raise Unusable(f"{where}: {pid}'s kind must be human or agent")
    if parse_public_key(rec.get("public_key")) is None:
        raise Unusable(
            f"{where}: {pid}'s public_key must be the one 'aa-review keys create' prints"
        )
    return {k: rec[k] for k in ("principal_id", "role", "kind", "public_key")}


def _open(args: argparse.Namespace) -> Workspace:
    """The workspace, opened for writing, or exit 2."""
    # Imported here: the review session's package is large, and only opening needs it.
    from aa_review.core.session.dossier_hooks import DiffFingerprints

    packages = pairs(getattr(args, "package", []) or [], "--package")
    try:
        return Workspace.open_folder(
            args.workspace,
            package_locator=packages.get if packages else None,
            package_contamination=contamination_hook(),
            fingerprint_hooks=DiffFingerprints(),
        )
    except WorkspaceLockedError:
        raise
    except (WorkspaceError, DossierError, OSError) as exc:
        raise Unusable(f"{args.workspace}: cannot be opened ({exc})") from None


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[Workspace]:
    """The workspace for the length of a command; its journal lock released after."""
    ws = _open(args)
    try:
        yield ws
    finally:
        ws.close()


def _writable(ws: Workspace) -> None:
    if ws.read_only:
        raise Unusable(
            f"the workspace is read-only ({ws.journal_fault}); nothing can be done in it "
            "until a human resolves that (see 'aa-review dossier status')"
        )


def _holdings_note(holdings: tuple[KeyHolding, ...]) -> list[str]:
    here = [h.principal.principal_id for h in holdings if h.here]
    elsewhere = [h.principal.principal_id for h in holdings if not h.here]
    return [
        f"keys on this machine: {', '.join(here) or 'none'}",
        f"held elsewhere: {', '.join(elsewhere) or 'none'}",
    ]


# -- init and the registry -----------------------------------------------------------------
def _run_init(args: argparse.Namespace) -> int:
    """``dossier init``: exit 0 created, 1 refused, 2 unreadable."""
    folder = Path(args.workspace)
    if (folder / "principals.json").exists() or (folder / "journal.jsonl").exists():
        raise _Refused(f"{folder} is a workspace already; nothing was written")
    archive = read_json(args.archive)
    principals: list[dict[str, Any]] = []
    if args.principals:
        tree = read_json(args.principals)
        if isinstance(tree, dict):
            tree = tree.get("principals")
        if not isinstance(tree, list):
            raise Unusable(f"{args.principals}: the principal registry must be a list")
        principals.extend(tree)
    principals.extend(_records(args.record))
    if not principals:
        raise Unusable("no principals: give --principals or --record")
    try:
        registry = PrincipalRegistry(principals)
    except PrincipalRegistryError as exc:
        raise _Refused(str(exc)) from None
    try:
        parse_archive(archive)
    except (DossierError, ValueError) as exc:
        raise Unusable(f"{args.archive}: {exc}") from None
    init_workspace_folder(folder, principals, archive)
    print(f"created {folder} with {len(registry)} principals")
    holdings = key_holdings(registry, KeyStore())
    for line in _holdings_note(holdings):
        print(line)
    for h in holdings:
        if h.place is KeyPlace.NO_PUBLIC_KEY:
            err(f"{h.principal.principal_id}: {h.detail}")
    _warn_one_machine(holdings)
    return EXIT_OK


def _warn_one_machine(holdings: tuple[KeyHolding, ...]) -> None:
    """Say so when this machine holds the keys of several duties (a demo, not separation)."""
    note = one_machine_note(holdings)
    if note is not None:
        err(note)


def _run_add_principal(args: argparse.Namespace) -> int:
    """``dossier add-principal``: exit 0 added, 1 refused, 2 unreadable."""
    records = _records(args.record)
    with _opened(args) as ws:
        _writable(ws)
        current = ws.principals.raw
        taken = {p["principal_id"] for p in current} & {r["principal_id"] for r in records}
        if taken:
            raise _Refused(
                f"{', '.join(sorted(taken))} is in the registry already; "
                "use 'aa-review dossier change-registry' to change a record"
            )
        try:
            digest = ws.change_registry([*current, *records], args.actor)
        except PrincipalRegistryError as exc:
            raise _Refused(str(exc)) from None
        except ActorUnavailableError as exc:
            raise _Refused(
                f"adding a principal needs a human maintainer with a key here: {exc}"
            ) from None
        except DossierError as exc:
            raise Unusable(str(exc)) from None
    for r in records:
        print(f"added {r['principal_id']} ({r['role']}, {r['kind']})")
    print(f"registry in force: {digest}")
    return EXIT_OK


# -- the lifecycle steps -------------------------------------------------------------------
def _run_import(args: argparse.Namespace) -> int:
    """``dossier import``: exit 0 imported, 1 refused, 2 unreadable."""
    tree = read_json(args.dossier)
    if not isinstance(tree, dict):
        raise Unusable(f"{args.dossier}: a dossier is a JSON object")
    with _opened(args) as ws:
        _writable(ws)
        try:
            ref = ws.import_dossier(tree, args.actor)
        except DossierSchemaError as exc:
            # Spec 15: each problem with its JSON path, the rule and what would satisfy it.
            lines = "\n  ".join(exc.explain())
            raise Unusable(
                f"{args.dossier}: refused, nothing was imported or journaled: {exc.reason}\n"
                f"  {lines}"
            ) from None
        except (ActorUnavailableError, RevisionConflictError) as exc:
            raise _Refused(str(exc)) from None
        print(f"imported {ref.dossier_id} revision {ref.revision}: {ref.state.value}")
        _head(ws)
    return EXIT_OK


def _revision(ws: Workspace, dossier_id: str, revision: int | None) -> int:
    revs = ws.revisions(dossier_id)
    if not revs:
        known = ", ".join(ws.dossier_ids()) or "none"
        raise Unusable(f"no dossier {dossier_id!r} in this workspace (dossiers: {known})")
    if revision is None:
        return revs[-1]
    if revision not in revs:
        raise Unusable(f"{dossier_id} has no revision {revision} (revisions: {revs})")
    return revision


def _attempt(args: argparse.Namespace, step: Action, ws: Workspace) -> int:
    """Take ``step`` with the workspace's own method; word a refusal as the window does."""
    _writable(ws)
    rev = _revision(ws, args.dossier_id, args.revision)
    before = ws.standing(args.dossier_id, rev)
    method = {
        Action.BIND: ws.bind,
        Action.CHECK: ws.check,
        Action.DECIDE_ELIGIBLE: ws.decide_eligible,
        Action.DEFER: ws.decide_deferred,
    }[step]
    result: TransitionResult = method(args.dossier_id, rev, args.actor)
    states = ", ".join(f"revision {r}: {s}" for r, s in sorted(result.state_after.items()))
    if result.outcome in _DONE:
        print(f"{step.value} {args.dossier_id}: done ({states})")
        if result.check_record is not None:
            _print_unmet(result)
        _head(ws)
        return EXIT_OK
    if result.outcome is Outcome.EXPIRED:
        err(
            f"{step.value} {args.dossier_id} revision {rev}: not done; the revision expired "
            f"instead ({result.reason}): {states}"
        )
        _head(ws)
        return EXIT_FINDINGS
    reason = result.reason or "refused"
    words = refusal_text(
        step,
        reason,
        ws.principals.get(args.actor),
        args.actor,
        before,
        _could(ws, step, args.dossier_id, rev),
        ws.journal_fault,
    )
    err(f"refused ({reason}): {words}")
    return EXIT_FINDINGS


def _could(ws: Workspace, step: Action, dossier_id: str, rev: int) -> list[str]:
    """Who of the registry could take the step (whether or not their key is here)."""
    standing = ws.standing(dossier_id, rev)
    return [
        p.principal_id
        for p in ws.principals
        if p.role is not Role.SYSTEM_REDUCER
        and admission(step, standing, p, read_only=False, unable=None) is None
    ]


def _print_unmet(result: TransitionResult) -> None:
    record = result.check_record
    assert record is not None
    unmet = [(g, r) for g, r in record.gates.items() if r.status.value != "pass"]
    if not unmet and not record.dossier_reason_codes:
        print("all eleven gates pass")
        return
    for code in record.dossier_reason_codes:
        print(f"dossier   {code}")
    for gid, gate in unmet:
        print(f"{gid:<4} {gate.status.value:<8} {', '.join(gate.reason_codes)}".rstrip())


def _head(ws: Workspace) -> None:
    head = ws.journal_head()
    if head is not None:
        print(f"journal head #{head['seq']} {head['entry_hash']}")


def _run_step(step: Action) -> Callable[[argparse.Namespace], int]:
    """``dossier bind`` or the workspace ``check``: take ``step`` in the workspace."""

    def run(args: argparse.Namespace) -> int:
        with _opened(args) as ws:
            return _attempt(args, step, ws)

    run.__name__ = f"run_{step.value}"
    return run


def _run_decide(args: argparse.Namespace) -> int:
    """``dossier decide eligible|deferred``."""
    step = Action.DECIDE_ELIGIBLE if args.decision == "eligible" else Action.DEFER
    with _opened(args) as ws:
        return _attempt(args, step, ws)


def run_workspace_check(args: argparse.Namespace) -> int:
    """``dossier check WORKSPACE DOSSIER_ID --as EVALUATOR``: the independent check, T2."""
    if not args.dossier_id or not args.actor:
        err("a check in a workspace needs the dossier id and --as PRINCIPAL")
        return EXIT_UNUSABLE
    args.workspace = args.dossier
    return _guard(_run_step(Action.CHECK))(args)


def _run_publish(args: argparse.Namespace) -> int:
    """``dossier publish``: exit 0 published, 1 refused, 2 unreadable."""
    with _opened(args) as ws:
        _writable(ws)
        rev = _revision(ws, args.dossier_id, args.revision)
        try:
            projection = ws.project(args.dossier_id, rev, args.actor)
        except ProjectionError as exc:
            raise _Refused(f"publishing {args.dossier_id} revision {rev}: {exc}") from None
        except RevisionNotFoundError as exc:
            raise Unusable(str(exc)) from None
    if args.out:
        data = json.dumps(projection, indent=2) + "\n"
        atomic_write(Path(args.out), lambda fh: fh.write(data))
        err(f"projection written to {args.out}")
    emit_json(projection)
    return EXIT_OK


# -- not-applied actions (spec 10.6) -------------------------------------------------------
def _not_applied(ws: Workspace, given: str) -> dict[str, Any]:
    """The not-applied action ``given`` names (whole, or a unique beginning of its hex)."""
    text = given.strip().lower()
    hexpart = text.removeprefix("sha256:")
    actions = ws.not_applied()
    found = [
        na
        for na in actions
        if na["entry_hash"] == text or (hexpart and na["entry_hash"][7:].startswith(hexpart))
    ]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{na['entry_hash']} ({na['author']})" for na in actions) or "none"
    if not found:
        raise Unusable(f"no not-applied action starts with entry {given} (not applied: {listed})")
    raise Unusable(f"{given} names {len(found)} not-applied actions: give more of it ({listed})")


def _run_redo(args: argparse.Namespace) -> int:
    """``dossier redo``: exit 0 redone, 1 refused, 2 no such action or unreadable."""
    with _opened(args) as ws:
        _writable(ws)
        na = _not_applied(ws, args.entry_hash)
        try:
            result = ws.redo(na["entry_hash"], args.actor)
        except ForkResolutionError as exc:
            raise _Refused(f"redo of {what_action(na)} by {na['author']}: {exc}") from None
        except (ActorUnavailableError, ProjectionError) as exc:
            raise _Refused(f"redo of {what_action(na)}: {exc}") from None
        done = next((n for n in ws.not_applied() if n["entry_hash"] == na["entry_hash"]), na)
        if done["status"] != "redone":
            reason = getattr(result, "reason", None) or (
                result.get("reason_code") if isinstance(result, dict) else None
            )
            outcome = getattr(result, "outcome", None)
            err(
                f"redo of {what_action(na)}: not done ({reason or outcome or 'refused'}); "
                "the kept state does not allow it: withdraw it with 'aa-review dossier "
                f"withdraw {args.workspace} {na['entry_hash']} --as {args.actor}'"
            )
            _head(ws)
            return EXIT_FINDINGS
        print(f"redone {what_action(na)} (entry {done['resolved_by']})")
        _head(ws)
    return EXIT_OK


def _run_withdraw(args: argparse.Namespace) -> int:
    """``dossier withdraw``: exit 0 withdrawn, 1 refused, 2 no such action or unreadable."""
    with _opened(args) as ws:
        _writable(ws)
        na = _not_applied(ws, args.entry_hash)
        try:
            entry = ws.withdraw(na["entry_hash"], args.actor)
        except ForkResolutionError as exc:
            raise _Refused(f"withdrawing {what_action(na)} by {na['author']}: {exc}") from None
        print(f"withdrawn {what_action(na)} (entry {entry['entry_hash']})")
        _head(ws)
    return EXIT_OK


# -- status ------------------------------------------------------------------------------------
def _run_status(args: argparse.Namespace) -> int:
    """``dossier status``: read-only; exit 0 printed, 2 the folder cannot be opened."""
    with _opened(args) as ws:
        status = workspace_status(ws, args.dossier_id)
    if args.json:
        emit_json(status)
        return EXIT_OK
    print_status(status)
    return EXIT_OK


# Each workspace step of ``aa-review dossier`` to what it runs (``check`` is
# :func:`run_workspace_check`, reached from the file check's sub-command).
RUNS: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": _guard(_run_init),
    "add-principal": _guard(_run_add_principal),
    "import": _guard(_run_import),
    "bind": _guard(_run_step(Action.BIND)),
    "decide": _guard(_run_decide),
    "publish": _guard(_run_publish),
    "redo": _guard(_run_redo),
    "withdraw": _guard(_run_withdraw),
    "status": _guard(_run_status),
}
