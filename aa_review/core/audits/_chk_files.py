"""Check ``files``: manifest outputs and ``artifacts_index.json`` against the files."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._refrules import classify_ref
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding
from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.model import Package

CODES = ("manifest.missing_output", "manifest.schema_version", "artifacts.hash",
         "artifacts.size", "artifacts.missing", "quirk.recipe_absent",
         "quirk.index_manifest_hash")
INDEX = "artifacts_index.json"
_RECIPE = "compiler_recipe.json"


@register("files", "Manifest and artifacts index", CODES, hashes=True)
def check_files(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Every file compiler_output_refs lists exists (compiler_recipe.json never does: a
    compiler bug); the manifest and evidence map name the same schema generation; every
    artifacts_index.json entry exists with the listed size and plain byte SHA-256."""
    m = pkg.docs.manifest
    if m is not None:
        for i, ref in enumerate(m.compiler_output_refs or []):
            if not isinstance(ref, str) or pkg.safe.exists(ref):
                continue
            where = dict(file=DOC_PATHS["manifest"], key_path=f"compiler_output_refs[{i}]",
                         ref=ref)
            if ref.endswith(_RECIPE):
                if ctx.on("quirk.recipe_absent"):
                    yield ctx.finding("quirk.recipe_absent", "compiler_recipe.json is listed but "
                                      "absent: compiler 0.2.1's copy helper never writes it "
                                      "(format 12.1)", **where)
            elif ctx.on("manifest.missing_output"):
                yield ctx.finding("manifest.missing_output", f"{ref} is listed as a compiler "
                                  "output but is not in the package", **where)
        hdr = pkg.map_header
        if (hdr is not None and m.source_evidence_map_schema_version and hdr.schema_version
                and m.source_evidence_map_schema_version != hdr.schema_version
                and ctx.on("manifest.schema_version")):
            yield ctx.finding("manifest.schema_version", f"the manifest names "
                              f"{m.source_evidence_map_schema_version}, the evidence map is "
                              f"{hdr.schema_version}", file=DOC_PATHS["manifest"],
                              key_path="source_evidence_map_schema_version")
    yield from _index(pkg, ctx)


def _index(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    entries = read_json(pkg.safe, INDEX, [], required=False)
    if not isinstance(entries, list):
        return
    files = ctx.hashes.files
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        ref = e.get("package_relative_path") or e.get("artifact_ref")
        if not isinstance(ref, str) or e.get("artifact_missing") is True:
            continue
        where: dict[str, Any] = dict(file=INDEX, key_path=f"[{i}]", ref=ref)
        code, why = classify_ref(pkg.safe, ref)
        if code in ("ref.absolute", "ref.escape", "ref.symlink_out"):
            if ctx.on("artifacts.missing"):
                yield ctx.finding("artifacts.missing", f"{ref!r} is not opened: {why}", **where)
            continue
        facts = files.get(ref)
        if facts is None:
            if ctx.on("artifacts.missing"):
                yield ctx.finding("artifacts.missing", f"{ref} is listed but not in the package",
                                  **where)
            continue
        quirk = ref == "manifest.json"
        size, digest = e.get("size_bytes"), e.get("content_hash")
        if isinstance(size, int) and size != facts.size:
            code = "quirk.index_manifest_hash" if quirk else "artifacts.size"
            if ctx.on(code):
                yield ctx.finding(code, _msg(quirk, f"size_bytes {size:,}, the file has "
                                             f"{facts.size:,}"), **{**where, "key_path":
                                                                     f"[{i}].size_bytes"})
        if isinstance(digest, str) and digest != facts.sha256:
            code = "quirk.index_manifest_hash" if quirk else "artifacts.hash"
            if ctx.on(code):
                yield ctx.finding(code, _msg(quirk, f"content_hash {digest}, the bytes hash to "
                                             f"{facts.sha256}"), **{**where, "key_path":
                                                                    f"[{i}].content_hash"})


def _msg(quirk: bool, text: str) -> str:
    if quirk:
        return (text + ": artifacts_index.json describes manifest.json as it was before "
                "trace_counters were added (format 12.21)")
    return text + ": the file changed after the index was written"
