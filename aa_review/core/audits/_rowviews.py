"""Turning the shared row pass's hits into located findings for the checks that own them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.findings import Finding, Severity
from aa_review.core.package.model import Package

__all__ = ["row_findings"]


def row_findings(pkg: Package, ctx: AuditContext, codes: Iterable[str]) -> Iterator[Finding]:
    """Findings of the row pass with one of ``codes`` (and enabled), located at their row.

    Hits beyond the listing cap are counted in ``ctx.omitted`` so summaries stay exact.
    """
    wanted = {c for c in codes if ctx.on(c)}
    if not wanted or not len(pkg.index):
        return
    scan = ctx.rows
    listed: dict[str, int] = {}
    for pos, (code, key_path, ref, eid, message) in scan.hits:
        if code in wanted:
            listed[code] = listed.get(code, 0) + 1
            yield ctx.finding(code, message, key_path=key_path, ref=ref, evidence_id=eid,
                              **ctx.row_where(pos))
    for (code, _, _), (pos, hit, n) in sorted(scan.groups.items(), key=lambda t: t[1][0]):
        if code in wanted:
            rows = f" ({n} rows carry it; the first is located)" if n > 1 else ""
            # A row's missing source artifact would have made the validator reject it.
            sev = Severity.ERROR if code == "ref.unresolved" else None
            yield ctx.finding(code, hit[4] + rows, key_path=hit[1], ref=hit[2], severity=sev,
                              evidence_id=hit[3], **ctx.row_where(pos))
    for code in wanted:
        extra = scan.counts.get(code, 0) - listed.get(code, 0)
        if extra > 0:
            ctx.omitted[code] = ctx.omitted.get(code, 0) + extra
