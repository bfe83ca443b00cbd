"""The shared filter syntax: parsing, evaluation on rows/evidence/findings, and its errors."""

from __future__ import annotations

import numpy as np
import pytest

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.package import open_package
from aa_review.core.query import (
    QueryError,
    filter_evidence,
    filter_findings,
    filter_rows,
    parse_query,
)


@pytest.fixture
def pkg(sample_copy):
    return open_package(sample_copy)


def rows_where(pkg, pred) -> list[int]:
    return [i for i in range(len(pkg.index)) if pred(pkg.read_row(i))]


def test_parse_terms() -> None:
    terms = parse_query('type:preference_pair evidence.visibility:hidden_excluded '
                        'confidence<0.5 "free text" -file:x')
    assert [(t.field, t.op, t.value, t.negated) for t in terms] == [
        ("type", ":", "preference_pair", False),
        ("evidence.visibility", ":", "hidden_excluded", False),
        ("confidence", "<", "0.5", False),
        (None, ":", "free text", False),
        ("file", ":", "x", True),
    ]
    assert terms[2].column == 58


@pytest.mark.parametrize("query, column, text", [
    ('"unclosed', 1, "unclosed quote"),
    ("typ:x", 1, "did you mean 'type'"),
    ("type:a confidence<high", 8, "not one"),
    ("type:", 6, "needs a value"),
])
def test_errors_say_where(pkg, query: str, column: int, text: str) -> None:
    with pytest.raises(QueryError) as info:
        filter_rows(pkg, query)
    assert info.value.column == column and text in str(info.value)


def test_row_filters_match_a_python_oracle(pkg) -> None:
    assert filter_rows(pkg, "") is None
    got = filter_rows(pkg, "type:failure_case").tolist()
    assert got == rows_where(pkg, lambda r: r["data_type"] == "failure_case")
    got = filter_rows(pkg, "type:*_event -type:api*").tolist()
    assert got == rows_where(pkg, lambda r: r["data_type"].endswith("_event")
                             and not r["data_type"].startswith("api"))
    got = filter_rows(pkg, "confidence>=0.93 quality<0.95").tolist()
    assert got == rows_where(pkg, lambda r: r["confidence"] >= 0.93 and r["quality_score"] < 0.95)
    some_id = pkg.index.row_id_str(9)
    assert filter_rows(pkg, f'"{some_id[-10:]}"').tolist() == [9]


def test_evidence_terms_on_rows(pkg) -> None:
    cat = pkg.catalog
    artifact = next(e for e in cat if e.evidence_type == "artifact")
    got = filter_rows(pkg, f"evidence:{artifact.evidence_id}").tolist()
    assert got == rows_where(pkg, lambda r: artifact.evidence_id in r["source_evidence_ref_ids"])
    assert len(filter_rows(pkg, "evidence.visibility:hidden_excluded")) == 0
    assert len(filter_rows(pkg, "evidence.type:artifact")) == 60
    assert len(filter_rows(pkg, "evidence>100")) == 0


def test_evidence_and_finding_filters(pkg) -> None:
    cited = np.full(len(pkg.index.evidence_ids), 60)
    got = filter_evidence(pkg, "type:artifact", cited).tolist()
    assert got == [i for i, e in enumerate(pkg.catalog) if e.evidence_type == "artifact"]
    assert filter_evidence(pkg, "ref:rubric", cited).tolist() == [
        i for i, e in enumerate(pkg.catalog) if "rubric" in e.ref]
    findings = [
        Finding(code="hash.changed", severity=Severity.ERROR, message="m",
                location=Location(file="a/b.json")),
        Finding(code="quirk.recipe", severity=Severity.LOW, message="m", quirk=True),
        Finding(code="privacy.secret", severity=Severity.CRITICAL, message="m",
                location=Location(row_id="row_1")),
    ]
    assert filter_findings(findings, "severity:error") == [0, 2]
    assert filter_findings(findings, "code:quirk") == [1]
    assert filter_findings(findings, "-quirk:yes file:b.json") == [0]
    assert filter_findings(findings, "row:row_1") == [2]
    with pytest.raises(QueryError, match="unknown severity"):
        filter_findings(findings, "severity:bad")


def test_finding_filters_look_at_every_location(tmp_path) -> None:
    from aa_review.core.findings import Locations, RowTable
    from aa_review.core.generator import generate_package

    ix = open_package(generate_package(tmp_path, rows=30, seed=2).root).index
    far = len(ix) - 1  # a row far from the first location
    locs = Locations.at_rows(RowTable.of_index(ix), [0, 1, far], evidence_id="evidence_x")
    many = Finding(code="link.orphan", severity=Severity.ERROR, message="m", locations=locs)
    one = Finding(code="hash.changed", severity=Severity.ERROR, message="m",
                  location=Location(file="a/b.json"))
    last_id = ix.row_id_str(far)
    assert many.location.row_id == ix.row_id_str(0) != last_id
    assert filter_findings([one, many], f"row:{last_id.upper()}") == [1]
    assert filter_findings([one, many], f'"{last_id}"') == [1]
    assert filter_findings([one, many], f"-row:{last_id}") == [0]
    last_file = ix.files[int(ix.file[far])].rsplit("/", 1)[1]
    assert filter_findings([one, many], f"file:{last_file}") == [1]
    assert filter_findings([one, many], "evidence:evidence_x") == [1]


def test_finding_terms_need_an_audit(pkg) -> None:
    with pytest.raises(QueryError, match="needs an audit"):
        filter_rows(pkg, "finding:hash")
    mask = np.zeros(len(pkg.index), bool)
    mask[3] = True
    assert filter_rows(pkg, "finding:hash", lambda code, sev: mask).tolist() == [3]


def test_set_term_toggles_a_facet() -> None:
    from aa_review.core.query import set_term, term_value

    q = set_term('confidence<0.5 "free text"', "type", "failure_case")
    assert q == 'confidence<0.5 "free text" type:failure_case'
    q = set_term(q, "type", "task_variant")
    assert q == 'confidence<0.5 "free text" type:task_variant'
    assert term_value(q, "type") == "task_variant"
    assert set_term(q, "type", None) == 'confidence<0.5 "free text"'
    assert set_term('"broken', "type", "x") == "type:x"
