"""Listing a check's findings: one by one up to a limit per code, the rest gathered.

Nothing is dropped: past ``cap`` findings of one code (and severity), the others are
gathered into one finding whose locations are all of theirs, in order. Findings the
row pass already gathered join that finding.
"""

from __future__ import annotations

from collections.abc import Iterable

from aa_review.core.audits._codes import code_info
from aa_review.core.findings import Finding, Locations, Severity

__all__ = ["list_findings"]

_FLUSH = 4096  # locations of gathered findings are joined in batches of this many


class _Gather:
    """The findings of one (code, severity) past the limit, joined into one."""

    def __init__(self) -> None:
        self.findings = 0
        self.parts: list[Locations] = []
        self.pending: list[Locations] = []
        self.first: Finding | None = None

    def add(self, f: Finding) -> None:
        self.findings += max(1, f.gathered)
        self.first = self.first or f
        self.pending.append(f.locations)
        if len(self.pending) >= _FLUSH:
            self.parts.append(Locations.concat(self.pending))
            self.pending = []

    def finding(self, code: str, severity: Severity, cap: int) -> Finding:
        assert self.first is not None
        if self.first.gathered and not self.parts and len(self.pending) == 1:
            return self.first  # gathered by the row pass already, and alone: as it came
        locs = Locations.concat([*self.parts, *self.pending])
        info = code_info(code)
        return Finding(
            code=code,
            severity=severity,
            quirk=info.quirk,
            locations=locs,
            gathered=self.findings,
            message=f"{self.findings:,} more finding(s) at {len(locs):,} "
            f"location(s): {info.meaning}. Past {cap} findings of this code, the "
            "rest are gathered here: each keeps its place among the locations; "
            "their own messages are not kept",
        )


def list_findings(found: Iterable[Finding], cap: int) -> list[Finding]:
    """``found`` as listed: at most ``cap`` per code one by one, then one gathered per
    (code, severity) at the end, in the order of their first finding."""
    out: list[Finding] = []
    listed: dict[str, int] = {}
    gathers: dict[tuple[str, Severity], _Gather] = {}
    for f in found:
        key = (f.code, f.severity)
        n = listed.get(f.code, 0)
        if f.gathered == 0 and n < cap:
            listed[f.code] = n + 1
            out.append(f)
        else:
            g = gathers.get(key)
            if g is None:
                g = gathers[key] = _Gather()
            g.add(f)
    out.extend(g.finding(code, sev, cap) for (code, sev), g in gathers.items())
    return out
