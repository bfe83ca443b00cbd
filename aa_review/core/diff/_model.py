"""What a diff found, as frozen values: row lists as numpy columns, changes as records."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from aa_review.core.diff._fingerprint import EvidenceFacts, Fingerprint

__all__ = [
    "DiffCancelled",
    "stop_if",
    "LEVELS",
    "RowRef",
    "Place",
    "RowList",
    "RowMoves",
    "RowChange",
    "RowsDiff",
    "EvidenceChange",
    "LinksDiff",
    "FieldChange",
    "ContractChange",
    "FindingsDiff",
    "PackageDiff",
    "level_rank",
]


class DiffCancelled(Exception):
    """Raised by :func:`~aa_review.core.diff.diff` when its ``cancelled()`` turned true."""


def stop_if(cancelled: Callable[[], bool] | None) -> None:
    """Raise :class:`DiffCancelled` when ``cancelled()`` says so (None: never)."""
    if cancelled is not None and cancelled():
        raise DiffCancelled


# Kinds of change from the least to the most severe; ``--fail-on`` names a threshold.
# ``moved``: rows unchanged in value that moved file or order, or were re-serialized.
LEVELS = ("moved", "added", "removed", "changed", "visibility")


def level_rank(level: str) -> int:
    """Position of ``level`` in :data:`LEVELS` (ValueError for an unknown name)."""
    try:
        return LEVELS.index(level)
    except ValueError:
        raise ValueError(
            f"unknown change level {level!r}; use one of {', '.join(LEVELS)}"
        ) from None


class Place(NamedTuple):
    file: str
    line: int


class RowRef(NamedTuple):
    row_id: str
    file: str
    line: int
    data_type: str


@dataclass(frozen=True, eq=False)
class RowList:
    """Rows of one side (``old`` or ``new``) as columns; ``pos`` indexes that side's index."""

    side: str
    pos: np.ndarray
    row_id: np.ndarray
    file: np.ndarray
    line: np.ndarray
    data_type: np.ndarray
    files: tuple[str, ...]
    data_types: tuple[str, ...]

    @classmethod
    def take(cls, fp: Fingerprint, side: str, pos: np.ndarray) -> RowList:
        pos = np.asarray(pos, dtype=np.int64)
        return cls(
            side,
            pos,
            fp.row_id[pos],
            fp.file[pos],
            fp.line[pos],
            fp.data_type[pos],
            fp.files,
            fp.data_types,
        )

    @classmethod
    def empty(cls, side: str) -> RowList:
        z = np.empty(0, np.int64)
        return cls(side, z, np.empty(0, "S1"), z, z, z, (), ())

    def __len__(self) -> int:
        return len(self.pos)

    def __getitem__(self, i: int) -> RowRef:
        return RowRef(
            bytes(self.row_id[i]).decode("utf-8", "replace"),
            self.files[int(self.file[i])],
            int(self.line[i]),
            self.data_types[int(self.data_type[i])],
        )

    def __iter__(self) -> Iterator[RowRef]:
        return (self[i] for i in range(len(self)))

    def ids(self) -> list[str]:
        return [b.decode("utf-8", "replace") for b in self.row_id.tolist()]

    def where(self, keep: np.ndarray) -> RowList:
        """The rows where the boolean mask ``keep`` is true."""
        return replace(
            self,
            pos=self.pos[keep],
            row_id=self.row_id[keep],
            file=self.file[keep],
            line=self.line[keep],
            data_type=self.data_type[keep],
        )


@dataclass(frozen=True, eq=False)
class RowMoves:
    """Rows unchanged in content whose place changed: ``how`` is ``file`` or ``order``."""

    old: RowList
    new: RowList
    how: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.how)

    def __iter__(self) -> Iterator[tuple[RowRef, RowRef, str]]:
        return ((self.old[i], self.new[i], self.how[i]) for i in range(len(self)))

    def where(self, keep: np.ndarray) -> RowMoves:
        return RowMoves(
            self.old.where(keep),
            self.new.where(keep),
            tuple(h for h, k in zip(self.how, keep.tolist(), strict=True) if k),
        )


@dataclass(frozen=True)
class RowChange:
    """A row present on both sides (same id) whose content differs.

    ``fields`` are the paths whose JSON values differ (None when the old side is a
    fingerprint, which keeps no row content). ``content_hash_changed``: the stored
    ``row_content_hash`` differs, so the row's hashed content changed under an id that
    did not (the compiler seeds ids before sanitizing, format 12.6). The recompute
    pairs are (old, new): whether the stored id / content hash still recompute from
    the row's fields; None where not checked: the id is checked when a field it is
    seeded from changed, the content hash (new side) when hashed fields changed while
    the stored hash did not (a stale hash). The audit checks every row.
    """

    row_id: str
    data_type: str
    old: Place
    new: Place
    old_pos: int
    new_pos: int
    fields: tuple[str, ...] | None
    content_hash_changed: bool
    evidence_added: tuple[str, ...] = ()
    evidence_removed: tuple[str, ...] = ()
    id_recomputes: tuple[bool | None, bool | None] = (None, None)
    content_hash_recomputes: tuple[bool | None, bool | None] = (None, None)
    note: str | None = None


@dataclass(frozen=True, eq=False)
class RowsDiff:
    """Rows matched by id: added, removed, changed, moved, re-serialized, shifted.

    ``shifted`` counts, per file, unchanged rows whose line number changed only
    because rows were added or removed before them (their order is kept).
    """

    compared: bool
    reason: str | None = None
    added: RowList = field(default_factory=lambda: RowList.empty("new"))
    removed: RowList = field(default_factory=lambda: RowList.empty("old"))
    changed: tuple[RowChange, ...] = ()
    moved: RowMoves = field(
        default_factory=lambda: RowMoves(RowList.empty("old"), RowList.empty("new"), ())
    )
    reformatted: RowList = field(default_factory=lambda: RowList.empty("new"))
    shifted: dict[str, int] = field(default_factory=dict)
    unchanged: int = 0

    @property
    def same_id_new_content(self) -> tuple[RowChange, ...]:
        """Changed rows whose content hash changed while their id did not (format 12.6)."""
        return tuple(c for c in self.changed if c.content_hash_changed)

    def changed_fields(self) -> dict[str, int]:
        """Rows changed per top-level field."""
        out: dict[str, int] = {}
        for c in self.changed:
            for top in {_top(p) for p in c.fields or ()}:
                out[top] = out.get(top, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _top(path: str) -> str:
    for i, ch in enumerate(path):
        if ch in ".[":
            return path[:i] if i else path
    return path


@dataclass(frozen=True)
class EvidenceChange:
    """One catalog entry added, removed or changed (matched by id, else by ref).

    ``fields`` names what differs: evidence_id, ref, content_hash, visibility,
    evidence_type, resolves, confidence. ``cited_by`` counts the rows citing it in
    the new package (in the old one for a removed item). ``hidden_while_cited``: it
    became ``hidden_excluded`` while rows still cite it, the most severe change.
    """

    kind: str
    evidence_id: str
    ref: str
    old: EvidenceFacts | None
    new: EvidenceFacts | None
    fields: tuple[str, ...] = ()
    matched_by: str | None = None
    cited_by: int = 0
    hidden_while_cited: bool = False


@dataclass(frozen=True, eq=False)
class LinksDiff:
    """Rows of the new package that cite evidence which changed or was removed.

    Often every row (rows commonly cite the whole catalog): the rows are kept as the
    evidence sets that cite changed evidence, over the new side's columns, and listed
    on demand (``rows``), not copied.
    """

    by_evidence: dict[str, int] = field(default_factory=dict)
    fp: Fingerprint | None = None
    set_hit: np.ndarray | None = None  # per evidence set of ``fp``: cites changed evidence
    listed: RowList | None = None  # an explicit list (a filtered diff)

    @property
    def rows(self) -> RowList:
        if self.listed is not None:
            return self.listed
        if self.fp is None or self.set_hit is None:
            return RowList.empty("new")
        return RowList.take(self.fp, "new", np.flatnonzero(self.set_hit[self.fp.set_code]))

    def __len__(self) -> int:
        if self.listed is not None:
            return len(self.listed)
        if self.fp is None or self.set_hit is None or not len(self.fp):
            return 0
        per_set = np.bincount(self.fp.set_code, minlength=len(self.set_hit))
        return int(per_set[self.set_hit].sum())


@dataclass(frozen=True)
class FieldChange:
    """Inside a contract item: ``kind`` added/removed (a list element or key) or changed."""

    path: str
    kind: str
    old: Any = None
    new: Any = None


@dataclass(frozen=True)
class ContractChange:
    """A contract or checklist item added, removed or changed; ``item`` names it."""

    document: str
    item: str
    kind: str
    fields: tuple[FieldChange, ...] = ()


@dataclass(frozen=True)
class FindingsDiff:
    """Audit findings keyed on code and location: new, fixed, persisting."""

    new: tuple[dict[str, Any], ...]
    fixed: tuple[dict[str, Any], ...]
    persisting: tuple[dict[str, Any], ...]


@dataclass(frozen=True, eq=False)
class PackageDiff:
    """Everything that differs from ``old`` to ``new``; see :func:`aa_review.core.diff.diff`."""

    old: dict[str, Any]
    new: dict[str, Any]
    identity_changes: dict[str, tuple[Any, Any]]
    version_change: tuple[str, str] | None
    rows: RowsDiff
    evidence: tuple[EvidenceChange, ...]
    links: LinksDiff
    contracts: tuple[ContractChange, ...]
    counts: dict[str, Any]
    findings: FindingsDiff | None = None
    old_is_fingerprint: bool = False
    query: str | None = None

    def summary(self) -> dict[str, Any]:
        """A few numbers for a panel: what changed, by kind, and the most severe level."""
        r = self.rows
        return {
            "changed": self.highest() is not None,
            "highest": self.highest(),
            "version_change": self.version_change,
            "rows": {
                "compared": r.compared,
                "added": len(r.added),
                "removed": len(r.removed),
                "changed": len(r.changed),
                "same_id_new_content": len(r.same_id_new_content),
                "moved": len(r.moved),
                "reformatted": len(r.reformatted),
            },
            "evidence": {
                k: sum(1 for e in self.evidence if e.kind == k)
                for k in ("added", "removed", "changed", "visibility")
            },
            "hidden_while_cited": [e.evidence_id for e in self.evidence if e.hidden_while_cited],
            "rows_citing_changed_evidence": len(self.links),
            "contracts": len(self.contracts),
            "identity": sorted(self.identity_changes),
        }

    def levels(self) -> dict[str, int]:
        """How many changes of each level (see :data:`LEVELS`)."""
        out = dict.fromkeys(LEVELS, 0)
        r = self.rows
        out["moved"] += len(r.moved) + len(r.reformatted)
        out["added"] += len(r.added)
        out["removed"] += len(r.removed)
        out["changed"] += (
            len(r.changed) + len(self.identity_changes) + (1 if self.version_change else 0)
        )
        for e in self.evidence:
            out[e.kind] += 1
        for c in self.contracts:
            out[c.kind] += 1
        return out

    def highest(self) -> str | None:
        """The most severe level present, or None when nothing changed."""
        levels = self.levels()
        return next((lv for lv in reversed(LEVELS) if levels[lv]), None)

    def changed_at(self, threshold: str = LEVELS[0]) -> bool:
        """Whether anything changed at ``threshold`` or a more severe level."""
        top = self.highest()
        return top is not None and level_rank(top) >= level_rank(threshold)
