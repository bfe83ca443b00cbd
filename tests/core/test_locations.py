"""Locations: many places of one finding as columns, read back exactly, JSON and pickle alike."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from aa_review.core.findings import Finding, Location, Locations, RowTable, distinct_sorted


@pytest.fixture
def table() -> RowTable:
    ids = np.array([b"row_a", b"", b"Row_C", b"row_d", b"row_e"])
    return RowTable(
        ["x/one.jsonl", "x/two.jsonl"],
        np.array([0, 0, 1, 1, 1], np.int16),
        np.array([1, 2, 1, 2, 3]),
        ids,
    )


def test_row_locations_read_the_table(table: RowTable) -> None:
    locs = Locations.at_rows(
        table, [4, 1, 2], evidence_id="evidence_1", key_path=("row_evidence_links[{}]", [7, 8, 9])
    )
    assert list(locs) == [
        Location(
            file="x/two.jsonl",
            line=3,
            row_id="row_e",
            evidence_id="evidence_1",
            key_path="row_evidence_links[7]",
        ),
        Location(
            file="x/one.jsonl", line=2, evidence_id="evidence_1", key_path="row_evidence_links[8]"
        ),  # a row without an id
        Location(
            file="x/two.jsonl",
            line=1,
            row_id="Row_C",
            evidence_id="evidence_1",
            key_path="row_evidence_links[9]",
        ),
    ]
    assert locs.row_positions().tolist() == [1, 2, 4] and locs.row_at(1) == 1
    assert locs.to_json()[1] == {
        "file": "x/one.jsonl",
        "line": 2,
        "evidence_id": "evidence_1",
        "key_path": "row_evidence_links[8]",
    }
    assert locs.distinct("file") == {"x/one.jsonl", "x/two.jsonl"}
    assert locs.contains_text("row_id", "ROW_c") and not locs.contains_text("row_id", "row_a")
    assert locs.contains_text("key_path", "links[9]")


def test_mixed_concat_compact_and_pickle(table: RowTable) -> None:
    rows = Locations.at_rows(table, [3, 0], ref=["a", "b"])
    other = Locations.columns(2, file="m.json", key_path=["k0", "k1"], contract="c")
    both = Locations.concat([Locations.one(Location(file="first.json")), rows, other])
    want = [Location(file="first.json"), *rows, *other]
    assert list(both) == want and len(both) == 5
    small = both.with_table(table.compact(both.row_positions()))
    assert list(small) == want and len(small.table.row_id) == 2  # type: ignore[union-attr]
    assert list(pickle.loads(pickle.dumps(small))) == want
    # rows of two audits (two tables) are spelled out, not mixed up
    elsewhere = RowTable(["y.jsonl"], np.zeros(5, np.int16), np.arange(5) + 10, table.row_id)
    mixed = Locations.concat([rows, Locations.at_rows(elsewhere, [0])])
    assert [loc.file for loc in mixed] == ["x/two.jsonl", "x/one.jsonl", "y.jsonl"]


def test_a_finding_takes_either_form_and_round_trips(table: RowTable) -> None:
    one = Finding(
        code="hash.changed", severity="error", message="m", location=Location(file="f", line=3)
    )
    assert one.location_count == 1 and list(one.locations) == [Location(file="f", line=3)]
    many = Finding(
        code="link.orphan",
        severity="error",
        message="m",
        locations=Locations.at_rows(table, [2, 3]),
    )
    assert many.location == Location(file="x/two.jsonl", line=1, row_id="Row_C")
    back = Finding.model_validate_json(many.model_dump_json())
    assert back == many and back.location_count == 2
    assert many.model_dump(mode="json")["locations"] == [
        {"file": "x/two.jsonl", "line": 1, "row_id": "Row_C"},
        {"file": "x/two.jsonl", "line": 2, "row_id": "row_d"},
    ]


def test_distinct_sorted_matches_unique() -> None:
    rng = np.random.default_rng(1)
    for a in (
        np.array([], np.int64),
        np.array([3]),
        rng.integers(0, 50, 1000),
        np.arange(10),
        np.array([b"b", b"a", b"b"]),
    ):
        assert distinct_sorted(a).tolist() == sorted(set(a.tolist()))
