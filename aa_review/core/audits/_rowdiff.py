"""Which values of a row differ from the previous row with the same keys, found once per row.

Rows of one file share their keys and repeat most values. The content hash, the
privacy scan and the ref rules all only redo work for values that changed; this
finds them with C-level ``map``/``compress`` (no Python loop over the keys).
A value counts as changed when it is unequal or of another type (``1`` vs ``True``).
"""

from __future__ import annotations

import operator
from itertools import compress
from typing import Any

__all__ = ["Layout", "Step", "RowDiff"]


class Layout:
    """One key order: a getter for its values and the previous row's values and types."""

    __slots__ = ("sig", "getter", "index", "vals", "types", "rng", "state")

    def __init__(self, sig: tuple[str, ...]) -> None:
        self.sig = sig
        self.index = {k: i for i, k in enumerate(sig)}
        if len(sig) > 1:
            self.getter: Any = operator.itemgetter(*sig)
        else:
            self.getter = lambda row: tuple(row.values())
        self.vals: tuple[Any, ...] | None = None
        self.types: tuple[type, ...] = ()
        self.rng = range(len(sig))
        self.state: dict[str, Any] = {}  # per-consumer data (plans, scanner state)


class Step:
    """One row's diff: ``changed`` indices into ``layout.sig`` (None: all, a first row)."""

    __slots__ = ("layout", "vals", "changed", "changed_set", "same_prev")

    def __init__(
        self, layout: Layout, vals: tuple[Any, ...], changed: list[int] | None, same_prev: bool
    ) -> None:
        self.layout = layout
        self.vals = vals
        self.changed = changed
        self.changed_set = None if changed is None else set(changed)
        self.same_prev = same_prev  # the row before this one had the same keys

    def unchanged(self, key: str) -> bool:
        """True when ``key``'s value equals the previous row's (so its results carry over)."""
        if not self.same_prev or self.changed_set is None:
            return False
        i = self.layout.index.get(key)
        return i is not None and i not in self.changed_set


class RowDiff:
    """Diffs each row against the previous row of the same key order."""

    def __init__(self) -> None:
        self._layouts: dict[tuple[str, ...], Layout] = {}
        self._last: Layout | None = None

    def step(self, row: dict[str, Any]) -> Step:
        sig = tuple(row)
        lay = self._layouts.get(sig)
        if lay is None:
            lay = self._layouts[sig] = Layout(sig)
        vals = lay.getter(row)
        types = tuple(map(type, vals))
        if lay.vals is None:
            changed = None
        else:
            diff = map(
                operator.or_,
                map(operator.ne, vals, lay.vals),
                map(operator.is_not, types, lay.types),
            )
            changed = list(compress(lay.rng, diff))
        lay.vals, lay.types = vals, types
        same = self._last is lay
        self._last = lay
        return Step(lay, vals, changed, same)
