"""The row pass's worker side: one job = consecutive rows of one file, checked once each.

Spawned workers import this module only, so it (and what it imports) needs the
standard library and orjson alone: no numpy, no pydantic, no package loader.
"""

from __future__ import annotations

import hashlib
import mmap
import os
from array import array
from dataclasses import dataclass, field
from typing import Any

import orjson

from aa_review.core.audits._rowrules import RowAuditor, RowHit, ScanConfig
from aa_review.core.package.safepath import open_beneath

__all__ = ["Part", "Overflow", "init_worker", "run_job", "link_fingerprint"]

# Every hit is grouped: the rows with the same (code, key path, ref, evidence id, message)
# make one finding that locates them all (rows sharing an evidence block repeat its hits).
# Past ``cap`` groups of one code (messages naming per-row values), the code's further
# hits are gathered without their messages, each keeping its row, key path, ref and id.
Where = tuple["str | None", "str | None", "str | None"]  # key path, ref, evidence id


@dataclass
class Overflow:
    """One code's gathered hits, in row order: row position and which ``wheres`` entry."""

    positions: array = field(default_factory=lambda: array("q"))  # type: ignore[type-arg]
    codes: array = field(default_factory=lambda: array("i"))  # type: ignore[type-arg]
    wheres: dict[Where, int] = field(default_factory=dict)

    def add(self, pos: int, where: Where) -> None:
        c = self.wheres.setdefault(where, len(self.wheres))
        if not (self.positions and self.positions[-1] == pos and self.codes[-1] == c):
            self.positions.append(pos)
            self.codes.append(c)


@dataclass
class Part:
    """One job's results; row positions index the package's row index."""

    positions: array  # type: ignore[type-arg]
    groups: dict[RowHit, array]  # type: ignore[type-arg]
    overflow: dict[str, Overflow]
    hidden: list[int]
    fingerprints: array  # type: ignore[type-arg]


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
    groups: dict[RowHit, array] = {}  # type: ignore[type-arg]
    overflow: dict[str, Overflow] = {}
    distinct: dict[str, int] = {}
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
            _group(pos, found, groups, overflow, distinct, cap)
    for pos, hit in aud.privacy_hits():  # in row order, after the rows' own hits
        _group(pos, [hit], groups, overflow, distinct, cap)
    return Part(positions, groups, overflow, hidden, fps)


def _group(pos: int, found: list[RowHit], groups: dict[RowHit, array],  # type: ignore[type-arg]
           overflow: dict[str, Overflow], distinct: dict[str, int], cap: int) -> None:
    for hit in found:
        g = groups.get(hit)
        if g is not None:
            if g[-1] != pos:  # a row repeating one hit is one location
                g.append(pos)
            continue
        code = hit[0]
        n = distinct.get(code, 0)
        if n < cap:
            distinct[code] = n + 1
            groups[hit] = array("q", [pos])
        else:
            ov = overflow.get(code)
            if ov is None:
                ov = overflow[code] = Overflow()
            ov.add(pos, (hit[1], hit[2], hit[3]))
