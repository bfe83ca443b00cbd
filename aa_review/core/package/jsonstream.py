"""Reading one large JSON object key by key, streaming its big arrays element by element."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import IO, Any

from aa_review.core.errors import RecordError

__all__ = ["ObjectStream"]

_WS = " \t\r\n"


class ObjectStream:
    """Walk a top-level JSON object without holding it whole.

    ``items()`` yields ``(key, value)``; for keys named in ``stream_keys`` whose
    value is an array, the value is an iterator over its elements instead (it
    must be consumed, or it is skipped, before the next item). Memory stays
    bounded by the largest single element plus one read chunk.
    """

    def __init__(self, fh: IO[bytes], relpath: str, chunk: int = 4 << 20) -> None:
        self._fh = fh
        self._path = relpath
        self._chunk = chunk
        self._dec = codecs.getincrementaldecoder("utf-8")("strict")
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._consumed_lines = 0
        self._decoder = json.JSONDecoder()

    # -- buffer ----------------------------------------------------------
    def _line(self) -> int:
        return self._consumed_lines + self._buf.count("\n", 0, self._pos) + 1

    def _fail(self, message: str) -> RecordError:
        return RecordError(self._path, self._line(), message)

    def _more(self) -> bool:
        if self._eof:
            return False
        data = self._fh.read(self._chunk)
        try:
            text = self._dec.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise self._fail(f"not valid UTF-8 ({exc.reason})") from None
        if self._pos > self._chunk:
            self._consumed_lines += self._buf.count("\n", 0, self._pos)
            self._buf = self._buf[self._pos:]
            self._pos = 0
        self._buf += text
        if not data:
            self._eof = True
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
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                raise self._fail(f"invalid JSON: {exc.msg}") from None
            if end >= len(self._buf) and not self._eof:
                # A number or literal may continue in the next chunk.
                self._more()
                continue
            self._pos = end
            return value

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
