"""Compare mode in the session: a baseline, its diff, ``change:`` in the rows query, and
both versions of a row side by side, checked against what the generator changed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from aa_review.core.package import open_package
from aa_review.core.query import QueryError, complete
from aa_review.core.session import (
    ReviewSession,
    Scope,
    evidence_side_by_side,
    prepare_comparison,
    prepare_package,
    side_by_side,
)
from aa_review.generator import ChangeSpec, derive_package, generate_package


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """(baseline root, derived package) with every kind of row change and two evidence ones."""
    base = generate_package(
        tmp_path_factory.mktemp("cmp_base"), rows=60, seed=4, package_id="pkg_cmp"
    ).root
    derived = derive_package(
        base,
        tmp_path_factory.mktemp("cmp_new"),
        ChangeSpec(
            rows_added=2,
            rows_removed=2,
            rows_changed=3,
            rows_moved=1,
            rows_reformatted=1,
            evidence_hidden=1,
            evidence_rehashed=1,
        ),
        seed=7,
    )
    return base, derived


def _session(pair) -> tuple[ReviewSession, object]:  # type: ignore[no-untyped-def]
    base, derived = pair
    s = ReviewSession()
    s.open(prepare_package(open_package(derived.root)))
    baseline = open_package(base)
    assert s.start_comparison(baseline) is not None
    assert s.set_comparison(prepare_comparison(baseline, s.package))
    return s, derived


def _ids(s: ReviewSession, query: str) -> set[str]:
    ix = s.package.index
    return {ix.row_id_str(int(p)) for p in s.set_query(Scope.ROWS, query).shown()}


def test_change_field_matches_what_the_generator_changed(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    rec = derived.changes
    assert _ids(s, "change:added") == set(rec.rows_added)
    assert _ids(s, "change:changed") == set(rec.rows_changed)
    assert _ids(s, "change:moved") == set(rec.rows_moved)
    assert _ids(s, "change:reformatted") == set(rec.rows_reformatted)
    assert _ids(s, "change:removed") == set()  # removed rows are in the baseline ...
    listed = s.comparison.prepared.listed(
        None, s.comparison.prepared.old_rows.filter("change:removed")
    )
    assert {i.row_id for i in listed if i.kind == "removed"} == set(rec.rows_removed)  # ... here
    # The one query language: OR, negation, wildcards, other fields.
    either = _ids(s, "change:added OR change:changed")
    assert either == set(rec.rows_added) | set(rec.rows_changed)
    n = len(s.package.index)
    assert len(_ids(s, "-change:linked")) + len(_ids(s, "change:linked")) == n
    assert _ids(s, "change:re*") == set(rec.rows_reformatted)
    assert _ids(s, "change!=added") == {s.package.index.row_id_str(i) for i in range(n)} - set(
        rec.rows_added
    )


def test_change_values_are_completed_with_counts(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    got = complete(s.findings.prepared.rows, "change:", 7)
    labels = {i.label: i.detail for i in got.items}
    assert set(labels) == {"added", "removed", "changed", "moved", "reformatted", "linked"}
    assert labels["changed"] == f"{len(derived.changes.rows_changed)} rows"


def test_change_without_a_baseline_is_a_clear_error(pair) -> None:  # type: ignore[no-untyped-def]
    s, _ = _session(pair)
    s.close_comparison()
    with pytest.raises(QueryError, match="needs a baseline"):
        s.set_query(Scope.ROWS, "change:added")
    with pytest.raises(QueryError, match="'change' takes one of"):
        s.set_query(Scope.ROWS, "change:renamed")
    assert s.comparison is None


def test_opening_another_package_drops_the_diff_keeps_the_baseline(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    events = []
    s.events.baseline_changed.connect(events.append)
    baseline = s.comparison.baseline
    s.open(prepare_package(open_package(derived.root)))
    assert events and events[-1].prepared is None and events[-1].baseline is baseline
    # a diff about the package no longer open is refused
    stale = prepare_comparison(baseline, open_package(derived.root))
    assert not s.set_comparison(stale)
    assert s.result(Scope.ROWS).error is None


def test_side_by_side_marks_the_changed_fields(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    p = s.comparison.prepared
    for rid, paths in derived.changes.rows_changed.items():
        new_pos = s.package.index.find_row(rid)
        view = side_by_side(p, new_pos, p.baseline_row_of(new_pos))
        assert view.kind.startswith("changed")
        marked = set(view.differing)
        for path in paths:  # each path the generator changed, or a field under it
            assert any(m == path or m.startswith((path + ".", path + "[")) for m in marked)
        assert all(any(m == x or m.startswith((x + ".", x + "[")) for x in paths) for m in marked)
    removed = p.baseline.index.find_row(derived.changes.rows_removed[0])
    view = side_by_side(p, None, removed)
    assert view.kind == "removed" and view.new_where is None and view.lines
    assert all(line.new is None and line.old is not None for line in view.lines)


def test_evidence_side_by_side(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    hidden = derived.changes.evidence_hidden[0]
    view = evidence_side_by_side(s.comparison.prepared, hidden)
    assert view is not None and view.differing == ("visibility",)
    assert {ln.path: ln.new for ln in view.lines}["visibility"] == "hidden_excluded"
    ids = s.package.index.evidence_ids
    untouched = next(e for e in ids if e != hidden and e not in derived.changes.evidence_rehashed)
    assert evidence_side_by_side(s.comparison.prepared, untouched) is None


def test_baseline_row_and_closing(pair) -> None:  # type: ignore[no-untyped-def]
    s, derived = _session(pair)
    s.select_row(3, "rows")
    old = s.comparison.prepared.baseline.index.find_row(derived.changes.rows_removed[0])
    s.select_baseline_row(old, "compare")
    assert s.comparison.baseline_row == old and s.selection.current.row is None
    s.set_query(Scope.ROWS, "change:added")
    s.close_comparison()
    assert s.comparison is None
    # the query that needs the baseline now says why, and keeps every row
    assert s.result(Scope.ROWS).error is not None
    assert np.array_equal(s.result(Scope.ROWS).shown(), np.arange(len(s.package.index)))


def test_baseline_root(pair) -> None:  # type: ignore[no-untyped-def]
    base, _ = pair
    s, _ = _session(pair)
    assert Path(s.comparison.baseline.root) == Path(base)


def test_a_v01_baseline_compares_at_the_shared_level(tmp_path: Path) -> None:
    """Rows of a v0.1 package are not matched with v0.2 rows (docs/diff.md): no row has a
    kind, change: keeps none, and the version change is named."""
    old = generate_package(
        tmp_path / "old", rows=30, seed=2, version="v0.1", package_id="pkg_v"
    ).root
    new = generate_package(tmp_path / "new", rows=30, seed=2, package_id="pkg_v").root
    s = ReviewSession()
    s.open(prepare_package(open_package(new)))
    baseline = open_package(old)
    s.start_comparison(baseline)
    assert s.set_comparison(prepare_comparison(baseline, s.package))
    p = s.comparison.prepared
    assert p.diff.version_change is not None and not p.diff.rows.compared
    assert s.set_query(Scope.ROWS, "change:added OR change:changed").count == 0
    assert p.listed(None, None) == []
    view = side_by_side(p, 0, p.baseline_row_of(0))
    assert view.new_where is not None


def test_the_same_package_as_baseline_changes_nothing(pair) -> None:  # type: ignore[no-untyped-def]
    _base, derived = pair
    s = ReviewSession()
    s.open(prepare_package(open_package(derived.root)))
    baseline = open_package(derived.root)
    s.start_comparison(baseline)
    assert s.set_comparison(prepare_comparison(baseline, s.package))
    assert s.comparison.prepared.counts() == dict.fromkeys(
        ("added", "removed", "changed", "moved", "reformatted", "linked"), 0
    )
    view = side_by_side(s.comparison.prepared, 5, s.comparison.prepared.baseline_row_of(5))
    assert view.kind == "unchanged" and view.differing == () and view.lines


def test_findings_compared_in_a_process_of_their_own(pair) -> None:  # type: ignore[no-untyped-def]
    from aa_review.core.session import compare_findings, compare_findings_in_process

    base, derived = pair
    here = compare_findings(base, derived.root)
    there = compare_findings_in_process(base, derived.root)
    assert [f["code"] for f in there.new] == [f["code"] for f in here.new]
    assert len(there.fixed) == len(here.fixed) and len(there.persisting) == len(here.persisting)
    assert any(f["code"] == "link.hidden_cited" for f in here.new)
    s, _ = _session(pair)
    assert s.set_comparison_findings(s.comparison.prepared, here)
    assert s.comparison.findings is here
    assert not s.set_comparison_findings(
        prepare_comparison(s.comparison.baseline, s.package), here
    )  # about a diff no longer shown
