"""Strict journal lines: exactly canonical JSON, bounded in size, depth and integers (spec 10.4).

Nothing here raises for bad content: a line either parses to an entry or becomes
a :class:`MalformedLine` that says why.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from aa_review.core.dossier._canonical import canonical_json

__all__ = ["MAX_DEPTH", "MAX_INT", "MAX_LINE_BYTES", "MalformedLine", "parse_line", "value_problem"]

MAX_LINE_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_INT = 2**53
# 2**53 has 16 digits: a longer literal is out of range before it is ever converted.
_MAX_INT_DIGITS = 16
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


@dataclass(frozen=True)
class MalformedLine:
    """A journal line that is not a strict entry; ``detail`` says why, for people."""

    detail: str

    def __str__(self) -> str:
        return f"<malformed journal line: {self.detail}>"


def nesting_depth(raw: bytes) -> int:
    """Deepest bracket nesting of JSON text, brackets inside strings ignored (linear time)."""
    brackets = _STRING.sub(b'""', raw).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for b in brackets:
        if b in b"[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError("an integer outside ±2^53")
    value = int(text)
    if abs(value) > MAX_INT:
        raise ValueError("an integer outside ±2^53")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a key appears twice in one object")
    return out


def parse_line(raw: bytes) -> Any:
    """Parse one journal line (without its newline), strictly.

    Returns
    -------
    Any
        The parsed value when ``raw`` is exactly its canonical JSON (spec 1.3), at
        most 1 MiB, nested at most 64 deep, with integers within ±2^53 and no
        NaN or infinity; otherwise a :class:`MalformedLine`.
    """
    if len(raw) > MAX_LINE_BYTES:
        return MalformedLine(f"{len(raw)} bytes, more than 1 MiB")
    depth = nesting_depth(raw)
    if depth > MAX_DEPTH:
        return MalformedLine(f"nested {depth} deep, more than {MAX_DEPTH}")
    try:
        text = raw.decode("utf-8")
        value = json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_reject_constant,
            parse_int=_bounded_int,
        )
    except UnicodeDecodeError:
        return MalformedLine("not UTF-8")
    except (ValueError, RecursionError, MemoryError) as exc:
        return MalformedLine(f"not strict JSON ({str(exc)[:120]})")
    problem = value_problem(value)
    if problem is not None:
        return MalformedLine(problem)
    if canonical_json(value) != raw:
        return MalformedLine("not in canonical form (key order, spacing or spelling differ)")
    return value


def value_problem(value: Any) -> str | None:
    """Why a parsed value could not be a strict journal entry, or None (never raises)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} deep"
            if isinstance(node, dict):
                if not all(isinstance(k, str) for k in node):
                    return "an object key is not a string"
                stack.extend((v, depth + 1) for v in node.values())
            else:
                stack.extend((v, depth + 1) for v in node)
        elif isinstance(node, bool) or node is None or isinstance(node, str):
            continue
        elif isinstance(node, int):
            if abs(node) > MAX_INT:
                return "an integer outside ±2^53"
        elif isinstance(node, float):
            if not math.isfinite(node):
                return "NaN or infinity"
        else:
            return f"a {type(node).__name__} is not JSON"
    try:
        size = len(canonical_json(value))
    except (ValueError, TypeError, RecursionError):
        return "cannot be written as canonical JSON"
    if size > MAX_LINE_BYTES:
        return f"{size} bytes, more than 1 MiB"
    return None
