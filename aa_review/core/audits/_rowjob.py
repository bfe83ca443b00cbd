"""The row pass's worker side: one job = consecutive rows of one file, checked once each.

Spawned workers import this module only, so it (and what it imports) needs the
standard library and orjson alone: no numpy, no pydantic, no package loader.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from array import array
from dataclasses import dataclass
from typing import Any

import orjson

from aa_review.core.audits._rowrules import RowAuditor, RowHit, ScanConfig
from aa_review.core.package.safepath import open_beneath

__all__ = ["GROUPED", "Part", "init_worker", "run_job", "link_fingerprint"]

# Hits that repeat on every row carrying the same list value (the evidence block all rows
# share) are reported once per ref, located at the first row, with how many rows carry it.
GROUPED = frozenset({"ref.absolute", "ref.escape", "ref.symlink_out", "ref.unresolved",
                     "ref.not_normalized", "hash.row_disagrees", "link.bad_evidence_id"})
GroupKey = tuple[str, "str | None", "str | None"]


@dataclass
class Part:
    """One job's results; row positions index the package's row index."""

    positions: array  # type: ignore[type-arg]
    hits: list[tuple[int, RowHit]]
    counts: dict[str, int]
    hidden: list[int]
    fingerprints: array  # type: ignore[type-arg]
    groups: dict[GroupKey, list[Any]]


def link_fingerprint(trace: Any, steps: Any, artifact_refs: Any) -> int:
    """A 64-bit digest of the link fields the row index does not hold."""
    data = orjson.dumps([trace, steps or [], artifact_refs or []])
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


_AUDITOR: RowAuditor | None = None


def init_worker(cfg: ScanConfig) -> None:
    """Process-pool initializer: one auditor (and its caches) per worker."""
    global _AUDITOR
    _AUDITOR = RowAuditor(cfg)


def run_job(root: str, rel: str, data_type: str, positions: array,  # type: ignore[type-arg]
            offsets: array, lengths: array,  # type: ignore[type-arg]
            auditor: RowAuditor | None = None) -> Part:
    """Check the rows at ``offsets`` of package file ``rel`` (they parsed when the package
    was opened); the file is opened through :func:`open_beneath`."""
    aud = auditor or _AUDITOR
    assert aud is not None, "init_worker was not called"
    cap = aud.cfg.cap
    hits: list[tuple[int, RowHit]] = []
    counts: dict[str, int] = {}
    groups: dict[GroupKey, list[Any]] = {}
    hidden: list[int] = []
    fps = array("Q", bytes(8 * len(positions)))
    try:
        fh = os.fdopen(open_beneath(root, rel), "rb")
        if os.fstat(fh.fileno()).st_size == 0:
            fh.close()
            raise OSError(0, "it is empty now")
    except OSError as exc:  # swapped for a symlink or a FIFO, or emptied, since loading
        why = getattr(exc, "reason", None) or exc.strerror or str(exc)
        for pos in positions:
            _count(pos, [("row.changed_on_disk", None, None, None,
                          f"the row file can no longer be read ({why}); reopen the "
                          "package")], hits, counts, groups, cap)
        return Part(positions, hits, counts, hidden, fps, groups)
    with fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for j, (pos, off, n) in enumerate(zip(positions, offsets, lengths)):
            raw = mm[off:off + n]
            try:
                row = orjson.loads(raw)
            except orjson.JSONDecodeError:
                row = None
            if not isinstance(row, dict):
                found: list[RowHit] = [("row.changed_on_disk", None, None, None,
                                        "the row no longer parses as it did when the package "
                                        "was opened; reopen the package")]
                is_hidden = False
            else:
                found, is_hidden = aud.check(row, data_type)
                aud.feed_privacy(pos, row, raw)
                fps[j] = link_fingerprint(row.get("source_trace_id"), row.get("source_step_ids"),
                                          row.get("source_artifact_refs"))
            if is_hidden:
                hidden.append(pos)
            _count(pos, found, hits, counts, groups, cap)
    for pos, hit in aud.privacy_hits():
        _count(pos, [hit], hits, counts, groups, cap)
    hits.sort(key=lambda t: t[0])
    return Part(positions, hits, counts, hidden, fps, groups)


def _count(pos: int, found: list[RowHit], hits: list[tuple[int, RowHit]],
           counts: dict[str, int], groups: dict[GroupKey, list[Any]], cap: int) -> None:
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
