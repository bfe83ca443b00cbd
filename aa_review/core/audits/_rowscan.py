"""One streaming pass over every indexed row, split into jobs run in worker processes."""

from __future__ import annotations

import hashlib
import mmap
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from aa_review.core.audits._rowrules import RowAuditor, RowHit, ScanConfig
from aa_review.core.package.layout import ROW_FILES
from aa_review.core.package.model import Package

__all__ = ["RowScan", "scan_rows", "ScanCancelled", "link_fingerprint"]

JOB_BYTES = 16 * 1024 * 1024
PARALLEL_MIN_BYTES = 48 * 1024 * 1024
_TYPES = dict(ROW_FILES)


class ScanCancelled(Exception):
    """The caller's ``cancelled()`` turned true during the row pass."""


# Hits that repeat on every row carrying the same list value (the evidence block all rows
# share) are reported once per ref, located at the first row, with how many rows carry it.
GROUPED = frozenset({"ref.absolute", "ref.escape", "ref.symlink_out", "ref.unresolved",
                     "ref.not_normalized", "hash.row_disagrees", "link.bad_evidence_id"})
GroupKey = tuple[str, "str | None", "str | None"]


@dataclass
class RowScan:
    """What the row pass found: hits by row position (listed up to a cap) and full counts.

    ``groups`` holds the :data:`GROUPED` codes: per (code, ref, evidence id) the first
    row position, its hit and the number of rows.
    """

    hits: list[tuple[int, RowHit]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    groups: dict[GroupKey, list] = field(default_factory=dict)  # type: ignore[type-arg]
    hidden_rows: list[int] = field(default_factory=list)
    fingerprints: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint64))


@dataclass
class _Part:
    positions: np.ndarray
    hits: list[tuple[int, RowHit]]
    counts: dict[str, int]
    hidden: list[int]
    fingerprints: np.ndarray
    groups: dict[GroupKey, list]  # type: ignore[type-arg]


def link_fingerprint(trace: Any, steps: Any, artifact_refs: Any) -> int:
    """A 64-bit digest of the link fields the row index does not hold."""
    data = orjson.dumps([trace, steps or [], artifact_refs or []])
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


_AUDITOR: RowAuditor | None = None


def _init(cfg: ScanConfig) -> None:
    global _AUDITOR
    _AUDITOR = RowAuditor(cfg)


def _run_job(path: str, data_type: str, positions: np.ndarray, offsets: np.ndarray,
             lengths: np.ndarray, auditor: RowAuditor | None = None) -> _Part:
    aud = auditor or _AUDITOR
    assert aud is not None
    cap = aud.cfg.cap
    hits: list[tuple[int, RowHit]] = []
    counts: dict[str, int] = {}
    groups: dict[GroupKey, list] = {}  # type: ignore[type-arg]
    hidden: list[int] = []
    fps = np.zeros(len(positions), np.uint64)
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for j, (pos, off, n) in enumerate(zip(positions.tolist(), offsets.tolist(),
                                              lengths.tolist())):
            try:
                row = orjson.loads(mm[off:off + n])
            except orjson.JSONDecodeError:
                row = None
            if not isinstance(row, dict):
                found: list[RowHit] = [("row.changed_on_disk", None, None, None,
                                        "the row no longer parses as it did when the package "
                                        "was opened; reopen the package")]
                is_hidden = False
            else:
                found, is_hidden = aud.check(row, data_type)
                aud.feed_privacy(pos, row)
                fps[j] = link_fingerprint(row.get("source_trace_id"), row.get("source_step_ids"),
                                          row.get("source_artifact_refs"))
            if is_hidden:
                hidden.append(pos)
            _count(pos, found, hits, counts, groups, cap)
    for pos, hit in aud.privacy_hits():
        _count(pos, [hit], hits, counts, groups, cap)
    hits.sort(key=lambda t: t[0])
    return _Part(positions, hits, counts, hidden, fps, groups)


def _count(pos: int, found: list[RowHit], hits: list[tuple[int, RowHit]],
           counts: dict[str, int], groups: dict[GroupKey, list], cap: int) -> None:  # type: ignore[type-arg]
    for hit in found:
        if hit[0] in GROUPED:
            g = groups.get((hit[0], hit[2], hit[3]))
            if g is None:
                groups[(hit[0], hit[2], hit[3])] = [pos, hit, 1]
            else:
                g[2] += 1
            continue
        c = counts.get(hit[0], 0)
        counts[hit[0]] = c + 1
        if c < cap:
            hits.append((pos, hit))


def _jobs(pkg: Package) -> list[tuple[str, str, np.ndarray, np.ndarray, np.ndarray]]:
    ix = pkg.index
    out = []
    order = np.argsort(ix.file, kind="stable")
    files = ix.file[order]
    for code in np.unique(files).tolist():
        sel = order[files == code]
        rel = ix.files[code]
        path = str(pkg.safe.resolve(rel))
        lengths = ix.length[sel]
        cum = np.cumsum(lengths)
        cuts = np.searchsorted(cum, np.arange(JOB_BYTES, int(cum[-1]) + 1, JOB_BYTES))
        for part in np.split(np.arange(len(sel)), np.unique(cuts[cuts < len(sel)])):
            if len(part):
                p = sel[part]
                out.append((path, _TYPES.get(rel, ""), p, ix.offset[p], ix.length[p]))
    return out


def scan_rows(pkg: Package, cfg: ScanConfig, *, workers: int | None = None,
              progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] = lambda: False) -> RowScan:
    """Run every enabled row rule over every indexed row, each row read once."""
    jobs = _jobs(pkg)
    total = int(pkg.index.length.sum()) if len(pkg.index) else 0
    parts: list[_Part] = []
    done = 0
    n = workers if workers is not None else min(os.cpu_count() or 1, 8)
    if total >= PARALLEL_MIN_BYTES and n > 1 and len(jobs) > 1:
        ctx = multiprocessing.get_context("spawn")  # never fork a (possibly threaded) GUI
        with ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_init,
                                 initargs=(cfg,)) as pool:
            pending: dict[Future[_Part], int] = {
                pool.submit(_run_job, *job): int(job[4].sum()) for job in jobs}
            while pending:
                finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                if cancelled():
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise ScanCancelled()
                for fut in finished:
                    done += pending.pop(fut)
                    parts.append(fut.result())
                    if progress is not None:
                        progress(done, total)
    else:
        auditor = RowAuditor(cfg)
        for job in jobs:
            if cancelled():
                raise ScanCancelled()
            parts.append(_run_job(*job, auditor=auditor))
            done += int(job[4].sum())
            if progress is not None:
                progress(done, total)
    return _merge(parts, len(pkg.index), cfg.cap)


def _merge(parts: list[_Part], n_rows: int, cap: int) -> RowScan:
    scan = RowScan(fingerprints=np.zeros(n_rows, np.uint64))
    listed: dict[str, int] = {}
    for part in sorted(parts, key=lambda p: int(p.positions[0]) if len(p.positions) else 0):
        scan.fingerprints[part.positions] = part.fingerprints
        scan.hidden_rows.extend(part.hidden)
        for key, (pos, hit, n) in part.groups.items():
            g = scan.groups.get(key)
            if g is None:
                scan.groups[key] = [pos, hit, n]
            else:
                g[2] += n
                if pos < g[0]:
                    g[0], g[1] = pos, hit
        for code, c in part.counts.items():
            scan.counts[code] = scan.counts.get(code, 0) + c
        for pos, hit in part.hits:
            k = listed.get(hit[0], 0)
            if k < cap:
                listed[hit[0]] = k + 1
                scan.hits.append((pos, hit))
    scan.hits.sort(key=lambda t: t[0])
    scan.hidden_rows.sort()
    return scan
