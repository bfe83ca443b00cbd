"""Contracts and checklists: outputs, columns, types and thresholds added, removed, changed."""

from __future__ import annotations

import json
from pathlib import Path

from aa_review.core.diff import ContractDoc, diff
from aa_review.core.diff._contracts import diff_contracts
from aa_review.core.package import Package, open_package
from aa_review.generator import CONTRACT_EDITS


def _flat(d) -> set[tuple[object, ...]]:  # type: ignore[no-untyped-def]
    out = set()
    for c in d.contracts:
        if not c.fields:
            out.add((c.document, c.item, c.kind, "", "", None, None))
        for f in c.fields:
            out.add((c.document, c.item, c.kind, f.path, f.kind, _h(f.old), _h(f.new)))
    return out


def _h(v: object) -> object:
    return json.dumps(v) if isinstance(v, (list, dict)) else v


def test_every_contract_edit_against_the_record(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=21, contract_edits=tuple(CONTRACT_EDITS))
    rec = made.changes.contract_edits
    assert len(rec) == len(CONTRACT_EDITS) - 1 or len(rec) == len(CONTRACT_EDITS)
    want = {(e.document, e.item, e.kind, e.path, e.change, _h(e.old), _h(e.new)) for e in rec}
    got = _flat(diff(base, new))
    assert got == want, got ^ want


def test_added_and_removed_outputs_are_levels(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    _, new = derive(seed=22, contract_edits=("output_removed",))
    d = diff(base, new)
    assert [c.kind for c in d.contracts] == ["removed"]
    assert d.highest() == "removed"


def test_repeated_paths_are_told_apart(base_dir: Path, base_copy: Path) -> None:
    # Same-named baseline and revised artifacts share one contract path (format 12.17).
    rel = "experience_compiler/runtime_learning_package/output_contract.json"
    doc = json.loads((base_copy / rel).read_text())
    paths = [o["path"] for o in doc["required_outputs"]]
    dup = next(p for p in paths if paths.count(p) > 1)
    second = [i for i, p in enumerate(paths) if p == dup][1]
    doc["required_outputs"][second]["min_rows"] = 99
    (base_copy / rel).write_text(json.dumps(doc, indent=2))
    (c,) = diff(open_package(base_dir), open_package(base_copy)).contracts
    assert c.item == f"{dup} (#2)" and c.kind == "changed"
    assert [(f.path, f.new) for f in c.fields] == [("min_rows", 99)]


def test_document_missing_on_one_side(base_dir: Path, base_copy: Path) -> None:
    (base_copy / "experience_compiler/runtime_learning_package/transfer_checklist.json").unlink()
    d = diff(open_package(base_dir), open_package(base_copy))
    (c,) = d.contracts
    assert (c.document, c.kind) == ("transfer_checklist", "removed")


def test_reordered_columns_are_a_change() -> None:
    a = {"required_outputs": [{"path": "x.csv", "columns": ["a", "b"]}]}
    b = {"required_outputs": [{"path": "x.csv", "columns": ["b", "a"]}]}
    (c,) = diff_contracts(
        {"output_contract": ContractDoc("ok", "1", a)},
        {"output_contract": ContractDoc("ok", "2", b)},
    )
    (f,) = c.fields
    assert (f.path, f.kind, f.old, f.new) == ("columns", "changed", ["a", "b"], ["b", "a"])


def test_large_document_compared_by_digest() -> None:
    (c,) = diff_contracts(
        {"prefinal_checklist": ContractDoc("ok", "sha256:a", None)},
        {"prefinal_checklist": ContractDoc("ok", "sha256:b", None)},
    )
    assert c.kind == "changed" and c.fields[0].old == "sha256:a"
