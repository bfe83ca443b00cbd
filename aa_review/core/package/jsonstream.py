"""Reading one large JSON object key by key, streaming its big arrays element by element.

Memory stays bounded by the largest single value read (at most ``max_value`` bytes,
refused beyond) plus one read chunk, and time is linear in the file's size:

- a value that does not fit in what has been read is decoded again only after the
  buffer has at least doubled, so a value of n bytes costs O(n), not O(n²);
- a syntax error is reported as soon as it is seen, without reading on to the end;
- ``NaN``/``Infinity``, integers of more than 4,300 digits and nesting deeper than
  the interpreter allows are errors of the file (:class:`RecordError`), never crashes.

Why not a library: ijson 3.6 with its C backend (yajl2_c) crashes the interpreter
(SIGSEGV) on a 5,000-digit integer and grows its event prefixes with the nesting
depth, so 100,000-deep arrays exhaust memory. See docs/decisions.md.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Iterator
from typing import IO, Any, NoReturn

import orjson

from aa_review.core.package.jsondepth import MAX_DEPTH, may_be_too_deep, too_deep
from aa_review.core.util.errors import RecordError

__all__ = ["ObjectStream", "DEFAULT_MAX_VALUE"]

_WS = " \t\r\n"
DEFAULT_MAX_VALUE = 64 * 1024 * 1024  # bytes of one value (one array element)


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_surrogate(text: str) -> bool:
    """Whether a value's JSON text escapes a surrogate that is not half of a pair."""
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return True
    return False


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text[:20]} is beyond the range of a number")
    return value


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


class ObjectStream:
    """Walk a top-level JSON object without holding it whole.

    ``items()`` yields ``(key, value)``; for keys named in ``stream_keys`` whose
    value is an array, the value is an iterator over its elements instead (it
    must be consumed, or it is skipped, before the next item). Memory stays
    bounded by the largest single element plus one read chunk; an element over
    ``max_value`` bytes raises :class:`RecordError` without being held.
    """

    def __init__(
        self, fh: IO[bytes], relpath: str, chunk: int = 4 << 20, max_value: int = DEFAULT_MAX_VALUE
    ) -> None:
        self._fh = fh
        self._path = relpath
        self._chunk = chunk
        self._max = max_value
        self._dec = codecs.getincrementaldecoder("utf-8")("strict")
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._consumed_lines = 0
        self._escapes = False  # a \\u escape of a surrogate was seen: values get checked
        self._decoder = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)

    # -- buffer ----------------------------------------------------------
    def _line(self) -> int:
        return self._consumed_lines + self._buf.count("\n", 0, self._pos) + 1

    def _fail(self, message: str) -> RecordError:
        return RecordError(self._path, self._line(), message)

    def _more(self, at_least: int = 0) -> bool:
        """Read at least ``at_least`` more characters (one chunk when 0); False at EOF."""
        if self._eof:
            return False
        if self._pos > self._chunk:  # drop what was consumed (amortized: once per chunk)
            self._consumed_lines += self._buf.count("\n", 0, self._pos)
            self._buf = self._buf[self._pos :]
            self._pos = 0
        parts = [self._buf]
        got = 0
        while True:
            data = self._fh.read(max(self._chunk, at_least - got))
            try:
                text = self._dec.decode(data, final=not data)
            except UnicodeDecodeError as exc:
                raise self._fail(f"not valid UTF-8 ({exc.reason})") from None
            parts.append(text)
            got += len(text)
            if not data:
                self._eof = True
                break
            if got >= at_least:
                break
        seen = len(parts[0])
        self._buf = "".join(parts)
        if not self._escapes and _SURROGATE.search(self._buf, max(0, seen - 5)):
            self._escapes = True
        return True

    def _peek(self) -> str:
        while True:
            while self._pos < len(self._buf) and self._buf[self._pos] in _WS:
                self._pos += 1
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._more():
                raise self._fail("unexpected end of file: the JSON document is truncated")

    def _expect(self, chars: str) -> str:
        ch = self._peek()
        if ch not in chars:
            raise self._fail(f"expected {' or '.join(repr(c) for c in chars)}, found {ch!r}")
        self._pos += 1
        return ch

    def _value(self) -> Any:
        self._peek()
        while True:
            pending = len(self._buf) - self._pos
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._eof or not self._incomplete(exc):
                    self._pos = min(exc.pos, len(self._buf))
                    raise self._fail(f"invalid JSON: {exc.msg}") from None
                self._grow(pending)
                continue
            except RecursionError:
                raise self._fail("invalid JSON: nested too deeply to be read") from None
            except ValueError as exc:  # over 4,300 digits, NaN, Infinity
                why = "an integer of more than 4,300 digits" if "digits" in str(exc) else exc
                raise self._fail(f"invalid JSON: {why}") from None
            if end >= len(self._buf) and not self._eof:
                # A number or literal may continue in the next chunk.
                self._grow(pending)
                continue
            if end - self._pos > self._max:
                raise self._fail(self._too_large())
            if may_be_too_deep(self._buf, self._pos, end) and too_deep(value):
                raise self._fail(f"invalid JSON: nested more than {MAX_DEPTH} levels deep")
            if (
                self._escapes
                and _SURROGATE.search(self._buf, self._pos, end)
                and _lone_surrogate(self._buf[self._pos : end])
            ):
                raise self._fail(
                    "invalid JSON: a \\u escape names a lone surrogate, which is no character"
                )
            self._pos = end
            return value

    def _incomplete(self, exc: json.JSONDecodeError) -> bool:
        """Whether the decoder stopped for want of data rather than at a wrong character."""
        near_end = exc.pos >= len(self._buf) - 8  # an escape or literal cut at the end
        return near_end or exc.msg.startswith("Unterminated string")

    def _grow(self, pending: int) -> None:
        """Read on so that the pending value can at least double (linear time overall)."""
        if pending > self._max:
            raise self._fail(self._too_large())
        if not self._more(max(pending, self._chunk)):
            return

    def _too_large(self) -> str:
        return (
            f"a value over {self._max:,} bytes; it was not read (the compiler writes no such value)"
        )

    # -- public ----------------------------------------------------------
    def items(self, stream_keys: frozenset[str] = frozenset()) -> Iterator[tuple[str, Any]]:
        self._expect("{")
        if self._peek() == "}":
            self._pos += 1
            return
        while True:
            key = self._value()
            if not isinstance(key, str):
                raise self._fail("object key is not a string")
            self._expect(":")
            if key in stream_keys and self._peek() == "[":
                self._pos += 1
                it = self._array()
                yield key, it
                for _ in it:  # skip what the caller did not read
                    pass
            else:
                yield key, self._value()
            if self._expect(",}") == "}":
                return

    def _array(self) -> Iterator[Any]:
        if self._peek() == "]":
            self._pos += 1
            return
        while True:
            yield self._value()
            if self._expect(",]") == "]":
                return
