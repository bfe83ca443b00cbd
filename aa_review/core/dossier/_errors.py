"""Errors of the dossier service; each names what is wrong and where."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aa_review.core.util.errors import AAReviewError

__all__ = [
    "ArchiveSchemaError",
    "DossierError",
    "DossierSchemaError",
    "ActorUnavailableError",
    "JournalConcurrentWriteError",
    "JournalWriteError",
    "KeyStoreError",
    "PrincipalRegistryError",
    "ProjectionError",
    "RevisionConflictError",
    "RevisionNotFoundError",
    "WorkspaceError",
    "WorkspaceLockedError",
    "WorkspaceReadOnlyError",
]


def _problem(p: object) -> Any:
    """A :class:`SchemaProblem` for ``p`` (``"<path>: <message>"`` strings are split)."""
    from aa_review.core.dossier._models_strict import SchemaProblem

    if isinstance(p, SchemaProblem):
        return p
    path, _, message = str(p).partition(": ")
    return SchemaProblem(path, message or "invalid")


class DossierError(AAReviewError):
    """Base class of the readiness-dossier errors."""


class DossierSchemaError(DossierError):
    """A dossier is structurally invalid (reason ``DOSSIER_SCHEMA_INVALID``).

    Parameters
    ----------
    problems : list of str
        ``"<json path>: <what is wrong>"`` for every structural problem found.
    """

    reason_code = "DOSSIER_SCHEMA_INVALID"

    def __init__(self, problems: Sequence[object]) -> None:
        self.details: list[Any] = [_problem(p) for p in problems]
        self.problems = [str(p) for p in self.details]
        shown = "; ".join(self.problems[:5]) + (" …" if len(self.problems) > 5 else "")
        self.reason = f"{self.reason_code}: the dossier is not structurally valid"
        super().__init__(f"{self.reason}: {shown}")

    def explain(self) -> list[str]:
        """Each problem with its JSON path, the contract's rule and what would satisfy it."""
        return [p.explain() for p in self.details]


class ArchiveSchemaError(DossierError):
    """The archive metadata cannot be used; gates cannot be evaluated against it."""

    def __init__(self, problems: Sequence[object]) -> None:
        self.details: list[Any] = [_problem(p) for p in problems]
        self.problems = [str(p) for p in self.details]
        shown = "; ".join(self.problems[:5]) + (" …" if len(self.problems) > 5 else "")
        self.reason = "the archive metadata is not structurally valid"
        super().__init__(f"{self.reason}: {shown}")

    def explain(self) -> list[str]:
        """Each problem with its JSON path, the contract's rule and what would satisfy it."""
        return [p.explain() for p in self.details]


class PrincipalRegistryError(DossierError):
    """The principal registry is malformed (missing ids, unknown role or kind, duplicates)."""


class RevisionNotFoundError(DossierError):
    """No such dossier revision in this workspace."""

    def __init__(self, dossier_id: str, revision: int) -> None:
        self.dossier_id = dossier_id
        self.revision = revision
        super().__init__(f"dossier {dossier_id!r} has no revision {revision} in this workspace")


class RevisionConflictError(DossierError):
    """An import would create a (dossier, revision) that already exists or was journaled."""

    def __init__(self, dossier_id: str, revision: int) -> None:
        self.dossier_id = dossier_id
        self.revision = revision
        super().__init__(
            f"dossier {dossier_id!r} revision {revision} already exists in this workspace; "
            "import a new revision number instead"
        )


class ProjectionError(DossierError):
    """A public projection was refused; nothing was written.

    Parameters
    ----------
    reason_code : str
        ``PROJECTION_STATE_NOT_FINAL``, ``PROJECTION_ALLOWLIST_VIOLATION`` or
        ``PROJECTION_PRIVATE_VALUE_LEAK``.
    message : str
        What was found.
    """

    def __init__(self, reason_code: str, message: str) -> None:
        self.reason_code = reason_code
        super().__init__(f"{reason_code}: {message}")


class JournalWriteError(DossierError):
    """The journal could not be appended to; the attempted change was not applied."""


class JournalConcurrentWriteError(JournalWriteError):
    """The journal no longer ends at this writer's head: another writer appended (spec 10.5)."""

    reason_code = "JOURNAL_CONCURRENT_WRITE"


class KeyStoreError(DossierError):
    """The user's private key store cannot be used (unreadable, shared with others, damaged)."""


class ActorUnavailableError(DossierError):
    """A principal cannot act in this workspace: unregistered, or its private key is not here.

    Parameters
    ----------
    reason_code : str
        ``ACTOR_UNKNOWN`` or ``ACTOR_KEY_UNAVAILABLE``.
    message : str
        Who, and what to do about it.
    """

    def __init__(self, reason_code: str, message: str) -> None:
        self.reason_code = reason_code
        super().__init__(f"{reason_code}: {message}")


class WorkspaceError(DossierError):
    """A workspace folder is missing a file or holds unusable content."""

    def __init__(self, folder: str, message: str) -> None:
        self.folder = folder
        super().__init__(f"{folder}: {message}")


class WorkspaceLockedError(WorkspaceError):
    """Another workspace (in this or another process) holds the folder's lock."""

    def __init__(self, folder: str) -> None:
        super().__init__(
            folder,
            "this dossier workspace is already open for writing in another window or "
            "process (its journal is locked); close it there first",
        )


class WorkspaceReadOnlyError(DossierError):
    """The workspace opened read-only (its journal failed verification); nothing may change."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        super().__init__(
            f"the workspace is read-only because its journal failed verification ({fault}); "
            "a human must resolve the journal before anything can change"
        )
