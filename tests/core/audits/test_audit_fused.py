"""Opening and auditing in one pass over the rows finds exactly what two passes find.

``aa-review audit PATH`` checks each row on the parse the loader makes to open the
package; the window audits a package it opened already, in a row pass of its own.
Generated packages (varied or not, with defects) must give identical findings both ways.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aa_review.core.audits import audit_package
from aa_review.core.package import open_package
from aa_review.generator import Variation, generate_package

_DEFECTS = [
    "hidden_cited",
    "secret_token",
    "row_hash_mismatch",
    "row_id_mismatch",
    "private_path",
    "missing_domain",
    "orphan_evidence_id",
    "malformed_line",
    "link_mismatch",
    "ref_absolute",
]


def _findings(report):  # type: ignore[no-untyped-def]
    return [(f.code, f.severity, f.message, f.locations.to_json()) for f in report.findings]


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    varied=st.booleans(),
    defects=st.lists(st.sampled_from(_DEFECTS), max_size=3, unique=True),
)
def test_one_pass_and_two_passes_agree(
    tmp_path: Path, seed: int, varied: bool, defects: list[str]
) -> None:
    var = Variation(items=80, hidden=3, hidden_every=4, low_score_every=9) if varied else None
    root = generate_package(
        tmp_path / f"s{seed}", rows=90, seed=seed, defects=defects, variation=var
    ).root
    fused = audit_package(root, digest=False)  # rows checked while the package opens
    apart = audit_package(open_package(root), digest=False)  # a row pass of its own
    assert _findings(fused) == _findings(apart)
    assert fused.counts == apart.counts


def test_a_large_package_agrees_across_worker_processes(tmp_path: Path, monkeypatch) -> None:
    """Chunks scanned in worker processes: positions are the package's, caps hold."""
    from aa_review.core.audits import _rowscan
    from aa_review.core.package import loader

    monkeypatch.setattr(loader, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(loader, "CHUNK", 64 * 1024)
    monkeypatch.setattr(_rowscan, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(_rowscan, "JOB_BYTES", 64 * 1024)
    root = generate_package(
        tmp_path,
        rows=400,
        seed=5,
        defects=["hidden_cited"],
        defect_rows={"hidden_cited": 150},
        variation=Variation(items=120, hidden=2, hidden_every=3, low_score_every=2),
    ).root
    fused = audit_package(root, digest=False, cap=4, workers=2)
    apart = audit_package(open_package(root, workers=2), digest=False, cap=4, workers=2)
    assert _findings(fused) == _findings(apart)
    assert any(f.gathered for f in fused.findings)  # past the cap: gathered, every row kept


def test_the_map_read_in_a_worker_process_gives_the_same_findings(
    tmp_path: Path, monkeypatch
) -> None:
    from aa_review.core.audits import _engine

    root = generate_package(
        tmp_path, rows=120, seed=9, defects=["link_mismatch", "orphan_evidence_id"]
    ).root
    here = audit_package(root, digest=False)
    monkeypatch.setattr(_engine, "_MAP_IN_PROCESS_BYTES", 0)
    apart = audit_package(root, digest=False)
    assert _findings(apart) == _findings(here)
    assert {"link.mismatch", "link.orphan"} <= {f.code for f in apart.findings}


def test_checks_that_read_no_row_leave_the_rows_on_disk(tmp_path: Path) -> None:
    """audit --check on the catalog hash codes reads the catalog and the files, not the
    rows: a broken row line is not even seen, and its findings are the whole audit's."""
    codes = ["hash.changed", "hash.missing", "hash.not_recorded"]
    root = generate_package(
        tmp_path, rows=80, seed=2, defects=["hash_changed", "malformed_line"]
    ).root
    narrow = audit_package(root, checks=codes)
    whole = audit_package(root)
    assert not narrow.counts.rows_read and narrow.counts.rows == 0
    assert whole.counts.rows_read and whole.counts.rows > 0
    assert narrow.identity.package_digest is None and whole.identity.package_digest
    assert _findings(narrow) == [f for f in _findings(whole) if f[0] in codes]
    assert {f.code for f in narrow.findings} == {"hash.changed"}
    assert "input.malformed_line" in {f.code for f in whole.findings}
    # a code read from the rows brings them back
    rowwise = audit_package(root, checks=["hash.row_disagrees"])
    assert rowwise.counts.rows_read and rowwise.counts.rows == whole.counts.rows
