"""Named subsets without Qt: the store, ``subset:`` in the rows query, sessions, exports.

Cases from the issue: rows picked together make a named subset; it is usable in
queries as ``subset:name``, exportable, saved in sessions; membership is a mask.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from psygnal.testing import assert_emitted

from aa_review.core.query import QueryError, RowsScope, complete
from aa_review.core.session import (
    ReviewSession,
    Scope,
    SubsetStore,
    load_session,
    run_export,
    save_session,
)

from .conftest import open_in


def test_store_names_colours_and_events() -> None:
    store = SubsetStore()
    with assert_emitted(store.changed):
        a = store.add([5, 1, 1, 3])
    assert a.name == "subset1" and a.rows.tolist() == [1, 3, 5]  # sorted, unique
    b = store.add(np.array([7]), "picked")
    assert store.names() == ["subset1", "picked"] and store.active is b
    assert a.color != b.color
    again = store.add([8, 9], "picked")  # replaced, keeps its colour
    assert again.color == b.color and len(store) == 2
    assert again.mask(10).nonzero()[0].tolist() == [8, 9]
    store.rename("picked", "kept")
    assert "kept" in store and "picked" not in store and store.active.name == "kept"
    with pytest.raises(ValueError):
        store.add([1], "two words")
    store.remove("kept")
    assert store.active is not None and store.active.name == "subset1"
    assert store.next_name() == "subset3"


def test_subset_query_filters_with_a_mask(generated_sample: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    n = len(s.package.index)
    rows = np.array([2, 9, 30], np.int64)
    sub = s.make_subset(rows, "mine")
    assert sub is not None and s.subsets.active is sub
    got = s.set_query(Scope.ROWS, "subset:mine")
    assert got.positions.tolist() == [2, 9, 30]
    # combines with every other term, and negates
    t = s.package.index.data_types[int(s.package.index.data_type[9])]
    both = s.set_query(Scope.ROWS, f"subset:mine type:{t}").positions.tolist()
    assert 9 in both and set(both) <= {2, 9, 30}
    assert s.set_query(Scope.ROWS, "-subset:mine").count == n - 3
    # the query is evaluated again when the subset changes
    s.make_subset(np.array([4]), "mine")
    assert s.result(Scope.ROWS).positions is not None
    assert s.result(Scope.ROWS).count == n - 1
    # an unknown subset is an error naming the subsets there are
    with pytest.raises(QueryError, match=r"no subset named 'other'.*mine"):
        s.set_query(Scope.ROWS, "subset:other")


def test_subset_needs_the_window_elsewhere(generated_sample: Path) -> None:
    from aa_review.core.package import open_package
    from aa_review.core.query import filter_rows

    pkg = open_package(generated_sample)
    with pytest.raises(QueryError, match="'subset' needs subsets"):
        filter_rows(pkg, "subset:mine")
    scope = RowsScope(pkg)
    scope.subsets = {"mine": np.array([1, 2]), "other": np.array([2, 3])}
    assert scope.filter("subset:mine OR subset:other").tolist() == [1, 2, 3]
    assert scope.filter("subset:*").tolist() == [1, 2, 3]
    labels = [s.text for s in complete(scope, "subset:", len("subset:")).items]
    assert labels == ["mine", "other"]


def test_subset_from_selection_and_query(generated_sample: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    assert s.make_subset() is None  # nothing selected
    s.select_rows(np.array([3, 4, 5]))
    sub = s.make_subset(name="picked")
    assert sub.rows.tolist() == [3, 4, 5]
    s.select_row(10)
    assert s.make_subset(name="one").rows.tolist() == [10]
    s.set_query(Scope.ROWS, "line:1")
    q = s.subset_from_query("firsts")
    assert q.rows.tolist() == s.result(Scope.ROWS).positions.tolist()
    s.select_subset("picked")
    assert s.selection.current.rows.tolist() == [3, 4, 5]
    assert s.subsets.active.name == "picked"


def test_subsets_saved_and_restored_in_a_session(generated_sample: Path, tmp_path: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    s.make_subset(np.array([1, 7, 8]), "a")
    s.make_subset(np.array([20]), "b")
    s.subsets.activate("a")
    s.set_query(Scope.ROWS, "subset:a")
    path = tmp_path / "one.aareview.json"
    save_session(path, s.capture(), s.package.root)
    doc = json.loads(path.read_text())
    ix = s.package.index
    assert doc["subsets"]["a"] == [ix.row_id_str(i) for i in (1, 7, 8)]
    other = ReviewSession()
    open_in(other, generated_sample)
    state, _pkg = load_session(path)
    other.restore(state)
    assert other.subsets.names() == ["a", "b"]
    assert other.subsets.get("a").rows.tolist() == [1, 7, 8]
    assert other.subsets.active.name == "a"
    assert other.result(Scope.ROWS).positions.tolist() == [1, 7, 8]


def test_a_new_package_forgets_the_subsets(generated_sample: Path, defects: Any) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    s.make_subset(np.array([1]), "a")
    with assert_emitted(s.subsets.changed):
        open_in(s, defects.root)
    assert len(s.subsets) == 0


def test_subset_rows_exported(generated_sample: Path, tmp_path: Path) -> None:
    s = ReviewSession()
    open_in(s, generated_sample)
    s.make_subset(np.array([0, 5, 11]), "ex")
    plan = s.subset_export_plan("ex")
    out = tmp_path / "ex.jsonl"
    n, _digest = run_export(plan, out)
    assert n == 3
    ix = s.package.index
    lines = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    ids = {ix.row_id_str(i) for i in (0, 5, 11)}
    assert len(lines) == 3 and all(ids & set(map(str, r.values())) for r in lines)
    meta = json.loads(out.with_name(out.name + ".meta.json").read_text())
    assert "subset:ex" in json.dumps(meta)


def test_evidence_cited_by_a_subset(generated_sample: Path) -> None:
    from aa_review.core.session._subsets import evidence_cited_by

    s = ReviewSession()
    open_in(s, generated_sample)
    ix = s.package.index
    rows = np.array([0, 7, 33])
    want = set(np.concatenate([ix.evidence_of_row(r) for r in rows]).tolist())
    got = set(np.flatnonzero(evidence_cited_by(ix, rows)).tolist())
    assert got == want
    assert not evidence_cited_by(ix, np.empty(0, np.int64)).any()
