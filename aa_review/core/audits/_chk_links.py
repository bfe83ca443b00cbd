"""Check ``links``: rows <-> evidence, against the catalog and ``row_evidence_links``."""

from __future__ import annotations

from collections.abc import Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._linkmap import link_mismatches
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.audits._undo import undo_ref_sanitizer
from aa_review.core.derive import evidence_id, visibility
from aa_review.core.findings import Finding
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.model import Package

CODES = ("link.orphan", "link.uncited", "link.hidden_cited", "link.mismatch",
         "link.bad_evidence_id", "quirk.id_before_sanitize")


def hidden_positions(pkg: Package) -> list[int]:
    """Catalog positions of hidden material (by the catalog's word or by the ref itself)."""
    return [i for i, e in enumerate(pkg.catalog)
            if e.visibility == "hidden_excluded" or visibility(e.ref) == "hidden_excluded"]


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
            where = dict(file=MAP_PATH, key_path=f"evidence_catalog[{i}].evidence_id",
                         evidence_id=e.evidence_id, ref=e.ref)
            if undo_ref_sanitizer(e.ref, e.evidence_id):
                if ctx.on("quirk.id_before_sanitize"):
                    yield ctx.finding("quirk.id_before_sanitize", "the id hashes the ref as it "
                                      "was before the sanitizer rewrote it (format 12.6)", **where)
            elif ctx.on("link.bad_evidence_id"):
                yield ctx.finding("link.bad_evidence_id", f"{e.evidence_id} is not the id of "
                                  f"{e.ref!r} ({want}): the id or the ref was edited", **where)
    n_cat = ix.catalog_size
    for pos in range(n_cat, len(ix.evidence_ids)):
        rows = ix.rows_citing(pos)
        if len(rows) and ctx.on("link.orphan"):
            yield ctx.finding("link.orphan", f"{len(rows)} row(s) cite {ix.evidence_ids[pos]}, "
                              "which the evidence catalog does not hold",
                              evidence_id=ix.evidence_ids[pos], **ctx.row_where(rows[0]))
    if len(ix):
        for pos, e in enumerate(pkg.catalog[:n_cat]):
            if not len(ix.rows_citing(pos)) and ctx.on("link.uncited"):
                yield ctx.finding("link.uncited", f"no row cites {e.ref!r}; the compiler cites "
                                  "every catalogued item from the rows", file=MAP_PATH,
                                  key_path=f"evidence_catalog[{pos}]", evidence_id=e.evidence_id,
                                  ref=e.ref)
    yield from _hidden(pkg, ctx)
    yield from row_findings(pkg, ctx, ("link.bad_evidence_id",))
    if ctx.on("link.mismatch") and not pkg.catalog_derived:
        yield from link_mismatches(pkg, ctx)


def _hidden(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    if not ctx.on("link.hidden_cited"):
        return
    ix = pkg.index
    seen: set[tuple[int, str]] = set()
    for pos in hidden_positions(pkg):
        e = pkg.catalog[pos]
        for row in ix.rows_citing(pos).to_array().tolist() if pos < ix.catalog_size else []:
            seen.add((row, e.ref))
            yield ctx.finding("link.hidden_cited", f"the row cites hidden evaluation material "
                              f"{e.ref!r}: grader-only references must never reach training "
                              "rows", evidence_id=e.evidence_id, ref=e.ref,
                              key_path="source_evidence_ref_ids", **ctx.row_where(row))
    if len(ix):
        for pos, hit in ctx.rows.hits:
            if hit[0] == "link.hidden_cited" and (pos, hit[2]) not in seen:
                seen.add((pos, hit[2] or ""))
                yield ctx.finding("link.hidden_cited", hit[4], key_path=hit[1], ref=hit[2],
                                  evidence_id=hit[3], **ctx.row_where(pos))
