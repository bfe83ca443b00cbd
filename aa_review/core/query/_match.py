"""Matching a term's text against columns: small tables of distinct values, or byte ids."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from aa_review.core.query._fields import Kind

__all__ = ["match_table", "match_bytes", "has_wildcard"]


def has_wildcard(value: str) -> bool:
    return "*" in value or "?" in value


def _pattern(value: str) -> re.Pattern[str]:
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in value)
    return re.compile("".join(parts), re.DOTALL)


def match_table(names: Sequence[str], value: str, kind: Kind, op: str) -> np.ndarray:
    """Which of ``names`` (distinct values, e.g. the data types) a text term selects.

    ``:`` is the field's own match: a substring (TEXT), the whole value (ENUM) or a
    prefix (PREFIX); with ``*`` or ``?`` the whole value must fit the pattern. ``=`` is
    the whole value. Case is ignored. (``!=`` is handled by the caller as ``-field=``.)
    """
    v = value.lower()
    folded = [n.lower() for n in names]
    if op == "=" or (kind is Kind.ENUM and not has_wildcard(v)):
        hit = [n == v for n in folded]
    elif has_wildcard(v):
        pat = _pattern(v)
        hit = [pat.fullmatch(n) is not None for n in folded]
    elif kind is Kind.PREFIX:
        hit = [n.startswith(v) for n in folded]
    else:
        hit = [v in n for n in folded]
    return np.array(hit, dtype=bool) if hit else np.zeros(0, dtype=bool)


def match_bytes(folded: np.ndarray, value: str, op: str) -> np.ndarray:
    """``match_table`` for TEXT over a lower-cased bytes column (row ids), vectorised."""
    v = value.lower().encode("utf-8")
    if op == "=":
        same: np.ndarray = folded == v
        return same
    if b"?" in v:
        pat = _pattern(value.lower())
        return np.array(
            [pat.fullmatch(x.decode("utf-8", "replace")) is not None for x in folded.tolist()],
            dtype=bool,
        )
    if b"*" not in v:
        return np.strings.find(folded, v) >= 0
    return _anchored(folded, v.split(b"*"))


def _anchored(folded: np.ndarray, parts: list[bytes]) -> np.ndarray:
    """``parts`` joined by ``*`` fit each whole value: the first part a prefix, the last a
    suffix, the others in order between. Each test runs only on the values the tests
    before it kept (the first on the column itself, never a copy of a million ids)."""
    first, last, middle = parts[0], parts[-1], [p for p in parts[1:-1] if p]
    keep: np.ndarray | None = None  # None: every value still in

    def narrow(test: np.ndarray) -> np.ndarray:
        return np.flatnonzero(test) if keep is None else keep[test]

    def values() -> np.ndarray:
        return folded if keep is None else folded[keep]

    if last:
        keep = narrow(np.strings.endswith(values(), last))
    if first:
        keep = narrow(np.strings.startswith(values(), first))
    pos = np.full(len(folded) if keep is None else len(keep), len(first), dtype=np.int64)
    for part in middle:
        at = np.strings.find(values(), part, pos)
        hit = at >= 0
        keep, pos = narrow(hit), at[hit] + len(part)
    if last:  # the suffix must start after the prefix and the middle parts end
        keep = narrow(np.strings.str_len(values()) - len(last) >= pos)
    out = np.zeros(len(folded), dtype=bool)
    out[slice(None) if keep is None else keep] = True
    return out
