"""Completion while typing (fields, operators, values from the package), and the term
edits facets make."""

from __future__ import annotations

import pytest

from aa_review.core.query import (
    EvidenceScope,
    FindingsScope,
    RowsScope,
    complete,
    parse_query,
    quote,
    set_term,
    term_value,
)


def accept(query: str, cursor: int, scope, pick: str) -> str:
    """The query after choosing the suggestion labelled ``pick``."""
    c = complete(scope, query, cursor)
    item = next(s for s in c.items if s.label == pick)
    return query[: c.start] + item.text + query[c.end :]


def test_field_names_from_a_prefix(pkg) -> None:
    rows = RowsScope(pkg)
    c = complete(rows, "type:x ev", 9)
    assert [s.label for s in c.items] == [
        "evidence",
        "evidence.visibility",
        "evidence.type",
        "evidence.ref",
    ]
    assert (c.start, c.end) == (7, 9) and all(s.kind == "field" for s in c.items)
    assert accept("type:x ev", 9, rows, "evidence.visibility") == "type:x evidence.visibility:"
    # Nothing typed yet: every field of this table (row.* fields only when asked).
    assert {s.label for s in complete(rows, "", 0).items} == set(rows.specs)
    findings = FindingsScope([], pkg)
    assert not any(s.label.startswith("row.") for s in complete(findings, "", 0).items)
    assert all(s.label.startswith("row.") for s in complete(findings, "row.", 4).items)


def test_numeric_fields_then_operators(pkg) -> None:
    rows = RowsScope(pkg)
    assert accept("conf", 4, rows, "confidence") == "confidence"
    ops = complete(rows, "confidence", 10)
    assert [s.text for s in ops.items] == [
        "confidence<",
        "confidence<=",
        "confidence>",
        "confidence>=",
        "confidence=",
        "confidence!=",
    ]
    assert complete(rows, "confidence<", 11).items == ()


def test_values_come_from_the_package(pkg) -> None:
    rows = RowsScope(pkg)
    c = complete(rows, "type:fa", 7)
    assert next(s.label for s in c.items) == "failure_case"
    counts = pkg.index.counts_by("data_type")
    assert c.items[0].detail == f"{counts['failure_case']} rows"
    # Prefix matches first, then values containing the text.
    labels = [s.label for s in complete(rows, "type:pair", 9).items]
    assert labels and all("pair" in x for x in labels)
    assert {s.label for s in complete(rows, "type:", 5).items} == set(counts)
    assert [s.label for s in complete(rows, "evidence.visibility:h", 21).items] == [
        "hidden_excluded"
    ]
    # In the middle of a word, the whole word is replaced.
    assert accept("type:fail OR x", 7, rows, "failure_case") == "type:failure_case OR x"
    # After a spaced operator, after '(' and '-'.
    assert complete(rows, "(type : fa", 10).items[0].label == "failure_case"
    assert {s.label for s in complete(rows, "-(", 2).items} == set(rows.specs)


def test_values_of_findings_and_evidence(pkg, audit_findings) -> None:
    findings = FindingsScope(audit_findings, pkg)
    codes = [s.label for s in complete(findings, "code:pri", 8).items]
    assert codes == sorted({f.code for f in audit_findings if f.code.startswith("pri")})
    assert [s.label for s in complete(findings, "severity:", 9).items] == [
        "info",
        "low",
        "warning",
        "error",
        "critical",
    ]
    assert [s.label for s in complete(findings, "quirk:", 6).items] == ["yes", "no"]
    assert "failure_case" in [s.label for s in complete(findings, "type:", 5).items]
    ev = EvidenceScope(pkg)
    assert [s.label for s in complete(ev, "visibility:", 11).items] == sorted(
        {e.visibility for e in pkg.catalog if e.visibility},
        key=lambda v: -sum(e.visibility == v for e in pkg.catalog),
    )
    # Quoted free text has no completion; keywords complete.
    assert complete(ev, '"abc', 4).items == ()
    assert [s.label for s in complete(ev, "type:a O", 8).items] == ["OR"]


def test_value_suggestions_are_quoted_when_needed() -> None:
    assert quote("a b") == '"a b"' and quote("or") == '"or"' and quote("x(1)") == '"x(1)"'
    assert quote('say "hi"') == r'"say \"hi\""' and quote("plain") == "plain"
    assert parse_query(f"task:{quote('a b')}").value == "a b"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("query", "field", "value", "want"),
    [
        (
            'confidence<0.5 "free text"',
            "type",
            "failure_case",
            'confidence<0.5 "free text" type:failure_case',
        ),
        ("type:a confidence<0.5", "type", "b", "confidence<0.5 type:b"),
        ("type:a confidence<0.5", "type", None, "confidence<0.5"),
        ("-type:a x", "type", None, "x"),
        ("type:a OR type:b", "type", "c", "(type:a OR type:b) type:c"),
        ("(type:a OR type:b) x", "task", "t 1", '(type:a OR type:b) x task:"t 1"'),
        ('"broken', "type", "x", "type:x"),
    ],
)
def test_set_term(query: str, field: str, value: str | None, want: str) -> None:
    out = set_term(query, field, value)
    assert out == want
    parse_query(out)  # always a valid query
    assert term_value(out, field) == value


def test_term_value_reads_top_level_terms_only() -> None:
    assert term_value("x type:y", "type") == "y"
    assert term_value("-type:y", "type") is None
    assert term_value("type:a OR type:b", "type") is None
    assert term_value("(broken", "type") is None


def test_completion_never_fails_on_unfinished_input(pkg) -> None:
    import itertools

    rows = RowsScope(pkg)
    pieces = ["(", ")", "OR", "-", "type:", "conf", "confidence <", '"a', "x"]
    for combo in itertools.product(pieces, repeat=3):
        q = " ".join(combo)
        for cursor in range(len(q) + 1):
            c = complete(rows, q, cursor)
            assert 0 <= c.start <= cursor <= c.end <= len(q), (q, cursor)


def test_row_values_of_evidence_fields_count_the_rows_citing_them(pkg) -> None:
    """The rows query's evidence.visibility and evidence.type values say "N rows": the
    rows citing an item of that value, which is what the term keeps (not catalog items)."""
    rows = RowsScope(pkg)
    for field in ("evidence.visibility", "evidence.type"):
        c = complete(rows, f"{field}:", len(field) + 1)
        assert c.items
        for s in c.items:
            kept = rows.mask(f"{field}:{s.text}")
            assert kept is not None
            assert s.detail == f"{int(kept.sum()):,} rows"
