"""docs/query.md's subset examples, run against a generated package with the two
subsets the page describes, compared with the rows the page says they keep."""

from __future__ import annotations

import numpy as np
import pytest

from aa_review.core.query import QueryError, RowsScope

from .test_doc import code, examples

KEEPS = {
    "the first three rows": {0, 1, 2},
    "the third row": {2},
    "the first four rows": {0, 1, 2, 3},
    "the rows of any subset: the first four": {0, 1, 2, 3},
}


def test_subset_examples(pkg) -> None:
    scope = RowsScope(pkg)
    scope.subsets = {"picked": np.array([0, 1, 2]), "brushed": np.array([2, 3])}
    n = len(pkg.index)
    rows = examples()["Subsets"]
    assert len(rows) == 5
    for query_cell, keeps in rows:
        query = code(query_cell)
        want = KEEPS.get(
            keeps, set(range(3, n)) if keeps == "every row but the first three" else None
        )
        assert want is not None, keeps
        assert set(scope.filter(query).tolist()) == want, query


def test_subset_errors_the_page_names(pkg) -> None:
    scope = RowsScope(pkg)
    with pytest.raises(QueryError, match="needs subsets"):
        scope.filter("subset:picked")
    scope.subsets = {"picked": np.array([0])}
    with pytest.raises(QueryError, match="no subset named 'nope': subsets now: picked"):
        scope.filter("subset:nope")
