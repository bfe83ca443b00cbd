"""The cheap first test of nesting depth says what counting the brackets says."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from aa_review.core.package.jsondepth import MAX_DEPTH, may_be_too_deep

_TEXT = st.lists(st.sampled_from([b"[", b"{", b"]", b"}", b"a", b'"', b"\n"]), max_size=400)


@given(_TEXT, st.integers(0, 400), st.one_of(st.none(), st.integers(0, 400)))
def test_bytes_as_counting_the_brackets(parts: list[bytes], start: int, end: int | None) -> None:
    raw = b"".join(parts)
    want = raw.count(b"[", start, end) + raw.count(b"{", start, end) > MAX_DEPTH
    assert may_be_too_deep(raw, start, end) is want
    assert may_be_too_deep(raw.decode(), start, end) is want


def test_one_bracket_over_the_limit() -> None:
    assert not may_be_too_deep(b"[" * MAX_DEPTH + b"x")
    assert may_be_too_deep(b"[" * MAX_DEPTH + b"{")
