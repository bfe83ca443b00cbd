"""Check ``hashes``: catalog content hashes against the files on disk (format 7.3)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._files import FileFacts, hash_file
from aa_review.core.audits._refrules import UNSAFE
from aa_review.core.audits._registry import register
from aa_review.core.audits._rowviews import row_findings
from aa_review.core.findings import Finding
from aa_review.core.package.derive import CONTENT_HASH_LIMIT
from aa_review.core.package.model import Package
from aa_review.core.util.errors import UnsafeRefError

_HASH_RE = re.compile(r"sha256:[0-9a-f]{64}")
CODES = (
    "hash.changed",
    "hash.missing",
    "hash.unhashable",
    "hash.not_recorded",
    "hash.malformed",
    "hash.unreadable",
    "hash.row_disagrees",
    "input.evidence_encoding",
    "quirk.large_file_no_hash",
    "quirk.hash_conventions",
)


def file_facts(pkg: Package, ctx: AuditContext, ref: str) -> FileFacts | None:
    """Facts of the regular file ``ref`` names (hashed once), or None if there is none."""
    facts = ctx.hashes.files.get(ref)
    if facts is not None:
        return facts
    if not pkg.safe.is_file(ref):  # refs reaching here were classified safe
        return None
    return hash_file(pkg.root, ref)


def first_bad_byte(pkg: Package, ref: str) -> tuple[int, int, str] | None:
    """(byte offset, line, what is wrong) of the first byte of ``ref`` that is not valid
    UTF-8, or None when the file decodes (or cannot be read: the hashing says so)."""
    try:
        with pkg.safe.open(ref) as fh:  # the one safe opener: no symlink out, no FIFO
            data = fh.read(CONTENT_HASH_LIMIT + 1)
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        what = f"0x{data[exc.start]:02x}, {exc.reason}"
        return exc.start, data.count(b"\n", 0, exc.start) + 1, what
    except (OSError, UnsafeRefError):
        return None
    return None


@register("hashes", "Evidence hashes", CODES, hashes=True)
def check_hashes(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Recomputes each catalogued file's content hash the compiler's way (text read as
    UTF-8 with replacement, universal newlines, re-encoded; format 7.3) in threads, and
    compares it with the catalog: changed content, files gone, files over 2,000,000
    bytes that still claim a hash, small files without one. Rows' source_content_hashes
    must agree with the catalog."""
    for rel, why in sorted(ctx.hashes.errors.items()):
        if ctx.on("hash.unreadable"):
            yield ctx.finding(
                "hash.unreadable",
                f"cannot be read ({why}); no package digest can be computed",
                file=rel,
            )
    for i, e in enumerate(pkg.catalog):
        where: dict[str, Any] = {
            "file": e.ref,
            "evidence_id": e.evidence_id,
            "ref": e.ref,
            "key_path": f"evidence_catalog[{i}].content_hash",
        }
        if ctx.ref_facts[e.ref][0] in UNSAFE:
            continue  # never opened; the refs check reports it
        recorded = e.content_hash
        if recorded is not None and not _HASH_RE.fullmatch(recorded) and ctx.on("hash.malformed"):
            yield ctx.finding(
                "hash.malformed",
                f"content_hash {recorded!r} is not 'sha256:' + 64 lower-case hex digits",
                **where,
            )
            continue
        try:
            facts = file_facts(pkg, ctx, e.ref)
        except OSError as exc:
            if ctx.on("hash.unreadable"):
                yield ctx.finding("hash.unreadable", f"cannot be read ({exc.strerror})", **where)
            continue
        if facts is None:
            if recorded is not None and ctx.on("hash.missing"):
                yield ctx.finding(
                    "hash.missing",
                    f"the catalog records {recorded} but the file "
                    "is not in the package: the evidence was removed or never "
                    "exported",
                    **where,
                )
            continue
        if facts.size > CONTENT_HASH_LIMIT:
            if recorded is not None and ctx.on("hash.unhashable"):
                yield ctx.finding(
                    "hash.unhashable",
                    f"the file is {facts.size:,} bytes; the "
                    "compiler never hashes files over 2,000,000 bytes, yet the "
                    f"catalog claims {recorded}",
                    **where,
                )
            elif recorded is None and ctx.on("quirk.large_file_no_hash"):
                yield ctx.finding(
                    "quirk.large_file_no_hash",
                    f"the file is {facts.size:,} bytes: "
                    "the compiler records no hash for files over 2,000,000 bytes "
                    "(format 12.5), so its content is not protected by the "
                    "catalog; the package digest still covers it",
                    **where,
                )
            continue
        # Only files holding a CR or bytes that are not UTF-8 hash differently as text.
        text_differs = facts.text_hash != "sha256:" + facts.sha256
        bad = first_bad_byte(pkg, e.ref) if text_differs else None
        if bad is not None and ctx.on("input.evidence_encoding"):
            offset, line, why = bad
            yield ctx.finding(
                "input.evidence_encoding",
                f"the file is not valid UTF-8: {why} "
                f"at byte {offset:,} (line {line}). The compiler hashes evidence "
                "read as UTF-8 text with U+FFFD for each bad byte (format 7.3, "
                "12.5), so its catalog hash does not bind the file's bytes: files "
                "differing only in those bytes get the same hash",
                **{**where, "key_path": None},
                line=line,
                byte_offset=offset,
            )
        if recorded is None:
            if ctx.on("hash.not_recorded"):
                yield ctx.finding(
                    "hash.not_recorded",
                    f"the file exists ({facts.size:,} bytes) "
                    "but the catalog records no hash; the compiler hashes every "
                    "existing file up to 2,000,000 bytes",
                    **where,
                )
            continue
        if facts.text_hash != recorded and ctx.on("hash.changed"):
            extra = ""
            if recorded == "sha256:" + facts.sha256:
                extra = (
                    " (the recorded value is the plain byte hash; the catalog hashes the "
                    "file read as text, which differs for CRLF or non-UTF-8 files)"
                )
            yield ctx.finding(
                "hash.changed",
                f"catalog {recorded}, file now {facts.text_hash}: "
                f"the content changed after compiling{extra}",
                **where,
            )
        elif text_differs and ctx.on("quirk.hash_conventions"):
            why = "holds bytes that are not UTF-8" if bad is not None else "has CR line ends"
            yield ctx.finding(
                "quirk.hash_conventions",
                f"the file {why}, so its catalog hash "
                "(text read as UTF-8 with universal newlines) differs from its "
                "byte hash in artifacts_index.json (format 12.5); both are "
                "correct under their convention",
                **where,
            )
    yield from row_findings(pkg, ctx, ("hash.row_disagrees",))
