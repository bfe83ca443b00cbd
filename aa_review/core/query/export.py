"""Exporting rows, evidence items or findings as CSV, JSON Lines or one JSON document.

CSV files hold a header line and data only; what was exported (query, package
digest, counts, columns, time) goes to a sidecar ``<file>.meta.json``, as it does
for JSON Lines. A JSON export is one document ``{"meta": {...}, "<kind>": [...]}``.

Numbers are the stored values, exactly: a float is written in the shortest form
that reads back as the same value (``0.93`` stays ``0.93``; a row that stores
``0.9299999999999999`` exports that, as it is what the package holds).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import orjson

from aa_review import __version__
from aa_review.core.util.atomic import atomic_write

if TYPE_CHECKING:
    from aa_review.core.findings import Finding
    from aa_review.core.package import Package

__all__ = [
    "FORMATS",
    "ROW_COLUMNS",
    "EXPORT_COLUMNS",
    "EVIDENCE_FIELDS",
    "ALL",
    "Export",
    "rows_export",
    "evidence_export",
    "findings_export",
    "write_export",
    "export_to_file",
    "export_rows",
    "export_evidence",
    "export_findings",
    "csv_cell",
    "meta_path",
    "atomic_write",
]

FORMATS = ("csv", "jsonl", "json")
ALL = "all"  # the columns keyword: every field of every record
# Columns the row index holds (no disk read); the CSV default for rows.
ROW_COLUMNS = (
    "row_id",
    "data_type",
    "file",
    "line",
    "source_task_id",
    "evidence_count",
    "confidence",
    "quality_score",
)
EXPORT_COLUMNS = ROW_COLUMNS
FINDING_COLUMNS = (
    "finding_index",
    "code",
    "check",
    "severity",
    "quirk",
    "message",
    "file",
    "line",
    "row_id",
    "evidence_id",
    "ref",
    "key_path",
    "contract",
)
# The catalog fields every evidence item has (the evidence table shows them too).
EVIDENCE_FIELDS = (
    "evidence_id",
    "ref",
    "evidence_type",
    "visibility",
    "resolves",
    "content_hash",
    "confidence",
)


@dataclass
class Export:
    """What to write: ``kind`` (rows, evidence, findings), records, and their columns.

    ``records(columns)`` yields one dict per exported item (per location, for findings
    in CSV); ``columns`` is None for every field. ``csv_columns`` are the CSV header
    when none are asked for; ``all_columns()`` collects every field (a pass over data).
    """

    kind: str
    count: int
    total: int
    records: Any  # Callable[[Sequence[str] | None, str], Iterator[dict[str, Any]]]
    csv_columns: Sequence[str]
    all_columns: Any  # Callable[[], list[str]]
    package_id: str | None = None


def csv_cell(value: Any) -> str:
    """One CSV cell: exact shortest numbers, JSON for lists and objects, empty for none."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return "" if math.isnan(v) else repr(v)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, str):
        return value
    return orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY).decode("utf-8")


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


# -- rows ----------------------------------------------------------------------------
def _row_index_record(pkg: Package, pos: int) -> dict[str, Any]:
    ix = pkg.index
    return {
        "row_id": ix.row_id_str(pos),
        "data_type": ix.data_types[int(ix.data_type[pos])],
        "file": ix.files[int(ix.file[pos])],
        "line": int(ix.line[pos]),
        "source_task_id": ix.tasks[int(ix.task[pos])],
        "evidence_count": int(ix.n_evidence[pos]),
        "confidence": _num(float(ix.confidence[pos])),
        "quality_score": _num(float(ix.quality[pos])),
    }


def rows_export(pkg: Package, positions: Iterable[int]) -> Export:
    """Rows at ``positions``: index columns without reading, any other field from disk.

    With no columns asked for, each record is the row as stored (every field).
    """
    pos = np.fromiter((int(p) for p in positions), dtype=np.int64)

    def records(columns: Sequence[str] | None, _fmt: str) -> Iterator[dict[str, Any]]:
        from_disk = columns is None or any(c not in ROW_COLUMNS for c in columns)
        for p in pos.tolist():
            row = pkg.read_row(p) if from_disk else {}
            if columns is None:
                yield row
                continue
            indexed = _row_index_record(pkg, p)
            yield {c: indexed[c] if c in indexed and c not in row else row.get(c) for c in columns}

    def all_columns() -> list[str]:
        seen: dict[str, None] = {}
        for p in pos.tolist():
            seen.update(dict.fromkeys(pkg.read_row(p)))
        return list(seen)

    return Export(
        "rows", len(pos), len(pkg.index), records, ROW_COLUMNS, all_columns, pkg.package_id
    )


# -- evidence ------------------------------------------------------------------------
def evidence_export(pkg: Package, positions: Iterable[int]) -> Export:
    """Evidence positions (``index.evidence_ids``).

    Columns: the catalog's fields, ``catalogued``, ``cited_by_rows``.
    """
    ix = pkg.index
    pos = np.fromiter((int(p) for p in positions), dtype=np.int64)
    cited = pkg.index.cited_counts()
    extras: dict[str, None] = {}
    for e in pkg.catalog:
        extras.update(dict.fromkeys(e.extras()))
    columns_all = [*EVIDENCE_FIELDS, *extras, "catalogued", "cited_by_rows"]

    def record(p: int) -> dict[str, Any]:
        e = pkg.evidence_at(p)
        rec: dict[str, Any] = (
            e.model_dump(mode="json") if e is not None else {"evidence_id": ix.evidence_ids[p]}
        )
        rec["catalogued"] = e is not None
        rec["cited_by_rows"] = int(cited[p])
        return rec

    def records(columns: Sequence[str] | None, _fmt: str) -> Iterator[dict[str, Any]]:
        for p in pos.tolist():
            rec = record(p)
            yield rec if columns is None else {c: rec.get(c) for c in columns}

    return Export(
        "evidence",
        len(pos),
        len(ix.evidence_ids),
        records,
        columns_all,
        lambda: columns_all,
        pkg.package_id,
    )


# -- findings ------------------------------------------------------------------------
def findings_export(
    findings: Sequence[Finding],
    positions: Iterable[int] | None = None,
    package_id: str | None = None,
) -> Export:
    """Findings at ``positions`` (None: all), worst first (severity, then locations; ties
    in audit order): in CSV one line per location (``finding_index``, the finding's
    place in the audit's list, ties the lines of one finding together); in JSON each
    finding whole."""
    from aa_review.core.findings import worst_first
    from aa_review.core.query import check_of, locations_of

    pos = worst_first(findings, positions)

    def records(columns: Sequence[str] | None, fmt: str) -> Iterator[dict[str, Any]]:
        for p in pos:
            f = findings[p]
            if fmt != "csv":
                rec = {"finding_index": p, "check": check_of(f.code), **f.model_dump(mode="json")}
                yield rec if columns is None else {c: rec.get(c) for c in columns}
                continue
            for loc in locations_of(f):
                rec = {
                    "finding_index": p,
                    "code": f.code,
                    "check": check_of(f.code),
                    "severity": f.severity.value,
                    "quirk": f.quirk,
                    "message": f.message,
                    **loc.model_dump(mode="json"),
                }
                yield {c: rec.get(c) for c in (columns or FINDING_COLUMNS)}

    return Export(
        "findings",
        len(pos),
        len(findings),
        records,
        FINDING_COLUMNS,
        lambda: list(FINDING_COLUMNS),
        package_id,
    )


# -- writing -------------------------------------------------------------------------
def _columns(export: Export, fmt: str, columns: Sequence[str] | None) -> list[str] | None:
    if columns is not None and list(columns) == [ALL]:
        return export.all_columns() if fmt == "csv" else None
    if columns is None and fmt == "csv":
        return list(export.csv_columns)
    return None if columns is None else list(columns)


def meta_of(
    export: Export,
    fmt: str,
    columns: list[str] | None,
    *,
    query: str,
    digest: str | None,
    file: str | None = None,
    replay: str | None = None,
) -> dict[str, Any]:
    """The sidecar: ``query`` as the exporter saw it, and ``replay_query``, a query
    ``aa-review rows --query`` answers with exactly these items (the same text when the
    query alone decided them)."""
    return {
        "tool": f"aa-review {__version__}",
        "kind": export.kind,
        "format": fmt,
        "file": file,
        "query": query,
        "replay_query": query if replay is None else replay,
        "package_id": export.package_id,
        "package_digest": digest,
        "count": export.count,
        "total": export.total,
        "columns": columns if columns is not None else ALL,
        "numbers": "stored values, exactly (shortest form that reads back the same)",
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def write_export(
    out: IO[bytes],
    export: Export,
    fmt: str,
    columns: Sequence[str] | None = None,
    meta: dict[str, Any] | None = None,
) -> int:
    """Write ``export`` to a binary stream; returns the number of items written.

    ``meta`` goes into a JSON document (``{"meta": ..., kind: [...]}``) and is
    ignored for CSV and JSON Lines (their meta is a sidecar file).
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format '{fmt}': use csv, jsonl or json")
    cols = _columns(export, fmt, columns)
    records = export.records(cols, fmt)
    if fmt == "csv":
        assert cols is not None
        text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
        w = csv.writer(text)
        w.writerow(cols)
        for rec in records:
            w.writerow([csv_cell(rec.get(c)) for c in cols])
        text.flush()
        text.detach()
    elif fmt == "jsonl":
        for rec in records:
            out.write(orjson.dumps(rec, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n")
    else:
        head = orjson.dumps(meta or {}, option=orjson.OPT_SERIALIZE_NUMPY)
        out.write(b'{"meta":' + head + b',"' + export.kind.encode() + b'":[')
        for i, rec in enumerate(records):
            out.write(
                (b",\n" if i else b"\n") + orjson.dumps(rec, option=orjson.OPT_SERIALIZE_NUMPY)
            )
        out.write(b"\n]}\n")
    return export.count


def meta_path(path: Path) -> Path:
    """The sidecar of an exported file: ``<file>.meta.json``."""
    return path.with_name(path.name + ".meta.json")


def export_to_file(
    export: Export,
    path: Path,
    *,
    query: str,
    digest: str | None,
    fmt: str | None = None,
    columns: Sequence[str] | None = None,
    replay: str | None = None,
) -> int:
    """Write ``export`` to ``path`` atomically (format from ``fmt`` or the suffix), and
    for CSV and JSON Lines its sidecar ``<path>.meta.json``; returns the items written."""
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format '{fmt}': use .csv, .jsonl or .json")
    cols = _columns(export, fmt, columns)
    meta = meta_of(export, fmt, cols, query=query, digest=digest, file=path.name, replay=replay)
    n = 0

    def write(fh: IO[bytes]) -> None:
        nonlocal n
        n = write_export(fh, export, fmt, cols if cols is not None else None, meta)

    atomic_write(path, write, "wb")
    if fmt != "json":
        atomic_write(
            meta_path(path),
            lambda fh: fh.write(
                orjson.dumps(meta, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
            ),
            "wb",
        )
    return n


def export_rows(
    pkg: Package,
    positions: Iterable[int],
    path: Path,
    *,
    query: str,
    digest: str | None,
    fmt: str | None = None,
    columns: Sequence[str] | None = None,
    replay: str | None = None,
) -> int:
    """Write the rows at ``positions`` to ``path``; returns the number written.

    CSV: the index columns by default (``columns`` picks any row fields, ``["all"]``
    every field); JSON Lines and JSON: every field of each row as stored. ``replay``:
    a rows query that selects exactly these rows (see :func:`rows_replay_query`).
    """
    return export_to_file(
        rows_export(pkg, positions),
        path,
        query=query,
        digest=digest,
        fmt=fmt,
        columns=columns,
        replay=replay,
    )


def rows_replay_query(pkg: Package, positions: Iterable[int]) -> str:
    """A rows query the command line answers with exactly the rows at ``positions``:
    each row by its id (``id="…"``), a row without one by its file and line."""
    ix = pkg.index
    terms = []
    for pos in positions:
        rid = ix.row_id_str(int(pos))
        if rid:
            terms.append(f'id="{rid}"')
        else:
            terms.append(f'(file="{ix.files[int(ix.file[pos])]}" line={int(ix.line[pos])})')
    return " OR ".join(terms) if terms else '-id:""'


def export_evidence(
    pkg: Package,
    positions: Iterable[int],
    path: Path,
    *,
    query: str,
    digest: str | None,
    fmt: str | None = None,
    columns: Sequence[str] | None = None,
) -> int:
    return export_to_file(
        evidence_export(pkg, positions), path, query=query, digest=digest, fmt=fmt, columns=columns
    )


def export_findings(
    findings: Sequence[Finding],
    positions: Iterable[int] | None,
    path: Path,
    *,
    query: str,
    digest: str | None,
    package_id: str | None = None,
    fmt: str | None = None,
    columns: Sequence[str] | None = None,
) -> int:
    return export_to_file(
        findings_export(findings, positions, package_id),
        path,
        query=query,
        digest=digest,
        fmt=fmt,
        columns=columns,
    )
