"""The row pass gives the same result in worker processes as in this process."""

from __future__ import annotations

import dataclasses

import numpy as np

from aa_review.core.audits import _rowscan
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._registry import resolve_selection
from aa_review.core.package import open_package
from aa_review.core.util import procpool


def _same(a: _rowscan.RowScan, b: _rowscan.RowScan) -> bool:
    """Equal groups (each with the same rows) and equal gathered hits."""
    if a.groups.keys() != b.groups.keys() or a.gathered.keys() != b.gathered.keys():
        return False
    if any(not np.array_equal(a.groups[k], b.groups[k]) for k in a.groups):
        return False
    for code, g in a.gathered.items():
        h = b.gathered[code]
        mine = [g.wheres[c] for c in g.codes.tolist()]
        theirs = [h.wheres[c] for c in h.codes.tolist()]
        if not np.array_equal(g.positions, h.positions) or mine != theirs:
            return False
    return True


def test_process_pool_equals_in_process(make_package, monkeypatch) -> None:
    g = make_package(
        rows=200, seed=9, defects=("private_path", "row_hash_mismatch", "hidden_cited")
    )
    pkg = open_package(g.root)
    _, enabled = resolve_selection(None)
    cfg = AuditContext(pkg, enabled=enabled).scan_config()
    one = _rowscan.scan_rows(pkg, cfg, workers=1)
    monkeypatch.setattr(_rowscan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(_rowscan, "JOB_BYTES", 64 * 1024)  # many jobs, several per file
    many = _rowscan.scan_rows(pkg, cfg, workers=2)
    assert _same(one, many) and one.groups
    assert one.hidden_rows == many.hidden_rows == list(range(len(pkg.index)))
    assert (one.fingerprints == many.fingerprints).all()


def test_groups_past_the_cap_are_gathered_alike_in_any_split(tmp_path, monkeypatch) -> None:
    from aa_review.generator import generate_package

    g = generate_package(
        tmp_path,
        rows=120,
        seed=4,
        defects=["row_hash_mismatch"],
        defect_rows={"row_hash_mismatch": 20},
    )
    pkg = open_package(g.root)
    _, enabled = resolve_selection(["row.hash_mismatch"])
    cfg = dataclasses.replace(AuditContext(pkg, enabled=enabled).scan_config(), cap=3)
    one = _rowscan.scan_rows(pkg, cfg, workers=1)
    monkeypatch.setattr(_rowscan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(_rowscan, "JOB_BYTES", 16 * 1024)
    many = _rowscan.scan_rows(pkg, cfg, workers=2)
    assert _same(one, many)
    kept = [rows for hit, rows in one.groups.items() if hit[0] == "row.hash_mismatch"]
    gathered = one.gathered["row.hash_mismatch"]
    assert len(kept) == 3 and len(gathered.positions) == 17
    # the first three rows (by position) keep their own message; every row is somewhere
    rows = sorted([int(r[0]) for r in kept] + gathered.positions.tolist())
    want = sorted(pkg.index.find_row(r["row_id"]) for r in g.defects[0].rows)
    assert rows == want and max(int(r[0]) for r in kept) < gathered.positions.min()


def test_without_worker_processes_rows_are_checked_here(make_package, monkeypatch, caplog) -> None:
    g = make_package(rows=200, seed=9, defects=("private_path", "hidden_cited"))
    pkg = open_package(g.root)
    _, enabled = resolve_selection(None)
    cfg = AuditContext(pkg, enabled=enabled).scan_config()
    one = _rowscan.scan_rows(pkg, cfg, workers=1)

    def no_workers(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("An attempt has been made to start a new process before ...")

    monkeypatch.setattr(_rowscan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(_rowscan, "JOB_BYTES", 64 * 1024)
    monkeypatch.setattr(procpool, "spawn_pool", no_workers)
    seen: list[int] = []
    fallback = _rowscan.scan_rows(pkg, cfg, workers=2, progress=lambda d, t: seen.append(d))
    assert _same(fallback, one)
    assert (fallback.fingerprints == one.fingerprints).all()
    assert seen[-1] == int(pkg.index.length.sum())
    assert "checking here" in caplog.text


def test_without_worker_processes_files_are_hashed_in_threads(
    tmp_path, monkeypatch, caplog
) -> None:
    from aa_review.core.audits import _files
    from aa_review.core.package import package_digest

    for i in range(3):
        (tmp_path / f"f{i}.bin").write_bytes(bytes([i]) * (2 << 20))

    def no_workers(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("no /dev/shm")

    monkeypatch.setattr(_files, "PROCESS_MIN_BYTES", 1)
    monkeypatch.setattr(_files, "spawn_pool", no_workers)
    assert _files.hash_package(tmp_path, threads=2).digest == package_digest(tmp_path)
    assert "using threads" in caplog.text
