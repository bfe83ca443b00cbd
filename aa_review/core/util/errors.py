"""Exception classes that carry the context a user needs to fix the problem."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "AAReviewError",
    "PackageError",
    "RecordError",
    "TransitionError",
    "UnsafeRefError",
    "failure_message",
]

log = logging.getLogger(__name__)


class AAReviewError(Exception):
    """Base class of every error aa-review raises on purpose."""


class PackageError(AAReviewError):
    """The folder is not a compiled package, or cannot be read at all."""

    def __init__(self, message: str, path: str | None = None) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class RecordError(AAReviewError):
    """One record (a JSON file or a JSONL line) cannot be used.

    Parameters
    ----------
    path : str
        Package-relative path of the file.
    line : int or None
        1-based line number for JSONL files.
    message : str
        What is wrong, phrased so that it says what to fix.
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class UnsafeRefError(AAReviewError):
    """A ref would leave the package (absolute, ``..`` or a symlink out)."""

    def __init__(self, ref: str, reason: str) -> None:
        self.ref = ref
        self.reason = reason
        super().__init__(f"ref {ref!r} is not opened: {reason}")


class TransitionError(AAReviewError):
    """A lifecycle transition was asked for in a way the API cannot express."""


def failure_message(path: Path, exc: BaseException, doing: str) -> str:
    """What to tell the user when opening ``path`` failed; an unexpected error is logged."""
    if isinstance(exc, AAReviewError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{path}: cannot be read ({exc})"
    log.error("%s %s failed", doing, path, exc_info=exc)
    return f"{path}: unexpected error: {exc!r}"
