"""``row_evidence_links`` against the rows: one link per row, in sorted-file order (10.3).

Links are matched to rows by id, in order, so that one row lost to a damaged
line (reported by the loader) does not make every later link look wrong.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterator
from typing import Any

import numpy as np

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._mapscan import LinkCols
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.model import Package

__all__ = ["link_mismatches", "damaged_files", "DAMAGE_CODES"]

DAMAGE_CODES = (
    "input.malformed_line",
    "input.truncated",
    "input.bad_encoding",
    "input.not_an_object",
    "input.line_too_long",
    "input.empty_file",
    "input.missing_file",
    "input.unsafe_file",
)


def damaged_files(pkg: Package) -> dict[str, int]:
    """Row files (bare names) with lines the loader could not read, and how many."""
    out: dict[str, int] = {}
    for p in pkg.problems:
        if p.code in DAMAGE_CODES and p.location.file:
            name = p.location.file.rsplit("/", 1)[-1]
            whole = p.code in ("input.empty_file", "input.missing_file", "input.unsafe_file")
            out[name] = 1 << 40 if whole else out.get(name, 0) + 1  # a lost file: all rows
    return out


def _match(pkg: Package, links: LinkCols) -> tuple[list[int], list[int]]:
    """For each link, the row it describes (-1: none); rows that no link describes."""
    row_ids = pkg.index.row_id.tolist()
    if len(row_ids) == len(links.row_id) and row_ids == [r.encode("utf-8") for r in links.row_id]:
        return list(range(len(row_ids))), []  # one link per row, in order: the usual case
    by_id: dict[bytes, deque[int]] = defaultdict(deque)
    for pos, rid in enumerate(row_ids):
        by_id[rid].append(pos)
    used: set[int] = set()
    rows_of: list[int] = []
    for rid in links.row_id:
        cands = by_id.get(rid.encode("utf-8"))
        pos = cands.popleft() if cands else -1  # ids repeat only for duplicate rows: in order
        if pos >= 0:
            used.add(pos)
        rows_of.append(pos)
    return rows_of, [p for p in range(len(pkg.index)) if p not in used]


def link_mismatches(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Links that name no row, rows no link describes, links out of order and links that
    disagree with their row: one finding per kind of disagreement, locating every link."""
    scan = ctx.map
    if scan.error is not None:
        yield ctx.finding(
            "link.mismatch",
            f"row_evidence_links cannot be read: {scan.error.message}",
            file=MAP_PATH,
            line=scan.error.line,
        )
        return
    if not scan.has_links:
        if len(pkg.index):
            yield ctx.finding(
                "link.mismatch",
                "the evidence map has no row_evidence_links "
                f"but the package has {len(pkg.index)} rows",
                file=MAP_PATH,
            )
        return
    links = scan.links
    damaged = damaged_files(pkg)
    rows_of, unlinked = _match(pkg, links)
    lost = [i for i, pos in enumerate(rows_of) if pos < 0 and links.row_file[i] not in damaged]
    if lost:
        first = lost[0]
        yield ctx.finding(
            "link.mismatch",
            (
                f"link {first} names row {links.row_id[first]!r} of "
                f"{links.row_file[first]}, which is not in the package"
            )
            if len(lost) == 1
            else f"{len(lost):,} links name rows that are not in the "
            f"package (the first: link {first}, row {links.row_id[first]!r} of "
            f"{links.row_file[first]})",
            locations=Locations.columns(
                len(lost),
                file=MAP_PATH,
                key_path=(_LINK, lost),
                row_id=[links.row_id[i] or None for i in lost],
            ),
        )
    if unlinked:
        yield ctx.finding(
            "link.mismatch",
            _many(
                len(unlinked),
                "no row_evidence_links entry describes this row",
                "rows that no row_evidence_links entry describes",
            ),
            rows=unlinked,
            key_path="row_evidence_links",
        )
    late: list[tuple[int, int]] = []
    last = -1
    for i, pos in enumerate(rows_of):
        if pos < 0:
            continue
        if pos < last:
            late.append((i, pos))
        last = max(last, pos)
    if late:
        yield ctx.finding(
            "link.mismatch",
            _many(
                len(late),
                f"link {late[0][0]} is out of order: links follow the rows in sorted-file order",
                "links out of order: links follow the rows in sorted-file order",
            ),
            rows=[p for _, p in late],
            key_path=(_LINK, [i for i, _ in late]),
        )
    by_kind: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for i, pos, bad in _fields(pkg, ctx, links, rows_of):
        by_kind.setdefault(bad, []).append((i, pos))
    for bad, where in sorted(by_kind.items(), key=lambda t: t[1][0][1]):
        what = ", ".join(bad)
        yield ctx.finding(
            "link.mismatch",
            _many(
                len(where),
                f"link {where[0][0]} disagrees with the row on {what}",
                f"links that disagree with their rows on {what}",
            ),
            rows=[p for _, p in where],
            key_path=(_LINK, [i for i, _ in where]),
        )


_LINK = "row_evidence_links[{}]"


def _many(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{n:,} {many}"


def _fields(
    pkg: Package, ctx: AuditContext, links: LinkCols, rows_of: list[int]
) -> Iterator[tuple[int, int, tuple[str, ...]]]:
    """(link, row position, what disagrees) for each link whose fields disagree with its row.

    Compared column by column over all links at once; each distinct pair of id lists is
    compared once, and only disagreeing links are looked at one by one.
    """
    ix = pkg.index
    rows_fp = ctx.rows.fingerprints if ctx.needs_rows() else None
    at = np.asarray(rows_of, dtype=np.int64)
    li = np.nonzero(at >= 0)[0]
    if not len(li):
        return
    pos = at[li]

    def obj(values: Any) -> np.ndarray:
        return np.asarray(values, dtype=object)

    names = obj([f.rsplit("/", 1)[1] for f in ix.files])
    bad_file = obj(links.row_file)[li] != names[ix.file[pos]]
    bad_type = obj(links.data_type)[li] != obj(ix.data_types)[ix.data_type[pos]]
    bad_task = obj(links.task)[li] != obj(ix.tasks)[ix.task[pos]]
    sc = ix.set_code[pos].astype(np.int64)
    n_sets = max(1, len(ix.sets))
    id_of = ix.evidence_ids.__getitem__
    with_vis: dict[object, set[int]] = {}  # catalog positions of each visibility
    for p, e in enumerate(pkg.catalog):
        with_vis.setdefault(e.visibility, set()).add(p)
    nowhere: set[int] = set()

    def cited(code: int, keep: str | None = None) -> tuple[str, ...]:
        """The evidence ids of set ``code`` (those of visibility ``keep`` only)."""
        members = ix.sets[code].tolist()
        if keep is None:
            return tuple(map(id_of, members))
        return tuple(map(id_of, filter(with_vis.get(keep, nowhere).__contains__, members)))

    pair = np.asarray(links.ids, dtype=np.int64)[li] * n_sets + sc
    uniq, inv = np.unique(pair, return_inverse=True)
    ok = np.array(
        [links.id_sets[int(k) // n_sets] == cited(int(k) % n_sets) for k in uniq.tolist()],
        dtype=bool,
    )
    bad_ids = ~ok[inv]
    n_id_sets = max(1, len(links.id_sets))
    vpair = (
        np.asarray(links.visible, dtype=np.int64)[li] * n_id_sets
        + np.asarray(links.inferred, dtype=np.int64)[li]
    ) * n_sets + sc
    vuniq, vinv = np.unique(vpair, return_inverse=True)
    vis_ok, inf_ok = [], []
    for k in vuniq.tolist():
        code, rest = k % n_sets, k // n_sets
        vis_ok.append(links.id_sets[rest // n_id_sets] == cited(code, "visible"))
        inf_ok.append(links.id_sets[rest % n_id_sets] == cited(code, "inferred"))
    bad_vis = ~np.asarray(vis_ok, dtype=bool)[vinv]
    bad_inf = ~np.asarray(inf_ok, dtype=bool)[vinv]
    if rows_fp is not None:
        mine = rows_fp[pos]
        theirs = np.asarray(links.fingerprint, dtype=np.uint64)[li]
        bad_fp = (mine != 0) & (mine != theirs)
    else:
        bad_fp = np.zeros(len(li), dtype=bool)
    any_bad = bad_file | bad_type | bad_task | bad_ids | bad_vis | bad_inf | bad_fp
    for j in np.nonzero(any_bad)[0].tolist():
        i, p = int(li[j]), int(pos[j])
        bad: list[str] = []
        if bad_file[j]:
            bad.append(f"row_file {links.row_file[i]!r}")
        if bad_type[j]:
            bad.append(f"data_type {links.data_type[i]!r}")
        if bad_task[j]:
            bad.append(f"source_task_id {links.task[i]!r}")
        if bad_ids[j]:
            bad.append("evidence_ref_ids")
        if bad_vis[j]:
            bad.append("visible_evidence_ref_ids")
        if bad_inf[j]:
            bad.append("inferred_evidence_ref_ids")
        if bad_fp[j]:
            bad.append("source_trace_id/source_step_ids/source_artifact_refs")
        yield i, p, tuple(bad)
