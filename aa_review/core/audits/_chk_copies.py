"""Check ``copies``: the files the compiler copies are byte-identical to their sources."""

from __future__ import annotations

from collections.abc import Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding
from aa_review.core.package.layout import COPIES
from aa_review.core.package.model import Package

CODES = ("copy.differs", "copy.missing")


@register("copies", "Copies", CODES, hashes=True)
def check_copies(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Every copy the compiler writes (sft_examples.jsonl, evals/, reward/, verifier/,
    state_transition_rows.jsonl, skill.md, ...) must be byte-identical to its source
    (format 3 and 10.4): same-size files are compared byte for byte while hashing, the
    others differ by their SHA-256."""
    files = ctx.hashes.files
    for src, dst in COPIES:
        a, b = files.get(src), files.get(dst)
        if a is None:
            continue  # no source: nothing to compare (a missing row file is reported on load)
        if b is None:
            if ctx.on("copy.missing"):
                yield ctx.finding("copy.missing", f"the copy of {src} is absent", file=dst)
            continue
        if a.sha256 != b.sha256 and ctx.on("copy.differs"):
            yield ctx.finding(
                "copy.differs",
                f"not byte-identical to {src} ({b.size:,} vs "
                f"{a.size:,} bytes): one of the two was edited after compiling",
                file=dst,
                ref=src,
            )
