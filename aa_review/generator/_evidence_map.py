"""The evidence map (format 6), streamed: catalog entries and links one per line."""

from __future__ import annotations

import json
from typing import Any

from ._ctx import Ctx
from ._evidence import Evidence
from ._final import ROW_FILES, FinalSink
from ._jsonfast import dumps_line

__all__ = ["write_evidence_map", "coverage"]

MAP = "experience_compiler/source_evidence_map.json"


def coverage(ev: Evidence, final: FinalSink) -> dict[str, int]:
    """``coverage_statistics`` (format 7.8)."""
    resolved = sum(1 for e in ev.catalog if e["resolves"])
    return {
        "evidence_ref_count": len(ev.catalog),
        "resolved_evidence_ref_count": resolved,
        "unresolved_evidence_ref_count": len(ev.catalog) - resolved,
        "row_link_count": final.n_links,
        "row_count_with_evidence_ids": final.n_with_ids,
        "orphan_evidence_id_count": len(final.orphans),
    }


def _kv(key: str, value: Any) -> str:
    return f"  {json.dumps(key)}: {json.dumps(value)}"


def write_evidence_map(
    ctx: Ctx, ev: Evidence, final: FinalSink, cov: dict[str, int], orphans: list[str]
) -> None:
    """Write the map; v0.1 maps have neither ``evidence_catalog`` nor ``row_evidence_links``."""
    sc = ctx.sc
    head = [
        _kv("schema_version", ctx.v.evidence_map),
        _kv("source_package_id", ctx.pkg),
        _kv("source_task_id", sc.task_id),
    ]
    evaluation = [
        r for r in ev.evidence_refs if r.startswith(("grading/", "feedback/", "signals/", "loops/"))
    ]
    tail = [
        _kv("task_refs", ev.task_refs),
        _kv("artifact_refs", ev.artifact_refs),
        _kv("evaluation_refs", evaluation),
        _kv("loop_review_refs", ev.loop_refs),
        _kv("trace_refs", [sc.trace_id(k) for k in ("baseline", "revised")]),
    ]
    path = ctx.path(MAP)
    with open(path, "wb") as fh:
        fh.write(("{\n" + ",\n".join(head) + ",\n").encode())
        if ctx.v02:
            catalog = ",\n".join("    " + dumps_line(e) for e in ev.catalog)
            fh.write(('  "evidence_catalog": [\n' + catalog + "\n  ],\n").encode())
            fh.write(b'  "row_evidence_links": [')
            first = True
            for f in ROW_FILES:
                with open(final.links[f].path, "rb") as src:
                    chunk = src.read(1 << 22)
                    if chunk and first:
                        chunk = b"\n" + chunk[2:]  # the first link has no leading comma
                        first = False
                    while chunk:
                        fh.write(chunk)
                        chunk = src.read(1 << 22)
            fh.write(b"\n  ],\n" if not first else b"],\n")
            tail += [_kv("coverage_statistics", cov), _kv("orphan_evidence_ref_ids", orphans)]
        fh.write((",\n".join(tail) + "\n}\n").encode())
