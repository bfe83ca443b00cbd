"""The attributes a workspace holds, declared once for the halves that use them.

:class:`~aa_review.core.dossier._workspace_records.WorkspaceRecords` sets them in its
constructor; the opening and writing halves read them. Declaring them here lets a type
checker see each half on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aa_review.core.dossier._journal import JournalFile, JournalFolder
    from aa_review.core.dossier._keys import KeyStore, Signer
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._principals import PrincipalRegistry
    from aa_review.core.dossier._storage import FolderStore, MemoryStore
    from aa_review.core.dossier._witness import WitnessStore

__all__ = ["WorkspaceState"]


class WorkspaceState:
    """Declarations only: the state of an open workspace (see ``WorkspaceRecords.__init__``)."""

    _file_registry: PrincipalRegistry
    _registry: PrincipalRegistry
    _store: FolderStore | MemoryStore
    _folder_mode: bool
    _projection_dir: Path | None
    _keys: KeyStore
    _witness: WitnessStore
    _signers: dict[str, Signer]
    _journal: JournalFile | JournalFolder
    _not_applied: list[dict[str, Any]]
    _arrived: list[dict[str, Any]]
    _open_notes: list[str]
    _redoing: str | None
    _last_appended: list[dict[str, Any]]
    _revs: dict[str, dict[int, ParsedDossier]]
    _journaled: set[tuple[str, int]]
    _fault: str | None
    _seq: int
    _head: str
    _genesis: str | None
    _genesis_registry: str | None
    _signatures: list[dict[str, Any]]
    _witness_state: dict[str, Any]

    if TYPE_CHECKING:  # methods one half calls on the other (or on WorkspaceRecords)

        def _set_fault(self, fault: str) -> None: ...
        def journal_entries(self) -> list[Any]: ...
        def journal_head(self) -> dict[str, Any] | None: ...
        def _witness_now(self) -> None: ...
