"""Whose private key is on this machine: who can act here, and who is held elsewhere (10.6).

Keys are personal: a registry binds each principal to one public key, and the
private key lives only in its owner's key store. A workspace shared by several
people therefore has, on any one machine, a few principals who can act (their
keys are here) and the others, held elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from aa_review.core.dossier._errors import KeyStoreError
from aa_review.core.dossier._keys import KeyStore
from aa_review.core.dossier._principals import Principal, PrincipalRegistry, Role

__all__ = [
    "KeyHolding",
    "KeyPlace",
    "holdings_line",
    "key_holdings",
    "one_machine_note",
    "several_duties_here",
]


class KeyPlace(StrEnum):
    """Where a principal's private key is, seen from this machine."""

    HERE = "here"  # in this user's key store, and the key the registry names
    ELSEWHERE = "held_elsewhere"  # the registry names a key this machine does not hold
    OTHER_KEY_HERE = "other_key_here"  # a key of that id is here, not the registered one
    UNUSABLE = "unusable"  # a key file is here but damaged or readable by others
    NO_PUBLIC_KEY = "no_public_key"  # the registry names no key: nobody can sign for it


@dataclass(frozen=True)
class KeyHolding:
    """One principal of the registry and where its key is.

    Attributes
    ----------
    principal : Principal
    place : KeyPlace
    detail : str
        In words, for a tooltip or a terminal.
    """

    principal: Principal
    place: KeyPlace
    detail: str

    @property
    def here(self) -> bool:
        """Whether this machine can sign for the principal (it may act here)."""
        return self.place is KeyPlace.HERE


def key_holdings(registry: PrincipalRegistry, keys: KeyStore) -> tuple[KeyHolding, ...]:
    """Every principal of ``registry`` (the reducer aside) with where its private key is.

    Reads the key store only (never a workspace file); never raises.
    """
    out: list[KeyHolding] = []
    for p in registry:
        if p.role is Role.SYSTEM_REDUCER:
            continue
        out.append(_holding(p, keys))
    return tuple(out)


def _holding(p: Principal, keys: KeyStore) -> KeyHolding:
    pid = p.principal_id
    if p.public_key is None:
        return KeyHolding(
            p,
            KeyPlace.NO_PUBLIC_KEY,
            f"the registry names no public key for {pid}: nobody can sign for it "
            "until a human maintainer adds one (aa-review dossier add-principal)",
        )
    try:
        signer = keys.signer(pid)
    except KeyStoreError as exc:
        return KeyHolding(p, KeyPlace.UNUSABLE, str(exc))
    if signer is None:
        return KeyHolding(
            p,
            KeyPlace.ELSEWHERE,
            f"{pid}'s private key is held elsewhere (not in this user's key store "
            f"{keys.folder}): {pid} acts from their own account",
        )
    if signer.public_key != p.public_key:
        return KeyHolding(
            p,
            KeyPlace.OTHER_KEY_HERE,
            f"the key of {pid} in this user's key store is not the one the registry "
            "names; the registered one is held elsewhere",
        )
    return KeyHolding(p, KeyPlace.HERE, f"{pid}'s private key is on this machine")


def holdings_line(holdings: tuple[KeyHolding, ...]) -> str:
    """``You can act as p-lead-ada · held elsewhere: p-eval-cy, p-maint-fay`` (plain text)."""
    here = [h.principal.principal_id for h in holdings if h.here]
    elsewhere = [h.principal.principal_id for h in holdings if h.place is KeyPlace.ELSEWHERE]
    other = [
        h.principal.principal_id
        for h in holdings
        if not h.here and h.place is not KeyPlace.ELSEWHERE
    ]
    parts = [
        f"You can act as {', '.join(here)}"
        if here
        else "No private key of this registry is on this machine: you can only read"
    ]
    if elsewhere:
        parts.append(f"held elsewhere: {', '.join(elsewhere)}")
    if other:
        parts.append(f"no usable key: {', '.join(other)}")
    return " · ".join(parts)


# The duties of spec 7.4 that belong to different people.
_DUTIES = (Role.TRAINING_RESEARCH_LEAD, Role.INDEPENDENT_EVALUATOR, Role.HUMAN_MAINTAINER)


def several_duties_here(holdings: tuple[KeyHolding, ...]) -> tuple[Role, ...]:
    """The duties (author, evaluator, maintainer) whose keys are all on this machine.

    More than one means one person here could author, check and decide alone: the
    demo (several people on one machine), never a team's setup (spec 10.6).
    """
    here = {h.principal.role for h in holdings if h.here}
    found = tuple(r for r in _DUTIES if r in here)
    return found if len(found) > 1 else ()


def one_machine_note(holdings: tuple[KeyHolding, ...]) -> str | None:
    """Say so when this machine holds the keys of several duties (None otherwise)."""
    duties = several_duties_here(holdings)
    if not duties:
        return None
    return (
        f"This machine holds the private keys of {len(duties)} duties "
        f"({', '.join(d.value for d in duties)}): a demo of several people on one "
        "machine. In a team each person holds only their own key (spec 10.6), so no "
        "one can author, check and decide alone."
    )
