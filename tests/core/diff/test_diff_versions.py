"""Packages of different format versions: compared at the level both share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aa_review.core.diff import diff
from aa_review.core.package import Package, open_package
from aa_review.generator import generate_package


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Package, Package]:
    out = tmp_path_factory.mktemp("versions")
    old = generate_package(out / "old", rows=40, seed=4, package_id="pkg_v", version="v0.1")
    new = generate_package(out / "new", rows=40, seed=4, package_id="pkg_v", version="v0.2")
    return open_package(old.root), open_package(new.root)


def test_version_change_is_named_and_rows_are_not_matched(pair: tuple[Package, Package]) -> None:
    old, new = pair
    d = diff(old, new)
    assert d.version_change == ("v0.1", "v0.2")
    assert not d.rows.compared and "v0.1" in (d.rows.reason or "")
    assert not d.rows.added and not d.rows.removed and not d.rows.changed
    assert d.identity_changes["schema_versions.row"] == (
        "aa-training-row-v0.1",
        "aa-training-row-v0.2",
    )
    assert d.changed_at("changed")


def test_shared_level_evidence_by_ref_counts_contracts(pair: tuple[Package, Package]) -> None:
    old, new = pair
    d = diff(old, new)
    # The v0.1 catalog is derived from the rows' refs: matched by ref, the same items.
    assert {e.ref for e in old.catalog} == {e.ref for e in new.catalog}
    assert not [e for e in d.evidence if e.kind in ("added", "removed")]
    assert all(e.matched_by == "ref" for e in d.evidence)
    assert d.counts["rows"] == [len(old.index), len(new.index)]
    assert set(d.counts["rows_by_data_type"]) >= {"training_example"}
    assert isinstance(d.contracts, tuple)


def test_contract_change_across_versions_is_seen(
    pair: tuple[Package, Package], tmp_path: Path
) -> None:
    import shutil

    old, new = pair
    copy = tmp_path / new.root.name
    shutil.copytree(new.root, copy)
    rel = "experience_compiler/runtime_learning_package/output_contract.json"
    doc = json.loads((copy / rel).read_text())
    doc["required_outputs"].pop()
    (copy / rel).write_text(json.dumps(doc))
    base = {(c.document, c.item, c.kind) for c in diff(old, new).contracts}
    now = {(c.document, c.item, c.kind) for c in diff(old, open_package(copy)).contracts}
    assert len(now - base) == 1 and next(iter(now - base))[2] == "removed"
