"""What the Compare dock lists and says, as values: the changes a rows query keeps, the
summary of a comparison, and the caption of both versions side by side.

The dock (``qt/views/compare_panel.py``) shows these and computes none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from aa_review.core.query import QueryError

if TYPE_CHECKING:
    from aa_review.core.diff import FindingsDiff
    from aa_review.core.package import Package
    from aa_review.core.session._compare import (
        CompareItem,
        Comparison,
        PreparedComparison,
        SideBySide,
    )

__all__ = [
    "ChangesList",
    "list_changes",
    "comparison_summary",
    "compare_summary",
    "side_caption",
    "MAX_LISTED",
    "NO_BASELINE",
]

MAX_LISTED = 2000  # changes listed at once; the rows query narrows the rest
NO_BASELINE = (
    "No baseline. File > Compare With… opens a second package as the baseline: "
    "the rows, evidence and facets then say what changed."
)

# What picking a line of the list shows: (what, new position, old position, key).
Target = tuple[str, int | None, int | None, str]


@dataclass(frozen=True)
class ChangesList:
    """The changes listed: one line per change (kind, what, id, baseline, this package,
    changed fields), what each line points at, and a note on what is left out."""

    items: list[tuple[Any, ...]]
    targets: list[Target]
    note: str = ""


def comparison_summary(p: PreparedComparison) -> str:
    """``3 added, 2 removed, 1 evidence item changed``... or ``no change``."""
    n = p.counts()
    ev = sum(1 for _ in p.evidence)
    parts = [
        f"{n[k]:,} {k}" for k in ("added", "removed", "changed", "moved", "reformatted") if n[k]
    ]
    parts.append(f"{ev:,} evidence item{'s' if ev != 1 else ''} changed" if ev else "")
    if p.diff.contracts:
        parts.append(f"{len(p.diff.contracts):,} contract changes")
    text = ", ".join(x for x in parts if x)
    return text or "no change"


def compare_summary(c: Comparison | None, p: PreparedComparison | None) -> str:
    """The dock's first line: no baseline, comparing, or what the diff found."""
    if c is None:
        return NO_BASELINE
    if p is None:
        return f"Baseline {c.baseline.package_id}: comparing…"
    d = p.diff
    version = f" Format {d.version_change[0]} → {d.version_change[1]}." if d.version_change else ""
    hidden = [e.evidence_id for e in d.evidence if e.hidden_while_cited]
    warn = f" Hidden while cited: {', '.join(hidden)}." if hidden else ""
    fd = c.findings
    found = (
        ""
        if fd is None
        else f" Findings: {len(fd.new):,} new, "
        f"{len(fd.fixed):,} fixed, {len(fd.persisting):,} persisting."
    )
    return f"Baseline {c.baseline.package_id}: {comparison_summary(p)}.{version}{warn}{found}"


def _finding_place(f: dict[str, Any]) -> str:
    """Where a finding (as JSON) points: its first location, and how many more."""
    locs = f.get("locations") or ([f["location"]] if isinstance(f.get("location"), dict) else [])
    if not locs or not isinstance(locs[0], dict):
        return ""
    loc = locs[0]
    place = (
        loc.get("row_id")
        or loc.get("evidence_id")
        or loc.get("contract")
        or (f"{loc.get('file', '')}:{loc['line']}" if loc.get("line") else loc.get("file", ""))
    )
    more = f" (+{len(locs) - 1:,} more)" if len(locs) > 1 else ""
    return f"{place}{more}"


def _places(old: str | None, new: str | None) -> str:
    """``file.jsonl: line 3 → 7`` (the file named once when it is the same)."""

    def split(w: str) -> tuple[str, str]:
        f, _, line = w.rpartition(":")
        return f.rsplit("/", 1)[-1], line

    if old and new and split(old)[0] == split(new)[0]:
        return f"{split(new)[0]}: line {split(old)[1]} → {split(new)[1]}"
    a = "line {1} of {0}".format(*split(old)) if old else "absent"
    b = "line {1} of {0}".format(*split(new)) if new else "absent"
    return f"baseline: {a}; this package: {b}"


def _places_of(pkg: Package, positions: list[int | None]) -> list[str]:
    """``file.jsonl:line`` of each row position ('' for None), the index read once."""
    ix = pkg.index
    known = np.asarray([q for q in positions if q is not None], dtype=np.int64)
    names = [f.rsplit("/", 1)[-1] for f in ix.files]
    texts = iter(
        [
            f"{names[f]}:{line}"
            for f, line in zip(ix.file[known].tolist(), ix.line[known].tolist(), strict=True)
        ]
    )
    return ["" if q is None else next(texts) for q in positions]


def _row_items(p: PreparedComparison, listed: list[CompareItem]) -> list[tuple[Any, ...]]:
    """The changes list's lines for changed rows: kind, row, id, where in each package."""
    old = _places_of(p.baseline, [it.old_pos for it in listed])
    new = _places_of(p.package, [it.new_pos for it in listed])
    return [
        (it.kind, "row", it.row_id, a, b, ", ".join(it.fields) if it.fields else "")
        for it, a, b in zip(listed, old, new, strict=True)
    ]


def list_changes(
    p: PreparedComparison,
    findings: FindingsDiff | None,
    query: str,
    positions: np.ndarray | None,
    query_failed: bool = False,
    limit: int = MAX_LISTED,
) -> ChangesList:
    """The changes the rows query keeps: the rows among ``positions`` (the query's
    result on the open package; None: every row) that changed, the baseline's removed
    rows the same ``query`` keeps, then every evidence, contract and finding change.
    ``query_failed``: the query has an error (every change is listed)."""
    note = ""
    try:
        old_positions = p.old_rows.filter(query)
        total_rows = p.count_listed(positions, old_positions)
        listed = p.listed(positions, old_positions, limit)
    except QueryError as exc:  # e.g. finding: terms, the baseline has no audit
        empty = np.empty(0, np.int64)
        total_rows = p.count_listed(positions, empty)
        listed = p.listed(positions, empty, limit)
        note = (
            f"Removed rows are not listed: the query cannot be evaluated on the "
            f"baseline ({exc.message})."
        )
    if query_failed:
        note = "The rows query has an error: every change is listed."
    items: list[tuple[Any, ...]] = _row_items(p, listed)
    targets: list[Target] = [("row", it.new_pos, it.old_pos, it.row_id) for it in listed]
    for e in p.diff.evidence:
        fields = ", ".join(e.fields)
        items.append(
            (
                e.kind,
                "evidence",
                e.evidence_id,
                e.old.ref if e.old is not None else "",
                e.new.ref if e.new is not None else "",
                fields,
            )
        )
        targets.append(("evidence", None, None, e.evidence_id))
    for cc in p.diff.contracts:
        items.append(
            (
                cc.kind,
                "contract",
                f"{cc.document}: {cc.item}",
                "",
                "",
                ", ".join(f.path for f in cc.fields),
            )
        )
        targets.append(("contract", None, None, cc.item))
    fd = findings
    for kind, side in (("new", fd.new if fd else ()), ("fixed", fd.fixed if fd else ())):
        for f in side:
            where = _finding_place(f)
            items.append(
                (
                    kind,
                    "finding",
                    str(f.get("code", "")),
                    where if kind == "fixed" else "",
                    where if kind == "new" else "",
                    str(f.get("message", "")),
                )
            )
            targets.append(("finding", None, None, str(f.get("code", ""))))
    if total_rows > limit:
        note = (
            (note + " " if note else "") + f"The first {limit:,} of "
            f"{total_rows:,} changed rows are listed: narrow them with the rows query."
        )
    return ChangesList(items, targets, note)


def side_caption(view: SideBySide, what: str) -> str:
    """The caption above both versions of a row or evidence item (``what``): its title,
    its kind and how many fields differ, where it is in each package, and its notes."""
    n = len(view.differing)
    if what == "evidence":
        where = "in both catalogs" if view.old_where and view.new_where else ""
    else:
        where = _places(view.old_where, view.new_where)
    if view.new_where is None:
        diff = "only in the baseline"
    elif view.old_where is None:
        diff = "not in the baseline"
    else:
        diff = f"{n} field{'s differ' if n != 1 else ' differs'}" if n else "no field differs"
    more = " (first fields only)" if view.truncated else ""
    notes = "".join(f"\n{x}" for x in view.notes)
    line = " · ".join(x for x in (f"{view.kind}: {diff}{more}", where) if x)
    return f"{what.capitalize()} {view.title}\n{line}{notes}"
