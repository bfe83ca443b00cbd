"""A row chunk travels from a worker process compactly and comes back the same."""

from __future__ import annotations

import math
import pickle
import pickletools
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from aa_review.core.package.layout import EC_DIR, ROW_FILES
from aa_review.core.package.rowscan import RowChunk, scan_range


def same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN, and of the same types (an int stays an int)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def round_trip(chunk: RowChunk) -> RowChunk:
    back = pickle.loads(pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL))
    for f in fields(RowChunk):
        assert same(getattr(back, f.name), getattr(chunk, f.name)), f.name
    return back


def rows(n: int, **over: Any) -> RowChunk:
    ch = RowChunk(
        file_code=3,
        start=1 << 40,
        lines_seen=n + 2,
        line=list(range(1, n + 1)),
        offset=[i * 1000 for i in range(n)],
        length=[999] * n,
        row_id=[f"row-{i}" for i in range(n)],
        data_type=["a", "b", "a", ""][:n] * (n // 4 + 1),
        task=["t"] * n,
        set_code=[i % 2 for i in range(n)],
        confidence=[0.5, float("nan"), -0.0, 1e300][:n] * (n // 4 + 1),
        quality=[float("nan")] * n,
        digest=[(1 << 64) - 1 - i for i in range(n)],
        content_hash=[0] * n,
        set_pos=[(0, 5, -1), ()],
        unknown=["ev-unknown"],
    )
    ch.data_type = ch.data_type[:n]
    ch.confidence = ch.confidence[:n]
    for k, v in over.items():
        setattr(ch, k, v)
    return ch


def test_empty_chunk() -> None:
    round_trip(RowChunk(file_code=0, start=0))
    round_trip(RowChunk(file_code=0, start=0, set_pos=[]))


def test_columns_sets_problems_and_visited_payloads() -> None:
    visited = {"hashes": [b"\x00" * 40, None], "counts": {"x": 1}, "nan": float("nan")}
    problems = [("input.blank_line", "low", 7, "blank line"), ("x", "error", 0, "é")]
    round_trip(rows(8, problems=problems, visited=visited, refs={"e1": "ref/é"}))


def test_unicode_ids_and_the_separator_inside_an_id() -> None:
    ids = ["ünï-çødé", "行-1", "🙂", "", "a\x1fb", "\x00", "x\ud800y"[:1]]
    ch = round_trip(rows(len(ids), row_id=ids, task=ids, data_type=list(reversed(ids))))
    assert ch.row_id == ids


def test_sets_as_text_only_and_values_that_are_no_machine_numbers() -> None:
    # A synthetic chunk has only ``sets``; odd values still come back as they were.
    round_trip(rows(4, set_pos=None, sets=[("e1", "e2"), ()]))
    round_trip(rows(2, digest=[1 << 70, 2], length=[1, 2.5], set_pos=[(1 << 70,)]))


def test_data_type_and_task_share_their_strings() -> None:
    back = round_trip(rows(12))
    assert back.task[0] is back.task[-1]


@pytest.mark.parametrize("rel", [rel for rel, _ in ROW_FILES][:6])
def test_scanned_chunks_round_trip(sample_copy: Path, rel: str) -> None:
    relpath = f"{EC_DIR}/{rel}" if not rel.startswith(EC_DIR) else rel
    if not (sample_copy / relpath).exists():
        pytest.skip("row file absent in the sample")
    size = (sample_copy / relpath).stat().st_size
    for start, end in [(0, size), (0, size // 2), (size // 2, size)]:
        chunk = scan_range(str(sample_copy), relpath, 1, start, end, True, None, ("x",))
        round_trip(chunk)


def test_unpickling_does_not_build_one_object_per_value() -> None:
    # What holds the interpreter lock in the receiving process is the number of objects
    # unpickled one by one: it must not grow with the rows.
    def opcodes(n: int) -> int:
        ch = rows(n, row_id=[f"row-{i}" for i in range(n)], task=[f"t{i % 3}" for i in range(n)])
        ops = pickletools.genops(pickle.dumps(ch, pickle.HIGHEST_PROTOCOL))
        return sum(1 for op, _, _ in ops if op.name != "FRAME")  # a frame per 64 KiB

    assert opcodes(4000) == opcodes(40)
