"""Canonical JSON and digests (spec 1.3), over the parsed tree."""

from __future__ import annotations

import json

import pytest
from dossier_builder import passing

from aa_review.core.dossier import (
    SECTION_NAMES,
    canonical_json,
    evidence_digest,
    is_digest,
    json_digest,
    parse_dossier,
    section_digests,
)


def test_worked_example() -> None:
    value = {"b": [1, 2.5, "Ω"], "a": {"z": True, "y": None}}
    assert canonical_json(value) == '{"a":{"y":null,"z":true},"b":[1,2.5,"Ω"]}'.encode()
    assert json_digest(value) == (
        "sha256:8af398e35586f6a2234e9340b497ddcdb5c77df41ff5d3903b677b3784f30c41"
    )


def test_non_finite_numbers_are_not_json() -> None:
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("sha256:" + "0" * 64, True),
        ("sha256:" + "A" * 64, False),
        ("sha256:" + "0" * 63, False),
        ("sha512:" + "0" * 64, False),
        (None, False),
        (42, False),
    ],
)
def test_well_formed_digest(value: object, ok: bool) -> None:
    assert is_digest(value) is ok


def test_digest_is_over_the_parsed_tree_not_the_model() -> None:
    tree = passing()
    tree["evidence"]["expiry"]["expires_at"] = "2026-06-01T00:00:00Z"
    tree["evidence"]["unknown_future_section"] = {"n": 1}
    parsed = parse_dossier(tree)
    assert parsed.evidence_digest == json_digest(tree["evidence"])
    # A re-serialised model would not reproduce the bytes: ints become floats,
    # unset keys appear. This is why the raw tree is kept.
    dumped = parsed.model.evidence.model_dump(mode="json")
    assert json_digest(dumped) != parsed.evidence_digest
    assert parsed.raw == tree  # kept exactly, unknown fields included
    assert parsed.model.evidence.model_extra == {
        "trajectory_count": 125000,
        "unknown_future_section": {"n": 1},
    }


def test_section_digests_cover_every_section_and_missing_is_null() -> None:
    ev = passing()["evidence"]
    del ev["recurrence"]
    digests = section_digests(ev)
    assert set(digests) == set(SECTION_NAMES)
    assert len(SECTION_NAMES) == 19  # the eighteen of the spec plus source_packages
    assert digests["recurrence"] == json_digest(None)
    assert digests["license"] == json_digest(ev["license"])
    assert evidence_digest(ev) == json_digest(ev)


def test_key_order_and_whitespace_do_not_change_the_digest() -> None:
    ev = passing()["evidence"]
    reordered = json.loads(json.dumps(ev, indent=4, sort_keys=False))
    reordered = dict(reversed(list(reordered.items())))
    assert json_digest(reordered) == json_digest(ev)
