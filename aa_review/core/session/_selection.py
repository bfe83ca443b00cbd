"""SelectionHub: the one selection every view follows (row, evidence item, finding...).

Positions index the open package (rows, ``index.evidence_ids``) and the findings shown;
the review session clears the hub whenever those change, so no position outlives
the table it points into.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from psygnal import Signal

__all__ = ["Selection", "SelectionHub", "WHY"]

# What made the rows selected together: a finding's rows; the rows citing the evidence
# item a finding names (a finding about an evidence item, ``hash.changed``); the rows
# citing the evidence item picked, or any of several picked; rows picked in a table; a
# subset's rows ("subset:NAME").
WHY = ("finding", "finding_evidence", "evidence", "evidence_items", "picked", "subset")


@dataclass(frozen=True)
class Selection:
    """What is selected, as positions into the package index / catalog / findings.

    ``row`` is the current row; ``rows``, when set, the rows selected together (the
    rows of a finding, sorted index positions). ``location`` is which of the finding's
    locations is shown (0 for the first). ``source`` names the view that made the
    selection, so that view need not react to its own change.
    """

    row: int | None = None
    evidence: int | None = None
    finding: int | None = None
    contract: str | None = None
    location: int | None = None
    source: str = ""
    rows: np.ndarray | None = field(default=None, compare=False)
    why: str = field(default="", compare=False)

    @property
    def row_count(self) -> int:
        """How many rows are selected: ``rows``, else the current row, else none."""
        if self.rows is not None:
            return len(self.rows)
        return 0 if self.row is None else 1

    def rows_count_together(self) -> int:
        """How many rows are selected together (0 when only a current row, or none)."""
        return 0 if self.rows is None else len(self.rows)


class SelectionHub:
    """Holds the current :class:`Selection`, emits ``changed`` and keeps back/forward history."""

    changed = Signal(object)  # Selection

    def __init__(self, history_limit: int = 200) -> None:
        self._current = Selection()
        self._back: list[Selection] = []
        self._forward: list[Selection] = []
        self._limit = history_limit

    @property
    def current(self) -> Selection:
        return self._current

    def select(self, *, source: str = "", **fields: Any) -> None:
        """Select something new; fields not given are cleared (see :meth:`update` to keep them)."""
        new = Selection(source=source, **fields)
        self._set(new, record=True)

    def update(self, *, source: str = "", **fields: Any) -> None:
        """Change some fields and keep the others."""
        self._set(replace(self._current, source=source, **fields), record=True)

    def clear(self, *, emit: bool = True) -> None:
        """Select nothing and forget the history; ``emit=False`` defers the ``changed``
        signal to the caller (the session emits it once the views show the new package)."""
        self._back.clear()
        self._forward.clear()
        if emit:
            self._set(Selection(), record=False)
        else:
            self._current = Selection()

    def forget_findings(self) -> None:
        """Drop the finding from the selection and its history (the findings were replaced:
        their positions now name other findings)."""

        def drop(s: Selection) -> Selection:
            return replace(s, finding=None, location=None) if s.finding is not None else s

        self._back = [drop(s) for s in self._back]
        self._forward = [drop(s) for s in self._forward]
        if self._current.finding is not None:
            self._set(replace(drop(self._current), source="session"), record=False)

    def _set(self, new: Selection, *, record: bool) -> None:
        if _same(new, self._current):
            return
        if record:
            self._back.append(self._current)
            del self._back[: -self._limit]
            self._forward.clear()
        self._current = new
        self.changed.emit(new)

    def can_go_back(self) -> bool:
        return bool(self._back)

    def can_go_forward(self) -> bool:
        return bool(self._forward)

    def back(self) -> None:
        if self._back:
            self._forward.append(self._current)
            self._current = replace(self._back.pop(), source="history")
            self.changed.emit(self._current)

    def forward(self) -> None:
        if self._forward:
            self._back.append(self._current)
            self._current = replace(self._forward.pop(), source="history")
            self.changed.emit(self._current)


def _same(a: Selection, b: Selection) -> bool:
    return (a.row, a.evidence, a.finding, a.contract, a.location) == (
        b.row,
        b.evidence,
        b.finding,
        b.contract,
        b.location,
    ) and a.rows is b.rows
