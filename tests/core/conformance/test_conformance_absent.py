"""One notion of absent (spec 1.1, settled in 15): no gate ever sees an empty value.

The typed models turn every absent input into ``None`` while parsing, so a predicate that
tests ``is None`` is right by construction. These tests empty every place of the spec
dossier in every way section 15 names and walk the parsed model: nothing empty survives,
and the raw tree the digests are computed from is untouched.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from spec_fixture import build

from aa_review.core.dossier import parse_dossier
from aa_review.core.dossier._absent import is_absent


def places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) below ``node`` (list elements included)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield (*path, k), v
            yield from places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield (*path, i), v
            yield from places(v, (*path, i))


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        tree = tree[step]
    tree[path[-1]] = value


def empties(value: Any) -> list[Any]:
    """The absent forms of section 15 that keep the value's JSON type."""
    if isinstance(value, str):
        return [""]
    if isinstance(value, dict):
        return [{}, dict.fromkeys(value), {"an_unknown_key": {}}]
    return []


def model_values(model: BaseModel, path: str = "") -> Iterator[tuple[str, Any, bool]]:
    """(path, value, is a list element) for every contract field of a parsed model."""
    for name in type(model).model_fields:
        value = getattr(model, name)
        yield f"{path}.{name}", value, False
        yield from _below(value, f"{path}.{name}")


def _below(value: Any, path: str) -> Iterator[tuple[str, Any, bool]]:
    if isinstance(value, BaseModel):
        yield from model_values(value, path)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield f"{path}.{k}", v, False
            yield from _below(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield f"{path}[{i}]", v, True
            yield from _below(v, f"{path}[{i}]")


BASE = build().dossier
CASES = [
    (path, empty)
    for path, value in places(BASE["evidence"])
    if not isinstance(path[-1], int)  # list elements are items, not fields
    for empty in empties(value)
]


def _absent_model(value: BaseModel) -> bool:
    return all(getattr(value, n) is None for n in type(value).model_fields)


@pytest.mark.parametrize(
    ("path", "empty"), CASES, ids=[f"{'.'.join(map(str, p))}={e!r}"[:90] for p, e in CASES]
)
def test_no_gate_sees_an_empty_value(path: tuple[Any, ...], empty: Any) -> None:
    tree = copy.deepcopy(BASE)
    _set(tree["evidence"], path, empty)
    raw_before = copy.deepcopy(tree)
    parsed = parse_dossier(tree)
    assert parsed.raw == raw_before  # digests are computed over the file as it was
    for where, value, item in model_values(parsed.model.evidence, "evidence"):
        assert value != "", where
        if isinstance(value, BaseModel) and not item:
            assert not _absent_model(value), f"{where} is present but holds nothing"
        if isinstance(value, dict) and not item:
            assert value != {}, where


def test_absent_is_about_the_expected_type_not_the_value() -> None:
    # "" where a string is expected is absent; where a boolean is, it is the wrong type.
    assert is_absent("", [str])
    assert not is_absent("", [bool])
    assert not is_absent({}, [str])
    assert is_absent([], [list[str]], non_empty=True)
    assert not is_absent([], [list[str]])  # grants: [] is the one allowed value
    assert not is_absent(0, [int]) and not is_absent(False, [bool])
