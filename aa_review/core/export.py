"""Exporting a filtered view (CSV or JSON Lines) with the filter and package digest recorded."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from aa_review import __version__
from aa_review.core.atomic import atomic_write

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["export_rows", "EXPORT_COLUMNS", "atomic_write"]

EXPORT_COLUMNS = ("row_id", "data_type", "file", "line", "source_task_id", "evidence_count",
                  "confidence", "quality_score")


def _record(pkg: Package, pos: int) -> dict[str, Any]:
    ix = pkg.index

    def num(x: float) -> float | None:
        return None if math.isnan(x) else float(x)

    return {
        "row_id": ix.row_id_str(pos),
        "data_type": ix.data_types[int(ix.data_type[pos])],
        "file": ix.files[int(ix.file[pos])],
        "line": int(ix.line[pos]),
        "source_task_id": ix.tasks[int(ix.task[pos])],
        "evidence_count": int(ix.n_evidence[pos]),
        "confidence": num(float(ix.confidence[pos])),
        "quality_score": num(float(ix.quality[pos])),
    }


def export_rows(pkg: Package, positions: Sequence[int] | Iterable[int], path: Path, *,
                query: str, digest: str, fmt: str | None = None,
                full_rows: bool = False) -> int:
    """Write the rows at ``positions`` to ``path``; returns the number written.

    CSV starts with ``#`` comment lines naming the package, its digest, the
    query and the time; JSON Lines starts with one ``{"aa_review_export": ...}``
    header object. ``full_rows`` (JSON Lines only) writes each complete row as
    read from disk instead of the index columns.
    """
    fmt = (fmt or Path(path).suffix.lstrip(".")).lower()
    if fmt not in ("csv", "jsonl"):
        raise ValueError(f"unknown export format '{fmt}': use .csv or .jsonl")
    meta = {"tool": f"aa-review {__version__}", "package_id": pkg.package_id,
            "package_root": pkg.root.name, "package_digest": digest, "query": query,
            "exported_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    count = 0

    def write_csv(fh: Any) -> None:
        nonlocal count
        for k, v in meta.items():
            fh.write(f"# {k}: {v}\n")
        w = csv.DictWriter(fh, fieldnames=EXPORT_COLUMNS)
        w.writeheader()
        for pos in positions:
            w.writerow(_record(pkg, int(pos)))
            count += 1

    def write_jsonl(fh: Any) -> None:
        nonlocal count
        fh.write(orjson.dumps({"aa_review_export": meta}) + b"\n")
        for pos in positions:
            rec = pkg.read_row(int(pos)) if full_rows else _record(pkg, int(pos))
            fh.write(orjson.dumps(rec) + b"\n")
            count += 1

    if fmt == "csv":
        atomic_write(Path(path), write_csv, "w")
    else:
        atomic_write(Path(path), write_jsonl, "wb")
    return count
