"""JSON values compared as values: key order and number spelling aside, types kept."""

from __future__ import annotations

from aa_review.core.diff import changed_paths, json_equal


def test_values_not_text() -> None:
    assert json_equal({"a": 1, "b": [1, 2]}, {"b": [1, 2.0], "a": 1.0})
    assert not json_equal(True, 1) and not json_equal(0, False) and not json_equal(None, 0)
    assert not json_equal([1, 2], [2, 1]) and not json_equal({"a": 1}, {"a": 1, "b": None})
    assert not json_equal("1", 1)


def test_paths() -> None:
    a = {"x": 1, "y": {"z": "s", "w": [1, 2]}, "refs": {"a/b.json": "h1"}, "l": [1]}
    b = {"x": 2, "y": {"z": "t", "w": [1, 3]}, "refs": {"a/b.json": "h2"}, "l": [1, 2], "n": 0}
    assert changed_paths(a, b) == ["x", "y.z", "y.w[1]", 'refs["a/b.json"]', "l", "n"]
    assert changed_paths(1, "1") == ["$"]
    assert len(changed_paths({str(i): i for i in range(50)}, {}, limit=7)) == 7
