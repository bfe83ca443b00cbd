"""The row pass gives the same result in worker processes as in this process."""

from __future__ import annotations

from aa_review.core.audits import _rowscan
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import resolve_selection
from aa_review.core.package import open_package


def test_process_pool_equals_in_process(make_package, monkeypatch) -> None:
    g = make_package(rows=200, seed=9, defects=("private_path", "row_hash_mismatch",
                                                "hidden_cited"))
    pkg = open_package(g.root)
    _, enabled = resolve_selection(None)
    cfg = AuditContext(pkg, enabled=enabled).scan_config()
    one = _rowscan.scan_rows(pkg, cfg, workers=1)
    monkeypatch.setattr(_rowscan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(_rowscan, "JOB_BYTES", 64 * 1024)  # many jobs, several per file
    many = _rowscan.scan_rows(pkg, cfg, workers=2)
    assert one.hits == many.hits and one.counts == many.counts
    assert one.hidden_rows == many.hidden_rows == list(range(len(pkg.index)))
    assert (one.fingerprints == many.fingerprints).all()
    assert {k: v[2] for k, v in one.groups.items()} == {k: v[2] for k, v in many.groups.items()}
