"""Buffered line writers (text lines, with room for deliberately broken byte lines)."""

from __future__ import annotations

import shutil
from pathlib import Path

__all__ = ["LineSink", "concat"]

_FLUSH = 1 << 20


class LineSink:
    """Appends lines to a file through a large buffer; counts them.

    Parameters
    ----------
    path : Path
        File to (over)write.
    prefix : str
        Written before each line (for instance ``",\\n    "`` for list items).
    end : str
        Written after each line.
    """

    def __init__(self, path: Path, prefix: str = "", end: str = "\n") -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._fh = open(path, "wb")  # noqa: SIM115 - the sink owns it until close()
        self._buf: list[str] = []
        self._size = 0
        self._prefix, self._end = prefix, end
        self.count = 0

    def write(self, line: str) -> None:
        self._buf.append(self._prefix + line + self._end)
        self._size += len(line)
        self.count += 1
        if self._size > _FLUSH:
            self.flush()

    def write_bytes(self, data: bytes) -> None:
        """A line given as raw bytes (possibly not UTF-8), written as is."""
        self.flush()
        self._fh.write(self._prefix.encode() + data + self._end.encode())
        self.count += 1

    def flush(self) -> None:
        if self._buf:
            self._fh.write("".join(self._buf).encode("utf-8"))
            self._buf.clear()
            self._size = 0

    def close(self) -> None:
        self.flush()
        self._fh.close()


def concat(out: Path, parts: list[Path], mode: str = "wb") -> None:
    """Write the parts one after the other into ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, mode) as dst:
        for p in parts:
            with open(p, "rb") as src:
                shutil.copyfileobj(src, dst, 1 << 22)
