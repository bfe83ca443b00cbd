"""Named subsets of rows, the way glue's subset groups work: made in one view (rows picked
together in a table, points brushed on a plot), shown in every view, used in queries
(``subset:name``), exported and saved with a session.

A subset is a frozen value (sorted unique row positions of the open package); the
store replaces values whole and says so with ``changed``. Membership is a boolean
mask computed with numpy, never a loop over rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from psygnal import Signal

if TYPE_CHECKING:
    from aa_review.core.package import RowIndex

__all__ = [
    "Subset",
    "SubsetStore",
    "SUBSET_COLORS",
    "valid_subset_name",
    "sorted_unique",
    "evidence_cited_by",
]

# One colour per subset, in order of creation (glue's palette idea; readable on light
# and dark backgrounds).
SUBSET_COLORS = ("#31a354", "#756bb1", "#e7ba52", "#d6616b", "#17becf", "#8c6d31")
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")


def sorted_unique(values: Iterable[int] | np.ndarray) -> np.ndarray:
    """``values`` sorted without repeats, as int64. Already sorted (the usual case: rows
    picked in package order) costs one comparison pass; else one sort. (``np.unique``
    takes seconds on half a million rows with this numpy.)"""
    arr = np.asarray(values, dtype=np.int64).ravel()
    if len(arr) < 2:
        return arr.copy()
    if not bool(np.all(arr[1:] > arr[:-1])):
        arr = np.sort(arr, kind="stable")
        keep = np.empty(len(arr), dtype=bool)
        keep[0] = True
        np.not_equal(arr[1:], arr[:-1], out=keep[1:])
        arr = arr[keep]
    return arr


def evidence_cited_by(index: RowIndex, rows: np.ndarray) -> np.ndarray:
    """A mask over the evidence ids: True for those some of ``rows`` cite. One pass over
    the rows (their evidence sets), then one look per evidence item at its sets."""
    hit = np.zeros(len(index.sets), dtype=bool)
    rows = np.asarray(rows, dtype=np.int64)
    hit[index.set_code[rows[(rows >= 0) & (rows < len(index))]]] = True
    return np.array([bool(hit[codes].any()) for codes in index.sets_with], dtype=bool)


def valid_subset_name(name: str) -> bool:
    """A name usable unquoted in a query: letters, digits, ``_ . -``, at most 64."""
    return bool(_NAME.match(name))


@dataclass(frozen=True, eq=False)
class Subset:
    """Rows of the open package, by sorted unique positions, with a name and a colour."""

    name: str
    rows: np.ndarray
    color: str

    def __len__(self) -> int:
        return len(self.rows)

    def mask(self, n: int) -> np.ndarray:
        """A boolean mask over ``n`` rows (positions past ``n`` are ignored)."""
        m = np.zeros(n, dtype=bool)
        rows = self.rows[self.rows < n]
        m[rows] = True
        return m


class SubsetStore:
    """The named subsets of one session, and which one is active (shown highlighted).

    ``changed`` carries the tuple of subsets after every change.
    """

    changed = Signal(object)  # tuple[Subset, ...]

    def __init__(self) -> None:
        self._subsets: dict[str, Subset] = {}
        self._active: str | None = None
        self._made = 0

    # -- reading ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._subsets)

    def __contains__(self, name: object) -> bool:
        return name in self._subsets

    def all(self) -> tuple[Subset, ...]:
        return tuple(self._subsets.values())

    def names(self) -> list[str]:
        return list(self._subsets)

    def get(self, name: str) -> Subset | None:
        return self._subsets.get(name)

    @property
    def active(self) -> Subset | None:
        return None if self._active is None else self._subsets.get(self._active)

    def positions(self) -> dict[str, np.ndarray]:
        """Each subset's rows by name (what ``subset:`` reads)."""
        return {s.name: s.rows for s in self._subsets.values()}

    def next_name(self) -> str:
        """A free name for a new subset: ``subset1``, ``subset2``…"""
        k = self._made + 1
        while f"subset{k}" in self._subsets:
            k += 1
        return f"subset{k}"

    # -- changing ----------------------------------------------------------------
    def add(
        self, rows: Iterable[int] | np.ndarray, name: str | None = None, *, activate: bool = True
    ) -> Subset:
        """Make (or replace) subset ``name`` of ``rows``; it becomes the active one.

        Raises
        ------
        ValueError
            When ``name`` cannot be written unquoted in a query.
        """
        name = (name or self.next_name()).strip()
        if not valid_subset_name(name):
            raise ValueError(
                f"'{name}' is not a subset name: use letters, digits, _ . - "
                "(it is written subset:name in queries)"
            )
        arr = sorted_unique(rows)
        old = self._subsets.get(name)
        color = (
            old.color if old is not None else SUBSET_COLORS[len(self._subsets) % len(SUBSET_COLORS)]
        )
        sub = Subset(name, arr, color)
        self._subsets[name] = sub
        if old is None:
            self._made += 1
        if activate:
            self._active = name
        self.changed.emit(self.all())
        return sub

    def remove(self, name: str) -> None:
        if self._subsets.pop(name, None) is None:
            return
        if self._active == name:
            self._active = next(iter(self._subsets), None)
        self.changed.emit(self.all())

    def rename(self, old: str, new: str) -> None:
        sub = self._subsets.get(old)
        if sub is None or old == new:
            return
        if not valid_subset_name(new) or new in self._subsets:
            raise ValueError(f"'{new}' is not a free subset name")
        self._subsets = {
            (new if k == old else k): (Subset(new, v.rows, v.color) if k == old else v)
            for k, v in self._subsets.items()
        }
        if self._active == old:
            self._active = new
        self.changed.emit(self.all())

    def activate(self, name: str | None) -> None:
        if name is not None and name not in self._subsets:
            return
        self._active = name
        self.changed.emit(self.all())

    def clear(self, *, emit: bool = True) -> None:
        """No subsets (the package they index was replaced)."""
        self._subsets.clear()
        self._active = None
        self._made = 0
        if emit:
            self.changed.emit(self.all())
