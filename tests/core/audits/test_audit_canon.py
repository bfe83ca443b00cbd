"""Row ids and content hashes recompute byte-exactly, whatever the values and their order."""

from __future__ import annotations

import random
from typing import Any

import orjson

from aa_review.core.audits._canon import Canon, id_from_seed
from aa_review.core.package import derive

_SCALARS: list[Any] = [
    0,
    1,
    -7,
    2**53 + 1,
    0.0,
    -0.0,
    1.0,
    0.1,
    1e-05,
    1e16,
    1.5e300,
    0.7999999999999999,
    True,
    False,
    None,
    "",
    "x",
    "é ü",
    'tab\t"q"',
    "\x7f\x01",
    "😀 astral",
    "sha256:ab",
    "a/b\\c",
]


def _value(rnd: random.Random, depth: int = 0) -> Any:
    r = rnd.random()
    if depth > 2 or r < 0.5:
        return rnd.choice(_SCALARS)
    if r < 0.75:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    keys = rnd.sample(["b", "a", "Z", "é", "k1", "k10", "k2", "_"], rnd.randint(0, 5))
    return {k: _value(rnd, depth + 1) for k in keys}


def _row(rnd: random.Random, base: dict[str, Any]) -> dict[str, Any]:
    row = dict(base)
    for key in rnd.sample(list(row), rnd.randint(1, 4)):  # a few values change per row
        row[key] = _value(rnd)
    if not isinstance(row["data_type"], str):
        row["data_type"] = "task_variant"
    return row


def test_random_rows_recompute_exactly() -> None:
    rnd = random.Random(1234)
    fields = [
        "schema_version",
        "source_task_id",
        "data_type",
        "input",
        "target",
        "tdo_round",
        "source_trace_id",
        "source_step_ids",
        "source_attempt_ids",
        "evidence_refs",
        "accepted",
        "rejection_reason",
        "created_at",
        "row_id",
        "row_content_hash",
        "model_training_targets",
        "extra_after",
    ]
    canon = Canon()
    for _layout in range(6):
        order = rnd.sample(fields, len(fields))
        base = {k: _value(rnd) for k in order}
        base["data_type"] = rnd.choice(["training_example", "preference_pair"])
        for _ in range(60):
            row = _row(rnd, base)
            row = orjson.loads(orjson.dumps(row))  # as read from a file
            assert canon.content_hash(row) == derive.row_content_hash(row)
            seed, task = canon.seed_text(row, "fallback_task")
            raw_task = row.get("source_task_id") or "fallback_task"
            want = derive.row_id(
                row.get("data_type"),
                raw_task,
                row.get("source_trace_id"),
                row.get("source_step_ids"),
                row.get("source_attempt_ids"),
                row.get("input"),
                row.get("target"),
                row.get("tdo_round"),
            )
            assert id_from_seed(seed, row.get("data_type"), task) == want
            base = row if rnd.random() < 0.5 else base


def test_type_flips_between_equal_values_are_seen() -> None:
    canon = Canon()
    base = {
        "a": [1, 2],
        "b": "x",
        "c": 1,
        "d": 0.0,
        "e": {"k": "v"},
        "f": [None, "s"],
        "model_training_targets": {},
    }
    for change in (
        {},
        {"c": True},
        {"c": 1.0},
        {"d": -0.0},
        {"a": [1.0, 2]},
        {"a": [True, 2]},
        {"f": [None, "s"]},
        {"e": {"k": None}},
        {},
        {"c": 1},
    ):
        row = {**base, **change}
        assert canon.content_hash(row) == derive.row_content_hash(row), change


def test_hostile_rows_never_crash_the_rules() -> None:
    from aa_review.core.audits._codes import CODES
    from aa_review.core.audits._rowrules import RowAuditor, ScanConfig

    rnd = random.Random(7)
    aud = RowAuditor(
        ScanConfig(root=".", task_id="t", row_schema="s", rules=frozenset(CODES) | {"privacy"})
    )
    keys = [
        "data_type",
        "row_id",
        "pair_id",
        "input",
        "target",
        "task_lineage",
        "domain",
        "source_evidence_ref_ids",
        "evidence_refs",
        "source_artifact_refs",
        "source_content_hashes",
        "quality_score",
        "accepted",
        "tdo_round",
        "source_step_ids",
        "row_content_hash",
        "model_training_targets",
    ]
    for i in range(300):
        row = {k: _value(rnd) for k in rnd.sample(keys, rnd.randint(0, len(keys)))}
        aud.check(row, "training_example")
        aud.feed_privacy(i, row)
    aud.privacy_hits()


def test_each_value_is_written_as_json_dumps_writes_it() -> None:
    """``enc`` (the kept C encoder among its shortcuts) against ``json.dumps`` itself."""
    import json

    from aa_review.core.audits._canon import enc

    rnd = random.Random(7)
    for _ in range(3000):
        v = _value(rnd)
        assert enc(v) == json.dumps(v, sort_keys=True), v
