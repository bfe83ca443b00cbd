"""artifacts_index.json (format 3.4): one entry per package file, hashed once all is written."""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ._ctx import Ctx
from ._jsonfast import dumps_line
from ._trace_stats import TraceStats

__all__ = ["write_artifacts_index", "INDEX"]

INDEX = "artifacts_index.json"
_SKIP = {
    ".git",
    "node_modules",
    ".venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    "dist",
    "build",
}
_MIME = {
    "json": "application/json",
    "csv": "text/csv",
    "pdf": "application/pdf",
    "txt": "text/plain",
}
_MEDIA = {
    "json": "data",
    "jsonl": "data",
    "csv": "data",
    "md": "text",
    "txt": "text",
    "pdf": "document",
}


def _kind(rel: str) -> str:
    parts = rel.split("/")
    if parts[0] == "attempts" and len(parts) > 2:
        if parts[-1] == "agent_trace.json":
            return "trace"
        if parts[2] == "artifacts":
            return "worker_output"
        if parts[-1] in ("stdout.txt", "stderr.txt"):
            return "log"
    return {"input": "input", "grading": "evaluation", "feedback": "feedback"}.get(
        parts[0], "package_file"
    )


def _sha(path: str) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            h.update(chunk)
            size += len(chunk)
    return size, h.hexdigest()


def write_artifacts_index(
    ctx: Ctx, stats: TraceStats, copy_of: dict[str, str], touched: set[str]
) -> None:
    """Scan the package and write the index (sizes and plain hex SHA-256 of the bytes).

    A copy made by :mod:`._copies` that no defect touched has its source's bytes,
    so its digest is reused instead of reading gigabytes twice.
    """
    root = str(ctx.root)
    rels: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP]
        for name in filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.islink(full) and not os.path.realpath(full).startswith(
                os.path.realpath(root) + os.sep
            ):
                continue  # never index (or read) a file through a link that leaves the package
            if rel != INDEX and os.path.isfile(full):
                rels.append(rel)
    rels.sort()
    present = set(rels)
    reuse = {
        r: copy_of[r]
        for r in rels
        if r in copy_of and copy_of[r] in present and r not in touched and copy_of[r] not in touched
    }
    own = [r for r in rels if r not in reuse]
    with ThreadPoolExecutor(max_workers=2) as pool:
        digests = dict(zip(own, pool.map(lambda r: _sha(os.path.join(root, r)), own), strict=True))
    hashed = [digests[reuse.get(r, r)] for r in rels]
    entries = []
    for rel, (size, digest) in zip(rels, hashed, strict=True):
        parts = rel.split("/")
        attempt = parts[1] if parts[0] == "attempts" and len(parts) > 2 else None
        ext = rel.rsplit(".", 1)[-1] if "." in parts[-1] else ""
        entry: dict[str, Any] = {
            "package_relative_path": rel,
            "artifact_ref": rel,
            "artifact_kind": _kind(rel),
            "linked_trace_steps": stats.linked.get(rel, []),
            "produced_by_attempt_id": f"{ctx.pkg}_{attempt}" if attempt else None,
            "produced_by_attempt_kind": attempt,
            "size_bytes": size,
            "content_hash": digest,
            "mime_type": _MIME.get(ext),
            "media_type": _MEDIA.get(ext, "binary"),
            "preview_available": True,
            "preview_truncated": False,
            "artifact_missing": False,
        }
        entries.append("  " + dumps_line(entry))
    ctx.write_text(INDEX, "[\n" + ",\n".join(entries) + "\n]\n")
