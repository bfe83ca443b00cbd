"""The precision rule: a stored number compares as the table shows it, or at the decimals
the query writes when it writes more. Checked against Python's own formatting."""

from __future__ import annotations

import operator
import random
from decimal import Decimal

import numpy as np
import pytest

from aa_review.core.query import DISPLAY_DECIMALS, format_number
from aa_review.core.query._numbers import compare_rounded

OPS = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
    ":": operator.eq,
}


def _values() -> list[float]:
    rnd = random.Random(7)
    vals = [0.9299999999999999, 0.93, 0.6999, 0.7, 0.0005, 0.0015, -0.0625, 1e-9, 123456.7895]
    vals += [k / 16 for k in range(-20, 20)]  # binary ties: rounded to even
    vals += [k / 2000 for k in range(-50, 2050)]  # every half-way decimal near the grid
    vals += [rnd.random() for _ in range(500)] + [round(rnd.random(), 3) for _ in range(500)]
    return vals


@pytest.mark.parametrize(
    "literal",
    [
        "0.93",
        "0.7",
        "0.062",
        "0.063",
        "-0.062",
        "0.188",
        "1",
        "0",
        "-0",
        "0.0005",
        "1e-3",
        "0.9299999999999999",
        "0.12345",
        "0.31250",
        "123456.79",
        "123456.7895",
    ],
)
def test_matches_rounding_the_formatted_value(literal: str) -> None:
    vals = _values()
    col = np.array([*vals, float("nan")])
    lit = Decimal(literal)
    exp = lit.as_tuple().exponent
    d = max(DISPLAY_DECIMALS, -exp if isinstance(exp, int) and exp < 0 else 0)
    for op, fn in OPS.items():
        mask = compare_rounded(col, op, lit)
        want = [fn(Decimal(f"{v:.{d}f}"), lit) for v in vals] + [False]
        assert mask.tolist() == want, (op, literal)
    ne = compare_rounded(col, "!=", lit)
    assert ne.tolist() == [not w for w in [Decimal(f"{v:.{d}f}") == lit for v in vals]] + [True]


def test_the_rule_uses_the_table_format() -> None:
    assert format_number(0.9299999999999999) == "0.930"
    assert format_number(0.0625) == "0.062" and format_number(0.1875) == "0.188"
    assert format_number(float("nan")) == ""
    # What is shown is what is compared.
    col = np.array([0.9299999999999999, 0.0625])
    assert compare_rounded(col, "=", Decimal(format_number(col[0]))).tolist() == [True, False]
    assert compare_rounded(col, "=", Decimal(format_number(col[1]))).tolist() == [False, True]


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1e-400"])
def test_extreme_literals_compare_plainly(literal: str) -> None:
    col = np.array([0.0, 1.0, -1.0])
    assert compare_rounded(col, "<", Decimal(literal)).tolist() == [
        v < float(literal) for v in col.tolist()
    ]
