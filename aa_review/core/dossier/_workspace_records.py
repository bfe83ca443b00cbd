"""The revisions a workspace holds: what the verified journal replays, by dossier and number."""

from __future__ import annotations

from aa_review.core.dossier._errors import RevisionNotFoundError
from aa_review.core.dossier._models_dossier import ParsedDossier

__all__ = ["RevisionsHeld"]


class RevisionsHeld:
    """Each revision held (raw tree and typed model) and every one the journal names.

    ``journaled`` may name a revision that is not held (its file failed to load):
    an import of that number is still a conflict.
    """

    def __init__(self) -> None:
        self.revs: dict[str, dict[int, ParsedDossier]] = {}
        self.journaled: set[tuple[str, int]] = set()

    def get(self, dossier_id: str, revision: int) -> ParsedDossier:
        """The revision as held; shared: read it, never modify it.

        Raises
        ------
        RevisionNotFoundError
        """
        try:
            return self.revs[dossier_id][revision]
        except KeyError:
            raise RevisionNotFoundError(dossier_id, revision) from None

    def superseded(self, dossier_id: str, revision: int) -> bool:
        """Whether a later revision of the dossier is held."""
        return max(self.revs.get(dossier_id, {revision: None})) > revision

    def dossier_ids(self) -> list[str]:
        """Ids of the dossiers held, sorted."""
        return sorted(self.revs)

    def numbers(self, dossier_id: str) -> list[int]:
        """Revision numbers of a dossier, ascending."""
        return sorted(self.revs.get(dossier_id, {}))

    def taken(self, dossier_id: str, revision: int) -> bool:
        """Whether the pair is held or named by the journal (an import would conflict)."""
        return revision in self.revs.get(dossier_id, {}) or (dossier_id, revision) in self.journaled

    def hold(self, parsed: ParsedDossier, *, journaled: bool) -> None:
        """Hold ``parsed`` (loaded from the replay, or just committed when ``journaled``)."""
        m = parsed.model
        self.revs.setdefault(m.dossier_id, {})[m.revision] = parsed
        if journaled:
            self.journaled.add((m.dossier_id, m.revision))
