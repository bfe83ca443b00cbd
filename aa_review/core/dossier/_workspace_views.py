"""The workspace's read-only queries: revisions as held, admission, freshness, gates now.

Nothing here writes or journals. Views (the window's panel state, the command line)
use these instead of the workspace's private state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._admission import Standing, Step, admission
from aa_review.core.dossier._archive import Archive, parse_archive
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._gates_common import GateResult, GateStatus
from aa_review.core.dossier._projection import build_projection
from aa_review.core.dossier._validator import CheckRecord, evaluate
from aa_review.core.dossier._views import revision_view

if TYPE_CHECKING:
    from aa_review.core.dossier._fingerprints import BoundChanges
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._packages import PackageStatus
    from aa_review.core.dossier._states import Refusal
    from aa_review.core.dossier._workspace_journal import WorkspaceJournal
    from aa_review.core.dossier._workspace_packages import BoundPackages
    from aa_review.core.dossier._workspace_records import RevisionsHeld
    from aa_review.core.dossier._workspace_registry import WorkspaceRegistry

__all__ = ["ARCHIVE_GATES", "ARCHIVE_UNREADABLE", "WorkspaceViews"]

# The workspace's archive.json could not be used (docs/decisions.md): the gates whose
# inputs name the archive (spec 5) are not evaluated, and rule 4 is not known.
ARCHIVE_UNREADABLE = "WORKSPACE_ARCHIVE_UNREADABLE"
ARCHIVE_GATES = frozenset({"G1", "G3", "G4", "G9", "G10"})
_EPOCH_CHANGED = "DOSSIER_EPOCH_CHANGED"


class WorkspaceViews:
    """Read-only queries over the revisions held, the registry, the archive and the clock.

    It owns the archive metadata the gates read and the clock; the other parts are
    read, never written.
    """

    def __init__(
        self,
        records: RevisionsHeld,
        registry: WorkspaceRegistry,
        packages: BoundPackages,
        journal: WorkspaceJournal,
        archive: Archive,
        clock: Callable[[], datetime],
    ) -> None:
        self.records = records
        self.registry = registry
        self.packages = packages
        self.journal = journal
        self.archive = archive
        self.clock = clock
        # Why the workspace's archive.json could not be used (spec 10.5), or None: the
        # freshness rule and the gates that read the archive are then unknown.
        self.archive_fault: str | None = None

    def update_archive(self, archive: dict[str, Any]) -> None:
        """Replace the archive metadata (the evaluation side published a new snapshot)."""
        self.archive = parse_archive(archive)
        self.archive_fault = None

    def now(self) -> datetime:
        """The workspace clock's current time."""
        return self.clock()

    def revision(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """The revision's dossier JSON, including ``state`` and ``check`` (a copy)."""
        return copy.deepcopy(self.records.get(dossier_id, revision).raw)

    def revision_for(self, dossier_id: str, revision: int, viewer_id: str) -> dict[str, Any]:
        """The revision as ``viewer_id`` may see it: private detail for evaluators only."""
        parsed = self.records.get(dossier_id, revision)
        return revision_view(parsed.raw, self.registry.get(viewer_id), self.archive)

    def freshness(self, dossier_id: str, revision: int) -> Freshness:
        """Which freshness rules fire for a revision now (nothing is changed)."""
        return self.fresh(self.records.get(dossier_id, revision), self.now())

    def fresh(self, parsed: ParsedDossier, now: datetime) -> Freshness:
        """Freshness of ``parsed`` at ``now``, its bound packages found now."""
        return self.assess(parsed, now, self.packages.statuses(parsed))

    def assess(
        self, parsed: ParsedDossier, now: datetime, packages: tuple[PackageStatus, ...]
    ) -> Freshness:
        """Freshness of ``parsed`` at ``now`` with ``packages`` as already found."""
        fresh = assess_freshness(parsed, self.archive, now, packages)
        if self.archive_fault is None:
            return fresh
        # Without the archive the epoch manifests cannot be compared (rule 4): not known,
        # so it blocks eligibility and expires nothing.
        return Freshness(
            tuple(c for c in fresh.expiring if c != _EPOCH_CHANGED),
            (*(c for c in fresh.blocking if c != _EPOCH_CHANGED), ARCHIVE_UNREADABLE),
            fresh.changed_sections,
        )

    def standing(self, dossier_id: str, revision: int) -> Standing:
        """State and who acted on the revision: what admission to a step reads."""
        return Standing.of(
            self.records.get(dossier_id, revision), self.records.superseded(dossier_id, revision)
        )

    def admission(
        self, step: Step, dossier_id: str, revision: int, actor_id: str
    ) -> Refusal | None:
        """The refusal ``actor_id`` would get for ``step`` now (None: it would go ahead).

        Exactly the workspace's own decision (:func:`admission`), journaling nothing.
        Preconditions (T5's passing check) and freshness are left to the attempt.
        """
        actor = self.registry.get(actor_id)
        unable = self.registry.can_act(actor_id) if actor is not None else None
        return admission(
            step,
            self.standing(dossier_id, revision),
            actor,
            read_only=self.journal.read_only,
            unable=unable,
        )

    def package_status(self, dossier_id: str, revision: int) -> tuple[PackageStatus, ...]:
        """The revision's bound packages as found now.

        Uses the caller's :class:`PackageFacts` when the provider has them (nothing is
        hashed when their digest is known), else the locator, which hashes each package.
        """
        return self.packages.statuses(self.records.get(dossier_id, revision))

    def evaluate_now(
        self,
        dossier_id: str,
        revision: int,
        viewer_id: str,
        packages: tuple[PackageStatus, ...] | None = None,
    ) -> tuple[Freshness, CheckRecord]:
        """Freshness and every gate of a revision now, as a check would see them; nothing
        is written. ``packages``: statuses already taken (:meth:`package_status`)."""
        parsed = self.records.get(dossier_id, revision)
        now = self.now()
        if packages is None:
            packages = self.packages.statuses(parsed)
        fresh = self.assess(parsed, now, packages)
        record = evaluate(
            parsed,
            self.archive,
            self.registry.in_force,
            now,
            viewer_id,
            package_contamination=self.packages.hook,
            packages=self.packages.with_hidden_rows(packages),
            fresh=fresh,
        )
        if self.archive_fault is not None and not fresh.expires:
            unknown = GateResult(status=GateStatus.UNKNOWN, reason_codes=(ARCHIVE_UNREADABLE,))
            gates = {
                gid: unknown.model_copy() if gid in ARCHIVE_GATES else result
                for gid, result in record.gates.items()
            }
            record = record.model_copy(update={"gates": gates, "eligible_if_decided": False})
        return fresh, record

    def changes_since_binding(self, dossier_id: str, revision: int) -> tuple[BoundChanges, ...]:
        """What changed in each bound package that differs from its binding (read-only).

        Uses the fingerprint kept at binding (its file must still have the digest the
        binding names) and the fingerprint hooks; one entry per package whose digest
        changed, none while every package is as bound. Computed once per pair of
        fingerprint and current package digest.
        """
        return self.packages.changes_since_binding(
            dossier_id, self.records.get(dossier_id, revision)
        )

    def projection_preview(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """What ``Workspace.project`` would publish for the revision as it stands (nothing
        is written; the id and date of an export are fresh)."""
        parsed = self.records.get(dossier_id, revision)
        return build_projection(
            parsed.model.state,
            parsed.model.check,
            self.now(),
            journal_head=self.journal.head_anchor(),
        )
