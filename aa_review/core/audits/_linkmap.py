"""``row_evidence_links`` against the rows: one link per row, in sorted-file order (10.3).

Links are matched to rows by id, in order, so that one row lost to a damaged
line (reported by the loader) does not make every later link look wrong.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._mapscan import LinkCols
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.model import Package

__all__ = ["link_mismatches", "damaged_files", "DAMAGE_CODES"]

DAMAGE_CODES = ("input.malformed_line", "input.truncated", "input.bad_encoding",
                "input.not_an_object", "input.line_too_long", "input.empty_file",
                "input.missing_file", "input.unsafe_file")


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
    if len(row_ids) == len(links.row_id) and row_ids == [r.encode("utf-8")
                                                         for r in links.row_id]:
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
        yield ctx.finding("link.mismatch", f"row_evidence_links cannot be read: "
                          f"{scan.error.message}", file=MAP_PATH, line=scan.error.line)
        return
    if not scan.has_links:
        if len(pkg.index):
            yield ctx.finding("link.mismatch", "the evidence map has no row_evidence_links "
                              f"but the package has {len(pkg.index)} rows", file=MAP_PATH)
        return
    links = scan.links
    damaged = damaged_files(pkg)
    rows_of, unlinked = _match(pkg, links)
    lost = [i for i, pos in enumerate(rows_of) if pos < 0 and links.row_file[i] not in damaged]
    if lost:
        first = lost[0]
        yield ctx.finding(
            "link.mismatch", (f"link {first} names row {links.row_id[first]!r} of "
                              f"{links.row_file[first]}, which is not in the package")
            if len(lost) == 1 else f"{len(lost):,} links name rows that are not in the "
            f"package (the first: link {first}, row {links.row_id[first]!r} of "
            f"{links.row_file[first]})",
            locations=Locations.columns(len(lost), file=MAP_PATH, key_path=(_LINK, lost),
                                        row_id=[links.row_id[i] or None for i in lost]))
    if unlinked:
        yield ctx.finding("link.mismatch", _many(len(unlinked), "no row_evidence_links entry "
                          "describes this row", "rows that no row_evidence_links entry "
                          "describes"), rows=unlinked, key_path="row_evidence_links")
    late: list[tuple[int, int]] = []
    last = -1
    for i, pos in enumerate(rows_of):
        if pos < 0:
            continue
        if pos < last:
            late.append((i, pos))
        last = max(last, pos)
    if late:
        yield ctx.finding("link.mismatch", _many(len(late), f"link {late[0][0]} is out of "
                          "order: links follow the rows in sorted-file order", "links out of "
                          "order: links follow the rows in sorted-file order"),
                          rows=[p for _, p in late], key_path=(_LINK, [i for i, _ in late]))
    by_kind: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for i, pos, bad in _fields(pkg, ctx, links, rows_of):
        by_kind.setdefault(bad, []).append((i, pos))
    for bad, where in sorted(by_kind.items(), key=lambda t: t[1][0][1]):
        what = ", ".join(bad)
        yield ctx.finding("link.mismatch", _many(len(where), f"link {where[0][0]} disagrees "
                          f"with the row on {what}", f"links that disagree with their rows on "
                          f"{what}"), rows=[p for _, p in where],
                          key_path=(_LINK, [i for i, _ in where]))


_LINK = "row_evidence_links[{}]"


def _many(n: int, one: str, many: str) -> str:
    return one if n == 1 else f"{n:,} {many}"


def _fields(pkg: Package, ctx: AuditContext, links: LinkCols, rows_of: list[int]
            ) -> Iterator[tuple[int, int, tuple[str, ...]]]:
    """(link, row position, what disagrees) for each link whose fields disagree with its row."""
    ix = pkg.index
    rows_fp = ctx.rows.fingerprints if ctx.needs_rows() else None
    names = [f.rsplit("/", 1)[1] for f in ix.files]
    files, types, tasks = ix.file.tolist(), ix.data_type.tolist(), ix.task.tolist()
    set_codes = ix.set_code.tolist()
    cat_vis = [e.visibility for e in pkg.catalog]
    ids_ok: dict[tuple[int, int], bool] = {}
    vis_ok: dict[tuple[int, int, int], tuple[bool, bool]] = {}
    for i, pos in enumerate(rows_of):
        if pos < 0:
            continue
        bad: list[str] = []
        if links.row_file[i] != names[files[pos]]:
            bad.append(f"row_file {links.row_file[i]!r}")
        if links.data_type[i] != ix.data_types[types[pos]]:
            bad.append(f"data_type {links.data_type[i]!r}")
        if links.task[i] != ix.tasks[tasks[pos]]:
            bad.append(f"source_task_id {links.task[i]!r}")
        sc = set_codes[pos]
        key = (links.ids[i], sc)
        ok = ids_ok.get(key)
        if ok is None:
            actual = tuple(ix.evidence_ids[p] for p in ix.sets[sc].tolist())
            ok = ids_ok[key] = links.id_sets[links.ids[i]] == actual
        if not ok:
            bad.append("evidence_ref_ids")
        vkey = (links.visible[i], links.inferred[i], sc)
        vis = vis_ok.get(vkey)
        if vis is None:
            cited = ix.sets[sc].tolist()
            want_v = tuple(ix.evidence_ids[p] for p in cited
                           if p < len(cat_vis) and cat_vis[p] == "visible")
            want_i = tuple(ix.evidence_ids[p] for p in cited
                           if p < len(cat_vis) and cat_vis[p] == "inferred")
            vis = vis_ok[vkey] = (links.id_sets[links.visible[i]] == want_v,
                                  links.id_sets[links.inferred[i]] == want_i)
        if not vis[0]:
            bad.append("visible_evidence_ref_ids")
        if not vis[1]:
            bad.append("inferred_evidence_ref_ids")
        if rows_fp is not None and rows_fp[pos] and int(rows_fp[pos]) != links.fingerprint[i]:
            bad.append("source_trace_id/source_step_ids/source_artifact_refs")
        if bad:
            yield i, pos, tuple(bad)
