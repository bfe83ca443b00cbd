"""Turning the shared row pass's hits into located findings for the checks that own them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from aa_review.core.audits._codes import code_info
from aa_review.core.audits._context import AuditContext
from aa_review.core.findings import Finding, Severity, distinct_sorted
from aa_review.core.package.model import Package

__all__ = ["row_findings"]


def _severity(code: str) -> Severity | None:
    # A row's missing source artifact would have made the validator reject it.
    return Severity.ERROR if code == "ref.unresolved" else None


def row_findings(pkg: Package, ctx: AuditContext, codes: Iterable[str]) -> Iterator[Finding]:
    """Findings of the row pass with one of ``codes`` (and enabled), in order of first row.

    Rows carrying the same hit make one finding locating every one of them; a code's
    hits past the listing limit make one more finding, which locates each of them with
    its key path (their per-row messages are not kept).
    """
    wanted = {c for c in codes if ctx.on(c)}
    if not wanted or not len(pkg.index):
        return
    scan = ctx.rows
    groups = sorted(
        ((int(rows[0]), hit, rows) for hit, rows in scan.groups.items() if hit[0] in wanted),
        key=lambda t: (t[0], t[1][0]),
    )
    for _, (code, key_path, ref, eid, message), rows in groups:
        n = len(rows)
        text = message if n == 1 else f"{n:,} rows: {message}"
        yield ctx.finding(
            code,
            text,
            severity=_severity(code),
            rows=rows,
            key_path=key_path,
            ref=ref,
            evidence_id=eid,
        )
    for code in sorted(wanted & set(scan.gathered)):
        g = scan.gathered[code]
        fields: dict[str, Any] = {}
        for i, name in enumerate(("key_path", "ref", "evidence_id")):
            values = [w[i] for w in g.wheres]
            fields[name] = (
                values[0]
                if len(set(values)) == 1
                else np.asarray(values, dtype=object)[g.codes].tolist()
            )
        n, n_rows = len(g.positions), len(distinct_sorted(g.positions))
        yield ctx.finding(
            code,
            f"{n:,} more finding(s) at {n_rows:,} row(s): {code_info(code).meaning}. "
            f"Past {ctx.cap} distinct findings of this code, the rest are gathered here: each "
            "is one of the locations (row and key path); their own messages are not kept",
            severity=_severity(code),
            rows=g.positions,
            gathered=n,
            **fields,
        )
