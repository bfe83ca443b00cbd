"""A package file shown at a finding's place: a JSON key path, or a line of a text file.

Findings located in ``compiler_manifest.json``, ``environment_spec.json``, a checklist,
``reports/rejected_rows.jsonl`` or at a malformed line have no row to show; the
window shows the file there instead. Files are read only through the package's safe
opener (a ref out of the package, a symlink leading out or a special file is refused,
never opened), in a worker, and within limits: a whole document up to
:data:`WHOLE_LIMIT` bytes, else the lines around the place asked for.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aa_review.core.util.errors import AAReviewError

if TYPE_CHECKING:
    from aa_review.core.package.safepath import PackageRoot

__all__ = [
    "Document",
    "read_document",
    "key_path_parts",
    "locate_key_path",
    "WHOLE_LIMIT",
    "CONTEXT_LINES",
    "MAX_LINE_CHARS",
]

WHOLE_LIMIT = 4 * 1024 * 1024  # a document read whole (and a JSON one parsed for its key)
CONTEXT_LINES = 40  # lines shown before and after a line of a larger file
MAX_LINE_CHARS = 20_000  # a longer line is cut, and says so
_SCAN_LIMIT = 512 * 1024 * 1024  # bytes read to reach a line of a larger file
_WS = " \t\r\n"


@dataclass(frozen=True)
class Document:
    """Lines of a package file around a place.

    ``first`` is the number (1-based) of ``lines[0]``; ``target`` the line the place is
    on (None: not found, or none asked); ``note`` says what was found or why not.
    ``whole`` is true when ``lines`` are the whole file.
    """

    rel: str
    first: int
    lines: tuple[str, ...]
    target: int | None
    note: str
    whole: bool
    size: int


def key_path_parts(key_path: str) -> list[str | int]:
    """``a.b[3].c`` as ``["a", "b", 3, "c"]``; ``[2]`` as ``[2]``."""
    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", key_path):
        parts.append(int(index) if index else name)
    return parts


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


_DECODER = json.JSONDecoder()


def locate_key_path(text: str, key_path: str) -> tuple[int | None, str]:
    """The offset in JSON ``text`` where ``key_path`` is (its key, or its array item),
    and how much of the path was found: the whole of it, or the deepest part found."""
    pos = _skip_ws(text, 0)
    found_at: int | None = None
    walked = ""
    try:
        for part in key_path_parts(key_path):
            if pos >= len(text):
                break
            if isinstance(part, str) and text[pos] == "{":
                at = _member(text, pos, part)
            elif isinstance(part, int) and text[pos] == "[":
                at = _item(text, pos, part)
            else:
                at = None
            if at is None:
                break
            found_at, pos = at
            walked += f"[{part}]" if isinstance(part, int) else (f".{part}" if walked else part)
    except (ValueError, IndexError):  # not JSON there: what was found stands
        pass
    return found_at, walked


def _member(text: str, pos: int, name: str) -> tuple[int, int] | None:
    pos = _skip_ws(text, pos + 1)
    while pos < len(text) and text[pos] != "}":
        key_at = pos
        key, pos = _DECODER.raw_decode(text, pos)  # the key, a JSON string
        pos = _skip_ws(text, pos)
        pos = _skip_ws(text, pos + 1)  # the ':'
        if key == name:
            return key_at, pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip_ws(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
    return None


def _item(text: str, pos: int, index: int) -> tuple[int, int] | None:
    pos = _skip_ws(text, pos + 1)
    k = 0
    while pos < len(text) and text[pos] != "]":
        if k == index:
            return pos, pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip_ws(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
        k += 1
    return None


def _cut(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS] + f" … ({len(line) - MAX_LINE_CHARS:,} more characters)"


def read_document(
    safe: PackageRoot, rel: str, *, line: int | None = None, key_path: str | None = None
) -> Document:
    """``rel`` of the package around ``line`` (1-based) or ``key_path``.

    Raises :class:`~aa_review.core.util.errors.AAReviewError` (an unsafe ref among
    them) or ``OSError`` when the file cannot be read: nothing outside the package is
    ever opened.
    """
    st = safe.stat(rel)
    if st is None:
        safe.resolve(rel)  # an unsafe ref says why
        raise AAReviewError(f"{rel}: not in the package")
    size = int(st.st_size)
    if size <= WHOLE_LIMIT:
        text = safe.read_bytes(rel, limit=WHOLE_LIMIT).decode("utf-8", errors="replace")
        lines = text.split("\n")
        if lines and lines[-1] == "" and len(lines) > 1:
            lines.pop()
        target, note = _place(text, lines, line, key_path)
        return Document(rel, 1, tuple(_cut(x) for x in lines), target, note, True, size)
    if line is None:
        return Document(
            rel,
            1,
            (),
            None,
            f"{size:,} bytes: too large to show whole "
            f"(over {WHOLE_LIMIT // (1024 * 1024)} MB) and no line to show",
            False,
            size,
        )
    return _around(safe, rel, line, size)


def _place(
    text: str, lines: list[str], line: int | None, key_path: str | None
) -> tuple[int | None, str]:
    if line is not None:
        if not 1 <= line <= len(lines):
            return None, f"line {line:,} is past the end ({len(lines):,} lines)"
        return line, f"line {line:,}"
    if not key_path:
        return None, ""
    offset, walked = locate_key_path(text, key_path)
    if offset is None:
        return None, f"key {key_path} not found"
    at = text.count("\n", 0, offset) + 1
    if walked != key_path:
        return at, f"key {key_path}: only {walked} is there (line {at:,})"
    return at, f"key {key_path}, line {at:,}"


def _around(safe: PackageRoot, rel: str, line: int, size: int) -> Document:
    start = max(1, line - CONTEXT_LINES)
    kept: list[str] = []
    n = 0
    read = 0
    with safe.open(rel) as fh:
        for n, raw in enumerate(fh, 1):  # n: the last line read
            read += len(raw)
            if n >= start:
                kept.append(_cut(raw.rstrip(b"\r\n").decode("utf-8", errors="replace")))
            if n >= line + CONTEXT_LINES or read > _SCAN_LIMIT:
                break
    if n < line:
        note = (
            f"line {line:,} is past the end ({n:,} lines)"
            if read <= _SCAN_LIMIT
            else f"line {line:,} is beyond the first {_SCAN_LIMIT // (1024 * 1024)} MB"
        )
        return Document(rel, start, tuple(kept), None, note, False, size)
    return Document(
        rel,
        start,
        tuple(kept),
        line,
        f"line {line:,} (lines {start:,} to {start + len(kept) - 1:,} of a {size:,}-byte file)",
        False,
        size,
    )
