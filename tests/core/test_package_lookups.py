"""The package's lookups the views share: citations per item, an item by ref, hidden rows.

Each is checked against the rows as written on disk, not against the index it reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from aa_review.core.package import open_package
from aa_review.core.package.derive import visibility


def _rows_on_disk(pkg) -> list[dict]:
    out = []
    for rel in pkg.index.files:
        for line in (pkg.root / rel).read_text().splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


def test_cited_counts_count_the_rows_citing_each_item(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    rows = _rows_on_disk(pkg)
    want = [
        sum(eid in r["source_evidence_ref_ids"] for r in rows) for eid in pkg.index.evidence_ids
    ]
    assert pkg.index.cited_counts().tolist() == want
    assert pkg.index.cited_counts() is pkg.index.cited_counts()  # computed once


def test_an_item_is_found_by_its_ref(sample_copy: Path) -> None:
    pkg = open_package(sample_copy)
    for i, e in enumerate(pkg.catalog):
        assert pkg.catalog[pkg.evidence_of_ref(e.ref)].ref == e.ref
        assert pkg.evidence_of_ref(e.ref) <= i  # the first item with that ref
    assert pkg.evidence_of_ref("no/such/file.txt") is None
    assert pkg.evidence_of_ref(None) is None and pkg.evidence_of_ref("") is None


def test_rows_citing_hidden_material(tmp_path: Path) -> None:
    from aa_review.generator import generate_package

    g = generate_package(
        tmp_path, rows=60, seed=3, defects=["hidden_cited"], defect_rows={"hidden_cited": 4}
    )
    pkg = open_package(g.root)
    hidden_ids = {
        e.evidence_id
        for e in pkg.catalog
        if e.visibility == "hidden_excluded" or visibility(e.ref) == "hidden_excluded"
    }
    assert hidden_ids
    assert {pkg.index.evidence_ids[i] for i in pkg.hidden_evidence()} == hidden_ids
    rows = _rows_on_disk(pkg)
    want = {r["row_id"] for r in rows if hidden_ids & set(r["source_evidence_ref_ids"])}
    got = {pkg.index.row_id_str(int(i)) for i in pkg.rows_citing_hidden()}
    assert got == want and len(want) == 4
    assert np.all(np.diff(pkg.rows_citing_hidden()) > 0)
