"""Helpers shared by the headless commands: output and package opening."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

from aa_review.core.errors import PackageError
from aa_review.core.package import Package, open_package

__all__ = ["emit_json", "load_or_exit", "EXIT_OK", "EXIT_FINDINGS", "EXIT_UNUSABLE", "err"]

EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2


def err(message: str) -> None:
    print(f"aa-review: {message}", file=sys.stderr)


def emit_json(doc: Any) -> None:
    sys.stdout.buffer.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE))
    sys.stdout.flush()


def load_or_exit(path: str) -> Package | None:
    """Open a package, or print why not on stderr and return None."""
    try:
        return open_package(Path(path))
    except PackageError as exc:
        err(str(exc))
    except OSError as exc:
        err(f"{path}: cannot be read ({exc.strerror or exc})")
    return None
