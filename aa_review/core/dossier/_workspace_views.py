"""The workspace's read-only API for views, and what it knows of bound packages.

Nothing here writes or journals, except that binding keeps fingerprints through
:meth:`_keep_fingerprints`. Views (the window's panel state, the command line) use
these instead of the workspace's private state.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._admission import Standing, Step, admission
from aa_review.core.dossier._archive import Archive
from aa_review.core.dossier._fingerprints import (
    BoundChanges,
    FingerprintHooks,
    changes_since_binding,
    kept_fingerprints,
)
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._models_dossier import ParsedDossier
from aa_review.core.dossier._packages import (
    ContaminationHook,
    FactsMemo,
    PackageState,
    PackageStatus,
)
from aa_review.core.dossier._projection import build_projection
from aa_review.core.dossier._states import Refusal
from aa_review.core.dossier._validator import CheckRecord, evaluate
from aa_review.core.dossier._workspace_state import WorkspaceState

__all__ = ["ViewsMixin"]

log = logging.getLogger(__name__)


class ViewsMixin(WorkspaceState):
    """The read-only half of :class:`WorkspaceRecords` (it owns the attributes used here)."""

    _archive: Archive
    _clock: Callable[[], datetime]
    _hook: ContaminationHook | None
    _facts_memo: FactsMemo
    _fingerprinter: FingerprintHooks | None
    _changes_memo: dict[tuple[str, str | None, str | None], BoundChanges]

    if TYPE_CHECKING:  # what WorkspaceRecords and the other halves define

        def _get(self, dossier_id: str, revision: int) -> ParsedDossier: ...
        def _superseded(self, dossier_id: str, revision: int) -> bool: ...
        def _packages(self, parsed: ParsedDossier) -> tuple[PackageStatus, ...]: ...
        def _now(self) -> datetime: ...
        def can_act(self, actor_id: object) -> str | None: ...
        @property
        def read_only(self) -> bool: ...

    def now(self) -> datetime:
        """The workspace clock's current time."""
        return self._clock()

    def parsed(self, dossier_id: str, revision: int) -> ParsedDossier:
        """The revision as held (raw tree and typed model); shared: read it, never modify it.

        Raises
        ------
        RevisionNotFoundError
        """
        return self._get(dossier_id, revision)

    def is_superseded(self, dossier_id: str, revision: int) -> bool:
        """Whether a later revision of the dossier exists."""
        return self._superseded(dossier_id, revision)

    def standing(self, dossier_id: str, revision: int) -> Standing:
        """State and who acted on the revision: what admission to a step reads."""
        return Standing.of(self._get(dossier_id, revision), self._superseded(dossier_id, revision))

    def admission(
        self, step: Step, dossier_id: str, revision: int, actor_id: str
    ) -> Refusal | None:
        """The refusal ``actor_id`` would get for ``step`` now (None: it would go ahead).

        Exactly the workspace's own decision (:func:`admission`), journaling nothing.
        Preconditions (T5's passing check) and freshness are left to the attempt.
        """
        actor = self._registry.get(actor_id)
        unable = self.can_act(actor_id) if actor is not None else None
        return admission(
            step,
            self.standing(dossier_id, revision),
            actor,
            read_only=self.read_only,
            unable=unable,
        )

    def package_status(self, dossier_id: str, revision: int) -> tuple[PackageStatus, ...]:
        """The revision's bound packages as found now.

        Uses the caller's :class:`PackageFacts` when the provider has them (nothing is
        hashed when their digest is known), else the locator, which hashes each package.
        """
        return self._packages(self._get(dossier_id, revision))

    def evaluate_now(
        self,
        dossier_id: str,
        revision: int,
        viewer_id: str,
        packages: tuple[PackageStatus, ...] | None = None,
    ) -> tuple[Freshness, CheckRecord]:
        """Freshness and every gate of a revision now, as a check would see them; nothing
        is written. ``packages``: statuses already taken (:meth:`package_status`)."""
        parsed = self._get(dossier_id, revision)
        now = self._now()
        if packages is None:
            packages = self._packages(parsed)
        fresh = assess_freshness(parsed, self._archive, now, packages)
        record = evaluate(
            parsed,
            self._archive,
            self._registry,
            now,
            viewer_id,
            package_contamination=self._hook,
            packages=self._with_hidden_rows(packages),
        )
        return fresh, record

    def changes_since_binding(self, dossier_id: str, revision: int) -> tuple[BoundChanges, ...]:
        """What changed in each bound package that differs from its binding (read-only).

        Uses the fingerprint kept at binding (its file must still have the digest the
        binding names) and the fingerprint hooks; one entry per package whose digest
        changed, none while every package is as bound. Computed once per pair of
        fingerprint and current package digest.
        """
        parsed = self._get(dossier_id, revision)
        if not isinstance(parsed.raw.get("binding"), dict):
            return ()
        kept = kept_fingerprints(parsed.raw)
        out = []
        for status in self._packages(parsed):
            digest = kept.get(str(status.package_id))
            key = (str(status.package_id), digest, status.current_digest)
            held = self._changes_memo.get(key)
            if held is None:
                held = changes_since_binding(
                    status,
                    digest,
                    lambda d: self._store.load_fingerprint(dossier_id, d),
                    self._fingerprinter,
                )
                if held is None:
                    continue
                if held.status == "changed":
                    self._changes_memo[key] = held
            out.append(held)
        return tuple(out)

    def _keep_fingerprints(
        self, dossier_id: str, packages: tuple[PackageStatus, ...]
    ) -> dict[str, str]:
        """Fingerprint and keep each bound package found as bound; {package id: digest}."""
        kept: dict[str, str] = {}
        if self._fingerprinter is None:
            return kept
        for status in packages:
            if status.state is not PackageState.UNCHANGED or status.package_id is None:
                continue
            try:
                data = self._fingerprinter.fingerprint(status)
                kept[status.package_id] = self._store.save_fingerprint(dossier_id, data)
            except Exception as exc:  # noqa: BLE001 - binding goes ahead; it is said later
                log.warning("no fingerprint of %s was kept: %s", status.package_id, exc)
        return kept

    def projection_preview(self, dossier_id: str, revision: int) -> dict[str, Any]:
        """What :meth:`project` would publish for the revision as it stands (nothing is
        written; the id and date of an export are fresh)."""
        parsed = self._get(dossier_id, revision)
        return build_projection(
            parsed.model.state, parsed.model.check, self._now(), journal_head=self.journal_head()
        )

    def forget_package_facts(self) -> None:
        """Hash and audit bound packages again next time (a deliberate re-verification).

        Digests and contamination answers the workspace computed for the caller's
        facts are dropped; digests the caller gave are still taken as given.
        """
        self._facts_memo.clear()

    def _with_hidden_rows(self, packages: tuple[PackageStatus, ...]) -> tuple[PackageStatus, ...]:
        """Statuses from the caller's facts, with the contamination hook asked once per facts.

        A status from the locator is left as it is: G9 asks the hook itself.
        """
        out = []
        for status in packages:
            if (
                status.facts is not None
                and status.hidden_rows is None
                and self._hook is not None
                and status.state in (PackageState.UNCHANGED, PackageState.CHANGED)
            ):
                try:
                    rows = self._facts_memo.hidden_rows(status.facts, self._hook)
                except Exception as exc:  # noqa: BLE001 - G9 stays unknown, never passes
                    log.warning("contamination audit of %s failed: %s", status.package_id, exc)
                else:
                    status = dataclasses.replace(status, hidden_rows=rows)
            out.append(status)
        return tuple(out)
