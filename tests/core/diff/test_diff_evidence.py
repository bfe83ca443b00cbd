"""Evidence matched by id and by ref, and the rows citing what changed (links)."""

from __future__ import annotations

import json
from pathlib import Path

from aa_review.core.diff import diff
from aa_review.core.package import Package, open_package


def _by_id(d) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {e.evidence_id: e for e in d.evidence}


def test_each_evidence_change_against_the_record(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(
        seed=11,
        evidence_rehashed=2,
        evidence_hidden=1,
        evidence_ref_rewritten=1,
        evidence_added=1,
        evidence_removed=1,
    )
    rec = made.changes
    d = diff(base, new)
    got = _by_id(d)
    assert len(d.evidence) == 6
    for eid in rec.evidence_rehashed:
        e = got[eid]
        assert e.kind == "changed" and e.fields == ("content_hash",) and e.matched_by == "id"
        assert e.old.content_hash != e.new.content_hash
    (hid,) = rec.evidence_hidden
    assert got[hid].kind == "visibility" and got[hid].fields == ("visibility",)
    assert got[hid].new.visibility == "hidden_excluded"
    ((rid, (old_ref, new_ref)),) = rec.evidence_ref_rewritten.items()
    assert got[rid].fields == ("ref",) and (got[rid].old.ref, got[rid].new.ref) == (
        old_ref,
        new_ref,
    )
    assert got[rec.evidence_added[0]].kind == "added"
    assert got[rec.evidence_removed[0]].kind == "removed"
    # Rows still cite everything but the added item, so rows are not changed here.
    assert not d.rows.changed


def test_hidden_while_cited_is_the_most_severe_change(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=12, evidence_hidden=1, evidence_rehashed=1, rows_changed=1)
    d = diff(base, new)
    first = d.evidence[0]
    assert first.evidence_id == made.changes.evidence_hidden[0]
    assert first.hidden_while_cited and first.cited_by == len(new.index) == 60
    assert d.highest() == "visibility"
    assert d.changed_at("visibility") and d.changed_at("changed")


def test_hidden_but_uncited_is_a_visibility_change_not_the_severe_one(
    base: Package, base_copy: Path, derive
) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=13, evidence_added=1)
    eid = made.changes.evidence_added[0]
    m = made.root / "experience_compiler/source_evidence_map.json"
    doc = json.loads(m.read_text())
    for e in doc["evidence_catalog"]:
        if e["evidence_id"] == eid:
            e["visibility"] = "hidden_excluded"
    m.write_text(json.dumps(doc))
    d = diff(open_package(made.root), new)  # hidden uncited -> visible uncited
    (e,) = d.evidence
    assert e.kind == "visibility" and not e.hidden_while_cited and e.cited_by == 0


def test_links_list_the_rows_citing_changed_evidence(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=14, evidence_rehashed=1, evidence_removed=1, evidence_added=1)
    d = diff(base, new)
    changed = set(made.changes.evidence_rehashed) | set(made.changes.evidence_removed)
    assert set(d.links.by_evidence) == changed  # the added item is cited by nobody
    assert all(n == 60 for n in d.links.by_evidence.values())
    assert sorted(d.links.rows.ids()) == sorted(new.index.row_id_str(i) for i in range(60))
    assert len(d.links) == 60


def test_propagated_evidence_change_changes_the_citing_rows(base: Package, derive) -> None:  # type: ignore[no-untyped-def]
    made, new = derive(seed=15, evidence_rehashed=1, evidence_ref_rewritten=1, propagate=True)
    d = diff(base, new)
    rec = made.changes.rows_changed
    assert len(rec) == 60
    assert {c.row_id: set(c.fields) for c in d.rows.changed} == {k: set(v) for k, v in rec.items()}
    ((old_ref, new_ref),) = made.changes.evidence_ref_rewritten.values()
    (rehashed,) = made.changes.evidence_rehashed
    ref = next(e.ref for e in base.catalog if e.evidence_id == rehashed)
    for c in d.rows.changed:
        old_row = base.read_row(c.old_pos)
        assert c.content_hash_changed
        assert f"evidence_refs[{old_row['evidence_refs'].index(old_ref)}]" in c.fields
        if ref in old_row["source_content_hashes"]:  # the first 24 hashed refs (format 4.1)
            assert f'source_content_hashes["{ref}"]' in c.fields
        if old_ref in old_row["source_content_hashes"]:
            assert {
                f'source_content_hashes["{old_ref}"]',
                f'source_content_hashes["{new_ref}"]',
            } <= set(c.fields)


def test_id_rewritten_for_the_same_ref_is_matched_by_ref(base_dir: Path, base_copy: Path) -> None:
    m = base_copy / "experience_compiler/source_evidence_map.json"
    doc = json.loads(m.read_text())
    entry = doc["evidence_catalog"][3]
    old_id = entry["evidence_id"]
    entry["evidence_id"] = "evidence_0000000000000000"
    m.write_text(json.dumps(doc))
    d = diff(open_package(base_dir), open_package(base_copy))
    (e,) = d.evidence
    assert e.matched_by == "ref" and e.fields == ("evidence_id",)
    assert (e.old.evidence_id, e.new.evidence_id) == (old_id, "evidence_0000000000000000")
    # Rows still cite the old id, which the catalog no longer has.
    assert d.links.by_evidence == {old_id: 60}
