"""Reading a contracted artifact's shape: CSV header and first rows, JSON top level."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from aa_review.core.contracts import json_type  # one vocabulary for window and audit

__all__ = ["ArtifactShape", "read_shape", "json_type", "is_number", "MAX_READ"]

MAX_READ = 64 * 1024 * 1024
_SAMPLE_ROWS = 5


@dataclass
class ArtifactShape:
    """What a file looks like to a contract; ``error`` when it cannot be read or parsed."""

    kind: str
    header: list[str] | None = None
    sample: list[list[str]] = field(default_factory=list)
    data_rows: int = 0
    value: Any = None
    error: str | None = None


def read_shape(path: Path, kind: str) -> ArtifactShape:
    """Parse ``path`` as ``kind`` (csv, tsv or json); other kinds only need to exist."""
    shape = ArtifactShape(kind)
    if kind not in ("csv", "tsv", "json"):
        return shape
    size = path.stat().st_size
    if size > MAX_READ:
        shape.error = f"{size:,} bytes: too large to check"
        return shape
    data = path.read_bytes()
    if kind == "json":
        try:
            shape.value = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            shape.error = f"not valid JSON ({exc.msg})"
        return shape
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        shape.error = "not valid UTF-8"
        return shape
    rows = csv.reader(io.StringIO(text), delimiter="\t" if kind == "tsv" else ",")
    for i, row in enumerate(rows):
        if i == 0:
            shape.header = row
        elif any(cell.strip() for cell in row):
            shape.data_rows += 1
            if len(shape.sample) < _SAMPLE_ROWS:
                shape.sample.append(row)
    if shape.header is None:
        shape.error = "empty file: no header"
    return shape


def is_number(cell: str) -> bool:
    try:
        float(cell.replace(",", ""))
    except ValueError:
        return False
    return True
