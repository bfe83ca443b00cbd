"""The journal as a timeline: one readable entry per event, verified once per change.

:func:`journal_view` reads what :meth:`Workspace.journal_status` returns (one read
of the file, one verification) and words every entry: when, who and in which role,
what, the state change, the outcome and who signed it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aa_review.core.dossier._denial import denial_words
from aa_review.core.dossier._keys import key_fingerprint
from aa_review.core.dossier._preview import humanize_code
from aa_review.core.dossier._states import Action
from aa_review.core.dossier._steps import STEPS

__all__ = ["JournalView", "TimelineEntry", "arrived_summary", "journal_view"]

_SIGNATURE = {
    "valid": "✓",
    "invalid": "✗ invalid",
    "missing": "✗ missing",
    "not_required": "(no key)",
    "unchecked": "not verified",
}
_DONE = {
    Action.BIND.value: "bound the evidence",
    Action.CHECK.value: "ran the independent check",
    Action.AUTO_DEFER.value: "deferred automatically",
    Action.DEFER.value: "decided deferred",
    Action.DECIDE_ELIGIBLE.value: "decided eligible",
    Action.EXPIRE.value: "expired the revision",
    Action.CREATE.value: "created a revision by editing the evidence",
    Action.EDIT_DRAFT.value: "edited the draft",
}
_SIGNOFFS = {"amendment_authorization": "authorized proposing the activation amendment"}


@dataclass(frozen=True)
class TimelineEntry:
    """One journal entry in words (``payload`` and ``entry_hash`` for details on demand)."""

    seq: int
    at: str
    kind: str
    dossier_id: str | None
    revision: int | None
    who: str
    role: str
    what: str
    change: str
    outcome: str
    signer: str
    signature: str
    entry_hash: str
    payload: Mapping[str, Any] = field(default_factory=dict, compare=False)
    key: str = ""  # the signer's public key, short (key_fingerprint); "" when none

    @property
    def when(self) -> str:
        """``2026-03-01 09:30:00`` (the journal's UTC time, without the T and Z)."""
        return self.at.replace("T", " ").removesuffix("Z") + " UTC" if self.at else ""


@dataclass(frozen=True)
class JournalView:
    """The verified journal, once.

    Attributes
    ----------
    valid : bool
    count : int
        Entries read.
    head_seq, head_hash : int or None, str or None
        The last entry.
    first_bad_seq : int or None
    reason : str or None
        Why verification failed.
    all_signed : bool
        Every entry carries a valid signature of its principal.
    witness : str
        ``matches``, ``mismatch``, ``unwitnessed_tail`` or ``not_witnessed``.
    witnessed_seq : int or None
    entries : tuple of TimelineEntry
        Every entry, oldest first.
    """

    valid: bool
    count: int
    head_seq: int | None
    head_hash: str | None
    first_bad_seq: int | None
    reason: str | None
    all_signed: bool
    witness: str
    witnessed_seq: int | None
    entries: tuple[TimelineEntry, ...]

    def for_dossier(self, dossier_id: str | None) -> tuple[TimelineEntry, ...]:
        """Entries of one dossier (all entries for None)."""
        if dossier_id is None:
            return self.entries
        return tuple(e for e in self.entries if e.dossier_id == dossier_id)

    def denials(self, dossier_id: str | None = None) -> tuple[TimelineEntry, ...]:
        """``operation_denied`` entries, of requests that named ``dossier_id`` when given."""
        return tuple(
            e
            for e in self.entries
            if e.kind == "operation_denied"
            and (dossier_id is None or e.payload.get("target") == dossier_id)
        )

    @property
    def summary(self) -> str:
        """The verification in one sentence, with the head digest and the witness."""
        witness = {
            "matches": f"matches this machine's witness (head #{self.witnessed_seq})",
            "mismatch": "does NOT reach the head this machine witnessed: entries were cut, "
            "removed or rewritten",
            "unwitnessed_tail": "the last head could not be recorded in the witness store",
        }.get(self.witness, "not witnessed yet (empty journal)")
        if not self.valid:
            return (
                f"Journal NOT valid: first bad entry #{self.first_bad_seq}: {self.reason}. "
                f"Witness: {witness}. The workspace is read-only until a human repairs it."
            )
        signed = (
            "every entry signed by its principal"
            if self.all_signed
            else "entries of principals without a key are unsigned"
        )
        head = (
            f"head #{self.head_seq} {self.head_hash}"
            if self.head_hash is not None
            else "no entries"
        )
        return (
            f"Journal verified: {self.count} entries, hash chain intact, {signed}; "
            f"{head}. Witness: {witness}."
        )


def journal_view(status: Mapping[str, Any]) -> JournalView:
    """Word every entry of :meth:`Workspace.journal_status`'s result."""
    verdict, witness = status["verdict"], status.get("witness") or {}
    signed = {s["seq"]: s for s in status.get("signatures") or []}
    raw = [e for e in status.get("entries") or [] if isinstance(e, dict)]
    entries = tuple(_entry(e, signed.get(e.get("seq"))) for e in raw)
    last = raw[-1] if raw else None
    seen = witness.get("witnessed") or {}
    return JournalView(
        valid=bool(verdict.get("valid")),
        count=len(raw),
        head_seq=last.get("seq") if last else None,
        head_hash=str(last.get("entry_hash")) if last else None,
        first_bad_seq=verdict.get("first_bad_seq"),
        reason=verdict.get("reason"),
        all_signed=bool(signed) and all(s["status"] == "valid" for s in signed.values()),
        witness=str(witness.get("status") or "not_witnessed"),
        witnessed_seq=seen.get("seq") if isinstance(seen, dict) else None,
        entries=entries,
    )


def _entry(e: dict[str, Any], sig: Mapping[str, Any] | None) -> TimelineEntry:
    found_actor, found_payload = e.get("actor"), e.get("payload")
    actor: dict[str, Any] = found_actor if isinstance(found_actor, dict) else {}
    payload: dict[str, Any] = found_payload if isinstance(found_payload, dict) else {}
    who = str(actor.get("principal_id") or "?")
    if payload.get("caused_by"):
        who = f"{who} for {payload['caused_by']}"
    frm, to = e.get("from_state"), e.get("to_state")
    change = (
        ""
        if frm == to and frm is not None
        else f"{frm or '∅'} → {to or '∅'}"
        if (frm or to)
        else ""
    )
    if e.get("kind") == "transition_refused":  # the state asked for was not reached
        change = f"stays {frm}" if frm else ""
    what, outcome = _what(str(e.get("kind")), payload, to)
    signer = (
        f"{sig['signer']} {_SIGNATURE.get(sig['status'], sig['status'])}"
        if sig and sig.get("signer")
        else ("not verified" if sig is None else _SIGNATURE.get(sig["status"], sig["status"]))
    )
    return TimelineEntry(
        seq=int(e.get("seq", -1)),
        at=str(e.get("at") or ""),
        kind=str(e.get("kind")),
        dossier_id=e.get("dossier_id"),
        revision=e.get("revision"),
        who=who,
        role=str(actor.get("role") or ""),
        what=what,
        change=change,
        outcome=outcome,
        signer=signer,
        signature=str(sig["status"]) if sig else "unchecked",
        entry_hash=str(e.get("entry_hash") or ""),
        payload=payload,
        key=key_fingerprint(sig.get("public_key")) if sig else "",
    )


def _what(kind: str, p: Mapping[str, Any], to: Any) -> tuple[str, str]:
    if kind == "imported":
        return f"imported the dossier as {to}", "applied"
    if kind == "transition":
        action = str(p.get("action"))
        what = _DONE.get(action, action)
        if action == Action.CHECK.value:
            failing = [g for g, s in (p.get("gates") or {}).items() if s != "pass"]
            outcome = (
                "every gate passes"
                if not failing
                else f"{len(failing)} gate{'s' if len(failing) > 1 else ''} not passing: "
                f"{', '.join(failing)}"
            )
            return what, outcome
        if action == Action.AUTO_DEFER.value:
            gates = ", ".join(p.get("gates_not_passing") or []) or "a dossier-level reason"
            return f"{what} (not passing: {gates})", "applied"
        if action == Action.EXPIRE.value:
            reasons = "; ".join(humanize_code(str(c)) for c in p.get("reasons") or [])
            return f"{what}: {reasons}" if reasons else what, "applied"
        if action in (Action.CREATE.value, Action.EDIT_DRAFT.value) and p.get("path"):
            return f"{what} ({'.'.join(str(x) for x in p['path'])})", "applied"
        return what, "applied"
    if kind == "transition_refused":
        asked = p.get("action")
        step = next((s for s in STEPS if str(s) == asked), None)
        noun = STEPS[step].noun if step is not None else str(asked)
        return f"asked for {noun}", f"refused: {humanize_code(str(p.get('reason', '')))}"
    if kind == "operation_denied":
        op = str(p.get("op", "")).replace("_", " ")
        return (
            f"asked to {op} ({p.get('target') or 'no target'})",
            f"denied: {denial_words(str(p.get('reason_code', '')))}",
        )
    if kind == "signoff":
        subject = str(p.get("subject"))
        return _SIGNOFFS.get(subject, f"signed off {subject.replace('_', ' ')}"), "applied"
    if kind == "projection_published":
        return f"published a public projection ({p.get('outcome')})", "applied"
    if kind == "registry_changed":
        return "changed the principal registry", "applied"
    return kind.replace("_", " "), ""


_ARRIVED = {
    Action.BIND.value: "bound",
    Action.CHECK.value: "checked",
    Action.AUTO_DEFER.value: "deferred automatically",
    Action.DEFER.value: "deferred",
    Action.DECIDE_ELIGIBLE.value: "decided eligible",
    Action.EXPIRE.value: "expired",
    Action.CREATE.value: "revised",
    Action.EDIT_DRAFT.value: "edited",
}
_ARRIVED_KINDS = {
    "imported": "imported",
    "signoff": "signed off",
    "operation_denied": "an operation denied to",
    "projection_published": "published",
    "registry_changed": "registry changed",
    "withdrawn": "withdrawn",
    "transition_refused": "a step refused to",
}


def arrived_summary(arrived: Sequence[Mapping[str, Any]]) -> str:
    """What arrived, in one line: ``3 entries arrived: bound by p-lead-ada, checked by p-eval-cy``.

    ``arrived`` is :meth:`Workspace.arrived`'s list. Each (what, who) is named once, in
    the order they happened; ``""`` when nothing arrived.
    """
    if not arrived:
        return ""
    seen: list[str] = []
    for a in arrived:
        kind = str(a.get("kind") or "")
        what = (
            _ARRIVED.get(str(a.get("action")), str(a.get("action")))
            if kind == "transition"
            else _ARRIVED_KINDS.get(kind, kind)
        )
        who = str(a.get("actor") or "?")
        if a.get("signer") and a.get("signer") != who:
            who = f"{who} for {a['signer']}"
        words = f"{what} {who}" if what.endswith(" to") else f"{what} by {who}"
        if words not in seen:
            seen.append(words)
    n = len(arrived)
    return f"{n} {'entry' if n == 1 else 'entries'} arrived: {', '.join(seen)}"
