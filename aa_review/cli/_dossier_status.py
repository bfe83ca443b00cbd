"""``aa-review dossier status``: a workspace's revisions, states, who did what, its journal.

Read-only; imported only when a workspace sub-command runs (it imports the dossier core).
"""

from __future__ import annotations

from typing import Any

from aa_review.cli._dossier_input import Unusable
from aa_review.core.dossier import (
    Workspace,
    arrived_summary,
    journal_view,
    key_fingerprint,
    one_machine_note,
)

__all__ = ["arrived_banner", "print_status", "what_action", "workspace_status"]


def workspace_status(ws: Workspace, only: str | None = None) -> dict[str, Any]:
    """Revisions, states, who did what, the journal head and whose key is here."""
    view = journal_view(ws.journal_status())
    ids = [only] if only is not None else ws.dossier_ids()
    if only is not None and only not in ws.dossier_ids():
        raise Unusable(f"no dossier {only!r} in this workspace")
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


def print_status(status: dict[str, Any]) -> None:
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
        step = what_action(na)
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


def what_action(na: dict[str, Any]) -> str:
    """``bind d-1 revision 2``: the step a not-applied action took, and on what."""
    step = na.get("action") or na.get("kind")
    where = f"{na['dossier_id']} revision {na['revision']}" if na.get("dossier_id") else ""
    return f"{step} {where}".strip()
