"""The evidence catalog: read from the evidence map, or derived as the compiler would (v0.1)."""

from __future__ import annotations

import stat
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import ValidationError

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package.derive import (
    ALWAYS_RESOLVING_PREFIXES,
    CONTENT_HASH_LIMIT,
    content_hash_bytes,
    evidence_id,
    evidence_type,
    visibility,
)
from aa_review.core.package.documents import file_problem
from aa_review.core.package.jsonstream import ObjectStream
from aa_review.core.package.layout import MAP_PATH
from aa_review.core.package.records import Evidence, EvidenceMapHeader, RowLink
from aa_review.core.package.rowscan import RowChunk
from aa_review.core.package.safepath import PackageRoot
from aa_review.core.util.errors import RecordError, UnsafeRefError

__all__ = [
    "MAP_PATH",
    "read_map_header",
    "derive_catalog",
    "iter_map_links",
    "evidence_for_ref",
    "live_hash_status",
]

_BIG = frozenset({"evidence_catalog", "row_evidence_links"})
# One value of the map's header (or one catalog entry) over this is refused unread:
# the compiler writes ids, versions and short refs there.
MAX_HEADER_VALUE = 16 * 1024 * 1024


def read_map_header(
    safe: PackageRoot, problems: list[Finding]
) -> tuple[EvidenceMapHeader | None, list[Evidence] | None]:
    """Keys before ``row_evidence_links`` and the catalog; links are left on disk.

    Returns ``(header, None)`` when the map has no catalog (v0.1 packages).
    """
    try:
        fh = safe.open(MAP_PATH)
    except (FileNotFoundError, NotADirectoryError):
        problems.append(
            Finding(
                code="input.missing_file",
                severity=Severity.ERROR,
                location=Location(file=MAP_PATH),
                message="source_evidence_map.json is missing",
            )
        )
        return None, None
    except (OSError, UnsafeRefError) as exc:
        problems.append(file_problem(MAP_PATH, exc, "evidence map"))
        return None, None
    head: dict[str, Any] = {}
    catalog: list[Evidence] | None = None
    try:
        with fh:
            for key, value in ObjectStream(fh, MAP_PATH, max_value=MAX_HEADER_VALUE).items(_BIG):
                if key == "row_evidence_links":
                    break
                if key == "evidence_catalog":
                    if isinstance(value, Iterator):
                        catalog = _catalog(value, problems)
                    else:
                        problems.append(
                            Finding(
                                code="input.bad_field",
                                severity=Severity.ERROR,
                                location=Location(file=MAP_PATH, key_path="evidence_catalog"),
                                message=f"evidence_catalog is a {type(value).__name__}, not a list",
                            )
                        )
                        catalog = []
                else:
                    head[key] = value
    except RecordError as exc:
        problems.append(
            Finding(
                code="input.bad_json",
                severity=Severity.ERROR,
                location=Location(file=exc.path, line=exc.line),
                message=exc.message,
            )
        )
    except OSError as exc:
        problems.append(file_problem(MAP_PATH, exc, "evidence map"))
    try:
        return EvidenceMapHeader.model_validate(head), catalog
    except ValidationError as exc:
        problems.append(
            Finding(
                code="input.bad_field",
                severity=Severity.ERROR,
                location=Location(file=MAP_PATH),
                message=f"evidence map header: {exc.errors()[0]['msg']}",
            )
        )
        return None, catalog


def _catalog(items: Iterator[Any], problems: list[Finding]) -> list[Evidence]:
    out: list[Evidence] = []
    for i, item in enumerate(items):
        try:
            out.append(Evidence.model_validate(item))
        except ValidationError as exc:
            problems.append(
                Finding(
                    code="input.bad_field",
                    severity=Severity.ERROR,
                    location=Location(file=MAP_PATH, key_path=f"evidence_catalog[{i}]"),
                    message=f"catalog entry {i} is unusable: {exc.errors()[0]['msg']}",
                )
            )
    return out


def iter_map_links(safe: PackageRoot) -> Iterator[RowLink]:
    """Stream ``row_evidence_links``; raises RecordError on a broken map (the keys after
    the links are read too, so a map broken there is reported), OSError when it cannot
    be read."""
    with safe.open(MAP_PATH) as fh:
        for key, value in ObjectStream(fh, MAP_PATH).items(_BIG):
            if key == "row_evidence_links" and isinstance(value, Iterator):
                for item in value:
                    yield RowLink.model_validate(item) if isinstance(item, dict) else RowLink()


def evidence_for_ref(safe: PackageRoot, ref: str) -> Evidence:
    """The catalog entry the compiler would write for ``ref`` (format 7.1-7.3)."""
    exists, digest = False, None
    try:
        safe.check(ref)
        exists = safe.exists(ref)
        digest = content_hash_bytes(safe.read_bytes(ref, limit=CONTENT_HASH_LIMIT))
    except (OSError, UnsafeRefError):
        pass
    resolves = exists or ref.startswith(ALWAYS_RESOLVING_PREFIXES)
    return Evidence(
        evidence_id=evidence_id(ref),
        ref=ref,
        evidence_type=evidence_type(ref),
        visibility=visibility(ref),
        resolves=resolves,
        content_hash=digest,
        confidence=1.0 if resolves else 0.5,
    )


def derive_catalog(safe: PackageRoot, chunks: Sequence[RowChunk]) -> list[Evidence]:
    """A catalog from the rows' ``evidence_refs``, first seen first (v0.1 packages)."""
    seen: dict[str, str] = {}
    for ch in chunks:
        for eid, ref in ch.refs.items():
            seen.setdefault(eid, ref)
    return [evidence_for_ref(safe, ref) for ref in seen.values()]


def live_hash_status(safe: PackageRoot, ev: Evidence) -> str:
    """How the catalog's ``content_hash`` stands against the file on disk right now.

    One of ``ok``, ``changed``, ``missing``, ``unsafe ref``, ``no file (prefix)``,
    ``not hashed (over 2 MB)``, ``unhashable (over 2 MB)``, ``no hash catalogued``,
    ``unreadable``.
    """
    try:
        safe.check(ev.ref)
    except UnsafeRefError:
        return "unsafe ref"
    if safe.is_symlink_out(ev.ref):
        return "unsafe ref"
    st = safe.stat(ev.ref)
    if st is None or not stat.S_ISREG(st.st_mode):
        return "no file (prefix)" if ev.ref.startswith(ALWAYS_RESOLVING_PREFIXES) else "missing"
    if st.st_size > CONTENT_HASH_LIMIT:
        return "unhashable (over 2 MB)" if ev.content_hash else "not hashed (over 2 MB)"
    if not ev.content_hash:
        return "no hash catalogued"
    try:
        data = safe.read_bytes(ev.ref, limit=CONTENT_HASH_LIMIT)
    except OSError:
        return "unreadable"
    return "ok" if content_hash_bytes(data) == ev.content_hash else "changed"
