"""The row pass's worker side: one job = consecutive rows of one file, checked once each.

Spawned workers import this module only, so it (and what it imports) needs the
standard library and orjson alone: no numpy, no pydantic, no package loader.
"""

from __future__ import annotations

import mmap
import os
from array import array
from dataclasses import dataclass, field
from typing import Any

import orjson

from aa_review.core.audits._fingerprint import link_fingerprint
from aa_review.core.audits._rowrules import RowAuditor, RowHit, ScanConfig
from aa_review.core.package.safepath import open_beneath

__all__ = [
    "Part",
    "Overflow",
    "init_worker",
    "run_job",
    "link_fingerprint",
    "RowChecks",
    "fused_checks",
    "shifted",
]

# Every hit is grouped: the rows with the same (code, key path, ref, evidence id, message)
# make one finding that locates them all (rows sharing an evidence block repeat its hits).
# Past ``cap`` groups of one code (messages naming per-row values), the code's further
# hits are gathered without their messages, each keeping its row, key path, ref and id.
Where = tuple["str | None", "str | None", "str | None"]  # key path, ref, evidence id


@dataclass
class Overflow:
    """One code's gathered hits, in row order: row position and which ``wheres`` entry."""

    positions: array[int] = field(default_factory=lambda: array("q"))
    codes: array[int] = field(default_factory=lambda: array("i"))
    wheres: dict[Where, int] = field(default_factory=dict)

    def add(self, pos: int, where: Where) -> None:
        c = self.wheres.setdefault(where, len(self.wheres))
        if not (self.positions and self.positions[-1] == pos and self.codes[-1] == c):
            self.positions.append(pos)
            self.codes.append(c)


@dataclass
class Part:
    """One job's results; row positions index the package's row index."""

    positions: array[int]
    groups: dict[RowHit, array[int]]
    overflow: dict[str, Overflow]
    hidden: list[int]
    fingerprints: array[int]


_AUDITOR: RowAuditor | None = None
_FUSED: dict[str, RowAuditor] = {}  # the loader's fused scan: one auditor per config


def init_worker(cfg: ScanConfig) -> None:
    """Process-pool initializer: one auditor (and its caches) per worker."""
    global _AUDITOR
    _AUDITOR = RowAuditor(cfg)


class RowChecks:
    """The hits of consecutive rows of one file, grouped; :meth:`finish` gives the Part."""

    def __init__(self, aud: RowAuditor, data_type: str) -> None:
        self.aud, self.data_type, self.cap = aud, data_type, aud.cfg.cap
        self.positions = array("q")
        self.fps = array("Q")
        self.groups: dict[RowHit, array[int]] = {}
        self.overflow: dict[str, Overflow] = {}
        self.distinct: dict[str, int] = {}
        self.hidden: list[int] = []

    def row(self, pos: int, row: Any, raw: bytes) -> None:
        """Check the row at position ``pos`` (a parsed JSON value) read from ``raw``."""
        aud = self.aud
        fp = 0
        if not isinstance(row, dict):
            found: list[RowHit] = [
                (
                    "row.changed_on_disk",
                    None,
                    None,
                    None,
                    "the row no longer parses as it did when the package "
                    "was opened; reopen the package",
                )
            ]
            is_hidden = False
        else:
            found, is_hidden = aud.check(row, self.data_type)
            aud.feed_privacy(pos, row, raw)
            fp = link_fingerprint(
                row.get("source_trace_id"),
                row.get("source_step_ids"),
                row.get("source_artifact_refs"),
            )
        self.positions.append(pos)
        self.fps.append(fp)
        if is_hidden:
            self.hidden.append(pos)
        _group(pos, found, self.groups, self.overflow, self.distinct, self.cap)

    def lost(self, pos: int, why: str) -> None:
        """The row at ``pos`` can no longer be read."""
        self.positions.append(pos)
        self.fps.append(0)
        _group(
            pos,
            [
                (
                    "row.changed_on_disk",
                    None,
                    None,
                    None,
                    f"the row file can no longer be read ({why}); reopen the package",
                )
            ],
            self.groups,
            self.overflow,
            self.distinct,
            self.cap,
        )

    def finish(self) -> Part:
        for pos, hit in self.aud.privacy_hits():  # in row order, after the rows' own hits
            _group(pos, [hit], self.groups, self.overflow, self.distinct, self.cap)
        return Part(self.positions, self.groups, self.overflow, self.hidden, self.fps)


def fused_checks(cfg: ScanConfig, relpath: str) -> RowChecks:
    """The row checks the package loader runs on each row it parses (audit and open in
    one pass: :func:`aa_review.core.package.open_package`'s ``row_visitor``)."""
    from aa_review.core.package.layout import ROW_FILES

    aud = _FUSED.get(cfg.token)
    if aud is None:
        _FUSED.clear()  # the latest audit's only: its caches serve its next chunks
        aud = _FUSED[cfg.token] = RowAuditor(cfg)
    return RowChecks(aud, dict(ROW_FILES).get(relpath, ""))


def shifted(part: Part, offset: int) -> Part:
    """``part`` with every row position moved by ``offset`` (chunk -> package positions)."""
    if not offset:
        return part

    def move(a: array[int]) -> array[int]:
        return array("q", [p + offset for p in a])

    for ov in part.overflow.values():
        ov.positions = move(ov.positions)
    return Part(
        move(part.positions),
        {h: move(a) for h, a in part.groups.items()},
        part.overflow,
        [p + offset for p in part.hidden],
        part.fingerprints,
    )


def run_job(
    root: str,
    rel: str,
    data_type: str,
    positions: array[int],
    offsets: array[int],
    lengths: array[int],
    auditor: RowAuditor | None = None,
) -> Part:
    """Check the rows at ``offsets`` of package file ``rel`` (they parsed when the package
    was opened); the file is opened through :func:`open_beneath`."""
    aud = auditor or _AUDITOR
    assert aud is not None, "init_worker was not called"
    checks = RowChecks(aud, data_type)
    try:
        fh = os.fdopen(open_beneath(root, rel), "rb")
        if os.fstat(fh.fileno()).st_size == 0:
            fh.close()
            raise OSError(0, "it is empty now")
    except OSError as exc:  # swapped for a symlink or a FIFO, or emptied, since loading
        why = getattr(exc, "reason", None) or exc.strerror or str(exc)
        for pos in positions:
            checks.lost(pos, why)
        return checks.finish()
    with fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for pos, off, n in zip(positions, offsets, lengths, strict=True):
            raw = mm[off : off + n]
            try:
                row = orjson.loads(raw)
            except orjson.JSONDecodeError:
                row = None
            checks.row(pos, row, raw)
    return checks.finish()


def _group(
    pos: int,
    found: list[RowHit],
    groups: dict[RowHit, array[int]],
    overflow: dict[str, Overflow],
    distinct: dict[str, int],
    cap: int,
) -> None:
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
