"""Public projection: a new artifact built from an allowlist, never a redacted copy (spec 9)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from aa_review.core.dossier._canonical import canonical_json, is_digest
from aa_review.core.dossier._errors import ProjectionError
from aa_review.core.dossier._gates_common import GATE_IDS
from aa_review.core.dossier._keys import verify_signature
from aa_review.core.dossier._states import DossierState

__all__ = [
    "PROJECTABLE_STATES",
    "PUBLIC_KEYS",
    "build_projection",
    "check_projection",
    "is_projection",
    "private_strings",
    "projection_signer",
    "sign_projection",
    "signed_text",
]

PROJECTABLE_STATES = frozenset({DossierState.ELIGIBLE, DossierState.DEFERRED, DossierState.EXPIRED})
PUBLIC_KEYS = frozenset(
    {
        "kind",
        "schema_version",
        "projection_id",
        "spec",
        "spec_revision",
        "activation",
        "outcome",
        "gates",
        "created_on",
        # The amendments of section 10: the head the projection was made under (10.3)
        # and the publisher's signature over the rest (10.5); null outside a workspace.
        "journal_head",
        "signature",
    }
)
_CONSTANTS: dict[str, Any] = {
    "kind": "TrainingReadinessPublicProjection",
    "schema_version": 1,
    "spec": "SPEC-026",
    "spec_revision": 1,
    "activation": "deferred",
}
_OUTCOMES = frozenset(s.value for s in PROJECTABLE_STATES)
_STATUSES = frozenset({"pass", "fail", "unknown"})
# Strings a projection legitimately contains; equal private strings are not leaks.
_VOCABULARY = (
    frozenset(str(v) for v in _CONSTANTS.values())
    | PUBLIC_KEYS
    | _OUTCOMES
    | {"seq", "entry_hash"}
    | _STATUSES
    | frozenset(GATE_IDS)
)
_SIGNATURE = re.compile(r"^ed25519:[A-Za-z0-9+/]{85}[AEIMQUYcgkosw048]==$")  # 64 bytes, base64
_UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Shorter private strings are compared to whole JSON tokens only (a substring test
# on "h" or "tb" would match the projection's own words).
_MIN_SUBSTRING = 6


def build_projection(
    state: DossierState,
    check: Mapping[str, Any] | None,
    now: datetime,
    journal_head: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The projection of a final revision: outcome, gate conclusions, a fresh random id.

    Parameters
    ----------
    state : DossierState
        ``eligible``, ``deferred`` or ``expired``.
    check : mapping or None
        The revision's last check record (JSON); gates read ``unknown`` without one.
    now : datetime
        Only its UTC date is published.
    journal_head : mapping, optional
        ``{seq, entry_hash}`` of the journal that holds the decision (spec 10.3); None
        outside a workspace.
    """
    if state not in PROJECTABLE_STATES:
        raise ProjectionError(
            "PROJECTION_STATE_NOT_FINAL", f"a {state.value} revision has no public projection"
        )
    gates_raw = check.get("gates") if isinstance(check, Mapping) else None
    gates: dict[str, str] = {}
    for gid in GATE_IDS:
        entry = gates_raw.get(gid) if isinstance(gates_raw, Mapping) else None
        status = entry.get("status") if isinstance(entry, Mapping) else None
        gates[gid] = status if status in _STATUSES else "unknown"
    return {
        **_CONSTANTS,
        "projection_id": str(uuid.uuid4()),
        "outcome": state.value,
        "gates": gates,
        "created_on": now.astimezone(UTC).strftime("%Y-%m-%d"),
        "journal_head": (
            {"seq": journal_head["seq"], "entry_hash": journal_head["entry_hash"]}
            if journal_head is not None
            else None
        ),
        "signature": None,
    }


def signed_text(projection: Mapping[str, Any]) -> str:
    """What a projection's signature signs: its canonical form (1.3) without ``signature``."""
    return canonical_json({k: v for k, v in projection.items() if k != "signature"}).decode("utf-8")


def sign_projection(
    projection: Mapping[str, Any], sign: Callable[[str], str] | None
) -> dict[str, Any]:
    """The projection with ``signature`` by ``sign`` (the publisher's key; spec 10.5).

    ``sign(text) -> "ed25519:<base64>"`` signs the UTF-8 bytes of :func:`signed_text`.
    Without a key (no workspace folder, a principal without a public key) the
    projection stays unsigned (``signature: null``) and is never accepted as an anchor.
    The signature names no principal: a verifier tries the registry's public keys.
    """
    out = dict(projection)
    out["signature"] = sign(signed_text(out)) if sign is not None else None
    return out


def is_signature(value: object) -> bool:
    """Whether ``value`` has the form of a signature: ``"ed25519:<base64 of 64 bytes>"``."""
    return isinstance(value, str) and _SIGNATURE.fullmatch(value) is not None


def is_projection(value: object) -> bool:
    """Whether ``value`` is offered as a public projection (rather than a bare head)."""
    return isinstance(value, Mapping) and value.get("kind") == _CONSTANTS["kind"]


def projection_signer(projection: Mapping[str, Any], public_keys: Iterable[object]) -> str | None:
    """The first of ``public_keys`` whose key made the projection's signature, else None.

    Never raises: a missing, null or malformed signature verifies under no key.
    """
    signature = projection.get("signature")
    if not is_signature(signature):
        return None
    try:
        text = signed_text(projection)
    except (TypeError, ValueError, RecursionError):
        return None
    for key in public_keys:
        if isinstance(key, str) and verify_signature(key, text, signature):
            return key
    return None


def private_strings(*trees: Any) -> set[str]:
    """Every string (keys excluded) in the given private JSON trees, minus the public vocabulary."""
    out: set[str] = set()
    stack = list(trees)
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, Mapping):
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
    return {s for s in out if s and s not in _VOCABULARY}


def check_projection(projection: Mapping[str, Any], private: Iterable[str]) -> bytes:
    """Enforce the allowlist and the seeded-canary check; return the bytes to publish.

    Raises
    ------
    ProjectionError
        ``PROJECTION_ALLOWLIST_VIOLATION`` (a key or value outside the allowlist) or
        ``PROJECTION_PRIVATE_VALUE_LEAK`` (a private string occurs in the output).
    """
    problems = _allowlist_problems(projection)
    if problems:
        raise ProjectionError("PROJECTION_ALLOWLIST_VIOLATION", "; ".join(problems))
    data = json.dumps(projection, sort_keys=True, ensure_ascii=False, indent=2)
    tokens = set(re.findall(r'"((?:[^"\\]|\\.)*)"', data))
    for s in private:
        if s in tokens or (len(s) >= _MIN_SUBSTRING and s in data):
            raise ProjectionError(
                "PROJECTION_PRIVATE_VALUE_LEAK",
                "a private value occurs in the projection; nothing was written",
            )
    return (data + "\n").encode("utf-8")


def _allowlist_problems(p: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    if set(p) != PUBLIC_KEYS:
        problems.append(f"keys {sorted(set(p) ^ PUBLIC_KEYS)} differ from the allowlist")
    for key, value in _CONSTANTS.items():
        if p.get(key) != value or type(p.get(key)) is not type(value):
            problems.append(f"{key} must be {value!r}")
    if not isinstance(p.get("projection_id"), str) or not _UUID4.fullmatch(p["projection_id"]):
        problems.append("projection_id must be a random UUIDv4")
    if not isinstance(p.get("outcome"), str) or p["outcome"] not in _OUTCOMES:
        problems.append("outcome is not eligible, deferred or expired")
    gates = p.get("gates")
    if (
        not isinstance(gates, Mapping)
        or set(gates) != set(GATE_IDS)
        or any(not isinstance(v, str) or v not in _STATUSES for v in gates.values())
    ):
        problems.append("gates must map G1..G11 to pass, fail or unknown")
    if not isinstance(p.get("created_on"), str) or not _DATE.fullmatch(p["created_on"]):
        problems.append("created_on must be YYYY-MM-DD")
    head = p.get("journal_head")
    if head is not None and not (
        isinstance(head, Mapping)
        and set(head) == {"seq", "entry_hash"}
        and type(head["seq"]) is int
        and head["seq"] >= 0
        and is_digest(head["entry_hash"])
    ):
        problems.append("journal_head must be null or {seq, entry_hash}")
    signature = p.get("signature")
    if signature is not None and not is_signature(signature):
        problems.append('signature must be null or "ed25519:<base64 of 64 bytes>"')
    return problems
