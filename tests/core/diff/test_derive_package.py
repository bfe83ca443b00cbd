"""The generator's derive_package: a changed copy whose record the diff tests rely on."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from aa_review.core.diff import diff
from aa_review.core.package import open_package
from aa_review.generator import ChangeSpec, derive_package, generate_package
from aa_review.generator._derive_spec import parse_change


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_no_change_is_a_byte_identical_copy(base_dir: Path, tmp_path: Path) -> None:
    made = derive_package(base_dir, tmp_path, ChangeSpec())
    assert made.root.name == base_dir.name and made.rewritten == []
    assert _tree(made.root) == _tree(base_dir)


def test_hard_links_never_write_through(base_dir: Path, tmp_path: Path) -> None:
    src = generate_package(tmp_path / "src", rows=40, seed=2).root
    before = _tree(src)
    made = derive_package(
        src,
        tmp_path / "out",
        ChangeSpec(
            rows_changed=2, rows_added=1, evidence_rehashed=1, contract_edits=("column_added",)
        ),
        link_unchanged=True,
    )
    assert _tree(src) == before
    rel = "experience_compiler/compiler_report.json"
    assert rel not in made.rewritten
    assert os.stat(src / rel).st_ino == os.stat(made.root / rel).st_ino
    for rel in made.rewritten:
        assert os.stat(made.root / rel).st_ino != os.stat(src / rel).st_ino


def test_consistent_changes_audit_like_the_source(base_dir: Path, tmp_path: Path) -> None:
    # Rows edited and re-hashed, an evidence file changed and its citing rows updated,
    # rows moved in order: the derived package keeps every copy, link and hash in step.
    made = derive_package(
        base_dir,
        tmp_path,
        ChangeSpec(
            rows_changed=3, rows_moved=1, rows_reformatted=1, evidence_rehashed=1, propagate=True
        ),
        seed=9,
    )
    d = diff(open_package(base_dir), open_package(made.root), audit=True)
    assert d.findings is not None and d.findings.new == () and d.findings.fixed == ()
    assert d.rows.changed


def test_spec_is_checked() -> None:
    with pytest.raises(ValueError):
        ChangeSpec(rows_added=-1)
    with pytest.raises(ValueError):
        ChangeSpec(contract_edits=("nonsense",))
    assert parse_change("rows-changed=3") == ("rows_changed", 3)
    assert parse_change("propagate=yes") == ("propagate", True)
    assert parse_change("changed_fields=a.b,c") == ("changed_fields", ("a.b", "c"))
    for bad in ("rows_changed", "nope=1", "rows_changed=x", "rehash=maybe"):
        with pytest.raises(ValueError):
            parse_change(bad)


def test_row_id_cannot_be_a_changed_field(base_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        derive_package(base_dir, tmp_path, ChangeSpec(rows_changed=1, changed_fields=("row_id",)))


def test_evidence_changes_need_a_catalog(tmp_path: Path) -> None:
    v01 = generate_package(tmp_path / "v01", rows=40, version="v0.1").root
    with pytest.raises(ValueError):
        derive_package(v01, tmp_path / "out", ChangeSpec(evidence_hidden=1))
    made = derive_package(v01, tmp_path / "out", ChangeSpec(rows_changed=1))
    assert len(diff(open_package(v01), open_package(made.root)).rows.changed) == 1


def test_same_seed_same_changes(base_dir: Path, tmp_path: Path) -> None:
    spec = ChangeSpec(rows_changed=2, rows_added=2, evidence_hidden=1)
    a = derive_package(base_dir, tmp_path / "a", spec, seed=5)
    b = derive_package(base_dir, tmp_path / "b", spec, seed=5)
    assert a.changes == b.changes and _tree(a.root) == _tree(b.root)


def test_source_folder_is_refused(base_dir: Path) -> None:
    before = _tree(base_dir)
    for out in (base_dir.parent, base_dir / "inside"):
        with pytest.raises(ValueError):
            derive_package(base_dir, out, ChangeSpec())
    assert _tree(base_dir) == before
