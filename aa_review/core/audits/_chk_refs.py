"""Check ``refs``: every catalogued and cited ref is safe, normalized and present."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.findings import Finding, Location, Locations, Severity
from aa_review.core.package.catalog import MAP_PATH
from aa_review.core.package.derive import ALWAYS_RESOLVING_PREFIXES, evidence_type, visibility
from aa_review.core.package.model import Package

CODES = (
    "ref.absolute",
    "ref.escape",
    "ref.symlink_out",
    "ref.unresolved",
    "ref.not_normalized",
    "ref.prefix_only",
    "evidence.field_mismatch",
    "evidence.duplicate",
    "quirk.always_catalogued",
)
_ALWAYS = ("task/task_intake_spec.json", "rubric/rubric.json")
_TASK_PACKETS = ("task/task_packet.json", "source_task/task_packet.json")


@register("refs", "Refs and catalog fields", CODES)
def check_refs(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Absolute refs, refs with '..' and refs crossing a symlink out of the package are
    reported and never opened. Catalog entries must obey the derivation rules (type,
    visibility, resolves, confidence; format 7.2), name a file that exists (traces/,
    outputs/ and evidence/ refs 'resolve' without one: a compiler quirk), and appear once.
    Refs in rows are checked the same way, and source artifact refs must exist
    (validator rule 2)."""
    seen: dict[str, int] = {}
    for i, e in enumerate(pkg.catalog):
        where: dict[str, Any] = {
            "file": MAP_PATH,
            "key_path": f"evidence_catalog[{i}]",
            "evidence_id": e.evidence_id,
            "ref": e.ref,
        }
        if e.evidence_id in seen and ctx.on("evidence.duplicate"):
            first = seen[e.evidence_id]
            yield ctx.finding(
                "evidence.duplicate",
                f"evidence id also catalogued at entry {first} ({pkg.catalog[first].ref!r})",
                **where,
                more=Locations.one(
                    Location(
                        file=MAP_PATH,
                        key_path=f"evidence_catalog[{first}]",
                        evidence_id=e.evidence_id,
                        ref=pkg.catalog[first].ref,
                    )
                ),
            )
        seen.setdefault(e.evidence_id, i)
        code, why, exists = ctx.ref_facts[e.ref]
        if code is not None and code != "ref.not_normalized":
            if ctx.on(code):
                yield ctx.finding(code, f"catalogued ref {e.ref!r}: {why}", **where)
            continue
        if code == "ref.not_normalized" and ctx.on(code):
            yield ctx.finding(code, f"catalogued ref {e.ref!r}: {why}", **where)
        prefix = e.ref.startswith(ALWAYS_RESOLVING_PREFIXES)
        resolves = exists or prefix
        if not exists and prefix and ctx.on("ref.prefix_only"):
            yield ctx.finding(
                "ref.prefix_only",
                f"{e.ref!r} has no file but counts as resolving "
                "because it starts with traces/, outputs/ or evaluation/ "
                "(format 12.4); its content cannot be checked",
                **where,
            )
        elif not exists and not prefix:
            always = e.ref in _ALWAYS and any(pkg.safe.exists(p) for p in _TASK_PACKETS)
            if always and e.resolves is False and ctx.on("quirk.always_catalogued"):
                yield ctx.finding(
                    "quirk.always_catalogued",
                    f"{e.ref!r} is always catalogued, "
                    "even when only task_packet.json exists (format 12.3); it is "
                    "marked unresolved with confidence 0.5",
                    **where,
                )
            elif ctx.on("ref.unresolved"):
                rows = (
                    pkg.index.rows_citing(i).to_array()
                    if i < pkg.index.catalog_size
                    else np.empty(0, np.int64)
                )
                claim = e.resolves is True
                yield ctx.finding(
                    "ref.unresolved",
                    f"evidence {e.ref!r} is not in the package"
                    + (" although the catalog says it resolves" if claim else "")
                    + f"; {len(rows):,} row(s) cite it"
                    + (" (located after the catalog entry)" if len(rows) else ""),
                    severity=Severity.ERROR if claim else None,
                    **where,
                    more=ctx.at_rows(
                        rows,
                        evidence_id=e.evidence_id,
                        ref=e.ref,
                        key_path="source_evidence_ref_ids",
                    ),
                )
        if ctx.on("evidence.field_mismatch"):
            # A file that went missing after compiling is reported as unresolved, not as a
            # wrong 'resolves' flag: only flags the catalog itself contradicts are wrong.
            claimed = e.resolves if (e.resolves and not resolves) else resolves
            want = {
                "evidence_type": evidence_type(e.ref),
                "visibility": visibility(e.ref),
                "resolves": claimed,
                "confidence": 1.0 if claimed else 0.5,
            }
            for field, value in want.items():
                have = getattr(e, field)
                if have != value:
                    yield ctx.finding(
                        "evidence.field_mismatch",
                        f"{field} is {have!r}; the ref derives "
                        f"{value!r} (format 7.2){_why(field, exists)}",
                        **{**where, "key_path": f"evidence_catalog[{i}].{field}"},
                    )
    yield from row_findings(
        pkg,
        ctx,
        ("ref.absolute", "ref.escape", "ref.symlink_out", "ref.unresolved", "ref.not_normalized"),
    )


def _why(field: str, exists: bool) -> str:
    if field in ("resolves", "confidence"):
        return "; the file " + ("exists" if exists else "is missing")
    if field == "visibility":
        return "; a visibility that hides grader-only material is the one that matters"
    return ""
