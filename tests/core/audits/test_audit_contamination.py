"""contamination_rows: the rows citing hidden evidence (the dossier's G9 hook)."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from aa_review.core.audits import contamination_rows
from aa_review.core.package import open_package
from aa_review.core.util.errors import PackageError


@pytest.mark.parametrize("version", ["v0.2", "v0.1"])
def test_clean_package_has_none(make_package, version: str) -> None:
    assert contamination_rows(make_package(version=version).root) == []


@pytest.mark.parametrize("version", ["v0.2", "v0.1"])
def test_every_citing_row_is_named(make_package, version: str) -> None:
    g = make_package(version=version, defects=("hidden_cited",))
    pkg = open_package(g.root)
    rows = contamination_rows(g.root)
    assert rows == sorted(pkg.index.row_id_str(i) for i in range(len(pkg.index)))


def test_a_hidden_ref_in_one_row_only(make_package, tmp_path: Path) -> None:
    g = make_package(seed=5)
    root = tmp_path / g.root.name
    shutil.copytree(g.root, root)
    rel = "experience_compiler/training_time_package/failure_cases.jsonl"
    lines = (root / rel).read_bytes().splitlines()
    row = orjson.loads(lines[0])
    row["source_artifact_refs"] = [*row["source_artifact_refs"], "hidden_reference/answers.csv"]
    lines[0] = orjson.dumps(row)
    (root / rel).write_bytes(b"\n".join(lines) + b"\n")
    assert contamination_rows(root) == [row["row_id"]]


def test_not_a_package_raises(tmp_path: Path) -> None:
    with pytest.raises(PackageError):
        contamination_rows(tmp_path)
