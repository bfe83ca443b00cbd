"""Helpers shared by the headless commands: output and package opening."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO, TypeVar

import orjson

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = [
    "emit_json",
    "load_or_exit",
    "open_or_exit",
    "EXIT_OK",
    "EXIT_FINDINGS",
    "EXIT_UNUSABLE",
    "err",
    "pipe_guard",
]

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2
T = TypeVar("T")


def err(message: str) -> None:
    print(f"aa-review: {message}", file=sys.stderr)


def emit_json(doc: Any) -> None:
    data = orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def load_or_exit(path: str) -> Package | None:
    """Open a package, or print why not on stderr and return None."""
    from aa_review.core.package import open_package

    return open_or_exit(path, open_package)


def open_or_exit(path: str, opener: Callable[[Path], T]) -> T | None:
    """``opener(Path(path))``, or print why the package cannot be opened on stderr and
    return None."""
    from aa_review.core.util.errors import PackageError

    try:
        return opener(Path(path))
    except PackageError as exc:
        err(str(exc))
    except OSError as exc:
        err(f"{path}: cannot be read ({exc.strerror or exc})")
    return None


class _Closed:
    """Whether the reader of stdout has gone away (shared by the text and byte views)."""

    def __init__(self, fileno: int | None) -> None:
        self.fileno, self.broken = fileno, False

    def close_reader(self) -> None:
        """Point stdout at the null device, so nothing later (nor the final flush) fails."""
        self.broken = True
        if self.fileno is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.fileno)
            os.close(devnull)


class _Guarded:
    """A stdout whose writes are dropped, not raised, once the reader has closed the pipe."""

    def __init__(self, stream: TextIO | BinaryIO, state: _Closed) -> None:
        self._stream, self._state = stream, state

    def write(self, data: Any) -> int:
        if not self._state.broken:
            try:
                return self._stream.write(data)
            except BrokenPipeError:
                self._state.close_reader()
        return len(data)

    def flush(self) -> None:
        if not self._state.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._state.close_reader()

    @property
    def buffer(self) -> _Guarded:
        return _Guarded(self._stream.buffer, self._state)  # type: ignore[union-attr]  # BinaryIO's stubs have no buffer; a binary stream raises AttributeError, as it would unguarded

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def pipe_guard() -> Iterator[None]:
    """Run a command whose reader may stop early (``aa-review audit P | head``).

    Output to a closed pipe is dropped and the command runs to its end, so the exit
    status is still the result's (1 for findings), not a traceback or Python's 120.
    """
    real = sys.stdout
    try:
        fileno: int | None = real.fileno()
    except (AttributeError, OSError, ValueError):  # captured by a test harness
        fileno = None
    state = _Closed(fileno)
    sys.stdout = _Guarded(real, state)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = real
