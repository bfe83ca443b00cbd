"""Check ``links``: rows <-> evidence, against the catalog and ``row_evidence_links``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._linkmap import link_mismatches
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowscan import Gathered
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.audits._undo import undo_ref_sanitizer
from aa_review.core.findings import Finding
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.derive import evidence_id
from aa_review.core.package.model import Package

CODES = (
    "link.orphan",
    "link.uncited",
    "link.hidden_cited",
    "link.mismatch",
    "link.bad_evidence_id",
    "quirk.id_before_sanitize",
)


def hidden_positions(pkg: Package) -> list[int]:
    """Catalog positions of hidden material (by the catalog's word or by the ref itself)."""
    positions: list[int] = pkg.hidden_evidence().tolist()
    return positions


@register("links", "Row-evidence links", CODES)
def check_links(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Every id a row cites must be catalogued (no orphans) and every catalogued item cited.
    No training row may cite hidden evaluation material (critical: grader-only references
    would leak into training). Evidence ids must be the hash of their ref (format 7.1);
    row_evidence_links must match the rows one to one, in sorted-file order."""
    ix = pkg.index
    for i, e in enumerate(pkg.catalog):
        want = evidence_id(e.ref)
        if e.evidence_id != want:
            where: dict[str, Any] = {
                "file": MAP_PATH,
                "key_path": f"evidence_catalog[{i}].evidence_id",
                "evidence_id": e.evidence_id,
                "ref": e.ref,
            }
            if undo_ref_sanitizer(e.ref, e.evidence_id):
                if ctx.on("quirk.id_before_sanitize"):
                    yield ctx.finding(
                        "quirk.id_before_sanitize",
                        "the id hashes the ref as it "
                        "was before the sanitizer rewrote it (format 12.6)",
                        **where,
                    )
            elif ctx.on("link.bad_evidence_id"):
                yield ctx.finding(
                    "link.bad_evidence_id",
                    f"{e.evidence_id} is not the id of "
                    f"{e.ref!r} ({want}): the id or the ref was edited",
                    **where,
                )
    n_cat = ix.catalog_size
    for pos in range(n_cat, len(ix.evidence_ids)):
        rows = ix.rows_citing(pos)
        if len(rows) and ctx.on("link.orphan"):
            yield ctx.finding(
                "link.orphan",
                f"{len(rows):,} row(s) cite "
                f"{ix.evidence_ids[pos]}, which the evidence catalog does not "
                "hold",
                rows=rows.to_array(),
                evidence_id=ix.evidence_ids[pos],
                key_path="source_evidence_ref_ids",
            )
    if len(ix):
        for pos, e in enumerate(pkg.catalog[:n_cat]):
            if not len(ix.rows_citing(pos)) and ctx.on("link.uncited"):
                yield ctx.finding(
                    "link.uncited",
                    f"no row cites {e.ref!r}; the compiler cites "
                    "every catalogued item from the rows",
                    file=MAP_PATH,
                    key_path=f"evidence_catalog[{pos}]",
                    evidence_id=e.evidence_id,
                    ref=e.ref,
                )
    yield from _hidden(pkg, ctx)
    yield from row_findings(pkg, ctx, ("link.bad_evidence_id",))
    if ctx.on("link.mismatch") and not pkg.catalog_derived:
        yield from link_mismatches(pkg, ctx)


def _hidden(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """One finding per hidden item, locating every row that cites it: by id (the index)
    or by ref in another ref list (the row pass); a row is named once per hidden ref."""
    if not ctx.on("link.hidden_cited"):
        return
    ix = pkg.index
    cited: dict[str, np.ndarray] = {}
    for pos in hidden_positions(pkg):
        e = pkg.catalog[pos]
        rows = ix.rows_citing(pos).to_array() if pos < ix.catalog_size else np.empty(0, np.int64)
        if len(rows):
            cited[e.ref] = rows
            yield ctx.finding(
                "link.hidden_cited",
                f"{_rows(len(rows))} hidden evaluation "
                f"material {e.ref!r}: grader-only references must never reach "
                "training rows",
                rows=rows,
                evidence_id=e.evidence_id,
                ref=e.ref,
                key_path="source_evidence_ref_ids",
            )
    if not len(ix):
        return
    for hit, rows in sorted(ctx.rows.groups.items(), key=lambda t: int(t[1][0])):
        if hit[0] != "link.hidden_cited":
            continue
        new = np.setdiff1d(rows, cited.get(hit[2] or "", ()), assume_unique=True)
        if len(new):
            text = hit[4] if len(new) == 1 else f"{len(new):,} rows: {hit[4]}"
            yield ctx.finding(
                "link.hidden_cited", text, rows=new, key_path=hit[1], ref=hit[2], evidence_id=hit[3]
            )
    g = ctx.rows.gathered.get("link.hidden_cited")
    if g is not None:  # past the listing limit: every further citing row, each located
        yield from _gathered_hidden(ctx, g, cited)


def _rows(n: int) -> str:
    return "the row cites" if n == 1 else f"{n:,} rows cite"


def _gathered_hidden(
    ctx: AuditContext, g: Gathered, cited: dict[str, np.ndarray]
) -> Iterator[Finding]:
    keep = np.ones(len(g.positions), dtype=bool)
    for w, (_, ref, _) in enumerate(g.wheres):  # rows already named for citing it by id
        if ref in cited:
            keep &= ~((g.codes == w) & np.isin(g.positions, cited[ref]))
    if not keep.any():
        return
    codes = g.codes[keep]
    keys = np.asarray([w[0] for w in g.wheres], dtype=object)[codes].tolist()
    refs = np.asarray([w[1] for w in g.wheres], dtype=object)[codes].tolist()
    n = int(keep.sum())
    yield ctx.finding(
        "link.hidden_cited",
        f"{n:,} more citation(s) of hidden evaluation "
        "material, past the listing limit: each is one of the locations (row, "
        "key path and ref)",
        rows=g.positions[keep],
        key_path=keys,
        ref=refs,
        gathered=n,
    )
