"""Row queries against answers computed from the rows on disk."""

from __future__ import annotations

import numpy as np
import pytest

from aa_review.core.findings import Finding, Location, Severity
from aa_review.core.query import FindingsIndex, QueryError, RowsScope, filter_rows

from .oracles import cited_ids, row_id, rows_where, shown, visibility_of


def got(pkg, query: str, findings=None) -> list[int]:
    out = filter_rows(pkg, query, findings)
    return list(range(len(pkg.index))) if out is None else out.tolist()


def test_empty_query_keeps_every_row(pkg) -> None:
    assert filter_rows(pkg, "") is None and filter_rows(pkg, "  ") is None


def test_or_of_two_types_is_their_union(pkg) -> None:
    # Issue: "type:a OR type:b return 0 rows with no error".
    want = rows_where(pkg, lambda r, f: r["data_type"] in ("failure_case", "preference_pair"))
    assert got(pkg, "type:failure_case OR type:preference_pair") == want
    assert len(want) == len(got(pkg, "type:failure_case")) + len(got(pkg, "type:preference_pair"))
    assert want


def test_spaced_operator_means_the_same(pkg) -> None:
    # Issue: "confidence < 0.7 (spaces around the operator) ... return 0 rows with no error".
    want = rows_where(
        pkg,
        lambda r, f: shown(r.get("confidence")) is not None and shown(r.get("confidence")) < 0.7,
    )
    assert want
    for q in ("confidence < 0.7", "confidence<0.7", "confidence <0.7", "confidence< 0.7"):
        assert got(pkg, q) == want, q


def test_comparison_at_the_precision_shown(pkg) -> None:
    # Issue: "The table shows 0.930 ... yet confidence>=0.93 returns none
    # (the stored value is 0.9299999999999999)".
    stored = [pkg.read_row(i).get("confidence") for i in range(len(pkg.index))]
    noisy = [i for i, v in enumerate(stored) if v == 0.9299999999999999]
    assert noisy and set(noisy) <= set(got(pkg, "confidence>=0.93"))
    assert set(noisy) <= set(got(pkg, "confidence=0.93"))
    assert set(noisy).isdisjoint(got(pkg, "confidence>0.93"))
    # Writing more decimals compares more of the stored value.
    assert got(pkg, "confidence=0.9299999999999999") == noisy
    assert set(got(pkg, "confidence=0.93")) - set(noisy) == {
        i for i, v in enumerate(stored) if v == 0.93
    }
    # 0.6999 is shown as 0.700: not below 0.7, but below 0.7000 written with 4 decimals.
    r6999 = [i for i, v in enumerate(stored) if v == 0.6999]
    assert r6999 and set(r6999).isdisjoint(got(pkg, "confidence<0.7"))
    assert set(r6999) <= set(got(pkg, "confidence<0.7000"))


def test_missing_numbers_match_only_none_and_not_equal(pkg) -> None:
    missing = rows_where(pkg, lambda r, f: "confidence" not in r)
    assert missing and got(pkg, "confidence:none") == missing
    for q in ("confidence<2", "confidence>=0", "confidence=0.5"):
        assert set(missing).isdisjoint(got(pkg, q)), q
    assert set(missing) <= set(got(pkg, "confidence!=0.5"))
    assert got(pkg, "confidence!=none") == sorted(set(range(len(pkg.index))) - set(missing))


def test_negation_forms_agree_and_complement(pkg) -> None:
    every = set(range(len(pkg.index)))
    pos = set(got(pkg, "type:*_event"))
    assert pos == set(rows_where(pkg, lambda r, f: r["data_type"].endswith("_event")))
    for q in ("-type:*_event", "NOT type:*_event", "not (type:*_event)", "-(type:*_event)"):
        assert set(got(pkg, q)) == every - pos, q
    assert set(got(pkg, "type!=failure_case")) == every - set(got(pkg, "type:failure_case"))


def test_parentheses_change_the_grouping(pkg) -> None:
    a = set(got(pkg, "type:failure_case"))
    b = set(got(pkg, "type:preference_pair"))
    low = set(got(pkg, "quality<0.6"))
    assert set(got(pkg, "type:failure_case OR type:preference_pair quality<0.6")) == a | (b & low)
    assert set(got(pkg, "(type:failure_case OR type:preference_pair) quality<0.6")) == (a | b) & low
    assert (
        set(got(pkg, "(type:failure_case OR type:preference_pair) AND quality<0.6"))
        == (a | b) & low
    )


def test_text_fields(pkg) -> None:
    assert got(pkg, "file:environment/") == rows_where(pkg, lambda r, f: "environment/" in f)
    assert got(pkg, "file:*/training_time_package/*_pairs.jsonl") == rows_where(
        pkg, lambda r, f: "/training_time_package/" in f and f.endswith("_pairs.jsonl")
    )
    some = row_id(pkg.read_row(7))
    assert got(pkg, f"id:{some[-12:].upper()}") == [7]
    assert got(pkg, f"id={some}") == [7]
    assert got(pkg, f"id:{some[:8]}*{some[-6:]}") == rows_where(
        pkg, lambda r, f: row_id(r).startswith(some[:8]) and row_id(r).endswith(some[-6:])
    )
    # Free text: id, type, file or task.
    assert got(pkg, '"failure_case"') == rows_where(
        pkg,
        lambda r, f: (
            "failure_case" in row_id(r) or "failure_case" in r["data_type"] or "failure_case" in f
        ),
    )


def test_evidence_fields(pkg) -> None:
    vis = visibility_of(pkg)
    want = rows_where(pkg, lambda r, f: any(vis.get(e) == "hidden_excluded" for e in cited_ids(r)))
    assert want and got(pkg, "evidence.visibility:hidden_excluded") == want
    assert len(want) < len(pkg.index)
    assert got(pkg, "evidence<32") == rows_where(pkg, lambda r, f: len(cited_ids(r)) < 32)
    assert got(pkg, "evidence:33") == rows_where(pkg, lambda r, f: len(cited_ids(r)) == 33)
    hidden = next(e for e, v in vis.items() if v == "hidden_excluded")
    assert got(pkg, f"evidence:{hidden}") == want
    assert got(pkg, f"evidence!={hidden}") == sorted(set(range(len(pkg.index))) - set(want))


def _finding(code: str, sev: Severity, **loc: object) -> Finding:
    return Finding(code=code, severity=sev, message="m", location=Location(**loc))


def test_finding_and_severity_need_findings_and_use_locations(pkg) -> None:
    with pytest.raises(QueryError, match="run the audit first"):
        filter_rows(pkg, "finding:privacy")
    ix = pkg.index
    file3 = ix.files[int(ix.file[3])]
    findings = [
        _finding("privacy.private_path", Severity.ERROR, row_id=ix.row_id_str(5)),
        _finding("row.low_score", Severity.WARNING, file=file3, line=int(ix.line[3])),
        _finding("hash.changed", Severity.CRITICAL, file="input/invoices.csv"),
    ]
    assert got(pkg, "finding:privacy", findings) == [5]
    assert got(pkg, "finding:row.low OR finding:privacy", findings) == [3, 5]
    assert got(pkg, "severity:warning", findings) == [3, 5]
    assert got(pkg, "severity=warning", findings) == [3]
    assert got(pkg, "severity>warning", findings) == [5]
    assert len(got(pkg, "-finding:privacy", findings)) == len(ix) - 1
    # A prebuilt index gives the same answers.
    assert got(pkg, "severity:warning", FindingsIndex(findings, pkg)) == [3, 5]


def test_real_audit_findings(pkg, audit_findings) -> None:
    ids = {f.location.row_id for f in audit_findings if f.code.startswith("privacy")}
    assert (
        ids
        and {row_id(pkg.read_row(i)) for i in got(pkg, "finding:privacy", audit_findings)} == ids
    )


def test_scope_mask_and_speed_shape(pkg) -> None:
    scope = RowsScope(pkg)
    m = scope.mask("type:failure_case OR confidence<0.5")
    assert m is not None and m.dtype == bool and len(m) == len(pkg.index)
    assert np.flatnonzero(m).tolist() == got(pkg, "type:failure_case OR confidence<0.5")


@pytest.mark.parametrize(
    "pattern",
    ["a*a", "*ab*", "ab*", "*b", "a*b*a", "**", "*a*b*c*", "abc", "b?a", "*", "a*", "ba*ab"],
)
def test_id_wildcards_match_like_fnmatch(pattern: str) -> None:
    import fnmatch
    import random

    from aa_review.core.query._match import match_bytes

    rnd = random.Random(pattern)
    ids = ["", "a", "aa", "ab", "ba", "aba", "abba", "bab"] + [
        "".join(rnd.choice("abc") for _ in range(rnd.randint(0, 7))) for _ in range(400)
    ]
    folded = np.array([x.encode() for x in ids])
    got = match_bytes(folded, pattern, ":").tolist()
    if "*" in pattern or "?" in pattern:
        want = [fnmatch.fnmatchcase(x, pattern) for x in ids]
    else:
        want = [pattern in x for x in ids]
    assert got == want
