"""What changed inside rows whose bytes differ: fields, content hash, evidence, ids."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from aa_review.core.diff._fingerprint import Fingerprint
from aa_review.core.diff._jsonvalue import changed_paths
from aa_review.core.diff._model import Place, RowChange, stop_if
from aa_review.core.diff._recompute import (
    SEED_FIELDS,
    content_hash_recomputes,
    hashed_fields,
    id_recomputes,
)
from aa_review.core.util.errors import AAReviewError

if TYPE_CHECKING:
    from collections.abc import Callable

    from aa_review.core.package import Package

__all__ = ["describe_changes"]

MAX_PATHS = 200  # changed paths listed per row
POLL_PAIRS = 256  # changed pairs read again between two polls of cancelled()


def _read(pkg: Package | None, pos: int) -> tuple[dict[str, Any] | None, str | None]:
    if pkg is None:
        return None, None
    try:
        return pkg.read_row(pos), None
    except (AAReviewError, OSError) as exc:
        return None, f"could not be read again: {exc}"


def _top(path: str) -> str:
    return path.split(".", 1)[0].split("[", 1)[0]


def _evidence(fp: Fingerprint, pos: int) -> list[str]:
    return [fp.evidence_ids[e] for e in fp.evidence_set(int(fp.set_code[pos])).tolist()]


def describe_changes(
    a: Fingerprint,
    b: Fingerprint,
    ia: np.ndarray,
    ib: np.ndarray,
    old_pkg: Package | None,
    new_pkg: Package | None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[tuple[RowChange, ...], list[int]]:
    """One :class:`RowChange` per pair whose values differ, and the new positions of
    pairs whose bytes differ but whose JSON values are equal (re-serialized rows).

    Rows are read again by offset only here, for the pairs whose line digests differ;
    ``cancelled()`` is polled every :data:`POLL_PAIRS` pairs (:class:`DiffCancelled`).
    """
    changes: list[RowChange] = []
    same_values: list[int] = []
    cited: dict[tuple[int, int], tuple[tuple[str, ...], tuple[str, ...]]] = {}
    task_a = a.identity.get("task_id")
    task_b = b.identity.get("task_id")
    for n, (i, j) in enumerate(zip(ia.tolist(), ib.tolist(), strict=True)):
        if n % POLL_PAIRS == 0:
            stop_if(cancelled)
        old_row, note_a = _read(old_pkg, i)
        new_row, note_b = _read(new_pkg, j)
        fields: tuple[str, ...] | None = None
        if old_row is not None and new_row is not None:
            fields = tuple(changed_paths(old_row, new_row, limit=MAX_PATHS))
            if not fields:
                same_values.append(j)
                continue
        key = (int(a.set_code[i]), int(b.set_code[j]))
        if key not in cited:  # rows share few distinct evidence sets: compare each pair once
            ev_a, ev_b = _evidence(a, i), _evidence(b, j)
            set_a, set_b = set(ev_a), set(ev_b)
            cited[key] = (
                tuple(e for e in ev_b if e not in set_a),
                tuple(e for e in ev_a if e not in set_b),
            )
        ev_added, ev_removed = cited[key]
        # Recomputing costs a json.dumps of the row, so only where it can tell something:
        # the id when a field it is seeded from changed (else it recomputes as before);
        # the content hash when hashed fields changed but the stored hash did not.
        tops = {_top(p) for p in fields or ()}
        seeded = fields is None or bool(tops & set(SEED_FIELDS))
        ch_changed = bool(a.content_hash[i] != b.content_hash[j])
        stale = new_row is not None and not ch_changed and bool(tops & hashed_fields(new_row))
        changes.append(
            RowChange(
                row_id=b.row_id_str(j),
                data_type=b.data_types[int(b.data_type[j])],
                old=Place(a.files[int(a.file[i])], int(a.line[i])),
                new=Place(b.files[int(b.file[j])], int(b.line[j])),
                old_pos=i,
                new_pos=j,
                fields=fields,
                content_hash_changed=ch_changed,
                evidence_added=ev_added,
                evidence_removed=ev_removed,
                id_recomputes=(
                    id_recomputes(old_row, task_a) if old_row and seeded else None,
                    id_recomputes(new_row, task_b) if new_row and seeded else None,
                ),
                content_hash_recomputes=(
                    None,
                    content_hash_recomputes(new_row) if stale and new_row is not None else None,
                ),
                note=note_a or note_b,
            )
        )
    return tuple(changes), same_values
