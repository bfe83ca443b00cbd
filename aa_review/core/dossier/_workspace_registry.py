"""Who may act in a workspace: the principal registry in force and the keys here (spec 10.2).

:class:`WorkspaceRegistry` owns the registry given (``principals.json``), the one
the journal has in force, this user's key store and the signers taken from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aa_review.core.dossier._errors import ActorUnavailableError, KeyStoreError
from aa_review.core.dossier._holdings import KeyHolding, key_holdings
from aa_review.core.dossier._principals import Principal, PrincipalRegistry, Role
from aa_review.core.dossier._storage import FolderStore

if TYPE_CHECKING:
    from aa_review.core.dossier._keys import KeyStore, Signer
    from aa_review.core.dossier._storage import MemoryStore

__all__ = ["WorkspaceRegistry"]


class WorkspaceRegistry:
    """The principal registry in force and the keys that sign for its principals here.

    Parameters
    ----------
    given : PrincipalRegistry
        The registry the workspace was opened with (``principals.json``); in force
        until the journal says otherwise (:attr:`in_force`).
    keys : KeyStore
        This user's private keys.
    folder_mode : bool
        A workspace folder: every principal who acts needs a public key.
    """

    def __init__(self, given: PrincipalRegistry, keys: KeyStore, *, folder_mode: bool) -> None:
        self.given = given
        self.in_force = given
        self.keys = keys
        self.folder_mode = folder_mode
        self._signers: dict[str, Signer] = {}

    def get(self, principal_id: object) -> Principal | None:
        """The principal of the registry in force, or None."""
        return self.in_force.get(principal_id)

    def put_in_force(self, new: PrincipalRegistry) -> None:
        """A journaled registry change: ``new`` is both given and in force."""
        self.in_force = self.given = new

    def versions(self, store: FolderStore | MemoryStore) -> dict[str, PrincipalRegistry]:
        """Every registry version kept in ``store`` and the one given, by digest."""
        versions: dict[str, PrincipalRegistry] = {}
        if isinstance(store, FolderStore):
            for digest, tree in store.registries().items():
                try:
                    versions[digest] = PrincipalRegistry(tree)
                except Exception:  # noqa: BLE001 - an unusable version is simply unknown
                    continue
        versions[self.given.digest] = self.given
        return versions

    def signer_for(self, principal: Principal) -> Signer | None:
        """The key that signs for ``principal`` here, None when its entries go unsigned.

        Raises
        ------
        ActorUnavailableError
            The principal has a public key whose private key is not on this machine
            (or not that key), or, in a workspace folder, has no public key at all.
        """
        pid = principal.principal_id
        if principal.public_key is None:
            if self.folder_mode:
                raise ActorUnavailableError(
                    "ACTOR_KEY_UNAVAILABLE",
                    f"{pid!r} has no public key in principals.json, "
                    "so it cannot act in a workspace folder; create one with "
                    f"'aa-review keys create {pid}' and add it through a registry change",
                )
            return None
        if pid in self._signers and self._signers[pid].public_key == principal.public_key:
            return self._signers[pid]
        try:
            signer = self.keys.signer(pid)
        except KeyStoreError as exc:
            raise ActorUnavailableError("ACTOR_KEY_UNAVAILABLE", str(exc)) from None
        if signer is None:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE",
                f"the private key of {pid!r} is not on this machine "
                f"(key store {self.keys.folder}); {pid!r} cannot act here",
            )
        if signer.public_key != principal.public_key:
            raise ActorUnavailableError(
                "ACTOR_KEY_UNAVAILABLE",
                f"the key of {pid!r} on this machine is not the one principals.json names for it",
            )
        self._signers[pid] = signer
        return signer

    def can_act(self, actor_id: object) -> str | None:
        """Why ``actor_id`` cannot write to the journal here, or None when it can."""
        actor = self.in_force.get(actor_id)
        if actor is None:
            return f"ACTOR_UNKNOWN: {actor_id!r} is not in the principal registry"
        if actor.role is Role.SYSTEM_REDUCER:
            return "ACTOR_ROLE_NOT_PERMITTED: the reducer acts only on someone's behalf"
        try:
            self.signer_for(actor)
        except ActorUnavailableError as exc:
            return str(exc)
        return None

    def key_holdings(self) -> tuple[KeyHolding, ...]:
        """Every principal of the registry in force and whether its private key is here."""
        return key_holdings(self.in_force, self.keys)
