"""JSON values compared as values (not text), and the paths at which two values differ."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from aa_review.core.contracts import json_type

__all__ = ["json_equal", "changed_paths", "join_key", "join_index"]

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def join_key(prefix: str, key: str) -> str:
    """``prefix.key``; a key that is not a plain name is written ``prefix["a/b.json"]``."""
    if _PLAIN_KEY.match(key):
        return f"{prefix}.{key}" if prefix else key
    return f"{prefix}[{json.dumps(key, ensure_ascii=False)}]"


def join_index(prefix: str, index: int) -> str:
    return f"{prefix}[{index}]"


def _kind(v: Any) -> str:
    # JSON has one number type: 1 and 1.0 are the same value; true is not 1.
    t = json_type(v)
    return "number" if t == "integer" else t


def json_equal(a: Any, b: Any) -> bool:
    """Whether two parsed JSON values are the same value (key order and layout aside)."""
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return False
    if ka == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if ka == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if ka == "number" and a != a and b != b:  # NaN (not JSON, but orjson never yields it)
        return True
    return bool(a == b)


def changed_paths(a: Any, b: Any, prefix: str = "", limit: int = 200) -> list[str]:
    """Paths (``key.sub``, ``key[2]``, ``key["a/b"]``) where ``a`` and ``b`` differ.

    Objects are compared key by key (a key on one side only is a path of its own);
    arrays of the same length element by element; arrays of different lengths,
    and values of different JSON types, at their own path. At most ``limit`` paths.
    """
    out: list[str] = []
    _walk(a, b, prefix, out, limit)
    return out


_SCALARS = (str, int, float, type(None))


def _same(a: Any, b: Any) -> bool:
    """A fast exact test: True only when ``a`` and ``b`` are surely the same JSON value.

    Python's ``==`` takes ``True == 1``; equal serialized bytes settle containers (the
    same key order is the usual case). False means "look closer": keys reordered, or
    ``1`` against ``1.0``, are settled by the walk and :func:`json_equal`.
    """
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta in _SCALARS or ta is bool:
        return bool(a == b)
    try:
        return bool(a == b) and orjson.dumps(a) == orjson.dumps(b)
    except TypeError:  # not JSON (no parsed row holds such a value)
        return False


def _walk(a: Any, b: Any, path: str, out: list[str], limit: int) -> None:
    if len(out) >= limit or _same(a, b):
        return
    ka, kb = _kind(a), _kind(b)
    if ka == kb == "object":
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                out.append(join_key(path, key))
            elif not _same(a[key], b[key]):
                _walk(a[key], b[key], join_key(path, key), out, limit)
            if len(out) >= limit:
                return
        return
    if ka == kb == "array" and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if not _same(x, y):
                _walk(x, y, join_index(path, i), out, limit)
            if len(out) >= limit:
                return
        return
    if not json_equal(a, b):
        out.append(path or "$")
