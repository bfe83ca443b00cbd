"""The grammar: what parses into which tree, and errors that say where and how to fix."""

from __future__ import annotations

import pytest

from aa_review.core.query import And, Not, Or, QueryError, Term, check_query, parse_query


def shape(node: object) -> object:
    """A tree as nested tuples, easy to compare."""
    if isinstance(node, Term):
        return (node.field, node.op, node.value) if node.field else node.value
    if isinstance(node, Not):
        return ("NOT", shape(node.node))
    if isinstance(node, (And, Or)):
        return ("AND" if isinstance(node, And) else "OR", *[shape(n) for n in node.nodes])
    return node


@pytest.mark.parametrize(
    ("query", "tree"),
    [
        ("", None),
        ("   ", None),
        ("type:a", ("type", ":", "a")),
        ("type:a OR type:b", ("OR", ("type", ":", "a"), ("type", ":", "b"))),
        ("type:a or type:b", ("OR", ("type", ":", "a"), ("type", ":", "b"))),
        # AND binds tighter than OR; juxtaposition is AND.
        ("a b OR c", ("OR", ("AND", "a", "b"), "c")),
        ("a AND b OR c AND d", ("OR", ("AND", "a", "b"), ("AND", "c", "d"))),
        ("a (b OR c)", ("AND", "a", ("OR", "b", "c"))),
        ("-(b OR c)", ("NOT", ("OR", "b", "c"))),
        ("NOT type:a", ("NOT", ("type", ":", "a"))),
        ("not -type:a", ("NOT", ("NOT", ("type", ":", "a")))),
        # Spaces around an operator change nothing.
        ("confidence < 0.7", ("confidence", "<", "0.7")),
        ("confidence<0.7", ("confidence", "<", "0.7")),
        ("confidence >=0.7", ("confidence", ">=", "0.7")),
        ("type : a", ("type", ":", "a")),
        ("Type:A", ("type", ":", "A")),
        # Values: quoted (with escapes), or bare up to a space or a parenthesis.
        ('task:"two words"', ("task", ":", "two words")),
        (r'"say \"hi\""', 'say "hi"'),
        ('"OR"', "OR"),
        ("(type:a)", ("type", ":", "a")),
        ("evidence.ref:a:b", ("evidence.ref", ":", "a:b")),
        ("confidence>-1", ("confidence", ">", "-1")),
        ("id:row-1", ("id", ":", "row-1")),
    ],
)
def test_trees(query: str, tree: object) -> None:
    assert shape(parse_query(query)) == tree


def test_terms_know_where_they_are() -> None:
    node = parse_query("type:a  confidence < 0.7")
    assert isinstance(node, And)
    t = node.nodes[1]
    assert isinstance(t, Term)
    assert (t.start, t.end, t.value_start, t.column) == (8, 24, 21, 9)


@pytest.mark.parametrize(
    ("query", "column", "text"),
    [
        ("type:a OR", 8, "OR needs a term on both sides"),
        ("OR type:a", 1, "OR needs a term before it"),
        ("type:a AND", 8, "AND needs a term on both sides"),
        ("a OR OR b", 3, "OR needs a term on both sides"),
        ("(type:a OR type:b", 1, "never closed"),
        ("((", 2, "never closed"),
        ("(a (b", 4, "never closed"),
        ("type:a)", 7, "closes no '('"),
        ("()", 1, "empty parentheses"),
        ("NOT", 1, "NOT needs a term after it"),
        ("a -", 3, "'-' negates the term right after it"),
        ("- type:a", 1, "with no space"),
        ('"unclosed', 1, "unclosed quote"),
        ("type:", 6, "needs a value"),
        ("confidence <", 13, "needs a value"),
        ("confidence < high", 14, "compares numbers"),
        ("confidence<0.7.1", 12, "compares numbers"),
        ("type<3", 1, "not a number"),
        ("typ:x", 1, "did you mean 'type'"),
        ("conf<0.5", 1, "did you mean 'confidence'"),
        ("severity:bad", 10, "unknown severity"),
        ("http://example.org", 1, 'quote it: "http://example.org"'),
        ("evidence<many", 10, "compares numbers"),
        ("confidence<none", 1, "confidence:none"),
    ],
)
def test_errors_name_the_column_and_the_fix(query: str, column: int, text: str) -> None:
    with pytest.raises(QueryError) as info:
        check_query(query, "rows")
    assert info.value.column == column, str(info.value)
    assert text in info.value.message
    # The printed form shows the query and a caret under the column.
    lines = str(info.value).splitlines()
    assert lines[1].strip() == query.strip() and lines[2].index("^") == column + 1


@pytest.mark.parametrize(
    ("query", "accepted_by", "rejected_by"),
    [
        ("quirk:no", "findings", "rows"),
        ("row.file:x type:failure_case", "findings", "evidence"),
        ("resolves:yes cited>3", "evidence", "rows"),
        ("line>3 finding:privacy severity>=warning", "rows", "evidence"),
        ("cited>3", "evidence", "findings"),
    ],
)
def test_fields_are_per_table(query: str, accepted_by: str, rejected_by: str) -> None:
    check_query(query, accepted_by)
    with pytest.raises(QueryError, match="unknown field"):
        check_query(query, rejected_by)


@pytest.mark.parametrize(
    "query", ["(" * 5000 + "a" + ")" * 5000, "-" * 5000 + "a", "NOT " * 3000 + "a"]
)
def test_deep_nesting_is_refused_not_a_crash(query: str) -> None:
    with pytest.raises(QueryError, match="nested more than 64 deep"):
        check_query(query, "rows")
    ok = "(" * 60 + "type:a" + ")" * 60
    assert shape(parse_query(ok)) == ("type", ":", "a")


def test_long_flat_queries_are_fine() -> None:
    node = parse_query(" OR ".join(f"type:t{i}" for i in range(5000)))
    assert isinstance(node, Or) and len(node.nodes) == 5000


def test_flags_take_yes_or_no() -> None:
    with pytest.raises(QueryError, match="takes yes or no"):
        check_query("quirk:maybe", "findings")


def test_any_short_input_parses_or_fails_with_a_located_message() -> None:
    import itertools

    pieces = ["(", ")", "OR", "AND", "NOT", "-a", "a", "x:", "type<", '"', "-"]
    for n in range(1, 4):
        for combo in itertools.product(pieces, repeat=n):
            q = " ".join(combo)
            try:
                check_query(q, "rows")
            except QueryError as exc:  # most combinations parse; the rest are checked here
                assert 1 <= exc.column <= len(q) + 1, q  # noqa: PT017
                assert "EOF" not in exc.message, q  # noqa: PT017
