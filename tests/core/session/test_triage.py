"""Grouping, sorting and per-row marks of findings (the findings panel's logic, no Qt)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.query import FindingsIndex, FindingsScope
from aa_review.core.session.triage import finding_marks, group_findings, sort_findings


def _f(code: str, sev: Severity, *locs: Location, message: str = "m") -> Finding:
    return Finding(code=code, severity=sev, message=message, locations=list(locs))


@pytest.fixture
def flat() -> list[Finding]:
    a = Location(file="a.json", key_path="x")
    b = Location(file="b.jsonl", line=3)
    return [
        _f("link.hidden_cited", Severity.CRITICAL, b, b, message="Zeta"),
        _f("privacy.path", Severity.WARNING, a, b, message="alpha"),
        _f("privacy.path", Severity.ERROR, a, message="Beta"),
        _f("input.malformed_line", Severity.ERROR, message="gamma"),
    ]


def test_groups_count_findings_and_locations_worst_first(flat: list[Finding]) -> None:
    """Groups come worst first (their worst severity), then by how many findings."""
    groups = group_findings(FindingsIndex(flat), None, "code")
    got = [(g.value, g.count, g.locations) for g in groups]
    assert got == [
        ("link.hidden_cited", 1, 2),
        ("privacy.path", 2, 3),
        ("input.malformed_line", 1, 1),
    ]
    assert groups[0].worst is Severity.CRITICAL and groups[1].worst is Severity.ERROR
    # Opening a group shows exactly its findings through the findings query.
    scope = FindingsScope(FindingsIndex(flat))
    for g in groups:
        assert g.term is not None
        assert list(scope.filter(g.term)) == list(g.positions)


def test_groups_by_file_count_a_finding_in_each_of_its_files(flat: list[Finding]) -> None:
    groups = {g.value: list(g.positions) for g in group_findings(FindingsIndex(flat), None, "file")}
    assert groups == {"b.jsonl": [0, 1], "a.json": [1, 2], "(no file)": [3]}


def test_groups_follow_the_positions_shown(flat: list[Finding]) -> None:
    groups = group_findings(FindingsIndex(flat), np.array([2, 3]), "severity")
    assert [(g.value, list(g.positions)) for g in groups] == [("error", [2, 3])]
    with pytest.raises(ValueError):
        group_findings(FindingsIndex(flat), None, "message")


def test_sorting_each_column(flat: list[Finding]) -> None:
    pos = [0, 1, 2, 3]
    assert sort_findings(flat, pos, 0, descending=True) == [0, 2, 3, 1]  # by rank, stable
    assert sort_findings(flat, pos, 1) == [3, 0, 1, 2]
    assert sort_findings(flat, pos, 2, descending=True) == [0, 1, 2, 3]
    assert sort_findings(flat, pos, 4) == [1, 2, 3, 0]  # case-blind
    assert sort_findings(flat, [3, 1], 4) == [1, 3]  # only what is shown


def test_marks_count_each_finding_once_per_row(audited: Any) -> None:
    prepared, found = audited
    marks = found.marks
    ix, index = prepared.package.index, found.index
    assert len(marks.row_count) == len(ix)
    for i in range(len(index)):
        rows = index.rows_of_finding(i)
        assert (marks.row_count[rows] >= 1).all()
        assert (marks.row_worst[rows] >= index.severity[i]).all()
    expect = np.zeros(len(ix), dtype=np.int32)
    for i in range(len(index)):
        expect[index.rows_of_finding(i)] += 1
    assert (marks.row_count == expect).all()
    assert (marks.row_worst[expect == 0] == -1).all()
    hidden = prepared.package.hidden_evidence()
    assert (marks.evidence_count[hidden] >= 1).all()


def test_marks_of_no_findings(audited: Any) -> None:
    m = finding_marks(FindingsIndex([]), 4, 2)
    assert m.row_count.tolist() == [0] * 4 and m.evidence_worst.tolist() == [-1, -1]
