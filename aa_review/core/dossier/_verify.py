"""Journal verification: sequence, hash chain, replay of the lifecycle, anchor (spec 10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aa_review.core.dossier._journal import ENTRY_KINDS, GENESIS_HASH, entry_hash
from aa_review.core.dossier._principals import Role
from aa_review.core.dossier._states import Action, DossierState, find_transition

__all__ = ["Replay", "verify_journal"]

_KEYS = ("seq", "prev_hash", "at", "kind", "dossier_id", "revision", "actor", "from_state",
         "to_state", "payload", "entry_hash")
_IMPORTABLE = frozenset({DossierState.DRAFT, DossierState.EVIDENCE_BOUND})


@dataclass
class _Rev:
    state: DossierState
    author: str | None = None
    binder: str | None = None
    checker: str | None = None
    training_side: set[str] = field(default_factory=set)


class Replay:
    """Replays ``imported`` and ``transition`` entries into per-revision states."""

    def __init__(self) -> None:
        self.revisions: dict[tuple[str, int], _Rev] = {}

    def states(self) -> dict[tuple[str, int], DossierState]:
        """``(dossier_id, revision) -> state`` after the entries applied so far."""
        return {k: v.state for k, v in self.revisions.items()}

    def apply(self, e: dict[str, Any]) -> str | None:
        """Apply one entry; returns a reason code when it is not a legal step."""
        if e["kind"] not in ("imported", "transition"):
            return None
        key = (e["dossier_id"], e["revision"])
        payload = e["payload"] if isinstance(e["payload"], dict) else {}
        actor_id = e["actor"].get("principal_id")
        to_state = _state(e["to_state"])
        if e["kind"] == "imported":
            if key in self.revisions or to_state not in _IMPORTABLE:
                return "JOURNAL_ILLEGAL_TRANSITION"
            self.revisions[key] = _Rev(to_state, payload.get("created_by"),
                                       payload.get("bound_by"),
                                       training_side=set(payload.get("training_side") or ()))
            return None
        current = self.revisions.get(key)
        from_state = _state(e["from_state"])
        if (current.state if current else None) is not from_state or (
                e["from_state"] is not None and from_state is None):
            return "JOURNAL_ILLEGAL_TRANSITION"
        t = find_transition(from_state, to_state, Role.parse(e["actor"].get("role")))
        if t is None or (t.human_only and payload.get("actor_kind") != "human"):
            return "JOURNAL_ILLEGAL_TRANSITION"
        if current is None:
            current = self.revisions[key] = _Rev(DossierState.DRAFT, author=actor_id)
        if t.action is Action.BIND:
            current.binder = actor_id
            current.training_side = set(payload.get("training_side") or ())
        elif t.action is Action.CHECK:
            if actor_id in {current.author, current.binder} | current.training_side:
                return "JOURNAL_SEPARATION_OF_DUTIES"
            current.checker = actor_id
        elif t.action is Action.DECIDE_ELIGIBLE:
            others = {current.author, current.binder, current.checker} | current.training_side
            if actor_id in others:
                return "JOURNAL_SEPARATION_OF_DUTIES"
        current.state = to_state  # type: ignore[assignment]
        return None


def _state(value: object) -> DossierState | None:
    if isinstance(value, str) and value in DossierState._value2member_map_:
        return DossierState(value)
    return None


def verify_journal(entries: Sequence[Any], anchor: dict[str, Any] | None = None) -> dict[str, Any]:
    """Verify a journal's entries in order and report the first bad one.

    Parameters
    ----------
    entries : sequence
        Parsed entries (a non-object item is a line that was not JSON).
    anchor : dict, optional
        ``{seq, entry_hash}`` of a head saved earlier; detects truncation.

    Returns
    -------
    dict
        ``{"valid": True, "entries": n, "head": {seq, entry_hash} | None}`` or
        ``{"valid": False, "first_bad_seq": i, "reason": code}`` with code one of
        ``JOURNAL_ENTRY_MALFORMED``, ``JOURNAL_SEQ_GAP``, ``JOURNAL_PREV_HASH_MISMATCH``,
        ``JOURNAL_ENTRY_HASH_MISMATCH``, ``JOURNAL_ILLEGAL_TRANSITION``,
        ``JOURNAL_SEPARATION_OF_DUTIES``, ``JOURNAL_HEAD_MISMATCH``.
    """
    replay = Replay()
    prev = GENESIS_HASH
    for i, e in enumerate(entries):
        if not _well_formed(e):
            return _bad(i, "JOURNAL_ENTRY_MALFORMED")
        if e["seq"] != i:
            return _bad(i, "JOURNAL_SEQ_GAP")
        if e["prev_hash"] != prev:
            return _bad(i, "JOURNAL_PREV_HASH_MISMATCH")
        if entry_hash(e) != e["entry_hash"]:
            return _bad(i, "JOURNAL_ENTRY_HASH_MISMATCH")
        reason = replay.apply(e)
        if reason is not None:
            return _bad(i, reason)
        prev = e["entry_hash"]
    if anchor is not None:
        seq = anchor.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            return _bad(0, "JOURNAL_HEAD_MISMATCH")
        if seq >= len(entries):
            return _bad(len(entries), "JOURNAL_HEAD_MISMATCH")
        if entries[seq]["entry_hash"] != anchor.get("entry_hash"):
            return _bad(seq, "JOURNAL_HEAD_MISMATCH")
    head = ({"seq": len(entries) - 1, "entry_hash": prev} if entries else None)
    return {"valid": True, "entries": len(entries), "head": head}


def _well_formed(e: Any) -> bool:
    if not isinstance(e, dict) or any(k not in e for k in _KEYS) or len(e) != len(_KEYS):
        return False
    seq, revision = e["seq"], e["revision"]
    if not isinstance(seq, int) or isinstance(seq, bool):
        return False
    if revision is not None and (not isinstance(revision, int) or isinstance(revision, bool)):
        return False
    actor = e["actor"]
    return (e["kind"] in ENTRY_KINDS and isinstance(actor, dict)
            and isinstance(actor.get("principal_id"), str) and isinstance(actor.get("role"), str)
            and isinstance(e["payload"], dict))


def _bad(seq: int, reason: str) -> dict[str, Any]:
    return {"valid": False, "first_bad_seq": seq, "reason": reason}
