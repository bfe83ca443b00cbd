"""``row_evidence_links`` against the rows: one link per row, in sorted-file order (10.3)."""

from __future__ import annotations

from collections.abc import Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.findings import Finding
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.model import Package

__all__ = ["link_mismatches"]


def link_mismatches(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
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
    links, ix = scan.links, pkg.index
    n = min(len(links), len(ix))
    if len(links) != len(ix):
        yield ctx.finding("link.mismatch", f"{len(links)} links for {len(ix)} rows: every row of "
                          "the 23 files has exactly one link", file=MAP_PATH,
                          key_path="row_evidence_links")
    rows_fp = ctx.rows.fingerprints if ctx.needs_rows() else None
    names = [f.rsplit("/", 1)[1] for f in ix.files]
    row_ids = ix.row_id[:n].tolist()
    files, types, tasks = ix.file[:n].tolist(), ix.data_type[:n].tolist(), ix.task[:n].tolist()
    set_codes = ix.set_code[:n].tolist()
    cat_vis = [e.visibility for e in pkg.catalog]
    ids_ok: dict[tuple[int, int], bool] = {}
    vis_ok: dict[tuple[int, int, int], tuple[bool, bool]] = {}
    for i in range(n):
        bad: list[str] = []
        if links.row_id[i].encode("utf-8") != row_ids[i]:
            bad.append(f"row_id {links.row_id[i]!r}")
        if links.row_file[i] != names[files[i]]:
            bad.append(f"row_file {links.row_file[i]!r}")
        if links.data_type[i] != ix.data_types[types[i]]:
            bad.append(f"data_type {links.data_type[i]!r}")
        if links.task[i] != ix.tasks[tasks[i]]:
            bad.append(f"source_task_id {links.task[i]!r}")
        key = (links.ids[i], set_codes[i])
        ok = ids_ok.get(key)
        if ok is None:
            stated = links.id_sets[links.ids[i]]
            actual = tuple(ix.evidence_ids[p] for p in ix.sets[set_codes[i]].tolist())
            ok = ids_ok[key] = stated == actual
        if not ok:
            bad.append("evidence_ref_ids")
        vkey = (links.visible[i], links.inferred[i], set_codes[i])
        vis = vis_ok.get(vkey)
        if vis is None:
            cited = ix.sets[set_codes[i]].tolist()
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
        if rows_fp is not None and int(rows_fp[i]) != links.fingerprint[i]:
            bad.append("source_trace_id/source_step_ids/source_artifact_refs")
        if bad:
            yield ctx.finding("link.mismatch", f"link {i} disagrees with the row on "
                              f"{', '.join(bad)}", key_path=f"row_evidence_links[{i}]",
                              **ctx.row_where(i))
    if len(links) > len(ix):
        yield ctx.finding("link.mismatch", f"{len(links) - len(ix)} extra link(s) from "
                          f"{links.row_id[n]!r} on name no row", file=MAP_PATH,
                          key_path=f"row_evidence_links[{n}]", row_id=links.row_id[n] or None)
