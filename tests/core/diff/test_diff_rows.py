"""Rows matched by stable id: each kind of change on a generated pair, checked against what
the generator recorded it changed (issue: rows added, removed, changed with the fields,
unchanged rows that moved file or line, same id with a new content hash)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from aa_review.core.diff import diff
from aa_review.core.package import Package, open_package


def _changed(d) -> dict[str, tuple[str, ...]]:  # type: ignore[no-untyped-def]
    return {c.row_id: c.fields for c in d.rows.changed}


def test_identical_packages_differ_in_nothing(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    _, same = derive()
    d = diff(base, same)
    assert d.highest() is None and not d.changed_at()
    assert d.rows.unchanged == len(base.index) == 60
    assert not d.rows.added and not d.rows.removed and not d.rows.changed and not d.rows.moved
    assert not d.evidence and not d.contracts and not d.identity_changes and not d.links.rows


def test_added_and_removed_rows(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=1, rows_added=3, rows_removed=2)
    d = diff(base, new)
    rec = made.changes
    assert sorted(d.rows.added.ids()) == sorted(rec.rows_added) and len(rec.rows_added) == 3
    assert sorted(d.rows.removed.ids()) == sorted(rec.rows_removed) and len(rec.rows_removed) == 2
    assert not d.rows.changed and not d.rows.moved
    assert d.counts["rows"] == [60, 61]
    # Each added row is located where it is in the new package, each removed where it was.
    for r in d.rows.added:
        raw = new.read_row(new.index.find_row(r.row_id))  # type: ignore[arg-type]
        assert raw["row_id"] == r.row_id or raw.get("pair_id") == r.row_id
        assert new.index.files[int(new.index.file[new.index.find_row(r.row_id)])] == r.file
    for r in d.rows.removed:
        pos = base.index.find_row(r.row_id)
        assert pos is not None and int(base.index.line[pos]) == r.line
    # Rows after an insertion or a removal moved line, not order: shifted, not moved.
    assert sum(d.rows.shifted.values()) > 0
    assert d.levels()["added"] == 3 and d.levels()["removed"] == 2


def test_changed_rows_name_their_fields_as_json_paths(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(
        seed=2,
        rows_changed=4,
        changed_fields=(
            "quality_score",
            "task_lineage.task_title",
            "training_use_cases",
            "task_lineage",
        ),
    )
    d = diff(base, new)
    rec = made.changes.rows_changed
    assert len(rec) == 4
    assert {k: set(v) for k, v in _changed(d).items()} == {k: set(v) for k, v in rec.items()}
    for fields in rec.values():
        assert {
            "quality_score",
            "task_lineage.task_title",
            "training_use_cases",
            "task_lineage.revised",
            "row_content_hash",
        } == set(fields)
    for c in d.rows.changed:
        assert c.content_hash_changed  # the hashed content changed under the same id
        assert c.id_recomputes == (None, None)  # no seed field changed: not checked again
        assert c.content_hash_recomputes == (None, None)  # the hash changed: not re-checked
        assert c.old == c.new  # edited in place
    assert len(d.rows.same_id_new_content) == 4
    assert d.rows.changed_fields()["quality_score"] == 4


def test_change_outside_the_content_hash_keeps_the_hash(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=3, rows_changed=2, changed_fields=("created_at",))
    d = diff(base, new)
    assert _changed(d) == dict.fromkeys(made.changes.rows_changed, ("created_at",))
    assert all(not c.content_hash_changed for c in d.rows.changed)
    assert not d.rows.same_id_new_content


def test_stale_content_hash_is_seen(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    _, new = derive(seed=4, rows_changed=1, rehash=False)
    (c,) = diff(base, new).rows.changed
    assert c.fields == ("quality_score",)
    assert not c.content_hash_changed
    assert c.content_hash_recomputes == (None, False)  # the new row no longer matches its hash


def test_seed_field_changed_under_the_same_id_is_called_out(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    # The compiler seeds ids before sanitizing (format 12.6): input changed, id kept.
    _, new = derive(seed=5, rows_changed=1, changed_fields=("input",))
    (c,) = diff(base, new).rows.changed
    assert c.content_hash_changed
    assert c.id_recomputes == (True, False)


def test_rows_moved_in_order_and_to_another_file(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=6, rows_moved=2, rows_to_other_file=1)
    d = diff(base, new)
    assert made.changes.rows_moved and len(made.changes.rows_moved) == 3
    got = {new_ref.row_id: how for _, new_ref, how in d.rows.moved}
    assert got == made.changes.rows_moved
    assert not d.rows.changed and not d.rows.added and not d.rows.removed
    for old_ref, new_ref, how in d.rows.moved:
        assert (old_ref.file != new_ref.file) == (how == "file")
        assert old_ref.line != new_ref.line or old_ref.file != new_ref.file
    assert d.highest() == "moved"
    assert not d.changed_at("added")


def test_reserialized_row_is_not_a_value_change(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=7, rows_reformatted=2)
    d = diff(base, new)
    assert sorted(d.rows.reformatted.ids()) == sorted(made.changes.rows_reformatted)
    assert len(made.changes.rows_reformatted) == 2
    assert not d.rows.changed and d.highest() == "moved"


def test_json_values_not_text(base_dir: Path, base_copy: Path) -> None:
    # A row whose keys were reordered and a number written another way is the same row.
    rel = "experience_compiler/training_time_package/evaluation_examples.jsonl"
    lines = (base_copy / rel).read_bytes().splitlines()
    row = orjson.loads(lines[0])
    row = dict(reversed(list(row.items())))
    text = orjson.dumps(row).decode()
    assert '"quality_score":0.9099999999999999' in text
    text = text.replace(
        '"quality_score":0.9099999999999999', '"quality_score":9.099999999999999e-1'
    )
    lines[0] = text.encode()
    (base_copy / rel).write_bytes(b"\n".join(lines) + b"\n")
    d = diff(open_package(base_dir), open_package(base_copy))
    assert not d.rows.changed and len(d.rows.reformatted) == 1


def test_true_is_not_one(base_dir: Path, base_copy: Path) -> None:
    rel = "experience_compiler/training_time_package/evaluation_examples.jsonl"
    lines = (base_copy / rel).read_bytes().splitlines()
    row = orjson.loads(lines[0])
    row["accepted"] = 1  # was true
    lines[0] = orjson.dumps(row)
    (base_copy / rel).write_bytes(b"\n".join(lines) + b"\n")
    (c,) = diff(open_package(base_dir), open_package(base_copy)).rows.changed
    assert c.fields == ("accepted",)


def test_repeated_ids_match_in_order(base_dir: Path, base_copy: Path) -> None:
    # The k-th row with an id matches the k-th on the other side.
    rel = "experience_compiler/training_time_package/evaluation_examples.jsonl"
    lines = (base_copy / rel).read_bytes().splitlines()
    lines.append(lines[0])  # a duplicate of the first row, at the end
    (base_copy / rel).write_bytes(b"\n".join(lines) + b"\n")
    old = open_package(base_dir)
    new = open_package(base_copy)
    d = diff(old, new)
    assert len(d.rows.added) == 1 and d.rows.added[0].line == len(lines)
    back = diff(new, old)
    assert len(back.rows.removed) == 1 and back.rows.removed[0].line == len(lines)


@pytest.mark.parametrize("n", [0, 1])
def test_rows_of_an_empty_package(tmp_path: Path, n: int) -> None:
    from aa_review.generator import generate_package

    pkg = generate_package(tmp_path, rows=40, seed=n).root
    for rel in pkg.glob("experience_compiler/*/*.jsonl"):
        rel.write_bytes(b"")
    empty = open_package(pkg)
    full = open_package(generate_package(tmp_path / "full", rows=40, seed=n).root)
    d = diff(full, empty)
    assert len(d.rows.removed) == len(full.index) and len(empty.index) == 0
    assert len(diff(empty, full).rows.added) == len(full.index)


def test_colliding_id_hashes_fall_back_to_exact_matching(
    base: Package,
    derive,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from aa_review.core.diff import _rows

    made, new = derive(seed=8, rows_added=2, rows_removed=2, rows_changed=2, rows_moved=1)
    fast = diff(base, new)
    monkeypatch.setattr(_rows, "_xxh", lambda b: len(b) % 7)  # every id collides
    slow = diff(base, new)
    for name in ("added", "removed", "reformatted"):
        assert getattr(slow.rows, name).ids() == getattr(fast.rows, name).ids()
    assert [c.row_id for c in slow.rows.changed] == [c.row_id for c in fast.rows.changed]
    assert sorted(slow.rows.added.ids()) == sorted(made.changes.rows_added)
    assert {m[1].row_id for m in slow.rows.moved} == set(made.changes.rows_moved)


def test_change_masks_for_a_facet(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    from aa_review.core.diff import change_masks

    made, new = derive(seed=9, rows_added=2, rows_removed=1, rows_changed=2, rows_moved=1)
    d = diff(base, new)
    m = change_masks(d, len(base.index), len(new.index))
    ids_new = lambda mask: sorted(new.index.row_id_str(i) for i in mask.nonzero()[0])
    assert ids_new(m["added"]) == sorted(made.changes.rows_added)
    assert ids_new(m["changed"]) == sorted(made.changes.rows_changed)
    assert ids_new(m["moved"]) == sorted(made.changes.rows_moved)
    assert sorted(base.index.row_id_str(i) for i in m["removed"].nonzero()[0]) == sorted(
        made.changes.rows_removed
    )
    assert not m["linked"].any() and not m["reformatted"].any()
