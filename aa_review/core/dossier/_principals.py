"""The principal registry: who may act, in which role, and whether they are human (spec 1.4)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._errors import PrincipalRegistryError
from aa_review.core.dossier._keys import parse_public_key

__all__ = ["REDUCER", "Kind", "Principal", "PrincipalRegistry", "Role"]


class Role(StrEnum):
    """Lifecycle roles; any unknown role string means ``agent`` (no authority)."""

    TRAINING_RESEARCH_LEAD = "training_research_lead"
    INDEPENDENT_EVALUATOR = "independent_evaluator"
    HUMAN_MAINTAINER = "human_maintainer"
    SYSTEM_REDUCER = "system_reducer"
    AGENT = "agent"

    @classmethod
    def parse(cls, value: object) -> Role:
        """The role named by ``value``; anything unrecognised is ``AGENT``."""
        if isinstance(value, str) and value in cls._value2member_map_:
            return cls(value)
        return cls.AGENT


class Kind(StrEnum):
    """Whether a principal is a person or an automated agent."""

    HUMAN = "human"
    AGENT = "agent"


@dataclass(frozen=True)
class Principal:
    """A registered identity.

    Attributes
    ----------
    principal_id : str
        Private id, used in the journal.
    role : Role
        The one role this principal holds.
    kind : Kind
        ``human`` or ``agent``; anything else is treated as ``agent``.
    public_key : str or None
        ``"ed25519:<base64>"``: every journal entry this principal writes (or causes,
        for the reducer) must carry a valid signature by it (spec 10.2).
    """

    principal_id: str
    role: Role
    kind: Kind
    public_key: str | None = None

    @property
    def is_human_maintainer(self) -> bool:
        """Role ``human_maintainer`` *and* kind ``human`` (an agent maintainer is not one)."""
        return self.role is Role.HUMAN_MAINTAINER and self.kind is Kind.HUMAN

    def actor(self) -> dict[str, str]:
        """The journal's ``actor`` object."""
        return {"principal_id": self.principal_id, "role": self.role.value}


# The app's own deterministic reducer: automatic deferral and expiry.
REDUCER = Principal("aa-review/system-reducer", Role.SYSTEM_REDUCER, Kind.AGENT)


class PrincipalRegistry:
    """Read-only lookup of principals by id.

    Parameters
    ----------
    principals : iterable of mapping
        ``{principal_id, role, kind}`` records (the ``principals`` list of a context).

    Raises
    ------
    PrincipalRegistryError
        A record is not an object, lacks a string id, repeats an id, carries a
        ``public_key`` that is not ``"ed25519:<base64 of 32 bytes>"``, or carries the
        public key of another principal: keys are personal, one principal, one key
        (spec 10.6).
    """

    def __init__(self, principals: Iterable[Mapping[str, Any]]) -> None:
        self._by_id: dict[str, Principal] = {}
        key_owner: dict[bytes, str] = {}
        self.raw: list[dict[str, Any]] = []
        for i, rec in enumerate(principals):
            if not isinstance(rec, Mapping):
                raise PrincipalRegistryError(f"principals[{i}] is not an object")
            pid = rec.get("principal_id")
            if not isinstance(pid, str) or not pid:
                raise PrincipalRegistryError(f"principals[{i}] has no principal_id string")
            if pid in self._by_id or pid == REDUCER.principal_id:
                raise PrincipalRegistryError(f"principal id {pid!r} is registered twice")
            kind = Kind.HUMAN if rec.get("kind") == "human" else Kind.AGENT
            key = rec.get("public_key")
            if key is not None and parse_public_key(key) is None:
                raise PrincipalRegistryError(
                    f"principals[{i}] ({pid!r}): public_key must be "
                    '"ed25519:<base64 of the 32-byte key>"'
                )
            raw_key = parse_public_key(key) if key is not None else None
            if raw_key is not None:
                other = key_owner.setdefault(raw_key, pid)
                if other != pid:
                    raise PrincipalRegistryError(
                        f"principals {other!r} and {pid!r} share one public key; keys are "
                        "personal (one principal, one key): each person creates their own "
                        "with 'aa-review keys create'"
                    )
            self._by_id[pid] = Principal(pid, Role.parse(rec.get("role")), kind, key)
            self.raw.append(dict(rec))

    def get(self, principal_id: object) -> Principal | None:
        """The principal with this id, or None when unregistered."""
        if not isinstance(principal_id, str):
            return None
        if principal_id == REDUCER.principal_id:
            return REDUCER
        return self._by_id.get(principal_id)

    def is_human_maintainer(self, principal_id: object) -> bool:
        """Whether ``principal_id`` is a registered human maintainer (role and kind)."""
        p = self.get(principal_id)
        return p is not None and p.is_human_maintainer

    @property
    def digest(self) -> str:
        """``registry_digest``: the digest (spec 1.3) of the principal records as given."""
        return json_digest(self.raw)

    def __iter__(self) -> Iterator[Principal]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)
