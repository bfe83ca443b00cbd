"""Check ``input``: the loader's located problems, passed through unchanged."""

from __future__ import annotations

from collections.abc import Iterator

from aa_review.core.audits._codes import CODES
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding
from aa_review.core.package.model import Package

# input.evidence_encoding is found while evidence is hashed: the hashes check reports it.
INPUT_CODES = tuple(c for c in CODES if c.startswith("input.") and c != "input.evidence_encoding")


@register("input", "Loading problems", INPUT_CODES)
def check_input(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Every problem the package loader met (malformed lines, missing or unreadable files,
    bad encodings), already located by file and line. They are reported as the loader
    phrased them; codes the loader may add later pass through as well."""
    for p in pkg.problems:
        if ctx.on(p.code) or (
            p.code.startswith("input.") and p.code not in CODES and ctx.on("input.bad_json")
        ):
            yield p
