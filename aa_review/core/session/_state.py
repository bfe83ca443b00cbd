"""Plain values a review session hands to its views: frozen, replaced whole, never changed.

Every value carries the ``version`` of the package it was computed for (the session
counts the packages it opens), so a view can never apply row positions of one
package to another: it drops a value whose version is not the one it shows.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.util.package_facts import PackageFacts  # shared with the dossier

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package
    from aa_review.core.query import QueryError

__all__ = ["Scope", "PackageFacts", "QueryResult", "HashStatus", "GoTo", "ExportPlan"]

_NONE = np.empty(0, np.int64)


class Scope(enum.StrEnum):
    """The three tables a query filters."""

    ROWS = "rows"
    EVIDENCE = "evidence"
    FINDINGS = "findings"


@dataclass(frozen=True, eq=False)
class QueryResult:
    """What one query keeps of one table.

    Attributes
    ----------
    scope : Scope
        The table.
    text : str
        The query as typed.
    positions : numpy.ndarray or None
        Kept positions in the table's own order; None keeps everything (no term).
    total : int
        How many items the table has.
    version : int
        The package version the positions index.
    error : QueryError or None
        Set when the query could not be evaluated for this package (an audit field
        before the audit ran...): then everything is kept and the bar says why.
    only : bool
        Rows: kept only among the rows selected together. Findings: only those about
        the selection.
    """

    scope: Scope
    text: str
    positions: np.ndarray | None
    total: int
    version: int
    error: QueryError | None = None
    only: bool = False

    @property
    def count(self) -> int:
        return self.total if self.positions is None else len(self.positions)

    def shown(self) -> np.ndarray:
        """Kept positions as an array (every position when the query keeps all)."""
        return np.arange(self.total) if self.positions is None else self.positions


@dataclass(frozen=True, eq=False)
class HashStatus:
    """Per catalog item, how its catalogued hash stands against the file now
    (``aa_review.core.package.catalog.live_hash_status``); computed in the background."""

    version: int
    statuses: tuple[str, ...]


@dataclass(frozen=True)
class GoTo:
    """A place the command palette can jump to: ``kind`` is row, evidence or finding."""

    label: str
    kind: str
    position: int


@dataclass(frozen=True, eq=False)
class ExportPlan:
    """What an export writes, captured on the GUI thread; written by
    :func:`aa_review.core.session.run_export` in any thread."""

    package: Package
    scope: Scope
    positions: np.ndarray
    query: str
    digest: str | None
    findings: tuple[Finding, ...] = ()
