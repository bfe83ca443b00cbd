"""One streaming pass over every indexed row, split into jobs run in worker processes."""

from __future__ import annotations

import logging
import os
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from aa_review.core.audits._rowjob import (
    Part,
    Where,
    init_worker,
    link_fingerprint,
    run_job,
    shifted,
)
from aa_review.core.audits._rowrules import RowAuditor, RowHit, ScanConfig
from aa_review.core.findings import distinct_sorted
from aa_review.core.package.layout import ROW_FILES
from aa_review.core.package.model import Package
from aa_review.core.util.procpool import POOL_UNAVAILABLE, run_in_processes

__all__ = [
    "RowScan",
    "Gathered",
    "scan_rows",
    "row_workers",
    "ScanCancelled",
    "link_fingerprint",
    "fused_scan",
]

log = logging.getLogger(__name__)

JOB_BYTES = 16 * 1024 * 1024
PARALLEL_MIN_BYTES = 48 * 1024 * 1024  # below this, starting workers costs more than it saves
_TYPES = dict(ROW_FILES)
# array is not subscriptable at run time before Python 3.12, hence the quotes.
Job = tuple[str, str, str, "array[int]", "array[int]", "array[int]"]


class ScanCancelled(Exception):
    """The caller's ``cancelled()`` turned true during the row pass."""


@dataclass(frozen=True)
class Gathered:
    """One code's hits past the cap, in row order: positions and, per position, which
    ``wheres`` entry (key path, ref, evidence id) it has."""

    positions: np.ndarray
    codes: np.ndarray
    wheres: list[Where]


@dataclass
class RowScan:
    """What the row pass found, every row of it.

    ``groups``: per distinct hit (code, key path, ref, evidence id, message) the sorted
    positions of the rows carrying it, at most ``cap`` hits per code; ``gathered``: per
    code, the rest.
    """

    groups: dict[RowHit, np.ndarray] = field(default_factory=dict)
    gathered: dict[str, Gathered] = field(default_factory=dict)
    hidden_rows: list[int] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint64))


def _jobs(pkg: Package) -> list[Job]:
    """Consecutive rows of one file, about JOB_BYTES each, as plain arrays (cheap to send)."""
    ix = pkg.index
    out: list[Job] = []
    order = np.argsort(ix.file, kind="stable")
    files = ix.file[order]
    for code in np.unique(files).tolist():
        sel = order[files == code]
        rel = ix.files[code]
        root = str(pkg.root)
        cum = np.cumsum(ix.length[sel])
        cuts = np.searchsorted(cum, np.arange(JOB_BYTES, int(cum[-1]) + 1, JOB_BYTES))
        for part in np.split(np.arange(len(sel)), np.unique(cuts[cuts < len(sel)])):
            if len(part):
                p = sel[part]
                out.append(
                    (
                        root,
                        rel,
                        _TYPES.get(rel, ""),
                        array("q", p.tolist()),
                        array("q", ix.offset[p].tolist()),
                        array("q", ix.length[p].tolist()),
                    )
                )
    return out


def row_workers(pkg: Package, workers: int | None) -> int:
    """Worker processes the row pass will use for ``pkg`` (0: it runs in this process)."""
    n = workers if workers is not None else min(os.cpu_count() or 1, 8)
    total = int(pkg.index.length.sum()) if len(pkg.index) else 0
    return n if total >= PARALLEL_MIN_BYTES and n > 1 else 0


def scan_rows(
    pkg: Package,
    cfg: ScanConfig,
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> RowScan:
    """Run every enabled row rule over every indexed row, each row read once.

    Large packages are split into jobs for worker processes (spawned, so safe under a
    GUI); small ones are checked in this process, where start-up would cost more, and
    so is what is left when worker processes cannot start.
    """
    jobs = _jobs(pkg)
    total = int(pkg.index.length.sum()) if len(pkg.index) else 0
    parts: dict[int, Part] = {}
    done = [0]

    def finish(i: int, part: Part) -> None:
        parts[i] = part
        done[0] += sum(jobs[i][5])
        if progress is not None:
            progress(done[0], total)

    n = row_workers(pkg, workers)
    if n and len(jobs) > 1:
        try:
            run_in_processes(
                run_job,
                dict(enumerate(jobs)),
                finish,
                cancelled,
                ScanCancelled,
                workers=n,
                initializer=init_worker,
                initargs=(cfg,),
            )
        except POOL_UNAVAILABLE as exc:
            # Workers could not start (no __main__ guard, no /dev/shm...): check rows here.
            log.warning("row pass in worker processes unavailable (%s); checking here", exc)
    auditor: RowAuditor | None = None
    for i, job in enumerate(jobs):
        if i in parts:
            continue
        if cancelled():
            raise ScanCancelled()
        auditor = auditor or RowAuditor(cfg)
        finish(i, run_job(*job, auditor=auditor))
    return _merge(list(parts.values()), len(pkg.index), cfg.cap)


def fused_scan(parts: list[tuple[int, Part]], n_rows: int, cap: int) -> RowScan:
    """The row pass's result from the loader's fused scan: per chunk, the position of its
    first row in the package and what its rows' checks found (chunk positions)."""
    return _merge([shifted(part, first) for first, part in parts], n_rows, cap)


def _merge(parts: list[Part], n_rows: int, cap: int) -> RowScan:
    """Join the jobs' results; the first ``cap`` groups of a code (by first row) stay groups,
    whichever job found them, and the rest of the code's hits are gathered."""
    scan = RowScan(fingerprints=np.zeros(n_rows, np.uint64))
    chunks: dict[RowHit, list[np.ndarray]] = {}
    over: dict[str, list[tuple[np.ndarray, np.ndarray, list[Where]]]] = {}
    for part in sorted(parts, key=lambda p: p.positions[0] if len(p.positions) else 0):
        scan.fingerprints[np.frombuffer(part.positions, dtype=np.int64)] = np.frombuffer(
            part.fingerprints, dtype=np.uint64
        )
        scan.hidden_rows.extend(part.hidden)
        for hit, rows in part.groups.items():
            chunks.setdefault(hit, []).append(np.frombuffer(rows, dtype=np.int64))
        for code, ov in part.overflow.items():
            over.setdefault(code, []).append(
                (
                    np.frombuffer(ov.positions, dtype=np.int64),
                    np.frombuffer(ov.codes, dtype=np.int32),
                    list(ov.wheres),
                )
            )
    groups = {hit: distinct_sorted(np.concatenate(c)) for hit, c in chunks.items()}
    by_code: dict[str, list[RowHit]] = {}
    for hit in sorted(groups, key=lambda h: int(groups[h][0])):
        by_code.setdefault(hit[0], []).append(hit)
    for code, hits in by_code.items():
        for hit in hits[cap:]:  # past the cap once every job is counted: gathered
            over.setdefault(code, []).append(
                (groups.pop(hit), np.zeros(0, np.int32), [(hit[1], hit[2], hit[3])])
            )
    scan.groups = groups
    scan.gathered = {code: _gather(pieces) for code, pieces in over.items()}
    scan.hidden_rows.sort()
    return scan


def _gather(pieces: list[tuple[np.ndarray, np.ndarray, list[Where]]]) -> Gathered:
    table: dict[Where, int] = {}
    pos_parts, code_parts = [], []
    for positions, codes, wheres in pieces:
        remap = np.array([table.setdefault(w, len(table)) for w in wheres], dtype=np.int32)
        pos_parts.append(positions)
        code_parts.append(
            remap[codes]
            if len(codes) == len(positions)
            else np.full(len(positions), remap[0], np.int32)
        )
    positions = np.concatenate(pos_parts)
    codes = np.concatenate(code_parts)
    # By row, then by (key path, ref, evidence id): the same order however the rows were
    # split into jobs (a row's hits may come from several of them).
    listed = list(table)
    rank = np.empty(len(listed), np.int64)
    rank[sorted(range(len(listed)), key=lambda i: tuple(v or "" for v in listed[i]))] = np.arange(
        len(listed)
    )
    order = np.lexsort((rank[codes], positions))
    return Gathered(positions[order], codes[order], listed)
