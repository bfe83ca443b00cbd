"""Check ``rows``: every row of the 23 files against the row schema and validator (4, 7.5, 8)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.findings import Finding
from aa_review.core.package.model import Package

ROW_CODES = (
    "row.missing_id",
    "row.duplicate_id",
    "row.missing_lineage",
    "row.missing_domain",
    "row.missing_evidence_ids",
    "row.missing_core_input",
    "row.missing_core_target",
    "row.schema_version",
    "row.id_mismatch",
    "row.hash_mismatch",
    "row.data_type",
    "row.not_accepted",
    "row.insufficient_evidence",
    "row.low_score",
    "row.unverifiable",
    "row.changed_on_disk",
    "quirk.id_before_sanitize",
)
_PASS = tuple(c for c in ROW_CODES if c not in ("row.missing_id", "row.duplicate_id"))


@register("rows", "Training rows", ROW_CODES)
def check_rows(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Reads every row once (streaming, in worker processes for large packages) and checks
    what the compiler guarantees: its file's data_type and the package's row schema, a
    unique id that recomputes from the seed fields, a row_content_hash that recomputes
    (format 7.5), accepted:true, lineage, domain, evidence ids, and input/target for
    training, evaluation, verifier and reward rows (validator rules 3-12)."""
    ix = pkg.index
    if not len(ix):
        return
    if ctx.on("row.missing_id"):
        missing = np.flatnonzero(ix.row_id == b"")
        if len(missing):
            yield ctx.finding(
                "row.missing_id",
                f"{_rows(len(missing))} no row_id (or "
                "pair_id): it cannot be cited, linked or signed off",
                rows=missing,
                key_path="row_id",
            )
    if ctx.on("row.duplicate_id"):
        order = np.argsort(ix.row_id, kind="stable")
        ids = ix.row_id[order]
        same = (ids[1:] == ids[:-1]) & (ids[1:] != b"")
        # Runs of one id in the sorted order: each run is one finding naming all its rows.
        starts = np.flatnonzero(same & ~np.concatenate(([False], same[:-1])))
        ends = np.flatnonzero(same & ~np.concatenate((same[1:], [False]))) + 2
        runs = sorted(
            (np.sort(order[a:b]) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)),
            key=lambda r: int(r[0]),
        )
        for rows in runs:
            w = ctx.row_where(int(rows[0]))
            yield ctx.finding(
                "row.duplicate_id",
                f"{len(rows):,} rows share the id "
                f"{w['row_id']} (first at {w['file']}:{w['line']}); ids must be "
                "unique",
                rows=rows,
                key_path="row_id",
            )
    yield from row_findings(pkg, ctx, _PASS)


def _rows(n: int) -> str:
    return "the row has" if n == 1 else f"{n:,} rows have"
