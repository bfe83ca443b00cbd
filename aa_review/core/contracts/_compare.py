"""One comparison of an artifact with a contract entry (format 3.3), for the window and the audit.

The Contracts tab shows these differences and the ``contracts`` audit check maps them to
its finding codes, so the two cannot disagree about a file. Nothing here knows a package:
:func:`read_artifact` reads what it is given, :func:`compare` judges what was read.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, BinaryIO, TextIO

import orjson

from aa_review.core.package.jsondepth import MAX_DEPTH, may_be_too_deep, too_deep

__all__ = [
    "ArtifactShape",
    "Diff",
    "DiffKind",
    "COLUMN_KINDS",
    "JUDGED_ROWS",
    "MAX_READ",
    "compare",
    "is_number",
    "json_type",
    "read_artifact",
    "type_matches",
]

# The compiler judges a CSV's numeric and non-empty columns on its first 5 data rows
# (format 3.3): a non-empty column has a value in at least one of them.
JUDGED_ROWS = 5
# JSON is parsed whole and refused above this size; a CSV's rows are counted up to it.
MAX_READ = 64 * 1024 * 1024


class DiffKind(StrEnum):
    """How an artifact departs from its contract."""

    MISSING_FILE = "missing_file"  # absent, or an unsafe ref that is not opened
    UNREADABLE = "unreadable"  # not UTF-8, not JSON, too large, a CSV without a header
    MISSING_COLUMN = "missing_column"
    EXTRA_COLUMN = "extra_column"
    COLUMN_ORDER = "column_order"  # the same columns, in another order or repeated
    NON_NUMERIC = "non_numeric"
    TOO_FEW_ROWS = "too_few_rows"
    MISSING_KEY = "missing_key"
    WRONG_TYPE = "wrong_type"  # a value, or the top level when ``field`` is None
    EMPTY = "empty"  # a non-empty column blank in every judged row, a non-empty field empty


COLUMN_KINDS = frozenset({DiffKind.MISSING_COLUMN, DiffKind.EXTRA_COLUMN, DiffKind.COLUMN_ORDER})


@dataclass(frozen=True)
class Diff:
    """One difference; ``line`` is the file line, ``row`` the data row (0-based) it is on."""

    kind: DiffKind
    field: str | None
    message: str
    line: int | None = None
    row: int | None = None
    contracts: tuple[str, ...] = ()  # the contract entries that state it (set by the caller)


@dataclass
class ArtifactShape:
    """What a contracted file looks like: a CSV's header and first data rows, or the JSON."""

    format: str
    header: list[str] | None = None
    rows: list[list[str]] = field(default_factory=list)  # the first data rows
    lines: list[int] = field(default_factory=list)  # the file line each of them starts on
    data_rows: int = 0  # non-blank rows after the header
    complete: bool = True  # False when counting stopped at MAX_READ characters
    value: Any = None
    error: str | None = None
    error_line: int | None = None
    value_dropped: int = 0  # bytes of a JSON file compared in full whose value was not kept


# Commas between digits are thousands separators ("4,512.20"): spreadsheets and locales
# write them into CSV deliverables, and they do not make a value any less a number.
_SEPARATOR = re.compile(r"(?<=\d),(?=\d)")


def is_number(cell: str) -> bool:
    """Whether a CSV cell holds a number, for a contract's ``numeric_columns``.

    A number is what Python's ``float()`` reads (how numeric columns are judged when a
    package is compiled, so a fresh package always passes) once commas between digits are
    dropped as thousands separators. ``4,512.20``, ``-1,000``, `` 7 ``, ``1e3``, ``nan``
    and ``inf`` are numbers; ``n/a``, ``$5``, ``12%``, ``1.2.3`` and ``,5`` are not.
    """
    try:
        float(_SEPARATOR.sub("", cell))
    except ValueError:
        return False
    return True


def json_type(value: Any) -> str:
    """The contract's type vocabulary (format 3.3)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def type_matches(value: Any, want: Any) -> bool:
    """Whether ``value`` has the contracted type; an integer is also a number."""
    got = json_type(value)
    return got == want or (want == "number" and got == "integer")


def read_artifact(
    opener: Callable[[], BinaryIO], fmt: str, keep: int = JUDGED_ROWS
) -> ArtifactShape:
    """Read what ``opener()`` opens as ``fmt`` (csv, tsv or json; other formats only need
    to exist). The caller's opener decides which file that is and that it may be read.

    A CSV keeps its first ``keep`` data rows (at least the judged ones) and counts all.
    """
    shape = ArtifactShape(fmt)
    try:
        if fmt == "json":
            _read_json(shape, opener)
        elif fmt in ("csv", "tsv"):
            with io.TextIOWrapper(opener(), encoding="utf-8-sig", newline="") as fh:
                _read_table(shape, fh, max(keep, JUDGED_ROWS))
    except UnicodeDecodeError:
        shape.error = "not valid UTF-8"
    except csv.Error as exc:
        shape.error = f"not a readable {fmt.upper()} file ({exc})"
    except OSError as exc:
        shape.error = f"cannot be read ({exc.strerror or exc})"
    return shape


def _read_json(shape: ArtifactShape, opener: Callable[[], BinaryIO]) -> None:
    with opener() as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > MAX_READ:
            shape.error = f"{size:,} bytes: too large to check"
            return
        data = fh.read(MAX_READ + 1)
    if len(data) > MAX_READ:
        shape.error = f"over {MAX_READ:,} bytes: too large to check"
        return
    try:
        value = orjson.loads(data)  # once: a large file holds the interpreter while parsed
    except orjson.JSONDecodeError as exc:
        shape.error, shape.error_line = f"not valid JSON ({exc.msg})", exc.lineno
        return
    if may_be_too_deep(data) and too_deep(value):
        shape.error = f"nested more than {MAX_DEPTH} levels deep: not checked"
        return
    shape.value = value


def _read_table(shape: ArtifactShape, fh: TextIO, keep: int) -> None:
    budget = _Budget(fh, MAX_READ)
    reader = csv.reader(budget, delimiter="\t" if shape.format == "tsv" else ",")
    shape.header = next(reader, None)
    if shape.header is None:
        shape.error = "empty file: no header"
        return
    start = reader.line_num + 1
    for row in reader:
        if any(cell.strip() for cell in row):
            shape.data_rows += 1
            if len(shape.rows) < keep:
                shape.rows.append(row)
                shape.lines.append(start)
        start = reader.line_num + 1
    shape.complete = not budget.cut


class _Budget:
    """The lines of a text file until about ``limit`` characters were read."""

    def __init__(self, fh: Iterable[str], limit: int) -> None:
        self.fh, self.left, self.cut = fh, limit, False

    def __iter__(self) -> Iterator[str]:
        for line in self.fh:
            self.left -= len(line)
            if self.left < 0:
                self.cut = True
                return
            yield line


def compare(shape: ArtifactShape, contract: Mapping[str, Any]) -> list[Diff]:
    """Every way ``shape`` departs from one contract entry, in a fixed order."""
    if shape.error is not None:
        return [Diff(DiffKind.UNREADABLE, None, shape.error, shape.error_line)]
    if shape.header is not None:
        return _table_diffs(shape, contract)
    if shape.format == "json":
        return _json_diffs(shape.value, contract)
    return []


def _names(contract: Mapping[str, Any], *keys: str) -> list[str] | None:
    for key in keys:
        value = contract.get(key)
        if isinstance(value, list) and value:
            return [str(v) for v in value]
    return [] if any(isinstance(contract.get(k), list) for k in keys) else None


def _min_rows(contract: Mapping[str, Any]) -> int | None:
    value = contract.get("min_rows")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _table_diffs(shape: ArtifactShape, contract: Mapping[str, Any]) -> list[Diff]:
    header = shape.header or []
    out: list[Diff] = []
    cols = _names(contract, "columns")
    if cols is not None:
        out += [
            Diff(DiffKind.MISSING_COLUMN, c, f"column {c!r} is in the contract, not in the file")
            for c in dict.fromkeys(cols)
            if c not in header
        ]
        out += [
            Diff(DiffKind.EXTRA_COLUMN, c, f"column {c!r} is in the file, not in the contract")
            for c in dict.fromkeys(header)
            if c not in cols
        ]
        if not out and header != cols:
            out.append(
                Diff(
                    DiffKind.COLUMN_ORDER,
                    None,
                    "the header has the contract's columns in another order, or repeats one",
                )
            )
    for col in _names(contract, "numeric_columns") or []:
        if col not in header:
            continue
        k = header.index(col)
        for r, (row, line) in enumerate(zip(shape.rows[:JUDGED_ROWS], shape.lines, strict=False)):
            cell = row[k] if k < len(row) else ""
            if cell.strip() and not is_number(cell):
                out.append(
                    Diff(
                        DiffKind.NON_NUMERIC, col, f"numeric column {col!r} holds {cell!r}", line, r
                    )
                )
    judged = shape.rows[:JUDGED_ROWS]
    for col in _names(contract, "non_empty_columns") or []:
        if col not in header or not judged:
            continue
        k = header.index(col)
        if not any(k < len(row) and row[k].strip() for row in judged):
            out.append(
                Diff(
                    DiffKind.EMPTY,
                    col,
                    f"non-empty column {col!r} is blank in the first {len(judged)} data row(s)",
                    shape.lines[0],
                    0,
                )
            )
    need = _min_rows(contract)
    if need is not None and shape.data_rows < need and shape.complete:
        out.append(
            Diff(
                DiffKind.TOO_FEW_ROWS,
                None,
                f"{shape.data_rows} data row(s), the contract needs at least {need}",
            )
        )
    return out


def _json_diffs(value: Any, contract: Mapping[str, Any]) -> list[Diff]:
    # Only the transfer checklist's full contract declares an array top level; the output
    # and artifact entries leave top_level_type out, so an array is never judged an object.
    if contract.get("top_level_type") == "array" or isinstance(value, list):
        if not isinstance(value, list):
            return [
                Diff(DiffKind.WRONG_TYPE, None, f"top level is {json_type(value)}, contract: array")
            ]
        need = _min_rows(contract)
        if need is not None and len(value) < need:
            return [
                Diff(
                    DiffKind.TOO_FEW_ROWS,
                    None,
                    f"{len(value)} item(s), the contract needs at least {need}",
                )
            ]
        return []
    if not isinstance(value, dict):
        return [
            Diff(DiffKind.WRONG_TYPE, None, f"top level is {json_type(value)}, contract: object")
        ]
    out = [
        Diff(DiffKind.MISSING_KEY, k, f"key {k!r} is in the contract, not in the file")
        for k in _names(contract, "keys", "top_level_keys") or []
        if k not in value
    ]
    types = contract.get("expected_types")
    for key, want in types.items() if isinstance(types, dict) else ():
        if key in value and not type_matches(value[key], want):
            out.append(
                Diff(
                    DiffKind.WRONG_TYPE,
                    key,
                    f"key {key!r} is {json_type(value[key])}, the contract says {want}",
                )
            )
    for key in _names(contract, "non_empty_fields") or []:
        if key in value and value[key] in (None, "", [], {}):
            out.append(
                Diff(
                    DiffKind.EMPTY,
                    key,
                    f"non-empty field {key!r} is {orjson.dumps(value[key]).decode()}",
                )
            )
    return out
