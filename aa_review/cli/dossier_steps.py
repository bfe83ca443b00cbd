"""``aa-review dossier init|add-principal|import|bind|check|decide|publish|redo|withdraw|status``.

Every step of the window's Dossier tab, on a workspace folder, acting ``--as`` a
principal whose private key is in this user's key store. This module builds their
parsers, without the dossier core; what they do is in
:mod:`aa_review.cli._dossier_steps_run`, imported (with the core) only when a step runs.

Exit codes: 0 done; 1 refused, with the reason in words (the step, the role it
needs, the role the principal holds); 2 the input could not be evaluated (a file
unreadable or malformed, a workspace that opens read-only or is in use).
"""

from __future__ import annotations

import argparse

__all__ = ["add_workspace_check_arguments", "register"]


def _run(args: argparse.Namespace) -> int:
    """Run the workspace step ``args`` names: its implementation, and the dossier core
    with it, is imported now and not when the parser is built."""
    from aa_review.cli import _dossier_steps_run

    return _dossier_steps_run.RUNS[args.dossier_command](args)


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
    i.set_defaults(func=_run)

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
    a.set_defaults(func=_run)

    m = dsub.add_parser(
        "import",
        help="import a dossier file into a workspace",
        description="T0: the file comes in as draft or evidence_bound (a later state "
        "is imported as evidence_bound). Exit 0: imported; 1: refused; 2: unreadable.",
    )
    m.add_argument("workspace", help="the workspace folder")
    m.add_argument("dossier", help="dossier JSON file")
    _as(m, "the importer (the author, a training_research_lead)")
    m.set_defaults(func=_run)

    b = dsub.add_parser(
        "bind",
        help="bind a draft's evidence (training_research_lead)",
        description="T1. Exit 0: bound; 1: refused or expired; 2: unreadable.",
    )
    _step_arguments(b, "a training_research_lead")
    b.set_defaults(func=_run)

    d = dsub.add_parser(
        "decide",
        help="decide a checked revision eligible or deferred (human maintainer)",
        description="T5 (eligible) or T4 (deferred). Exit 0: decided; 1: refused or "
        "expired; 2: unreadable.",
    )
    d.add_argument("decision", choices=("eligible", "deferred"))
    _step_arguments(d, "a human maintainer (kind human)")
    d.set_defaults(func=_run)

    p = dsub.add_parser(
        "publish",
        help="publish the public projection of a decided revision",
        description="Write the projection into the workspace's projections/ and print "
        "it (or write it to --out). Exit 0: published; 1: refused; 2: unreadable.",
    )
    _step_arguments(p, "any principal who is not on the training side")
    p.add_argument("--out", metavar="FILE", help="also write the projection to FILE")
    p.set_defaults(func=_run)

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
        f.set_defaults(func=_run)

    s = dsub.add_parser(
        "status",
        help="revisions, states, who did what, the journal head, whose key is here",
        description="Read-only. Exit 0: printed (even for a read-only workspace, whose "
        "reason is printed); 2: the folder cannot be opened.",
    )
    s.add_argument("workspace", help="the workspace folder")
    s.add_argument("dossier_id", nargs="?", help="only this dossier")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_run)


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
