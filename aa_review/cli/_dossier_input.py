"""Reading the dossier commands' input files: bounded, never a traceback, exit 2 when unusable.

Imported only when a dossier sub-command runs (it imports the dossier core), never to
build the parser.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aa_review.cli._common import EXIT_UNUSABLE, err
from aa_review.core.dossier._strict import nesting_depth
from aa_review.core.package.safepath import read_beneath

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_INPUT_DEPTH",
    "Unusable",
    "contamination_hook",
    "guarded",
    "pairs",
    "principal_list",
    "read_json",
    "read_regular",
]

# Input files: a dossier or archive is never this large or this deep; beyond, exit 2.
MAX_INPUT_BYTES = 256 << 20
MAX_INPUT_DEPTH = 200


class Unusable(Exception):
    """Input that cannot be evaluated; the message goes to stderr, exit 2."""


def guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Exit 2, with a message, when input is too deep or too large to evaluate."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except (RecursionError, MemoryError) as exc:
            err(
                f"the input cannot be evaluated: too deeply nested or too large "
                f"({type(exc).__name__})"
            )
            return EXIT_UNUSABLE

    return wrapper


def read_json(path: str) -> Any:
    """The JSON in the file ``path``, at most ``MAX_INPUT_BYTES`` and ``MAX_INPUT_DEPTH`` deep.

    Raises
    ------
    Unusable
        The file cannot be read, is too large or too deep, or is not UTF-8 JSON.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise Unusable(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_INPUT_BYTES:
        raise Unusable(f"{path}: larger than {MAX_INPUT_BYTES >> 20} MiB")
    depth = nesting_depth(data)
    if depth > MAX_INPUT_DEPTH:
        raise Unusable(f"{path}: nested {depth} deep (at most {MAX_INPUT_DEPTH})")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise Unusable(f"{path}: not UTF-8 ({exc})") from None
    except (ValueError, RecursionError) as exc:  # includes over-long integers
        raise Unusable(f"{path}: not JSON ({exc})") from None


def read_regular(path: Path, what: str) -> Any:
    """JSON of a regular file, read without following a symlink out of its folder or
    blocking on a FIFO (the package reader's opener), at most ``MAX_INPUT_BYTES``."""
    try:
        data = read_beneath(str(path.parent), path.name, limit=MAX_INPUT_BYTES)
    except FileNotFoundError:
        raise Unusable(f"{path}: {what} is missing") from None
    except OSError as exc:
        raise Unusable(f"{path}: {what} cannot be read ({exc})") from None
    if nesting_depth(data) > MAX_INPUT_DEPTH:
        raise Unusable(f"{path}: nested deeper than {MAX_INPUT_DEPTH}")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Unusable(f"{path}: {what} is not JSON ({exc})") from None


def pairs(specs: list[str], option: str) -> dict[str, Path]:
    """``ID=PATH`` options as a table, or :class:`Unusable` naming the one misspelt."""
    table: dict[str, Path] = {}
    for spec in specs:
        pid, sep, path = spec.partition("=")
        if not sep or not pid or not path:
            what = "FOLDER" if option == "--package" else "FILE"
            raise Unusable(f"{option} {spec!r}: write it as PACKAGE_ID={what}")
        table[pid] = Path(path)
    return table


def principal_list(tree: Any, where: str) -> list[Any]:
    """The principal records of a registry file (``{"principals": [...]}`` or a list)."""
    if isinstance(tree, dict):
        tree = tree.get("principals")
    if not isinstance(tree, list):
        raise Unusable(f"{where}: the principal registry must be a list")
    return tree


def contamination_hook() -> Any:
    """The audit engine's G9 hook: rows of a bound package citing hidden evidence."""
    # Imported here, not above: only the commands that evaluate gates need the audit.
    from aa_review.core.audits import contamination_rows

    return contamination_rows
