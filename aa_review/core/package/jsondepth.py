"""How deeply a parsed JSON value nests, checked cheaply (standard library only).

orjson reads up to 1,024 levels, but the checks walk values recursively (the compiler's
``json.dumps`` text for row hashes, orjson's own encoder stops at 255): a value nested
deeper than :data:`MAX_DEPTH` is a located problem of its file, never a crash later.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_DEPTH", "too_deep", "may_be_too_deep"]

MAX_DEPTH = 128  # the compiler writes rows about 10 levels deep


def may_be_too_deep(text: bytes | str, start: int = 0, end: int | None = None) -> bool:
    """A cheap first test on a value's JSON text: fewer opening brackets than the limit
    cannot nest deeper than it."""
    if isinstance(text, str):
        return text.count("[", start, end) + text.count("{", start, end) > MAX_DEPTH
    if start or end is not None:
        text = text[start:end]
    # What is left once the brackets are removed: removing finds them with memchr, some
    # four times faster than counting them byte by byte (bytes.count of one byte), and
    # every row line is tested.
    return len(text) - len(text.replace(b"[", b"").replace(b"{", b"")) > MAX_DEPTH


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests more than ``limit`` lists and objects deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            if d > limit:
                return True
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            if d > limit:
                return True
            stack.extend((x, d + 1) for x in v)
    return False
