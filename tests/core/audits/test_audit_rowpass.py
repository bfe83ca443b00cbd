"""The row pass gives the same result in worker processes as in this process."""

from __future__ import annotations

from aa_review.core import procpool
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


def test_without_worker_processes_rows_are_checked_here(make_package, monkeypatch,
                                                        caplog) -> None:
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
    assert fallback.hits == one.hits and fallback.counts == one.counts
    assert (fallback.fingerprints == one.fingerprints).all()
    assert seen[-1] == int(pkg.index.length.sum())
    assert "checking here" in caplog.text


def test_without_worker_processes_files_are_hashed_in_threads(tmp_path, monkeypatch,
                                                              caplog) -> None:
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
