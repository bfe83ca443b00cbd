"""Check ``files``: the package folder's entries, manifest outputs and
``artifacts_index.json`` against the files."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from typing import Any

import orjson

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._refrules import classify_ref
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding
from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.model import Package
from aa_review.core.package.safepath import printable
from aa_review.core.util.errors import UnsafeRefError

CODES = (
    "manifest.missing_output",
    "manifest.schema_version",
    "artifacts.hash",
    "artifacts.size",
    "artifacts.missing",
    "artifacts.index_unreadable",
    "artifacts.index_missing",
    "artifacts.manifest_changed",
    "file.special",
    "file.hard_link",
    "file.name_encoding",
    "quirk.recipe_absent",
    "quirk.index_manifest_hash",
)
INDEX = "artifacts_index.json"
_RECIPE = "compiler_recipe.json"


@register("files", "Package files, manifest and artifacts index", CODES, hashes=True)
def check_files(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Every file compiler_output_refs lists exists (compiler_recipe.json never does: a
    compiler bug); the manifest and evidence map name the same schema generation; every
    artifacts_index.json entry exists with the listed size and plain byte SHA-256 (a root
    manifest.json may differ only as format 12.21 says); the package folder holds no
    FIFO, socket or device, and names that are not UTF-8 or files with several hard
    links are pointed out."""
    yield from _entries(ctx)
    m = pkg.docs.manifest
    if m is not None:
        for i, ref in enumerate(m.compiler_output_refs or []):
            if not isinstance(ref, str) or pkg.safe.exists(ref):
                continue
            where: dict[str, Any] = {
                "file": DOC_PATHS["manifest"],
                "key_path": f"compiler_output_refs[{i}]",
                "ref": ref,
            }
            if ref.endswith(_RECIPE):
                if ctx.on("quirk.recipe_absent"):
                    yield ctx.finding(
                        "quirk.recipe_absent",
                        "compiler_recipe.json is listed but "
                        "absent: compiler 0.2.1's copy helper never writes it "
                        "(format 12.1)",
                        **where,
                    )
            elif ctx.on("manifest.missing_output"):
                yield ctx.finding(
                    "manifest.missing_output",
                    f"{ref} is listed as a compiler output but is not in the package",
                    **where,
                )
        hdr = pkg.map_header
        if (
            hdr is not None
            and m.source_evidence_map_schema_version
            and hdr.schema_version
            and m.source_evidence_map_schema_version != hdr.schema_version
            and ctx.on("manifest.schema_version")
        ):
            yield ctx.finding(
                "manifest.schema_version",
                f"the manifest names "
                f"{m.source_evidence_map_schema_version}, the evidence map is "
                f"{hdr.schema_version}",
                file=DOC_PATHS["manifest"],
                key_path="source_evidence_map_schema_version",
            )
    yield from _index(pkg, ctx)


def _entries(ctx: AuditContext) -> Iterator[Finding]:
    """What listing the package folder showed: special files, hard links, odd names."""
    for e in ctx.hashes.listing:
        if e.kind == "special" and ctx.on("file.special"):
            yield ctx.finding(
                "file.special",
                f"{_article(e.detail)} in the package: never "
                "opened or read (a compiler writes regular files only)",
                file=e.rel,
            )
        if e.kind == "file" and e.nlink > 1 and ctx.on("file.hard_link"):
            yield ctx.finding(
                "file.hard_link",
                f"this file has {e.nlink} hard links: the same "
                "bytes may also be a file outside the package, changed there",
                file=e.rel,
            )
        if (
            printable(e.rel) != e.rel
            and ctx.on("file.name_encoding")
            and printable(e.rel.rsplit("/", 1)[-1]) != e.rel.rsplit("/", 1)[-1]
        ):
            yield ctx.finding(
                "file.name_encoding",
                "this name is not valid UTF-8 (shown with "
                "its bytes escaped as \\xNN); no ref can name it",
                file=e.rel,
            )
    for name in _folders_not_utf8(ctx):
        if ctx.on("file.name_encoding"):
            yield ctx.finding(
                "file.name_encoding",
                "this folder name is not valid UTF-8 (shown with its bytes escaped as \\xNN)",
                file=name,
            )


def _folders_not_utf8(ctx: AuditContext) -> list[str]:
    seen: dict[str, None] = {}
    for e in ctx.hashes.listing:
        parts = e.rel.split("/")[:-1]
        for i, part in enumerate(parts):
            if printable(part) != part:
                seen.setdefault("/".join(parts[: i + 1]), None)
    return list(seen)


def _article(kind: str) -> str:
    return ("An " if kind[:1] in "aeiouAEIOU" else "A ") + kind


def _read_index(pkg: Package, ctx: AuditContext) -> tuple[list[Any] | None, list[Finding]]:
    problems: list[Finding] = []
    if pkg.safe.stat(INDEX) is None:
        if ctx.on("artifacts.index_missing"):
            return None, [
                ctx.finding(
                    "artifacts.index_missing",
                    "artifacts_index.json is "
                    "absent, so no file's size and hash can be checked "
                    "against it (the compiler writes it, format 3.4)",
                    file=INDEX,
                )
            ]
        return None, []
    entries = read_json(pkg.safe, INDEX, problems, required=False)
    if isinstance(entries, list):
        return entries, []
    if problems:
        p = problems[0]
        why, line = p.message, p.location.line
    else:
        why, line = f"it holds a JSON {type(entries).__name__}, not a list", None
    if not ctx.on("artifacts.index_unreadable"):
        return None, []
    return None, [
        ctx.finding(
            "artifacts.index_unreadable",
            f"artifacts_index.json cannot be "
            f"used ({why}): no file's size and hash was checked against it",
            file=INDEX,
            line=line,
        )
    ]


def _index(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    entries, problems = _read_index(pkg, ctx)
    yield from problems
    if entries is None:
        return
    files = ctx.hashes.files
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        ref = e.get("package_relative_path") or e.get("artifact_ref")
        if not isinstance(ref, str) or e.get("artifact_missing") is True:
            continue
        where: dict[str, Any] = {"file": INDEX, "key_path": f"[{i}]", "ref": ref}
        code, why = classify_ref(pkg.safe, ref)
        if code in ("ref.absolute", "ref.escape", "ref.symlink_out"):
            if ctx.on("artifacts.missing"):
                yield ctx.finding("artifacts.missing", f"{ref!r} is not opened: {why}", **where)
            continue
        facts = files.get(ref)
        if facts is None:
            if ctx.on("artifacts.missing"):
                yield ctx.finding(
                    "artifacts.missing", f"{ref} is listed but not in the package", **where
                )
            continue
        size, digest = e.get("size_bytes"), e.get("content_hash")
        size_off = isinstance(size, int) and size != facts.size
        hash_off = isinstance(digest, str) and digest != facts.sha256
        if ref == "manifest.json" and (size_off or hash_off):
            yield from _manifest(pkg, ctx, size, digest, facts.size, facts.sha256, where)
            continue
        if size_off and ctx.on("artifacts.size"):
            yield ctx.finding(
                "artifacts.size",
                _msg(False, f"size_bytes {size:,}, the file has {facts.size:,}"),
                **{**where, "key_path": f"[{i}].size_bytes"},
            )
        if hash_off and ctx.on("artifacts.hash"):
            yield ctx.finding(
                "artifacts.hash",
                _msg(False, f"content_hash {digest}, the bytes hash to {facts.sha256}"),
                **{**where, "key_path": f"[{i}].content_hash"},
            )


def _manifest(
    pkg: Package,
    ctx: AuditContext,
    size: Any,
    digest: Any,
    real_size: int,
    real_hash: str,
    where: dict[str, Any],
) -> Iterator[Finding]:
    """The root manifest.json against its index entry: the compiler indexes it before
    adding trace_counters (format 12.21), so a clean package's manifest differs exactly
    by them; any other difference is an edit."""
    said = (
        f"size_bytes {size:,}"
        if isinstance(size, int) and size != real_size
        else f"content_hash {digest}"
    )
    if _before_trace_counters(pkg, size, digest):
        if ctx.on("quirk.index_manifest_hash"):
            yield ctx.finding(
                "quirk.index_manifest_hash",
                _msg(True, f"{said}, the file now has {real_size:,} bytes hashing to {real_hash}"),
                **where,
            )
    elif ctx.on("artifacts.manifest_changed"):
        yield ctx.finding(
            "artifacts.manifest_changed",
            f"{said}, the file has {real_size:,} "
            f"bytes hashing to {real_hash}, and manifest.json without its "
            "trace_counters does not match the index either: the manifest was "
            "edited after compiling (format 12.21 explains only trace_counters)",
            **where,
        )


def _before_trace_counters(pkg: Package, size: Any, digest: Any) -> bool:
    """Whether the indexed size/hash are those of manifest.json without trace_counters,
    written as JSON in any of the usual ways."""
    try:
        doc = orjson.loads(pkg.safe.read_bytes("manifest.json", limit=1 << 20))
    except (OSError, UnsafeRefError, orjson.JSONDecodeError):
        return False
    if not isinstance(doc, dict) or "trace_counters" not in doc:
        return False
    before = {k: v for k, v in doc.items() if k != "trace_counters"}
    for indent, ascii_only, sort, end in itertools.product(
        (2, None, 4), (True, False), (False, True), ("\n", "")
    ):
        data = (
            json.dumps(before, indent=indent, ensure_ascii=ascii_only, sort_keys=sort) + end
        ).encode("utf-8")
        if isinstance(digest, str) and hashlib.sha256(data).hexdigest() != digest:
            continue
        if isinstance(size, int) and size != len(data):
            continue
        return True
    return False


def _msg(quirk: bool, text: str) -> str:
    if quirk:
        return (
            text + ": artifacts_index.json describes manifest.json as it was before "
            "trace_counters were added (format 12.21)"
        )
    return text + ": the file changed after the index was written"
