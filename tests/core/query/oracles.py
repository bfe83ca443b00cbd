"""Independent answers: rows, evidence and findings selected by plain Python over the data
as stored (rows read from disk), never through the query engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aa_review.core.package import Package

Row = dict[str, Any]


def rows_where(pkg: Package, pred: Callable[[Row, str], bool]) -> list[int]:
    """Positions of the rows (read from disk) for which ``pred(row, file)`` holds."""
    ix = pkg.index
    return [i for i in range(len(ix)) if pred(pkg.read_row(i), ix.files[int(ix.file[i])])]


def shown(value: Any) -> float | None:
    """A stored number as the table shows it (3 decimals), None when absent."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    return float(f"{value:.3f}")


def cited_ids(row: Row) -> list[str]:
    return list(row.get("source_evidence_ref_ids") or [])


def visibility_of(pkg: Package) -> dict[str, str | None]:
    return {e.evidence_id: e.visibility for e in pkg.catalog}


def rows_with_finding(pkg: Package, findings: list, pred: Callable[[Any], bool]) -> set[str]:
    """Row ids that some finding satisfying ``pred`` names, at any of its locations."""
    return {loc.row_id for f in findings if pred(f) for loc in f.locations if loc.row_id}


def row_id(row: Row) -> str:
    return str(row.get("row_id") or row.get("pair_id") or "")
