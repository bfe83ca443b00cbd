"""The privacy scan's string gathering takes every key and string of a value, at any
depth and in any mix of types (its fast paths for flat lists and objects included)."""

from __future__ import annotations

import random
from typing import Any

from aa_review.core.audits._privacy import PrivacyScanner, _strings


def _reference(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_reference(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _reference(v)]
    return []


def _value(rnd: random.Random, depth: int) -> Any:
    kind = rnd.choice("sifbnld" if depth < 4 else "sifbn")
    if kind == "s":
        return rnd.choice(["", "a", "/home/x", "plain", "k"]) + str(rnd.randrange(9))
    if kind == "i":
        return rnd.randrange(-5, 5)
    if kind == "f":
        return rnd.random()
    if kind == "b":
        return rnd.random() < 0.5
    if kind == "n":
        return None
    if kind == "l":
        if rnd.random() < 0.4:  # flat lists of strings, the common case
            return [f"s{i}" for i in range(rnd.randrange(4))]
        return [_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if rnd.random() < 0.4:
        return {f"k{i}": f"v{i}" for i in range(rnd.randrange(4))}
    return {f"k{i}": _value(rnd, depth + 1) for i in range(rnd.randrange(4))}


def test_every_key_and_string_at_any_depth() -> None:
    rnd = random.Random(26)
    for _ in range(3000):
        value = _value(rnd, 0)
        got: list[str] = []
        _strings(value, got)
        assert sorted(got) == sorted(_reference(value)), value


def test_a_private_path_in_a_flat_list_of_strings_is_found() -> None:
    hits = PrivacyScanner().scan_row({"evidence_refs": ["traces/a.json", "/home/alice/x"]})
    assert [h[0] for h in hits] == ["privacy.private_path"]
    hits = PrivacyScanner().scan_row({"k": {"a": "ok", "b": "/home/alice/y"}})
    assert [(h[0], h[1]) for h in hits] == [("privacy.private_path", "k.b")]
