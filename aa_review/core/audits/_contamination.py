"""Which rows cite hidden evaluation material: the readiness dossier's G9 hook."""

from __future__ import annotations

from pathlib import Path

from aa_review.core.audits._chk_links import hidden_positions
from aa_review.core.audits._refrules import ref_facts
from aa_review.core.audits._rowrules import ScanConfig
from aa_review.core.audits._rowscan import scan_rows
from aa_review.core.package import Package, open_package

__all__ = ["contamination_rows"]


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
            rules=frozenset({"link.hidden_cited"}),
            cap=0,
        )
        rows.update(scan_rows(pkg, cfg).hidden_rows)
    names = set()
    for i in rows:
        rid = ix.row_id_str(i)
        names.add(rid or f"{ix.files[int(ix.file[i])]}:{int(ix.line[i])}")
    return sorted(names)
