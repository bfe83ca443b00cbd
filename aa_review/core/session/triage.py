"""Working through findings: sort keys, groups with counts, and each row's findings.

Qt-free. The findings panel sorts and groups with these functions; the rows and
evidence tables show :class:`FindingMarks` (how many findings locate each row or
evidence item, and the worst severity among them), computed off the GUI thread with
the rest of an audit's findings (``prepare_findings``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from aa_review.core.findings import Finding, Severity, worst_first_key
from aa_review.core.query import (
    And,
    FindingsIndex,
    QueryError,
    Term,
    check_of,
    parse_query,
    quote,
)
from aa_review.core.query import set_term as _set_term

__all__ = [
    "GROUP_FIELDS",
    "FindingGroup",
    "group_findings",
    "open_group",
    "open_group_value",
    "sort_findings",
    "SORT_COLUMNS",
    "FindingMarks",
    "finding_marks",
    "severity_of_rank",
]

# What findings group by, each a field of the findings query (opening a group sets it).
GROUP_FIELDS = ("code", "check", "file", "severity")
NO_FILE = "(no file)"
NO_CHECK = "(loading)"
# The findings table's columns, in order; each sorts by its own key.
SORT_COLUMNS = ("severity", "code", "locations", "first location", "message")

_BY_RANK = {s.rank: s for s in Severity}


def severity_of_rank(rank: int) -> Severity | None:
    return _BY_RANK.get(int(rank))


@dataclass(frozen=True)
class FindingGroup:
    """The findings sharing one value of ``field``: how many, at how many locations,
    the worst severity among them, and the query term that shows them alone."""

    field: str
    value: str
    positions: np.ndarray  # into the findings, in order
    locations: int
    worst: Severity

    @property
    def count(self) -> int:
        return len(self.positions)

    @property
    def term(self) -> str | None:
        """``field=value`` (exact), or None for the findings having no such value."""
        if self.value in (NO_FILE, NO_CHECK):
            return None
        return f"{self.field}={quote(self.value)}"


def group_findings(
    index: FindingsIndex, positions: np.ndarray | None, field: str
) -> list[FindingGroup]:
    """The findings at ``positions`` (None: all) grouped by ``field`` (one of
    :data:`GROUP_FIELDS`), most findings first, then worst first, then by value.

    A finding located in several files counts in the group of each file.
    """
    if field not in GROUP_FIELDS:
        raise ValueError(f"findings group by {', '.join(GROUP_FIELDS)}, not '{field}'")
    fs = index.findings
    shown = (
        np.arange(len(fs), dtype=np.int64)
        if positions is None
        else np.asarray(positions, dtype=np.int64)
    )
    members: dict[str, list[int]] = {}
    if field == "file":
        keep = np.zeros(len(fs), dtype=bool)
        keep[shown] = True
        at = keep[index.owner]
        pairs = (
            np.unique(np.stack([index.owner[at], index.file[at]]), axis=1)
            if at.any()
            else np.empty((2, 0), dtype=np.int64)
        )
        has_file = np.zeros(len(fs), dtype=bool)
        for i, code in zip(pairs[0].tolist(), pairs[1].tolist(), strict=True):
            name = index.file_table[code]
            if name:
                members.setdefault(name, []).append(i)
                has_file[i] = True
        for i in shown.tolist():
            if not has_file[i]:
                members.setdefault(NO_FILE, []).append(i)
    else:
        for i in shown.tolist():
            members.setdefault(_value(fs[i], field), []).append(i)
    groups = []
    for value, items in members.items():
        pos = np.array(sorted(items), dtype=np.int64)
        locs = int((index.start[pos + 1] - index.start[pos]).sum())
        worst = max((fs[i].severity for i in items), key=lambda s: s.rank)
        groups.append(FindingGroup(field, value, pos, locs, worst))
    groups.sort(key=lambda g: (*worst_first_key(g.worst, g.count), g.value))  # worst first
    return groups


def open_group_value(query: str, field: str) -> str | None:
    """The group of ``field`` that ``query`` shows alone (its top-level ``field=value``)."""
    try:
        node = parse_query(query)
    except QueryError:
        return None
    parts = (
        list(node.nodes)
        if isinstance(node, And) and not node.grouped
        else ([node] if node is not None else [])
    )
    return next(
        (n.value for n in parts if isinstance(n, Term) and n.field == field and n.op == "="), None
    )


def open_group(query: str, group: FindingGroup | None, field: str) -> str:
    """``query`` showing ``group`` alone (None: no group of ``field``); picking the group
    already open closes it. The rest of the query is kept as written."""
    rest = _set_term(query, field, None)
    if group is None or group.term is None or open_group_value(query, field) == group.value:
        return rest
    return f"{rest} {group.term}".strip()


def _value(f: Finding, field: str) -> str:
    if field == "code":
        return f.code
    if field == "severity":
        return f.severity.value
    return check_of(f.code) or NO_CHECK


def sort_findings(
    findings: Sequence[Finding], positions: Sequence[int], column: int, descending: bool = False
) -> list[int]:
    """``positions`` ordered by the findings table's ``column`` (stable: equal keys keep
    their order). Severity sorts by rank, locations by number, text case-blind."""
    name = SORT_COLUMNS[column]

    def key(i: int) -> tuple[object, ...]:
        f = findings[i]
        if name == "severity":
            return (f.severity.rank, f.quirk)
        if name == "code":
            return (f.code,)
        if name == "locations":
            return (len(f.locations),)
        if name == "first location":
            loc = f.location
            return ((loc.file or "").lower(), loc.line or 0, loc.short().lower())
        return (f.message.lower(),)

    return sorted(positions, key=key, reverse=descending)


@dataclass(frozen=True, eq=False)
class FindingMarks:
    """Per row and per evidence item: how many findings locate it, and the worst
    severity's rank among them (-1: none)."""

    row_count: np.ndarray  # int32, one per row of the package index
    row_worst: np.ndarray  # int8
    evidence_count: np.ndarray  # int32, one per index.evidence_ids
    evidence_worst: np.ndarray  # int8


def _marks(
    loc: np.ndarray, owner: np.ndarray, severity: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray]:
    count = np.zeros(n, dtype=np.int32)
    worst = np.full(n, -1, dtype=np.int8)
    has = loc >= 0
    if not has.any() or n == 0:
        return count, worst
    # One (item, finding) pair however many of the finding's locations name the item,
    # each pair one int64 (item * findings + finding), so the unique is a flat sort.
    width = int(owner.max()) + 1 if len(owner) else 1
    pairs = np.unique(loc[has].astype(np.int64) * width + owner[has])
    items, who = pairs // width, pairs % width
    np.add.at(count, items, 1)
    np.maximum.at(worst, items, severity[who])
    return count, worst


def finding_marks(index: FindingsIndex, n_rows: int, n_evidence: int) -> FindingMarks:
    """The marks of every row and evidence item (vectorised: one pass over the locations)."""
    rc, rw = _marks(index.loc_row, index.owner, index.severity, n_rows)
    ec, ew = _marks(index.loc_evidence, index.owner, index.severity, n_evidence)
    return FindingMarks(rc, rw, ec, ew)
