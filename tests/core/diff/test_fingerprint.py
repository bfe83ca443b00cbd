"""The fingerprint kept at binding: compact, never a copy of the package, and a diff
against it says what changed since (the same diff, without row contents)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from aa_review.core.diff import Fingerprint, FingerprintError, diff, fingerprint
from aa_review.core.package import Package


def test_round_trip(base: Package, tmp_path: Path) -> None:
    fp = fingerprint(base)
    fp.save(tmp_path / "fp.npz")
    back = Fingerprint.load(tmp_path / "fp.npz")
    assert np.array_equal(back.row_id, base.index.row_id)
    assert np.array_equal(back.digest, base.index.digest)
    assert back.catalog == fp.catalog and back.contracts == fp.contracts
    assert back.identity == fp.identity and back.evidence_ids == fp.evidence_ids
    assert diff(back, base).highest() is None


def test_no_row_content_inside(base: Package, tmp_path: Path) -> None:
    fingerprint(base).save(tmp_path / "fp.npz")
    with zipfile.ZipFile(tmp_path / "fp.npz") as z:
        blob = b"".join(z.read(n) for n in z.namelist())
    for pos in range(len(base.index)):
        assert base.read_row(pos)["row_content_hash"].encode() not in blob
        assert base.read_row_bytes(pos)[:120] not in blob
    size = (tmp_path / "fp.npz").stat().st_size
    assert size < 200 * len(base.index) + 64 * 1024  # ids and digests, not rows


def test_diff_since_binding(base: Package, derive, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fingerprint(base).save(tmp_path / "bound.npz")
    bound = Fingerprint.load(tmp_path / "bound.npz")
    _made, new = derive(
        seed=31,
        rows_added=1,
        rows_removed=1,
        rows_changed=2,
        rows_moved=1,
        evidence_hidden=1,
        contract_edits=("column_added",),
    )
    full = diff(base, new)
    since = diff(bound, new)
    assert since.old_is_fingerprint
    assert since.rows.added.ids() == full.rows.added.ids()
    assert since.rows.removed.ids() == full.rows.removed.ids()
    assert [c.row_id for c in since.rows.changed] == [c.row_id for c in full.rows.changed]
    assert all(c.fields is None and c.content_hash_changed for c in since.rows.changed)
    assert [m[1].row_id for m in since.rows.moved] == [m[1].row_id for m in full.rows.moved]
    assert since.evidence == full.evidence
    assert since.contracts == full.contracts
    assert since.levels() == full.levels()


def test_fingerprint_can_carry_findings(base: Package, tmp_path: Path) -> None:
    from aa_review.core.diff import audit_findings

    found = audit_findings(base)
    fingerprint(base, findings=found).save(tmp_path / "fp.npz")
    fp = Fingerprint.load(tmp_path / "fp.npz")
    assert fp.findings is not None and len(fp.findings) == len(found)
    d = diff(fp, base, audit=True)
    assert d.findings is not None and not d.findings.new and not d.findings.fixed


@pytest.mark.parametrize("damage", ["missing", "not_zip", "no_meta", "bad_column"])
def test_damaged_fingerprint_is_an_error(base: Package, tmp_path: Path, damage: str) -> None:
    path = tmp_path / "fp.npz"
    if damage == "not_zip":
        path.write_bytes(b"not a fingerprint")
    elif damage == "no_meta":
        np.savez(path, row_id=np.array([b"x"]))
    elif damage == "bad_column":
        fp = fingerprint(base)
        fp.save(path)
        with np.load(path) as z:
            arrays = {n: z[n] for n in z.files}
        arrays["col_file"] = np.full(len(fp), 999, dtype=np.int16)  # no such file code
        np.savez(path, **arrays)
    with pytest.raises(FingerprintError):
        Fingerprint.load(path)


def test_bytes_round_trip_and_summary(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    data = fingerprint(base).to_bytes()
    back = Fingerprint.from_bytes(data)
    made, new = derive(seed=32, rows_changed=1, evidence_hidden=1)
    s = diff(back, new).summary()
    assert s["changed"] and s["highest"] == "visibility"
    assert s["rows"]["changed"] == 1 and s["rows"]["same_id_new_content"] == 1
    assert s["hidden_while_cited"] == made.changes.evidence_hidden
    assert s["rows_citing_changed_evidence"] == len(new.index)
    with pytest.raises(FingerprintError):
        Fingerprint.from_bytes(data[: len(data) // 2])


def test_a_folder_is_not_a_fingerprint(tmp_path: Path) -> None:
    with pytest.raises(FingerprintError):
        Fingerprint.load(tmp_path)
