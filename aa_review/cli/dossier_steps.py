"""``aa-review dossier init|add-principal|import|bind|check|decide|publish|redo|withdraw|status``.

Every step of the window's Dossier tab, on a workspace folder, acting ``--as`` a
principal whose private key is in this user's key store. The rules are the core
:class:`Workspace`'s: this module only reads arguments, calls it and words the result.

Exit codes: 0 done; 1 refused, with the reason in words (the step, the role it
needs, the role the principal holds); 2 the input could not be evaluated (a file
unreadable or malformed, a workspace that opens read-only or is in use).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.cli._common import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, emit_json, err

if TYPE_CHECKING:
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
        arrived_summary,
        init_workspace_folder,
        journal_view,
        key_fingerprint,
        one_machine_note,
        refusal_text,
    )
    from aa_review.core.dossier._keys import parse_public_key
    from aa_review.core.util.atomic import atomic_write


def _load_core() -> None:
    """Import the dossier core on the first step run, not when the parser is built:
    ``aa-review dossier --help`` starts without it (the core imports pydantic)."""
    if "Workspace" in globals():
        return
    from aa_review.core import dossier
    from aa_review.core.dossier._keys import parse_public_key
    from aa_review.core.util.atomic import atomic_write

    names = globals()
    names.update({n: getattr(dossier, n) for n in _CORE_NAMES})
    names.update(parse_public_key=parse_public_key, atomic_write=atomic_write)


_CORE_NAMES = (
    "Action",
    "ActorUnavailableError",
    "DossierError",
    "DossierSchemaError",
    "ForkResolutionError",
    "KeyHolding",
    "KeyPlace",
    "KeyStore",
    "Kind",
    "Outcome",
    "PrincipalRegistry",
    "PrincipalRegistryError",
    "ProjectionError",
    "RevisionConflictError",
    "RevisionNotFoundError",
    "Role",
    "TransitionResult",
    "Workspace",
    "WorkspaceError",
    "WorkspaceLockedError",
    "arrived_summary",
    "init_workspace_folder",
    "journal_view",
    "key_fingerprint",
    "one_machine_note",
    "refusal_text",
)

__all__ = ["is_workspace", "register", "run_workspace_check"]

# The core's Outcome.APPLIED and APPLIED_AS_NEW_REVISION, and every Role but the
# system reducer, as plain strings (tests/core/test_cli_lazy.py checks they are equal).
_DONE = ("applied", "applied_as_new_revision")
_ROLES = ("training_research_lead", "independent_evaluator", "human_maintainer", "agent")


class _Unusable(Exception):
    """Input that cannot be evaluated: exit 2 with the message."""


class _Refused(Exception):
    """A refusal that is not a TransitionResult (an import, a registry change): exit 1."""


def is_workspace(path: str) -> bool:
    """Whether ``path`` names a workspace folder (``check`` then takes a step in it)."""
    return Path(path).is_dir()


def register(dsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the workspace steps to ``aa-review dossier`` (``check`` is shared, see
    :func:`add_workspace_check_arguments`)."""
    i = dsub.add_parser(
        "init",
        help="create a workspace folder from an archive and a principal registry",
        description="Write principals.json and archive.json into a new workspace folder. "
        "No key is created: each person creates their own with 'aa-review keys create' "
        "and hands the printed record over (--record). Exit 0: created; 1: refused "
        "(two principals share a key, the folder is a workspace already); 2: unreadable input.",
    )
    i.add_argument("workspace", help="the folder to create")
    i.add_argument("--archive", required=True, help="archive metadata JSON file")
    i.add_argument("--principals", help='a registry JSON file ({"principals": [...]} or a list)')
    i.add_argument(
        "--record",
        action="append",
        default=[],
        metavar="FILE_OR_JSON",
        help="a principal's record as 'aa-review keys create' prints it (repeatable)",
    )
    i.set_defaults(func=_guard(_run_init))

    a = dsub.add_parser(
        "add-principal",
        help="add a person to the registry, by a maintainer's signed registry change",
        description="Append the records to the registry in force and put it in force "
        "through a registry_changed entry signed by the maintainer (--as). Exit 0: "
        "added; 1: refused (not a human maintainer, no key here, the id is taken, "
        "the key is another principal's); 2: unreadable input.",
    )
    a.add_argument("workspace", help="the workspace folder")
    _as(a, "a human maintainer of the registry in force")
    a.add_argument(
        "--record",
        action="append",
        required=True,
        metavar="FILE_OR_JSON",
        help='{"principal_id", "role", "kind", "public_key"}, a file or the JSON itself',
    )
    a.set_defaults(func=_guard(_run_add_principal))

    m = dsub.add_parser(
        "import",
        help="import a dossier file into a workspace",
        description="T0: the file comes in as draft or evidence_bound (a later state "
        "is imported as evidence_bound). Exit 0: imported; 1: refused; 2: unreadable.",
    )
    m.add_argument("workspace", help="the workspace folder")
    m.add_argument("dossier", help="dossier JSON file")
    _as(m, "the importer (the author, a training_research_lead)")
    m.set_defaults(func=_guard(_run_import))

    b = dsub.add_parser(
        "bind",
        help="bind a draft's evidence (training_research_lead)",
        description="T1. Exit 0: bound; 1: refused or expired; 2: unreadable.",
    )
    _step_arguments(b, "a training_research_lead")
    b.set_defaults(func=_guard(_run_step("bind")))

    d = dsub.add_parser(
        "decide",
        help="decide a checked revision eligible or deferred (human maintainer)",
        description="T5 (eligible) or T4 (deferred). Exit 0: decided; 1: refused or "
        "expired; 2: unreadable.",
    )
    d.add_argument("decision", choices=("eligible", "deferred"))
    _step_arguments(d, "a human maintainer (kind human)")
    d.set_defaults(func=_guard(_run_decide))

    p = dsub.add_parser(
        "publish",
        help="publish the public projection of a decided revision",
        description="Write the projection into the workspace's projections/ and print "
        "it (or write it to --out). Exit 0: published; 1: refused; 2: unreadable.",
    )
    _step_arguments(p, "any principal who is not on the training side")
    p.add_argument("--out", metavar="FILE", help="also write the projection to FILE")
    p.set_defaults(func=_guard(_run_publish))

    for name, words in (
        ("redo", "take a not-applied action again on the kept branch, signed again"),
        ("withdraw", "withdraw a not-applied action by an entry of its own"),
    ):
        f = dsub.add_parser(
            name,
            help=f"{words} (its author only)",
            description=f"After a merge of concurrent work (JOURNAL_FORKED), {words}. "
            "ENTRY_HASH is the one 'aa-review dossier status' lists under not applied (a "
            "unique beginning of its hex is enough). Exit 0: done; 1: refused (not the "
            "author, no key here, resolved already, the kept state refuses the step, a step "
            "that cannot be redone: withdraw it); 2: no such action, unreadable workspace.",
        )
        f.add_argument("workspace", help="the workspace folder")
        f.add_argument("entry_hash", help="the not-applied action's first entry hash")
        _as(f, "the action's author")
        _package_argument(f)
        f.set_defaults(func=_guard(_run_redo if name == "redo" else _run_withdraw))

    s = dsub.add_parser(
        "status",
        help="revisions, states, who did what, the journal head, whose key is here",
        description="Read-only. Exit 0: printed (even for a read-only workspace, whose "
        "reason is printed); 2: the folder cannot be opened.",
    )
    s.add_argument("workspace", help="the workspace folder")
    s.add_argument("dossier_id", nargs="?", help="only this dossier")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_guard(_run_status))


def add_workspace_check_arguments(c: argparse.ArgumentParser) -> None:
    """``check WORKSPACE DOSSIER_ID --as EVALUATOR``: the check parser's workspace form."""
    c.add_argument(
        "dossier_id", nargs="?", help="with a workspace folder: the dossier to check there"
    )
    c.add_argument(
        "--revision", type=int, help="with a workspace: the revision (default: the latest)"
    )
    c.add_argument(
        "--as",
        dest="actor",
        metavar="PRINCIPAL",
        help="with a workspace: an independent_evaluator whose key is on this machine",
    )


def _as(p: argparse.ArgumentParser, who: str) -> None:
    p.add_argument(
        "--as", dest="actor", required=True, metavar="PRINCIPAL", help=f"{who}, key here"
    )


def _step_arguments(p: argparse.ArgumentParser, who: str) -> None:
    p.add_argument("workspace", help="the workspace folder")
    p.add_argument("dossier_id", help="the dossier")
    p.add_argument("--revision", type=int, help="the revision (default: the latest)")
    _as(p, who)
    _package_argument(p)


def _package_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--package",
        action="append",
        default=[],
        metavar="ID=FOLDER",
        help="where a bound compiled package lives (repeatable)",
    )


def _guard(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapper(args: argparse.Namespace) -> int:
        from aa_review.cli import dossier_cmd

        _load_core()
        dossier_cmd._load_core()  # the steps read their input with its helpers
        try:
            return run(args)
        except _Unusable as exc:
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

    wrapper.__name__ = run.__name__
    wrapper.__doc__ = run.__doc__
    return wrapper


# -- reading input -------------------------------------------------------------------------
def _read_json(path: str) -> Any:
    from aa_review.cli.dossier_cmd import _read
    from aa_review.cli.dossier_cmd import _Unusable as ReadError

    try:
        return _read(path)
    except ReadError as exc:
        raise _Unusable(str(exc)) from None


def _records(specs: list[str]) -> list[dict[str, Any]]:
    """Principal records given as files or as JSON text (one record or a list each)."""
    out: list[dict[str, Any]] = []
    for spec in specs:
        text = spec.strip()
        if text.startswith(("{", "[")):
            try:
                tree = json.loads(text)
            except ValueError as exc:
                raise _Unusable(f"--record {spec[:40]!r}: not JSON ({exc})") from None
        else:
            tree = _read_json(spec)
        if isinstance(tree, dict) and "principals" in tree:
            tree = tree["principals"]
        for rec in tree if isinstance(tree, list) else [tree]:
            out.append(_record(rec, spec))
    return out


def _record(rec: Any, where: str) -> dict[str, Any]:
    """A complete principal record, or exit 2 naming what is missing."""
    if not isinstance(rec, dict):
        raise _Unusable(f"{where}: a principal record is a JSON object")
    pid = rec.get("principal_id")
    if not isinstance(pid, str) or not pid:
        raise _Unusable(f"{where}: the record has no principal_id")
    if rec.get("role") not in _ROLES:
        raise _Unusable(f"{where}: {pid}'s role must be one of {', '.join(_ROLES)}")
    if rec.get("kind") not in (Kind.HUMAN.value, Kind.AGENT.value):
        raise _Unusable(f"{where}: {pid}'s kind must be human or agent")
    if parse_public_key(rec.get("public_key")) is None:
        raise _Unusable(
            f"{where}: {pid}'s public_key must be the one 'aa-review keys create' prints"
        )
    return {k: rec[k] for k in ("principal_id", "role", "kind", "public_key")}


def _open(args: argparse.Namespace) -> Workspace:
    """The workspace, opened for writing, or exit 2."""
    from aa_review.cli.dossier_cmd import _contamination_hook, _pairs
    from aa_review.cli.dossier_cmd import _Unusable as ReadError
    from aa_review.core.session.dossier_hooks import DiffFingerprints

    try:
        packages = _pairs(getattr(args, "package", []) or [], "--package")
    except ReadError as exc:
        raise _Unusable(str(exc)) from None
    try:
        return Workspace.open_folder(
            args.workspace,
            package_locator=packages.get if packages else None,
            package_contamination=_contamination_hook(),
            fingerprint_hooks=DiffFingerprints(),
        )
    except WorkspaceLockedError:
        raise
    except (WorkspaceError, DossierError, OSError) as exc:
        raise _Unusable(f"{args.workspace}: cannot be opened ({exc})") from None


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
        raise _Unusable(
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
    archive = _read_json(args.archive)
    principals: list[dict[str, Any]] = []
    if args.principals:
        tree = _read_json(args.principals)
        if isinstance(tree, dict):
            tree = tree.get("principals")
        if not isinstance(tree, list):
            raise _Unusable(f"{args.principals}: the principal registry must be a list")
        principals.extend(tree)
    principals.extend(_records(args.record))
    if not principals:
        raise _Unusable("no principals: give --principals or --record")
    try:
        registry = PrincipalRegistry(principals)
    except PrincipalRegistryError as exc:
        raise _Refused(str(exc)) from None
    try:
        from aa_review.core.dossier import parse_archive

        parse_archive(archive)
    except (DossierError, ValueError) as exc:
        raise _Unusable(f"{args.archive}: {exc}") from None
    init_workspace_folder(folder, principals, archive)
    print(f"created {folder} with {len(registry)} principals")
    from aa_review.core.dossier import key_holdings

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
            raise _Unusable(str(exc)) from None
    for r in records:
        print(f"added {r['principal_id']} ({r['role']}, {r['kind']})")
    print(f"registry in force: {digest}")
    return EXIT_OK


# -- the lifecycle steps -------------------------------------------------------------------
def _run_import(args: argparse.Namespace) -> int:
    """``dossier import``: exit 0 imported, 1 refused, 2 unreadable."""
    tree = _read_json(args.dossier)
    if not isinstance(tree, dict):
        raise _Unusable(f"{args.dossier}: a dossier is a JSON object")
    with _opened(args) as ws:
        _writable(ws)
        try:
            ref = ws.import_dossier(tree, args.actor)
        except DossierSchemaError as exc:
            # Spec 15: each problem with its JSON path, the rule and what would satisfy it.
            lines = "\n  ".join(exc.explain())
            raise _Unusable(
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
        raise _Unusable(f"no dossier {dossier_id!r} in this workspace (dossiers: {known})")
    if revision is None:
        return revs[-1]
    if revision not in revs:
        raise _Unusable(f"{dossier_id} has no revision {revision} (revisions: {revs})")
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
    from aa_review.core.dossier import admission

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


def _run_step(step: str) -> Callable[[argparse.Namespace], int]:
    """The step of ``Action`` value ``step`` (a string: the parser is built before the
    core is imported)."""

    def run(args: argparse.Namespace) -> int:
        with _opened(args) as ws:
            return _attempt(args, Action(step), ws)

    run.__name__ = f"run_{step}"
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
    return _guard(_run_step("check"))(args)


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
            raise _Unusable(str(exc)) from None
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
        raise _Unusable(f"no not-applied action starts with entry {given} (not applied: {listed})")
    raise _Unusable(f"{given} names {len(found)} not-applied actions: give more of it ({listed})")


def _what_action(na: dict[str, Any]) -> str:
    step = na.get("action") or na.get("kind")
    where = f"{na['dossier_id']} revision {na['revision']}" if na.get("dossier_id") else ""
    return f"{step} {where}".strip()


def _run_redo(args: argparse.Namespace) -> int:
    """``dossier redo``: exit 0 redone, 1 refused, 2 no such action or unreadable."""
    with _opened(args) as ws:
        _writable(ws)
        na = _not_applied(ws, args.entry_hash)
        try:
            result = ws.redo(na["entry_hash"], args.actor)
        except ForkResolutionError as exc:
            raise _Refused(f"redo of {_what_action(na)} by {na['author']}: {exc}") from None
        except (ActorUnavailableError, ProjectionError) as exc:
            raise _Refused(f"redo of {_what_action(na)}: {exc}") from None
        done = next((n for n in ws.not_applied() if n["entry_hash"] == na["entry_hash"]), na)
        if done["status"] != "redone":
            reason = getattr(result, "reason", None) or (
                result.get("reason_code") if isinstance(result, dict) else None
            )
            outcome = getattr(result, "outcome", None)
            err(
                f"redo of {_what_action(na)}: not done ({reason or outcome or 'refused'}); "
                "the kept state does not allow it: withdraw it with 'aa-review dossier "
                f"withdraw {args.workspace} {na['entry_hash']} --as {args.actor}'"
            )
            _head(ws)
            return EXIT_FINDINGS
        print(f"redone {_what_action(na)} (entry {done['resolved_by']})")
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
            raise _Refused(f"withdrawing {_what_action(na)} by {na['author']}: {exc}") from None
        print(f"withdrawn {_what_action(na)} (entry {entry['entry_hash']})")
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
    _print_status(status)
    return EXIT_OK


def workspace_status(ws: Workspace, only: str | None = None) -> dict[str, Any]:
    """Revisions, states, who did what, the journal head and whose key is here."""
    view = journal_view(ws.journal_status())
    ids = [only] if only is not None else ws.dossier_ids()
    if only is not None and only not in ws.dossier_ids():
        raise _Unusable(f"no dossier {only!r} in this workspace")
    dossiers = []
    for d in ids:
        revisions = []
        for r in ws.revisions(d):
            standing = ws.standing(d, r)
            revisions.append(
                {
                    "revision": r,
                    "state": standing.state.value,
                    "superseded": standing.superseded,
                    "author": standing.author,
                    "bound_by": standing.binder,
                    "checked_by": standing.checker,
                }
            )
        dossiers.append({"dossier_id": d, "revisions": revisions})
    holdings = ws.key_holdings()
    here = {h.principal.principal_id for h in holdings if h.here}
    not_applied = [
        {
            "entry_hash": na["entry_hash"],
            "file": na["file"],
            "at": na["at"],
            "kind": na["kind"],
            "action": na["action"],
            "dossier_id": na["dossier_id"],
            "revision": na["revision"],
            "author": na["author"],
            "role": na["role"],
            "signer": na["signer"],
            "public_key": na["public_key"],
            "key": key_fingerprint(na["public_key"]),
            "signature": na["signature"],
            "status": na["status"],
            "resolved_by": na["resolved_by"],
            "author_key_here": na["author"] in here,
        }
        for na in ws.not_applied()
        if only is None or na["dossier_id"] == only
    ]
    arrived = [
        {
            "seq": a["seq"],
            "entry_hash": a["entry_hash"],
            "at": a["at"],
            "kind": a["kind"],
            "action": a["action"],
            "dossier_id": a["dossier_id"],
            "revision": a["revision"],
            "actor": a["actor"],
            "role": a["role"],
            "signer": a["signer"],
            "public_key": a["public_key"],
            "key": key_fingerprint(a["public_key"]),
            "signature": a["signature"],
        }
        for a in ws.arrived()
        if only is None or a["dossier_id"] == only
    ]
    return {
        "read_only": ws.read_only,
        "read_only_reason": ws.journal_fault,
        "one_machine": one_machine_note(holdings),
        "journal": {
            "valid": view.valid,
            "entries": view.count,
            "head": ws.journal_head(),
            "witness": view.witness,
            "summary": view.summary,
        },
        "principals": [
            {
                "principal_id": h.principal.principal_id,
                "role": h.principal.role.value,
                "kind": h.principal.kind.value,
                "key": h.place.value,
            }
            for h in holdings
        ],
        "dossiers": dossiers,
        "not_applied": not_applied,
        "arrived": arrived,
        "history": [
            {
                "seq": e.seq,
                "at": e.at,
                "dossier_id": e.dossier_id,
                "revision": e.revision,
                "who": e.who,
                "role": e.role,
                "kind": e.kind,
                "what": e.what,
                "change": e.change,
                "outcome": e.outcome,
                "signature": e.signature,
                "signer": e.signer.split(" ")[0] if e.signature != "unchecked" else None,
                "key": e.key,
            }
            for e in view.entries
            if only is None or e.dossier_id == only
        ],
    }


def _print_status(status: dict[str, Any]) -> None:
    if status["read_only"]:
        print(f"READ-ONLY: {status['read_only_reason']}")
    print(status["journal"]["summary"])
    here = [p["principal_id"] for p in status["principals"] if p["key"] == "here"]
    elsewhere = [p["principal_id"] for p in status["principals"] if p["key"] != "here"]
    print(f"you can act as: {', '.join(here) or 'nobody (no key of this registry here)'}")
    print(f"held elsewhere: {', '.join(elsewhere) or 'nobody'}")
    if status["one_machine"]:
        print(status["one_machine"])
    for d in status["dossiers"]:
        for r in d["revisions"]:
            who = ", ".join(
                f"{label} {r[key]}"
                for label, key in (
                    ("author", "author"),
                    ("bound by", "bound_by"),
                    ("checked by", "checked_by"),
                )
                if r[key]
            )
            superseded = " (superseded)" if r["superseded"] else ""
            print(f"{d['dossier_id']} revision {r['revision']}: {r['state']}{superseded}; {who}")
    if status["arrived"]:
        print(arrived_banner(status["arrived"]) + " since you last opened this workspace:")
        for a in status["arrived"]:
            step = a["action"] or a["kind"]
            print(f"  #{a['seq']:<3} {a['at']}  {a['actor']} {step} key {a['key'] or 'none'}")
    pending = [na for na in status["not_applied"] if na["status"] == "not_applied"]
    if status["not_applied"]:
        print(f"not applied (a concurrent branch lost the fork): {len(pending)} to resolve")
    for na in status["not_applied"]:
        step = _what_action(na)
        if na["status"] != "not_applied":
            print(f"  {na['entry_hash']}  {na['author']} {step}: {na['status']}")
            continue
        todo = (
            "redo or withdraw it: 'aa-review dossier redo|withdraw WORKSPACE ENTRY_HASH "
            f"--as {na['author']}'"
            if na["author_key_here"]
            else f"only {na['author']} can redo or withdraw it (key held elsewhere)"
        )
        print(
            f"  {na['entry_hash']}  {na['author']} ({na['role']}) {step} at {na['at']}, "
            f"key {na['key'] or 'none'}; {todo}"
        )
    for e in status["history"]:
        change = f" [{e['change']}]" if e["change"] else ""
        key = f" key {e['key']}" if e["key"] else ""
        print(
            f"#{e['seq']:<3} {e['at']}  {e['who']} ({e['role']}) {e['what']}{change} "
            f"{e['outcome']} {e['signature']}{key}".rstrip()
        )


def arrived_banner(arrived: list[dict[str, Any]]) -> str:
    """``3 entries arrived: bound by p-lead-ada, checked by p-eval-cy`` (who did what, once)."""
    return arrived_summary(arrived)
