"""Findings and evidence queries: their own fields, row fields on findings, and the
one function that reads a finding's locations."""

from __future__ import annotations

import pytest

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.query import (
    FindingsIndex,
    QueryError,
    filter_evidence,
    filter_findings,
    locations_of,
    needs_package,
)

from .oracles import row_id


def _f(code: str, sev: Severity, quirk: bool = False, **loc: object) -> Finding:
    return Finding(
        code=code, severity=sev, message=f"about {code}", quirk=quirk, location=Location(**loc)
    )


FINDINGS = [
    _f("hash.changed", Severity.ERROR, file="input/a.csv"),
    _f("quirk.recipe_absent", Severity.LOW, quirk=True, file="experience_compiler/b.json"),
    _f("privacy.secret", Severity.CRITICAL, row_id="row_1", file="x.jsonl", line=4),
    _f("link.mismatch", Severity.WARNING, evidence_id="evidence_00ff", key_path="links[3]"),
]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("severity:error", [0, 2]),
        ("severity>=error", [0, 2]),
        ("severity=error", [0]),
        ("severity<warning", [1]),
        ("code:quirk", [1]),
        ("finding:quirk", [1]),
        ("code=hash", []),
        ("code:*.secret", [2]),
        ("-quirk:yes file:b.json", []),
        ("quirk:yes OR row:row_1", [1, 2]),
        ("-quirk:yes", [0, 2, 3]),
        ("row:row_1", [2]),
        ("line>=4", [2]),
        ("evidence:00ff key:links", [3]),
        ("check:hashes", [0]),
        ('"recipe"', [1]),
        ("message:secret", [2]),
        ("code:hash OR code:link", [0, 3]),
        ("NOT (code:hash OR code:link)", [1, 2]),
    ],
)
def test_finding_fields(query: str, want: list[int]) -> None:
    assert filter_findings(FINDINGS, query) == want


def test_row_fields_on_findings_are_about_the_rows_located(pkg, audit_findings) -> None:
    index = FindingsIndex(audit_findings, pkg)
    failure_ids = {
        row_id(pkg.read_row(i))
        for i in range(len(pkg.index))
        if pkg.read_row(i)["data_type"] == "failure_case"
    }
    got = filter_findings(index, "type:failure_case")
    # A finding is kept when any row it locates is one (a finding may concern many).
    assert got and all(
        {loc.row_id for loc in audit_findings[i].locations} & failure_ids for i in got
    )
    # Every finding naming such a row is kept (by id, or by file and line).
    want = [
        i for i, f in enumerate(audit_findings) if {loc.row_id for loc in f.locations} & failure_ids
    ]
    assert set(want) <= set(got)
    # row.<field> reaches every row field; unprefixed names only where unambiguous.
    assert filter_findings(index, "row.type:failure_case") == got
    assert filter_findings(index, "-type:failure_case") == sorted(
        set(range(len(audit_findings))) - set(got)
    )
    low = filter_findings(index, "code:row.low_score (quality<0.6 OR confidence:none)")
    assert low and all(audit_findings[i].code == "row.low_score" for i in low)
    # Without the package, a row field cannot be answered.
    with pytest.raises(QueryError, match="needs the package"):
        filter_findings(audit_findings, "type:failure_case")
    assert needs_package("type:x") and needs_package("row.file:x")
    assert not needs_package("file:x code:y severity:error")


def test_locations_are_read_in_one_place() -> None:
    f = FINDINGS[2]
    assert list(locations_of(f)) == [f.location]

    many = Finding(
        code="row.dup",
        severity=Severity.ERROR,
        message="m",
        locations=[Location(row_id="row_9"), Location(row_id="row_1", line=2)],
    )
    assert [loc.row_id for loc in locations_of(many)] == ["row_9", "row_1"]
    assert filter_findings([*FINDINGS, many], "row:row_1") == [2, 4]
    assert filter_findings([*FINDINGS, many], "row:row_9 line=2") == [4]


def test_evidence_fields(pkg, audit_findings) -> None:
    ix = pkg.index
    cat = pkg.catalog

    def ev(query: str) -> list[int]:
        out = filter_evidence(pkg, query, findings=audit_findings)
        return list(range(len(ix.evidence_ids))) if out is None else out.tolist()

    hidden = [i for i, e in enumerate(cat) if e.visibility == "hidden_excluded"]
    assert hidden and ev("visibility:hidden_excluded") == hidden
    assert ev("type:artifact") == [i for i, e in enumerate(cat) if e.evidence_type == "artifact"]
    assert ev("ref:*.csv") == [i for i, e in enumerate(cat) if e.ref.endswith(".csv")]
    assert ev("-resolves:yes") == [
        i for i in range(len(ix.evidence_ids)) if i >= len(cat) or cat[i].resolves is not True
    ]
    cited = [
        sum(
            ix.evidence_ids[i] in (pkg.read_row(r).get("source_evidence_ref_ids") or [])
            for r in range(len(ix))
        )
        for i in range(len(ix.evidence_ids))
    ]
    assert ev("cited<60") == [i for i, n in enumerate(cited) if n < 60]
    assert ev("cited=0 OR visibility:hidden_excluded") == sorted(
        {i for i, n in enumerate(cited) if n == 0} | set(hidden)
    )
    flagged = {
        f.location.evidence_id
        for f in audit_findings
        if f.code.startswith("link") and f.location.evidence_id
    }
    assert flagged and {ix.evidence_ids[i] for i in ev("finding:link")} == flagged


def test_finding_filters_look_at_every_location(tmp_path) -> None:
    """A finding about many rows matches a location term when any of its locations does,
    not only its first one (issue: a finding locates everything it concerns)."""
    from aa_review.core.findings import Finding, Location, Locations, RowTable, Severity
    from aa_review.core.package import open_package
    from aa_review.core.query import filter_findings, filter_rows
    from aa_review.generator import generate_package

    pkg = open_package(generate_package(tmp_path, rows=30, seed=2).root)
    ix = pkg.index
    far = len(ix) - 1  # a row far from the first location
    locs = Locations.at_rows(RowTable.of_index(ix), [0, 1, far], evidence_id="evidence_x")
    many = Finding(code="link.orphan", severity=Severity.ERROR, message="m", locations=locs)
    one = Finding(
        code="hash.changed",
        severity=Severity.ERROR,
        message="m",
        location=Location(file="a/b.json"),
    )
    last_id = ix.row_id_str(far)
    assert many.location.row_id == ix.row_id_str(0) != last_id
    for findings_pkg in (None, pkg):
        assert filter_findings([one, many], f"row:{last_id.upper()}", findings_pkg) == [1]
        assert filter_findings([one, many], f'"{last_id}"', findings_pkg) == [1]
        assert filter_findings([one, many], f"-row:{last_id}", findings_pkg) == [0]
        last_file = ix.files[int(ix.file[far])].rsplit("/", 1)[1]
        assert filter_findings([one, many], f"file:{last_file}", findings_pkg) == [1]
        assert filter_findings([one, many], "evidence:evidence_x", findings_pkg) == [1]
    # ...and the rows a finding concerns are all of them, for `finding:` over rows.
    from aa_review.core.query import FindingsIndex

    index = FindingsIndex([one, many], pkg)
    assert filter_rows(pkg, "finding:link.orphan", index).tolist() == [0, 1, far]
