"""The evidence map's links as columns travel back from their worker process compactly,
and arrive as they were: equal, with the same codes for the same id lists."""

from __future__ import annotations

import pickle

from aa_review.core.audits._mapscan import LinkCols

LINKS = [
    {
        "row_id": f"row_{i}",
        "row_file": f"experience_compiler/environment/f{i % 2}.jsonl",
        "data_type": "document_event",
        "source_task_id": "task",
        "evidence_ref_ids": [f"evidence_{i % 3}", "evidence_shared"],
        "visible_evidence_ref_ids": [f"evidence_{i % 3}"],
        "inferred_evidence_ref_ids": [],
    }
    for i in range(12)
] + [
    {"row_id": "odd", "evidence_ref_ids": [1, True, "1"]},  # numbers stay numbers
    {"row_id": "odder", "evidence_ref_ids": [{"not": "hashable"}]},
    "not a link",
]


def columns() -> LinkCols:
    cols = LinkCols()
    for link in LINKS:
        cols.add(link)
    return cols


def test_links_arrive_equal_and_keep_coding_the_same() -> None:
    cols = columns()
    back = pickle.loads(pickle.dumps(cols))
    assert back == cols
    assert back.id_sets == cols.id_sets
    assert [type(v) for v in back.id_sets[back.ids[-3]]] == [int, bool, str]
    more = [LINKS[0], {"row_id": "new", "evidence_ref_ids": ["evidence_new"]}, LINKS[-2]]
    for link in more:  # the codes go on from the same table on both sides
        cols.add(link)
        back.add(link)
    assert back == cols
    assert back.ids[-3] == back.ids[0]
    assert len(back.id_sets) == len(cols.id_sets)


def test_repeated_texts_travel_once() -> None:
    data = pickle.dumps(columns())
    assert b"_codes" not in data and b"_texts" not in data  # rebuilt where they are used
    back = pickle.loads(data)
    assert back.row_file[0] is back.row_file[2]
    assert back.task[0] is back.task[5]
    first, second = back.id_sets[back.ids[0]], back.id_sets[back.ids[1]]
    assert first != second and first[1] is second[1]  # "evidence_shared", one object
