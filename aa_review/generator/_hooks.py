"""Where defects plug into generation: per-row, per-line, per-link and per-file changes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._evidence import ExtraRef
from ._result import InjectedDefect

__all__ = ["Hooks", "RowHook", "LineHook", "LinkHook"]

# A row hook gets the full row (content hash slot None) and returns the rows to
# write in its place; a row whose ``row_content_hash`` is still None gets it computed.
RowHook = Callable[[dict[str, Any]], list[dict[str, Any]]]
# A line hook gets the encoded line and returns the bytes to write instead.
LineHook = Callable[[str], bytes]
LinkHook = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Hooks:
    """All changes the requested defects make, keyed by row file name and 0-based row index."""

    row: dict[tuple[str, int], RowHook] = field(default_factory=dict)
    line: dict[tuple[str, int], LineHook] = field(default_factory=dict)
    link: dict[tuple[str, int], LinkHook] = field(default_factory=dict)
    extras: list[ExtraRef] = field(default_factory=list)
    id_override: dict[str, str] = field(default_factory=dict)
    hash_any_size: set[str] = field(default_factory=set)
    # name -> function(value) applied to a computed object before it is written
    tweak: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    # run after the package is complete, before artifacts_index.json is built
    post: list[Callable[[], None]] = field(default_factory=list)
    records: list[InjectedDefect | None] = field(default_factory=list)
    # run last, with the generation facts (counts, catalog size) to complete records
    finalize: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)
    # package-relative files a post hook changed (their copies are hashed, not assumed equal)
    touched: set[str] = field(default_factory=set)

    def apply(self, name: str, value: Any) -> Any:
        fn = self.tweak.get(name)
        return value if fn is None else fn(value)

    def slot(self) -> int:
        """Reserve the record of the next defect (records keep the order defects were asked in)."""
        self.records.append(None)
        return len(self.records) - 1
