"""Compare mode: the open package against a baseline package, as values a session holds.

A worker opens the baseline (an index build, like any package) and calls
:func:`prepare_comparison`, which runs :func:`aa_review.core.diff.diff` and derives
what the views need: per ``change:`` value a mask over the open package's rows (the
rows scope's ``change:`` field), the baseline's own rows scope (removed rows are
matched there), a change label per row and per evidence item, and where each
changed row was in the baseline. The session then holds it as a :class:`Comparison`
(``ReviewSession.set_comparison``). :func:`side_by_side` reads a row from both
packages (in a worker: rows can be large) and lines their fields up, the differing
ones marked; :func:`evidence_side_by_side` does the same for a catalog entry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from aa_review.core.query import RowsScope
from aa_review.core.query._fields import CHANGE_VALUES

if TYPE_CHECKING:
    from pathlib import Path

    from aa_review.core.diff import EvidenceChange, FindingsDiff, PackageDiff
    from aa_review.core.package import Package

__all__ = [
    "compare_findings",
    "compare_findings_in_process",
    "contract_changes",
    "PreparedComparison",
    "Comparison",
    "CompareItem",
    "SideBySide",
    "FieldLine",
    "prepare_comparison",
    "side_by_side",
    "evidence_side_by_side",
    "ROW_KINDS",
    "MAX_LINES",
]

# The kinds a row of the open package can have (at most one; ``linked`` comes on top).
ROW_KINDS = ("added", "changed", "moved", "reformatted")
MAX_LINES = 4000  # fields lined up in one side-by-side view
MAX_TEXT = 400  # characters of one value shown


def _never() -> bool:
    return False


@dataclass(frozen=True, eq=False)
class PreparedComparison:
    """A diff of ``baseline`` (old) against ``package`` (new), with its lookups.

    Attributes
    ----------
    masks : dict of str to numpy.ndarray
        Per ``change:`` value, a boolean mask over the rows of ``package`` (``removed``
        is all false: removed rows are in the baseline).
    old_masks : dict of str to numpy.ndarray
        The same over the baseline's rows: only ``removed`` is set.
    row_kind : numpy.ndarray
        Per row of ``package``: 0 unchanged, else 1 + its index in :data:`ROW_KINDS`.
    old_pos : dict of int to int
        For changed, moved and re-serialized rows: their position in the baseline.
    evidence : dict of str to EvidenceChange
        Catalog changes by evidence id.
    old_rows : RowsScope
        The baseline's rows, with ``old_masks`` as its ``change:`` field.
    """

    baseline: Package
    package: Package
    diff: PackageDiff
    masks: dict[str, np.ndarray]
    old_masks: dict[str, np.ndarray]
    row_kind: np.ndarray
    old_pos: dict[int, int]
    evidence: dict[str, EvidenceChange]
    old_rows: RowsScope
    fields_of: dict[int, tuple[str, ...] | None] = field(default_factory=dict)

    def kind_of(self, pos: int) -> str:
        """The change label of row ``pos`` of the open package ('' when unchanged)."""
        k = int(self.row_kind[pos]) if 0 <= pos < len(self.row_kind) else 0
        parts = [ROW_KINDS[k - 1]] if k else []
        if self.masks["linked"][pos]:
            parts.append("linked")
        return ", ".join(parts)

    def baseline_row_of(self, pos: int) -> int | None:
        """Where row ``pos`` of the open package is in the baseline (None when added)."""
        if pos in self.old_pos:
            return self.old_pos[pos]
        if self.masks["added"][pos]:
            return None
        return self.baseline.index.find_row(self.package.index.row_id_str(pos))

    def evidence_kind(self, evidence_id: str) -> str:
        c = self.evidence.get(evidence_id)
        return "" if c is None else c.kind

    def counts(self) -> dict[str, int]:
        """Rows per ``change:`` value (removed: in the baseline)."""
        out = {k: int(np.count_nonzero(m)) for k, m in self.masks.items()}
        out["removed"] = int(np.count_nonzero(self.old_masks["removed"]))
        return out

    def _kept(
        self, new_positions: np.ndarray | None, old_positions: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        kinds = self.row_kind
        new = (
            np.flatnonzero(kinds)
            if new_positions is None
            else new_positions[kinds[new_positions] > 0]
        )
        removed = np.flatnonzero(self.old_masks["removed"])
        if old_positions is not None:
            removed = np.intersect1d(removed, old_positions)
        return new, removed

    def count_listed(
        self, new_positions: np.ndarray | None, old_positions: np.ndarray | None
    ) -> int:
        """How many rows :meth:`listed` lists without a limit."""
        new, removed = self._kept(new_positions, old_positions)
        return len(new) + len(removed)

    def listed(
        self,
        new_positions: np.ndarray | None,
        old_positions: np.ndarray | None,
        limit: int | None = None,
    ) -> list[CompareItem]:
        """The changed rows a rows query keeps: rows of the open package among
        ``new_positions`` that were added, changed, moved or re-serialized, then the
        baseline's removed rows among ``old_positions`` (None: every row); the first
        ``limit`` of them."""
        new, removed = self._kept(new_positions, old_positions)
        if limit is not None:
            new = new[:limit]
            removed = removed[: max(0, limit - len(new))]
        ix, old_ix, kinds = self.package.index, self.baseline.index, self.row_kind
        out = [
            CompareItem(
                ROW_KINDS[int(kinds[p]) - 1],
                ix.row_id_str(p),
                p,
                self.old_pos.get(p),
                self.fields_of.get(p),
            )
            for p in new.tolist()
        ]
        out += [
            CompareItem("removed", old_ix.row_id_str(p), None, p, None) for p in removed.tolist()
        ]
        return out


@dataclass(frozen=True)
class CompareItem:
    """One changed row: its kind, id, and its positions in the open package and baseline."""

    kind: str
    row_id: str
    new_pos: int | None
    old_pos: int | None
    fields: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class Comparison:
    """What the session holds while a baseline is open.

    ``prepared`` is None while the diff is being computed (after a baseline is opened,
    or after the open package was replaced: the diff is then computed again).
    ``version`` is the session's package version the diff is about.
    """

    baseline: Package
    version: int
    prepared: PreparedComparison | None = None
    baseline_row: int | None = None  # a row shown from the baseline alone (removed)
    findings: FindingsDiff | None = None  # both packages audited: new, fixed, persisting


def prepare_comparison(
    baseline: Package, package: Package, cancelled: Callable[[], bool] = _never
) -> PreparedComparison:
    """Diff ``baseline`` against ``package`` and derive what the views show (any thread)."""
    from aa_review.core.diff import DiffCancelled, diff, side_masks
    from aa_review.core.session._prepare import Cancelled

    try:
        d = diff(baseline, package, cancelled=cancelled)
    except DiffCancelled:
        raise Cancelled from None
    n_old, n_new = len(baseline.index), len(package.index)
    masks, old_masks = side_masks(d, n_old, n_new)  # as aa-review diff --query answers
    row_kind = np.zeros(n_new, dtype=np.int8)
    for i, k in enumerate(ROW_KINDS, 1):
        row_kind[masks[k]] = i
    r = d.rows
    old_pos = {c.new_pos: c.old_pos for c in r.changed}
    old_pos.update(zip(r.moved.new.pos.tolist(), r.moved.old.pos.tolist(), strict=True))
    for p in r.reformatted.pos.tolist():
        q = baseline.index.find_row(package.index.row_id_str(int(p)))
        if q is not None:
            old_pos[int(p)] = q
    old_rows = RowsScope(baseline)
    old_rows.changes = old_masks
    assert set(masks) == set(CHANGE_VALUES)
    return PreparedComparison(
        baseline,
        package,
        d,
        masks,
        old_masks,
        row_kind,
        old_pos,
        {e.evidence_id: e for e in d.evidence},
        old_rows,
        {c.new_pos: c.fields for c in r.changed},
    )


# -- findings of both packages ----------------------------------------------------------
def compare_findings(
    baseline: Path, package: Path, cancelled: Callable[[], bool] = _never
) -> FindingsDiff:
    """Audit both packages (every finding, no listing cap) and key their findings on code
    and location: new, fixed, persisting (``aa-review diff --findings``). Two full audits:
    the window runs :func:`compare_findings_in_process`."""
    from aa_review.core.audits import AuditCancelled, audit_package
    from aa_review.core.diff import diff_findings
    from aa_review.core.diff._engine import AUDIT_CAP
    from aa_review.core.package import LoadCancelled, open_package
    from aa_review.core.session._prepare import Cancelled

    found = []
    try:
        for root in (baseline, package):
            pkg = open_package(root, cancelled=cancelled)
            found.append(
                audit_package(pkg, digest=False, cap=AUDIT_CAP, cancelled=cancelled).findings
            )
    except (AuditCancelled, LoadCancelled):
        raise Cancelled from None
    return diff_findings(found[0], found[1])


def compare_findings_in_process(
    baseline: Path, package: Path, *, cancelled: Callable[[], bool] = _never, niceness: int = 0
) -> FindingsDiff:
    """:func:`compare_findings` in a process of its own, out of the window's interpreter."""
    from aa_review.core.session._prepare import run_in_process

    fd: FindingsDiff = run_in_process(
        _findings_child,
        (str(baseline), str(package)),
        niceness=niceness,
        cancelled=cancelled,
        what="comparing the findings",
    )
    return fd


def _findings_child(baseline: str, package: str, send: object, stop: object, niceness: int) -> None:
    from pathlib import Path

    from aa_review.core.session._prepare import Cancelled, renice

    conn: Any = send
    halt: Any = stop
    renice(niceness)
    try:
        conn.send(("done", compare_findings(Path(baseline), Path(package), halt.is_set)))
    except Cancelled:
        conn.send(("cancelled", None))
    except Exception as exc:  # noqa: BLE001 - the window says what failed
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


_CONTRACT_DOCS = {"output": "output_contract", "artifact": "artifact_contract"}


def contract_changes(prepared: PreparedComparison, entries: Sequence[Any]) -> list[str]:
    """Per contract entry (``ContractsView.entries``), its change against the baseline:
    ``added``, ``changed`` or ''. Entries are matched as the diff names contract items:
    by document and path, a repeated path's copies as ``path (#2)``..."""
    by_item = {(c.document, c.item): c.kind for c in prepared.diff.contracts}
    seen: dict[tuple[str, str], int] = {}
    out = []
    for e in entries:
        doc = _CONTRACT_DOCS.get(e.kind, "")
        path = str(e.item.path)
        n = seen[(doc, path)] = seen.get((doc, path), 0) + 1
        out.append(by_item.get((doc, path if n == 1 else f"{path} (#{n})"), ""))
    return out


# -- side by side -------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldLine:
    """One field path with its value on each side (None: absent there) and whether they differ."""

    path: str
    old: str | None
    new: str | None
    differs: bool


@dataclass(frozen=True)
class SideBySide:
    """A row or evidence item from the baseline and from the open package, field by field."""

    title: str
    kind: str
    lines: tuple[FieldLine, ...]
    truncated: bool = False
    old_where: str | None = None
    new_where: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def differing(self) -> tuple[str, ...]:
        return tuple(line.path for line in self.lines if line.differs)


_ABSENT = object()


def _show(v: Any) -> str | None:
    if v is _ABSENT:
        return None
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def _pairs(a: Any, b: Any, prefix: str) -> Iterator[tuple[str, Any, Any]]:
    """Leaf pairs in the path notation of ``changed_paths`` (the diff's own walk)."""
    from aa_review.core.diff import join_key

    if isinstance(a, dict) and isinstance(b, dict):
        keys = list(a) + [k for k in b if k not in a]
        for k in keys:
            yield from _pairs(a.get(k, _ABSENT), b.get(k, _ABSENT), join_key(prefix, str(k)))
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a:
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _pairs(x, y, f"{prefix}[{i}]")
        return
    if a is _ABSENT and isinstance(b, dict) and b:
        for k, v in b.items():
            yield from _pairs(_ABSENT, v, join_key(prefix, str(k)))
        return
    if b is _ABSENT and isinstance(a, dict) and a:
        for k, v in a.items():
            yield from _pairs(v, _ABSENT, join_key(prefix, str(k)))
        return
    yield prefix, a, b


def _line_up(old: Any, new: Any) -> tuple[tuple[FieldLine, ...], bool]:
    from aa_review.core.diff import json_equal

    out: list[FieldLine] = []
    for path, a, b in _pairs(old, new, ""):
        if len(out) >= MAX_LINES:
            return tuple(out), True
        differs = (a is _ABSENT) != (b is _ABSENT) or (a is not _ABSENT and not json_equal(a, b))
        out.append(FieldLine(path, _show(a), _show(b), differs))
    return tuple(out), False


def side_by_side(
    prepared: PreparedComparison, new_pos: int | None, old_pos: int | None
) -> SideBySide:
    """Row ``new_pos`` of the open package beside row ``old_pos`` of the baseline (either
    may be None: an added or a removed row). Reads both rows: call it in a worker."""
    new_pkg, old_pkg = prepared.package, prepared.baseline
    new = new_pkg.read_row(new_pos) if new_pos is not None else _ABSENT
    old = old_pkg.read_row(old_pos) if old_pos is not None else _ABSENT
    lines, truncated = _line_up({} if old is _ABSENT else old, {} if new is _ABSENT else new)
    if old is _ABSENT or new is _ABSENT:  # one side only: nothing is "different" field by field
        lines = tuple(FieldLine(ln.path, ln.old, ln.new, False) for ln in lines)
    if new_pos is not None:
        kind = prepared.kind_of(new_pos) or "unchanged"
        rid = new_pkg.index.row_id_str(new_pos)
    else:
        assert old_pos is not None
        kind, rid = "removed", old_pkg.index.row_id_str(old_pos)
    notes = []
    change = (
        next((c for c in prepared.diff.rows.changed if c.new_pos == new_pos), None)
        if new_pos is not None and new_pos in prepared.fields_of
        else None
    )
    if change is not None and change.content_hash_changed:
        notes.append(
            "Same id, new content hash: the row's hashed content changed while its "
            "id did not (format 12.6)."
        )
    if change is not None and change.note:
        notes.append(change.note)
    return SideBySide(
        rid,
        kind,
        lines,
        truncated,
        _where(old_pkg, old_pos),
        _where(new_pkg, new_pos),
        tuple(notes),
    )


def _where(pkg: Package, pos: int | None) -> str | None:
    if pos is None:
        return None
    ix = pkg.index
    return f"{ix.files[int(ix.file[pos])]}:{int(ix.line[pos])}"


def evidence_side_by_side(prepared: PreparedComparison, evidence_id: str) -> SideBySide | None:
    """A catalog entry in both packages, field by field (None: the same in both, or in neither)."""
    change = prepared.evidence.get(evidence_id)
    if change is None:
        return None
    old = change.old._asdict() if change.old is not None else None
    new = change.new._asdict() if change.new is not None else None
    lines, _ = _line_up(old or {}, new or {})
    if old is None or new is None:
        lines = tuple(FieldLine(ln.path, ln.old, ln.new, False) for ln in lines)
    notes = []
    if change.hidden_while_cited:
        notes.append(f"Became hidden_excluded while {change.cited_by:,} rows still cite it.")
    elif change.cited_by:
        notes.append(f"Cited by {change.cited_by:,} rows.")
    return SideBySide(
        change.evidence_id,
        change.kind,
        lines,
        False,
        "baseline catalog" if old is not None else None,
        "catalog" if new is not None else None,
        tuple(notes),
    )
