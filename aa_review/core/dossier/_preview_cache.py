"""Reuse a revision's live gate evaluation until something its verdict depends on changes.

The window shows every gate "as a check would see them now" and refreshes often
(a new acting principal, a tab shown, a sign-off); evaluating runs G1's seeded power
simulation. :class:`PreviewCache` evaluates once per :class:`PreviewKey` and reuses
the record while the key holds. Only the viewer and the clock's second vary between
reuses, and the validator reads neither except to stamp ``checked_by``/``checked_at``
(restamped here) and, for the clock, through freshness, which is part of the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._curves import PowerCurve, power_curve
from aa_review.core.dossier._freshness import Freshness
from aa_review.core.dossier._packages import PackageStatus
from aa_review.core.dossier._timeline import JournalView, journal_view
from aa_review.core.dossier._timestamps import format_timestamp
from aa_review.core.dossier._validator import VALIDATOR_VERSION, CheckRecord

if TYPE_CHECKING:
    from datetime import datetime

    from aa_review.core.dossier._workspace import Workspace

__all__ = ["PreviewCache", "PreviewKey"]


@dataclass(frozen=True)
class PreviewKey:
    """Everything the verdict of one revision depends on, besides who asks and when.

    Attributes
    ----------
    dossier_id, revision : str, int
        The revision.
    revision_digest : str
        Digest of the whole stored revision: its evidence (hence the evidence
        digest), state, binding, author and the G8 authorization, which lies
        outside ``evidence``.
    journal_head : tuple of (int, str), or None
        ``(seq, entry_hash)``. Any transition, sign-off or refusal appends to the
        journal; an evaluation is never reused across a changed journal.
    archive_digest : str
        The archive metadata: epoch manifests (freshness rule 4) and all the
        groups, observations and experiments the gates trust.
    principals_digest : str
        The principal registry (roles and kinds decide G2, G4, G7 and G8).
    packages : tuple of PackageStatus
        The bound packages re-hashed now: state, folder and current digest (the
        contamination check of G9 reads the package's bytes).
    freshness : Freshness
        Every freshness rule as it fires now: the only way the clock reaches the
        verdict (``now > expires_at``).
    validator_version : str
        :data:`VALIDATOR_VERSION`.
    """

    dossier_id: str
    revision: int
    revision_digest: str
    journal_head: tuple[int, str] | None
    archive_digest: str
    principals_digest: str
    packages: tuple[PackageStatus, ...]
    freshness: Freshness
    validator_version: str = VALIDATOR_VERSION


class PreviewCache:
    """Live evaluations of one workspace's revisions, each reused while its key holds.

    One cache serves one workspace (the contamination hook and the package locator
    are the workspace's); make a new one for another workspace. Not thread-safe:
    use it from one thread, as the window does.

    Parameters
    ----------
    ws : Workspace
        The workspace whose revisions are evaluated.
    """

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._records: dict[tuple[str, int], tuple[PreviewKey, CheckRecord]] = {}
        self._curves: dict[str, PowerCurve | None] = {}
        self._journal: tuple[Any, JournalView] | None = None
        # "archive" / "principals" -> (the object, kept so identity is meaningful; its digest)
        self._memo: dict[str, tuple[Any, str]] = {}

    def key(self, dossier_id: str, revision: int, now: datetime | None = None) -> PreviewKey:
        """The revision's key at ``now`` (the workspace clock by default).

        Bound packages are re-hashed: a package changed on disk changes the key.
        """
        ws = self.ws
        parsed = ws.parsed(dossier_id, revision)
        packages = ws.package_status(dossier_id, revision)
        fresh = ws.views.assess(parsed, ws.now() if now is None else now, packages)
        head = ws.journal_head()
        return PreviewKey(
            dossier_id=dossier_id,
            revision=revision,
            revision_digest=json_digest(parsed.raw),
            journal_head=_head_key(head),
            archive_digest=self._digest("archive", ws.archive, ws.archive.raw),
            principals_digest=self._digest("principals", ws.principals, ws.principals.raw),
            packages=packages,
            freshness=fresh,
        )

    def preview(
        self, dossier_id: str, revision: int, viewer_id: str
    ) -> tuple[Freshness, CheckRecord]:
        """Freshness and every gate of a revision now, as :func:`preview_check` gives them.

        Evaluates only when the key differs from the last evaluation of this
        revision; otherwise the stored record is restamped for ``viewer_id`` and now.
        """
        now = self.ws.now()
        key = self.key(dossier_id, revision, now)
        held = self._records.get((dossier_id, revision))
        if held is not None and held[0] == key:
            record = held[1].model_copy(
                update={"checked_by": viewer_id, "checked_at": format_timestamp(now)}
            )
            return key.freshness, record
        _, record = self.ws.evaluate_now(dossier_id, revision, viewer_id, key.packages)
        self._records[(dossier_id, revision)] = (key, record)
        return key.freshness, record

    def packages(self, dossier_id: str, revision: int) -> tuple[Any, ...]:
        """The bound packages as the last :meth:`preview` of the revision found them."""
        held = self._records.get((dossier_id, revision))
        return held[0].packages if held is not None else ()

    def power_curve(self, dossier_id: str, revision: int) -> PowerCurve | None:
        """:func:`power_curve` of the revision, keyed by the evidence digest (all it reads)."""
        parsed = self.ws.parsed(dossier_id, revision)
        digest = parsed.evidence_digest
        if digest not in self._curves:
            self._curves[digest] = power_curve(parsed)
        return self._curves[digest]

    def journal_view(self) -> JournalView:
        """The journal read and verified once per change (a new head, fault or witness)."""
        ws = self.ws
        key = (_head_key(ws.journal_head()), ws.journal_fault, ws.witness_status()["status"])
        if self._journal is None or self._journal[0] != key:
            self._journal = (key, journal_view(ws.journal_status()))
        return self._journal[1]

    def clear(self) -> None:
        """Forget every stored evaluation (the next preview evaluates again)."""
        self._records.clear()
        self._curves.clear()
        self._journal = None
        self._memo.clear()

    def _digest(self, name: str, obj: Any, raw: Any) -> str:
        # The archive and the registry are replaced, never mutated: digest each object once.
        held = self._memo.get(name)
        if held is None or held[0] is not obj:
            held = self._memo[name] = (obj, json_digest(raw))
        return held[1]


def _head_key(head: dict[str, Any] | None) -> tuple[int, str] | None:
    return None if head is None else (int(head["seq"]), str(head["entry_hash"]))
