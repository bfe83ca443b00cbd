"""Text that any UTF-8 output accepts (file names that are not UTF-8 included)."""

from __future__ import annotations

__all__ = ["printable"]


def printable(text: str) -> str:
    """``text`` with undecodable bytes of a file name (surrogate escapes) shown as ``\\xNN``.

    Names that are not UTF-8 reach Python as lone surrogates, which no UTF-8 output
    (a terminal, orjson) accepts.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that no file name produced
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
