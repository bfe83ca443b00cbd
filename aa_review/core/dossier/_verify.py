"""Journal verification: strict entries, chain, registry, signatures, replay, anchors (spec 10).

``verify_journal`` never raises: every input, however hostile, gives a result.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._errors import PrincipalRegistryError
from aa_review.core.dossier._journal import ENTRY_KINDS, GENESIS_HASH, entry_hash
from aa_review.core.dossier._keys import verify_signature
from aa_review.core.dossier._principals import Kind, Principal, PrincipalRegistry, Role
from aa_review.core.dossier._projection import is_projection, projection_signer
from aa_review.core.dossier._states import Action, DossierState, find_transition
from aa_review.core.dossier._strict import value_problem
from aa_review.core.package.safepath import read_beneath

__all__ = [
    "JournalVerifier",
    "Replay",
    "anchor_heads",
    "anchor_items",
    "registry_versions",
    "verify_journal",
    "verify_read",
    "verify_with",
]

_KEYS = frozenset(
    {
        "seq",
        "prev_hash",
        "at",
        "kind",
        "dossier_id",
        "revision",
        "actor",
        "from_state",
        "to_state",
        "payload",
        "entry_hash",
    }
)
_SIGNED_KEYS = _KEYS | {"signature"}
_ANCHOR_LIMIT = 1 << 20
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
        payload = e["payload"]
        actor_id = e["actor"].get("principal_id")
        to_state = _state(e["to_state"])
        if e["kind"] == "imported":
            if key in self.revisions or to_state not in _IMPORTABLE:
                return "JOURNAL_ILLEGAL_TRANSITION"
            self.revisions[key] = _Rev(
                to_state,
                _str(payload.get("created_by")),
                _str(payload.get("bound_by")),
                training_side=_strs(payload.get("training_side")),
            )
            return None
        current = self.revisions.get(key)
        from_state = _state(e["from_state"])
        if (current.state if current else None) is not from_state or (
            e["from_state"] is not None and from_state is None
        ):
            return "JOURNAL_ILLEGAL_TRANSITION"
        t = find_transition(from_state, to_state, Role.parse(e["actor"].get("role")))
        # Whether a maintainer is of kind human is the registry's to say (10.1, checked
        # before this replay when the caller passes its registry), never the entry's own.
        if t is None:
            return "JOURNAL_ILLEGAL_TRANSITION"
        if current is None:
            current = self.revisions[key] = _Rev(DossierState.DRAFT, author=actor_id)
        if t.action is Action.BIND:
            current.binder = actor_id
            current.training_side = _strs(payload.get("training_side"))
        elif t.action is Action.CHECK:
            if actor_id in {current.author, current.binder} | current.training_side:
                return "JOURNAL_SEPARATION_OF_DUTIES"
            current.checker = actor_id
        elif t.action is Action.DECIDE_ELIGIBLE:
            others = {current.author, current.binder, current.checker} | current.training_side
            if actor_id in others:
                return "JOURNAL_SEPARATION_OF_DUTIES"
        current.state = to_state  # type: ignore[assignment]  # t.to_state: every replayed step has one
        return None


def _state(value: object) -> DossierState | None:
    if isinstance(value, str) and value in DossierState._value2member_map_:
        return DossierState(value)
    return None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _strs(value: object) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def registry_versions(principals: Any) -> dict[str, PrincipalRegistry]:
    """Registry versions by digest, from what a caller holds.

    Parameters
    ----------
    principals : list, dict or PrincipalRegistry
        One registry (a list of principal records, a ``{"principals": [...]}`` tree or a
        :class:`PrincipalRegistry`), or a mapping ``registry_digest -> registry`` of every
        version a workspace kept. Versions that are not valid registries are left out
        (entries naming them are then ``JOURNAL_REGISTRY_UNTRUSTED``).
    """
    if isinstance(principals, PrincipalRegistry):
        return {principals.digest: principals}
    if isinstance(principals, Mapping) and "principals" in principals:
        principals = principals["principals"]
    candidates = list(principals.values()) if isinstance(principals, Mapping) else [principals]
    out: dict[str, PrincipalRegistry] = {}
    for tree in candidates:
        if isinstance(tree, PrincipalRegistry):
            out[tree.digest] = tree
            continue
        if isinstance(tree, Mapping):
            tree = tree.get("principals")
        if not isinstance(tree, list):
            continue
        try:
            reg = PrincipalRegistry(tree)
            out[reg.digest] = reg
        except (PrincipalRegistryError, ValueError, TypeError, RecursionError):
            continue
    return out


def _needs_human_maintainer(e: dict[str, Any]) -> bool:
    """Entries that a rule reserves to a human maintainer (role and kind, spec 1.4)."""
    if e["kind"] == "registry_changed":
        return True
    if e["kind"] == "signoff":
        return bool(e["payload"].get("subject") == "amendment_authorization")
    return bool(e["kind"] == "transition" and e["actor"].get("role") == Role.HUMAN_MAINTAINER.value)


class JournalVerifier:
    """Checks entries one by one, in order (steps 1 to 4 of spec 10, with 10.1, 10.2, 10.4).

    Parameters
    ----------
    registries : dict, optional
        ``registry_digest -> PrincipalRegistry`` (see :func:`registry_versions`). Without
        it, actors, registries and signatures are not checked (spec 10, sections 4-10).

    Attributes
    ----------
    signatures : list of dict
        Per entry checked: ``{"seq", "signer", "status"}``; status ``valid``, ``invalid``,
        ``missing`` (the signer has a key, the entry no signature), ``not_required`` (no
        key in the registry) or ``unchecked`` (no registry given).
    in_force : str or None
        The registry digest in force after the entries checked so far.
    """

    def __init__(self, registries: Mapping[str, PrincipalRegistry] | None = None) -> None:
        self.registries = registries
        self.replay = Replay()
        self.prev = GENESIS_HASH
        self.count = 0
        self.in_force: str | None = None
        self.genesis_registry: str | None = None
        self.history: list[str] = []
        self.signatures: list[dict[str, Any]] = []
        # The registry digest in force after each accepted entry (a projection anchored
        # at head ``seq`` is checked against ``in_force_at[seq]``, spec 10.5).
        self.in_force_at: list[str | None] = []

    def feed(self, e: Any) -> str | None:
        """Check the next entry; returns its reason code when it is bad (then stop feeding)."""
        i = self.count
        if not _well_formed(e):
            return "JOURNAL_ENTRY_MALFORMED"
        if e["seq"] != i:
            return "JOURNAL_SEQ_GAP"
        if e["prev_hash"] != self.prev:
            return "JOURNAL_PREV_HASH_MISMATCH"
        if entry_hash(e) != e["entry_hash"]:
            return "JOURNAL_ENTRY_HASH_MISMATCH"
        reason = self._registry_and_signature(e) if self.registries is not None else None
        if reason is None and self.registries is None:
            self.signatures.append({"seq": i, "signer": None, "status": "unchecked"})
        reason = reason or self.replay.apply(e)
        if reason is not None:
            return reason
        self.prev = e["entry_hash"]
        self.count += 1
        self.in_force_at.append(self.in_force)
        return None

    def _registry_and_signature(self, e: dict[str, Any]) -> str | None:
        """10.1 and 10.2, first in step 4: registry in force, actor, role, kind, signature."""
        assert self.registries is not None
        payload = e["payload"]
        named = payload.get("registry_digest")
        if self.in_force is None:  # the first registry is trusted on first use
            if named not in self.registries:
                return "JOURNAL_REGISTRY_UNTRUSTED"
            self.in_force = self.genesis_registry = named
            self.history.append(named)
        elif named != self.in_force or named not in self.registries:
            return "JOURNAL_REGISTRY_UNTRUSTED"
        registry = self.registries[named]
        actor = registry.get(e["actor"].get("principal_id"))
        if actor is None:
            return "JOURNAL_ACTOR_UNKNOWN"
        if actor.role.value != e["actor"].get("role"):
            return "JOURNAL_ROLE_NOT_HELD"
        signer: Principal | None = actor
        if actor.role is Role.SYSTEM_REDUCER:
            signer = registry.get(payload.get("caused_by"))
            if signer is None or signer.role is Role.SYSTEM_REDUCER:
                return "JOURNAL_ACTOR_UNKNOWN"
        if _needs_human_maintainer(e) and not (
            actor.role is Role.HUMAN_MAINTAINER and actor.kind is Kind.HUMAN
        ):
            return "JOURNAL_ROLE_NOT_HELD"
        assert signer is not None
        status = "not_required"
        if signer.public_key is not None:
            if "signature" not in e:
                status = "missing"
            else:
                status = (
                    "valid"
                    if verify_signature(signer.public_key, e["entry_hash"], e["signature"])
                    else "invalid"
                )
        self.signatures.append(
            {
                "seq": e["seq"],
                "signer": signer.principal_id,
                "status": status,
                "public_key": signer.public_key,
            }
        )
        if status in ("missing", "invalid"):
            return "JOURNAL_SIGNATURE_INVALID"
        if e["kind"] == "registry_changed":
            if (
                payload.get("old_registry_digest") != self.in_force
                or not is_digest(payload.get("new_registry_digest"))
                or payload["new_registry_digest"] not in self.registries
            ):
                # a version that is unknown or no valid registry (two principals sharing
                # one key, spec 10.6) is never put in force
                return "JOURNAL_REGISTRY_UNTRUSTED"
            self.in_force = payload["new_registry_digest"]
            self.history.append(self.in_force)
        return None


def verify_journal(
    entries: Sequence[Any], anchor: Any = None, principals: Any = None
) -> dict[str, Any]:
    """Verify a journal's entries in order and report the first bad one.

    Parameters
    ----------
    entries : sequence
        Parsed entries (anything else, e.g. a ``MalformedLine``, is a malformed line).
    anchor : dict, list, str or PathLike, optional
        A head saved earlier (``{seq, entry_hash}``), a projection carrying
        ``journal_head``, a path to a projection or head JSON file, or a list of
        these (e.g. the witnessed heads). Detects truncation and rewriting. A
        projection counts only when its ``signature`` verifies under a public key of
        the registry in force at its ``journal_head``; an unsigned or forged one (or
        any projection when no registry is given) is refused: the result is invalid
        (``JOURNAL_SIGNATURE_INVALID``) and ``anchor_refused`` says why (spec 10.5).
    principals : list or dict, optional
        The registry (or every version of it, see :func:`registry_versions`). When
        given, each entry's registry, actor, role, kind and signature are checked.

    Returns
    -------
    dict
        ``{"valid": True, "entries": n, "head": {seq, entry_hash} | None}`` or
        ``{"valid": False, "first_bad_seq": i, "reason": code}``.
    """
    return verify_with(
        entries, anchor, registry_versions(principals) if principals is not None else None
    )[0]


def verify_with(
    entries: Sequence[Any], anchor: Any, registries: Mapping[str, PrincipalRegistry] | None
) -> tuple[dict[str, Any], JournalVerifier]:
    """:func:`verify_journal` with registry versions ready, also returning the verifier."""
    verifier = JournalVerifier(registries)
    return _verify(verifier, entries, anchor), verifier


def verify_read(
    read: Any, anchor: Any, registries: Mapping[str, PrincipalRegistry] | None
) -> tuple[dict[str, Any], JournalVerifier, dict[str, dict[str, Any]]]:
    """Verify what a journal file or folder holds, forks included (spec 10.6).

    For a journal folder (``read.settled``): the kept branch is verified as a
    journal; an anchor that names an entry of a not-applied branch is reached; every
    not-applied action is verified in its own place (the chain that leads to it);
    and a file that is no usable action fails the verification, named by the fault.

    Returns
    -------
    tuple
        ``verify_journal``'s result (with ``"file"`` naming the journal file when a
        file is to blame), the kept branch's verifier, and per not-applied action file
        ``{"result", "signatures"}``.
    """
    settled = getattr(read, "settled", None)
    entries = read.entries
    if settled is not None:
        items = anchor_items(anchor)
        if items is not None:
            off = {
                e["entry_hash"]: e["seq"]
                for na in settled.not_applied
                for e in na.action.entries
                if isinstance(e, dict)
            }
            # A head on a not-applied branch is reached (10.6); a projection keeps its
            # signature, which is checked as for any anchor (10.5).
            anchor = [
                projection if projection is not None else head
                for head, projection in items
                if off.get(head["entry_hash"]) != head["seq"]
            ]
    result, verifier = verify_with(entries, anchor, registries)
    branches: dict[str, dict[str, Any]] = {}
    faults = sorted(_fault_at(f) for f in getattr(read, "faults", []) or [])
    if faults and (result["valid"] or faults[0][0] <= result["first_bad_seq"]):
        seq, reason, file = faults[0]
        result = dict(_bad(seq, reason), file=file)
    if result["valid"] and settled is not None:
        for na in settled.not_applied:
            r, v = verify_with(na.entries(), None, registries)
            branches[na.action.name] = {"result": r, "signatures": v.signatures}
            if not r["valid"] and result["valid"]:
                result = dict(r, file=f"journal/{na.action.name}")
    return result, verifier, branches


def _fault_at(fault: str) -> tuple[int, str, str | None]:
    """``(seq, reason, file)`` of a journal folder's fault ``"REASON: journal/<seq>-<hex>…"``."""
    reason, _, rest = fault.partition(": ")
    file = rest.split(" ", 1)[0].rstrip(":") if rest.startswith("journal/") else None
    name = file.rsplit("/", 1)[-1] if file else ""
    digits = name.split("-", 1)[0]
    return (int(digits) if digits.isdigit() else 0, reason, file)


def _verify(verifier: JournalVerifier, entries: Sequence[Any], anchor: Any) -> dict[str, Any]:
    try:
        for e in entries:
            reason = verifier.feed(e)
            if reason is not None:
                return _bad(verifier.count, reason)
        items = anchor_items(anchor)
        if items is None:
            return _bad(0, "JOURNAL_HEAD_MISMATCH")
        for head, projection in sorted(items, key=lambda item: item[0]["seq"]):
            seq = head["seq"]
            if projection is not None:
                refused = _refused_projection(verifier, projection, seq, len(entries))
                if refused is not None:  # never trusted as an anchor (spec 10.5)
                    return {
                        **_bad(min(seq, len(entries)), "JOURNAL_SIGNATURE_INVALID"),
                        "anchor_refused": refused,
                    }
            if seq >= len(entries):
                return _bad(len(entries), "JOURNAL_HEAD_MISMATCH")
            if entries[seq]["entry_hash"] != head["entry_hash"]:
                return _bad(seq, "JOURNAL_HEAD_MISMATCH")
    except Exception:  # noqa: BLE001 - a result, never a traceback (spec 10.4)
        return _bad(verifier.count, "JOURNAL_ENTRY_MALFORMED")
    n = len(entries)
    return {
        "valid": True,
        "entries": n,
        "head": {"seq": n - 1, "entry_hash": verifier.prev} if n else None,
    }


def _refused_projection(
    verifier: JournalVerifier, projection: Mapping[str, Any], seq: int, n: int
) -> str | None:
    """Why a projection is not an anchor: unsigned, or signed by no key of its registry.

    The registry is the one in force at the projection's ``journal_head``. A head the
    journal does not reach has no such registry here: its signature is tried against
    every version given, and one that verifies is a genuine anchor of a truncated
    journal (``JOURNAL_HEAD_MISMATCH`` follows), one that does not is refused.
    """
    if verifier.registries is None:
        return "no principal registry to check the projection's signature against"
    if projection.get("signature") is None:
        return "the projection is unsigned"
    if seq < n:
        digest = verifier.in_force_at[seq]
        registry = verifier.registries.get(digest) if digest is not None else None
        registries = [registry] if registry is not None else []
    else:
        registries = list(verifier.registries.values())
    keys = [p.public_key for reg in registries for p in reg if p.public_key is not None]
    if projection_signer(projection, keys) is None:
        return (
            "the projection's signature verifies under no public key of the registry "
            "in force at its journal_head"
        )
    return None


def anchor_heads(anchor: Any) -> list[dict[str, Any]] | None:
    """The heads an anchor names, or None when it names none usably (never raises)."""
    items = anchor_items(anchor)
    return None if items is None else [head for head, _ in items]


def anchor_items(anchor: Any) -> list[tuple[dict[str, Any], Mapping[str, Any] | None]] | None:
    """``(head, projection or None)`` per head an anchor names; None when one is unusable.

    A projection (``kind: TrainingReadinessPublicProjection``) is kept beside its head:
    it counts as an anchor only once its signature verifies (spec 10.5). A path is read
    as a regular file only (never a FIFO or device, at most 1 MiB). Never raises.
    """
    if anchor is None:
        return []
    if isinstance(anchor, (str, os.PathLike)):
        try:
            path = Path(anchor)
            data = read_beneath(str(path.parent), path.name, limit=_ANCHOR_LIMIT)
            anchor = json.loads(data)
        except (OSError, ValueError, RecursionError):
            return None
    if isinstance(anchor, list):
        out: list[tuple[dict[str, Any], Mapping[str, Any] | None]] = []
        for a in anchor:
            items = anchor_items(a)
            if items is None:
                return None
            out.extend(items)
        return out
    projection = anchor if is_projection(anchor) else None
    if isinstance(anchor, Mapping) and "journal_head" in anchor:
        anchor = anchor["journal_head"]
    if not isinstance(anchor, Mapping):
        return None
    seq = anchor.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return None
    return [({"seq": seq, "entry_hash": anchor.get("entry_hash")}, projection)]


def _well_formed(e: Any) -> bool:
    if not isinstance(e, dict) or not (set(e) == _KEYS or set(e) == _SIGNED_KEYS):
        return False
    if value_problem(e) is not None:
        return False
    seq, revision = e["seq"], e["revision"]
    if not isinstance(seq, int) or isinstance(seq, bool):
        return False
    if revision is not None and (not isinstance(revision, int) or isinstance(revision, bool)):
        return False
    if e["dossier_id"] is not None and not isinstance(e["dossier_id"], str):
        return False
    actor = e["actor"]
    return (
        e["kind"] in ENTRY_KINDS
        and isinstance(actor, dict)
        and isinstance(actor.get("principal_id"), str)
        and isinstance(actor.get("role"), str)
        and isinstance(e["payload"], dict)
        and isinstance(e["entry_hash"], str)
        and isinstance(e["prev_hash"], str)
    )


def _bad(seq: int, reason: str) -> dict[str, Any]:
    return {"valid": False, "first_bad_seq": seq, "reason": reason}
