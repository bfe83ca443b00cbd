"""Comparing stored numbers with a query's number at the precision the user sees.

The rule: a stored value is rounded to ``max(DISPLAY_DECIMALS, decimals written in the
query)`` decimals, exactly as the table formats it (``f"{v:.3f}"``: the decimal nearest
to the stored binary value, ties to even), and the rounded value is compared. So
``confidence>=0.93`` keeps a row stored as 0.9299999999999999 and shown as ``0.930``,
while ``confidence=0.9299999999999999`` (16 decimals) compares the full stored value.

Rounding every value of a million-row column would cost time and be subtly different
from string formatting; instead each comparison becomes one comparison of the raw
values against the exact boundary where the rounded value changes.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

__all__ = ["DISPLAY_DECIMALS", "compare_rounded", "compare_exact", "format_number"]

DISPLAY_DECIMALS = 3


def format_number(value: float) -> str:
    """How tables show a stored number (empty for a missing one)."""
    return "" if math.isnan(value) else f"{value:.{DISPLAY_DECIMALS}f}"


def _decimals(literal: Decimal) -> int:
    exp = literal.as_tuple().exponent
    return max(0, -exp) if isinstance(exp, int) else 0


def _rounds_to_at_least(col: np.ndarray, t: Decimal, d: int) -> np.ndarray:
    """``round(col, d) >= t`` for ``t`` on the ``d``-decimal grid, ties to even."""
    half = Decimal(5).scaleb(-(d + 1))
    b = t - half  # values above b round to t or more; b itself is a tie
    bf = float(b)
    exact = Decimal(bf)
    if exact > b:
        return col >= bf
    if exact < b:
        return col > bf
    # b is a binary number: it rounds to whichever neighbour has an even last digit.
    even = int(t.scaleb(d)) % 2 == 0
    return col >= bf if even else col > bf


def compare_rounded(col: np.ndarray, op: str, literal: Decimal) -> np.ndarray:
    """Mask of ``round(col) op literal`` under the rule above; NaN matches only ``!=``."""
    d = max(DISPLAY_DECIMALS, _decimals(literal))
    if literal.adjusted() > 300 or d > 330:  # beyond doubles: no rounding can matter
        return compare_exact(col, op, literal)
    with localcontext() as ctx:
        ctx.prec = 800  # exact arithmetic on every literal that reaches here
        return _compare(col, op, literal, d)


def _compare(col: np.ndarray, op: str, literal: Decimal, d: int) -> np.ndarray:
    t = literal.quantize(Decimal(1).scaleb(-d))  # exact: literal has at most d decimals
    step = Decimal(1).scaleb(-d)
    ge_t = _rounds_to_at_least(col, t, d)
    if op == ">=":
        return ge_t
    ge_next = _rounds_to_at_least(col, t + step, d)
    if op == ">":
        return ge_next
    present = ~np.isnan(col)
    out: np.ndarray
    if op == "<":
        out = ~ge_t & present
    elif op == "<=":
        out = ~ge_next & present
    else:
        equal = ge_t & ~ge_next
        out = ~equal if op == "!=" else equal
    return out


def compare_exact(col: np.ndarray, op: str, literal: Decimal) -> np.ndarray:
    """Mask of ``col op literal`` for whole-number columns (line, counts)."""
    x = float(literal)
    out: np.ndarray = {
        "<": col.__lt__,
        "<=": col.__le__,
        ">": col.__gt__,
        ">=": col.__ge__,
        "=": col.__eq__,
        ":": col.__eq__,
        "!=": col.__ne__,
    }[op](x)
    return out
