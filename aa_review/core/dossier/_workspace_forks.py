"""Redoing or withdrawing an action that lost a fork (spec 10.6).

A not-applied action stays in the workspace. Its author either redoes it on the
kept branch -- the same step, validated against the state there and signed again,
its first entry carrying ``payload.redoes`` -- or withdraws it with an entry of
kind ``withdrawn`` (``payload.withdraws``). Both name the not-applied action's
first ``entry_hash``; nobody but its author can resolve it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._errors import DossierError, JournalWriteError

if TYPE_CHECKING:
    from aa_review.core.dossier._workspace import Workspace

__all__ = ["ForkResolutionError", "redo_action", "withdraw_action"]

# The steps that can be redone in one call, by the first entry's kind and action.
_TRANSITIONS = {
    "bind": "bind",
    "check": "check",
    "decide_eligible": "decide_eligible",
    "defer": "decide_deferred",
}


class ForkResolutionError(DossierError):
    """A not-applied action cannot be redone or withdrawn (as asked, or by this person)."""

    def __init__(self, reason_code: str, message: str) -> None:
        self.reason_code = reason_code
        super().__init__(f"{reason_code}: {message}")


def _pending(ws: Workspace, entry_hash: str, actor_id: str) -> dict[str, Any]:
    found = next((na for na in ws.not_applied() if na["entry_hash"] == entry_hash), None)
    if found is None:
        raise ForkResolutionError(
            "NOT_APPLIED_UNKNOWN", f"no not-applied action starts with entry {entry_hash}"
        )
    if found["status"] != "not_applied":
        raise ForkResolutionError(
            "NOT_APPLIED_RESOLVED",
            f"the action of {found['author']!r} was {found['status']} already "
            f"(entry {found['resolved_by']})",
        )
    if actor_id != found["author"]:
        raise ForkResolutionError(
            "NOT_APPLIED_NOT_AUTHOR",
            f"only its author {found['author']!r} can redo or withdraw this action, "
            f"not {actor_id!r}",
        )
    return found


def _mark(ws: Workspace, entry_hash: str, status: str, by: str) -> None:
    for na in ws.journal.not_applied:
        if na["entry_hash"] == entry_hash:
            na["status"], na["resolved_by"] = status, by


def redo_action(ws: Workspace, entry_hash: str, actor_id: str) -> Any:
    """Do the not-applied action again on the kept branch, as its author; returns its result.

    Transitions (bind, check, decide eligible, defer) return the ``TransitionResult``
    (which may be ``refused``: the kept state decides); a denied operation returns
    the denial; a projection returns the new projection.

    Raises
    ------
    ForkResolutionError
        No such not-applied action, resolved already, not the actor's, or a step that
        cannot be redone in one call (withdraw it and act again).
    """
    ws.journal.require_writable()
    na = _pending(ws, entry_hash, actor_id)
    first = na["entries"][0]
    d, r, payload = first["dossier_id"], first["revision"], first["payload"]
    before = len(ws.journal_entries())
    ws.writer.redoing = entry_hash
    try:
        if na["kind"] == "transition" and na["action"] in _TRANSITIONS:
            result: Any = getattr(ws, _TRANSITIONS[na["action"]])(d, r, actor_id)
        elif na["kind"] == "operation_denied":
            result = ws.attempt_operation(payload.get("op"), actor_id, payload.get("target"))
        elif na["kind"] == "projection_published":
            result = ws.project(d, r, actor_id)
        else:
            raise ForkResolutionError(
                "NOT_APPLIED_NOT_REDOABLE",
                f"a {na['kind']} {na['action'] or ''} cannot be redone in one step; "
                "withdraw it and take the step again",
            )
    finally:
        ws.writer.redoing = None
    added = ws.journal_entries()[before:]
    if added and added[0]["payload"].get("redoes") == entry_hash:
        if added[0]["kind"] != "transition_refused":
            _mark(ws, entry_hash, "redone", added[0]["entry_hash"])
    return result


def withdraw_action(ws: Workspace, entry_hash: str, actor_id: str) -> dict[str, Any]:
    """Withdraw the not-applied action, as its author, with a ``withdrawn`` entry.

    Raises
    ------
    ForkResolutionError
        No such not-applied action, resolved already, or not the actor's.
    WorkspaceReadOnlyError, JournalWriteError
        Nothing could be written.
    """
    ws.journal.require_writable()
    na = _pending(ws, entry_hash, actor_id)
    actor = ws.principals.get(actor_id)
    if actor is None or ws.can_act(actor_id) is not None:
        raise ForkResolutionError("ACTOR_KEY_UNAVAILABLE", str(ws.can_act(actor_id)))
    try:
        entry = ws.writer.append(
            ws.now(),
            "withdrawn",
            dossier_id=na["dossier_id"],
            revision=na["revision"],
            actor=actor,
            payload={"withdraws": entry_hash, "kind": na["kind"], "action": na["action"]},
        )
    except JournalWriteError:
        raise
    _mark(ws, entry_hash, "withdrawn", entry["entry_hash"])
    return entry
