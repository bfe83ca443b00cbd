"""Which rows cite hidden evaluation material: the readiness dossier's G9 hook."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.audits._chk_links import hidden_positions
from aa_review.core.audits._refrules import ref_facts
from aa_review.core.audits._rowrules import ScanConfig
from aa_review.core.audits._rowscan import scan_rows
from aa_review.core.package import Package, open_package

if TYPE_CHECKING:
    from aa_review.core.audits._model import AuditReport

__all__ = ["HIDDEN_CITED", "contamination_positions", "contamination_rows", "row_names"]

HIDDEN_CITED = "link.hidden_cited"


def contamination_positions(pkg: Package, report: AuditReport | None = None) -> np.ndarray | None:
    """Index positions of the rows citing hidden evidence, sorted: the one definition the
    G9 hook, the audit's ``link.hidden_cited`` finding and the window's G9 offer share.

    A row counts when it cites a catalogued item that is hidden (by the catalog's
    visibility or by its ref), or lists a hidden ref in any of its ref lists. With a
    complete, unnarrowed ``report`` of this package that ran the links check, the answer
    is read from its ``link.hidden_cited`` locations (the audit's row pass applied the
    same rule); with a report that cannot tell, None; without a report, the rows are
    scanned here.
    """
    if report is not None:
        if (
            not report.complete
            or report.query is not None
            or "links" not in report.checks
            or report.identity.package_id != pkg.package_id
        ):
            return None
        rows: set[int] = set()
        for f in report.findings:
            if f.code == HIDDEN_CITED:
                rows.update(int(i) for i in f.locations.row_positions().tolist())
        return np.array(sorted(rows), dtype=np.int64)
    return np.array(sorted(_scan(pkg)), dtype=np.int64)


def row_names(pkg: Package, positions: np.ndarray) -> tuple[str, ...]:
    """Row ids of ``positions`` (``file:line`` for a row without one), sorted."""
    ix = pkg.index
    names = {
        ix.row_id_str(int(i)) or f"{ix.files[int(ix.file[i])]}:{int(ix.line[i])}" for i in positions
    }
    return tuple(sorted(names))


def contamination_rows(path: Path | str | Package) -> list[str]:
    """Ids of the rows citing hidden evidence, sorted (empty when the package is clean).

    A row counts when it cites a catalogued item that is hidden (by the catalog's
    visibility or by its ref), or lists a hidden ref in any of its ref lists. A row
    without an id is named ``file:line``.

    Raises
    ------
    PackageError
        When ``path`` is not a package (the gate then cannot pass).
    """
    pkg = path if isinstance(path, Package) else open_package(Path(path))
    positions = contamination_positions(pkg)
    assert positions is not None  # no report: always scanned
    return list(row_names(pkg, positions))


def _scan(pkg: Package) -> set[int]:
    ix = pkg.index
    rows: set[int] = set()
    for pos in hidden_positions(pkg):
        if pos < ix.catalog_size:
            rows.update(ix.rows_citing(pos).to_array().tolist())
    if len(ix):
        facts = {e.ref: ref_facts(pkg.safe, e.ref) for e in pkg.catalog}
        cfg = ScanConfig(
            root=str(pkg.root),
            task_id=pkg.task_id,
            row_schema=None,
            ref_facts=facts,
            rules=frozenset({HIDDEN_CITED}),
            cap=0,
        )
        rows.update(scan_rows(pkg, cfg).hidden_rows)
    return rows
