"""Check ``privacy``: no private path, forbidden key or token, secret or unsanitized text."""

from __future__ import annotations

from collections.abc import Iterator

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.findings import Finding
from aa_review.core.package.model import Package

CODES = (
    "privacy.private_path",
    "privacy.forbidden_key",
    "privacy.forbidden_token",
    "privacy.secret",
    "privacy.unsanitized_text",
    "quirk.private_re_overmatch",
    "quirk.token_substring",
    "quirk.upper_replacement",
)


@register("privacy", "Privacy and sanitizing", CODES)
def check_privacy(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Walks every key and string of every row (keys before values, as the validator does):
    forbidden keys, secret-looking values (reported masked, with their key path), local
    private paths, the validator's forbidden tokens, and text the public sanitizer would
    have rewritten (pair sources, controller settings). Known over-matches of the
    compiler's own patterns are reported as quirks."""
    yield from row_findings(pkg, ctx, CODES)
