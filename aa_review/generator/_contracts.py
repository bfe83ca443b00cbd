"""Artifact contracts (format 3.3), read from the deliverables as they were at compile time."""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

from aa_review.core.contracts import json_type as _type  # the contract vocabulary the auditor reads

from ._ctx import Ctx
from ._evidence import Evidence

__all__ = ["contracts", "output_path", "contract_line"]


def _numeric(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


def _numeric_column(i: int, data: list[list[str]]) -> bool:
    values = [r[i] for r in data if i < len(r) and r[i]]
    return bool(values) and all(_numeric(v) for v in values)


def _json_top_keys(ctx: Ctx, ref: str) -> dict[str, Any]:
    """Top-level keys and values of a JSON object file; traces are described, not parsed."""
    if ref.endswith("agent_trace.json"):
        heads: dict[str, Any] = ctx.state["trace_heads"][ref]
        return heads
    with open(ctx.path(ref), encoding="utf-8") as fh:
        obj: dict[str, Any] = json.load(fh)
    return obj


def output_path(ref: str) -> str:
    """Where a transferred run writes the deliverable (format 3.3)."""
    if "/artifacts/" in ref:
        return "artifacts/" + ref.split("/artifacts/", 1)[1]
    if "/output/" in ref:
        return "output/" + ref.split("/output/", 1)[1]
    return "output/" + ref.rsplit("/", 1)[-1]


def _one(ctx: Ctx, ref: str) -> dict[str, Any]:
    name = ref.rsplit("/", 1)[-1]
    fmt = name.rsplit(".", 1)[-1]
    out: dict[str, Any] = {"artifact_ref": ref, "filename": name, "format": fmt}
    if fmt == "csv":
        text = ctx.state.get("contract_view", {}).get(ref)
        if text is None:
            text = ctx.path(ref).read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(text)))
        header, data = rows[0], rows[1:6]
        out["columns"] = header
        out["example_row_shape"] = len(header)
        out["non_empty_columns"] = [
            c for i, c in enumerate(header) if any(i < len(r) and r[i] for r in data)
        ]
        out["numeric_columns"] = [c for i, c in enumerate(header) if _numeric_column(i, data)][:16]
        if data:
            out["min_rows"] = 1
    elif fmt == "json":
        obj = _json_top_keys(ctx, ref)
        out["top_level_keys"] = list(obj)[:16]
        typed = {k: _type(v) for k, v in obj.items() if v not in (None, "", [], {})}
        out["expected_types"] = typed
        out["non_empty_fields"] = list(typed)[:16]
    return out


def contracts(ctx: Ctx, ev: Evidence) -> list[dict[str, Any]]:
    """Full contracts of the (at most 12) non-input source artifacts that exist."""
    refs = [
        r
        for r in ev.artifact_refs
        if not (r.startswith("input/") or "/input/" in r) and os.path.exists(ctx.path(r))
    ]
    return [_one(ctx, r) for r in refs[:12]]


def contract_line(c: dict[str, Any]) -> str:
    """The one-line description used in the runbook, minimal context and verification steps."""
    name = c["filename"]
    if "columns" in c:
        return f"`{name}`: CSV columns {', '.join(c['columns'])}."
    if "top_level_keys" in c:
        return f"`{name}`: JSON keys {', '.join(c['top_level_keys'])}."
    return f"`{name}`: {c['format']} file."
