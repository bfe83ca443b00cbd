"""Worker processes import only what their job needs: no numpy, pydantic, dossier or Qt.

Each job a spawned worker runs (the loader's chunk scan with the audit's row checks,
the row pass, file hashing, the evidence map's links, a large contracted JSON file) is
pickled here, with its real arguments, and run in a fresh interpreter that imports
what a worker does: the entry point (as ``__mp_main__``), then whatever unpickling the
job and running it pulls in.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.audits import AuditContext, resolve_selection
from aa_review.core.audits._files import Wants, _job
from aa_review.core.audits._mapscan import scan_map_at
from aa_review.core.audits._rowjob import init_worker, run_job
from aa_review.core.audits._rowscan import _jobs
from aa_review.core.contracts import contracted_files
from aa_review.core.contracts._filecheck import check_elsewhere
from aa_review.core.package import open_package
from aa_review.core.package.layout import ROW_FILES
from aa_review.core.package.rowscan import scan_range

HEAVY = ("numpy", "pydantic", "pydantic_core", "PySide6", "aa_review.qt", "aa_review.core.dossier")

_RUN = """
import json, pickle, sys
import aa_review.__main__  # a spawned worker runs the entry point first, as __mp_main__
calls = pickle.loads(sys.stdin.buffer.read())
for fn, args in calls:
    fn(*args)
print(json.dumps(sorted(sys.modules)))
"""


def modules_after(calls: list[tuple[Any, tuple[Any, ...]]]) -> set[str]:
    """The modules a fresh interpreter holds after unpickling and running ``calls``."""
    proc = subprocess.run(
        [sys.executable, "-c", _RUN],
        input=pickle.dumps(calls),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    names = set(json.loads(proc.stdout))
    assert "aa_review.__main__" in names  # the list is read, not empty
    return names


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))


@pytest.fixture(scope="module")
def sample(generated_sample: Path) -> tuple[Path, AuditContext]:
    pkg = open_package(generated_sample)
    return generated_sample, AuditContext(pkg, enabled=resolve_selection(None)[1])


def test_the_loaders_scan_with_the_row_checks(sample: tuple[Path, AuditContext]) -> None:
    root, ctx = sample
    visitor = ("aa_review.core.audits._rowjob:fused_checks", ctx.scan_config())
    files = [rel for rel, _ in ROW_FILES]
    size = (root / files[0]).stat().st_size
    names = modules_after(
        [(scan_range, (str(root), files[0], 0, 0, size, False, visitor, ("evidence_x",)))]
    )
    assert "aa_review.core.audits._rowrules" in names  # the checks ran
    assert heavy(names) == []


def test_the_row_pass(sample: tuple[Path, AuditContext]) -> None:
    _, ctx = sample
    job = _jobs(ctx.pkg)[0]
    names = modules_after([(init_worker, (ctx.scan_config(),)), (run_job, job)])
    assert heavy(names) == []


def test_file_hashing(sample: tuple[Path, AuditContext]) -> None:
    root, _ = sample
    rel = ROW_FILES[0][0]
    names = modules_after([(_job, (str(root), [rel], Wants(lines=True, needles=(b"row",))))])
    assert heavy(names) == []


def test_the_evidence_maps_links(sample: tuple[Path, AuditContext]) -> None:
    root, _ = sample
    names = modules_after([(scan_map_at, (str(root),))])
    assert "aa_review.core.package.linklines" in names
    assert heavy(names) == []


def test_a_large_contracted_json_file(sample: tuple[Path, AuditContext]) -> None:
    root, ctx = sample
    files = contracted_files(ctx.pkg)
    assert files, "the sample has contracted files"
    cf = next((f for f in files if f.format == "json"), files[0])
    names = modules_after([(check_elsewhere, (str(root), cf, 5))])
    assert "aa_review.core.contracts._compare" in names
    assert heavy(names) == []
