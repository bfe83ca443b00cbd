"""Where a finding points: one :class:`Location`, or many stored as columns (:class:`Locations`).

A finding about a million rows must locate every one of them without a million
objects: row locations are row positions (8 bytes each) into a :class:`RowTable`
that every finding of one audit shares (the row index's own columns, not a copy);
the other fields are stored once per distinct value. Everything is materialized
only when asked for (``locations[i]``, :meth:`Locations.to_json`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import core_schema

from aa_review.core.util.text import printable

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler

__all__ = ["Location", "Locations", "RowTable", "LOCATION_FIELDS", "distinct_sorted"]


def distinct_sorted(a: np.ndarray) -> np.ndarray:
    """The distinct values of ``a``, sorted, by sorting and comparing neighbours (numpy
    2.4's ``unique`` takes seconds for a million distinct integers)."""
    if len(a) > 1 and not bool((a[1:] >= a[:-1]).all()):
        a = np.sort(a)
    if len(a) < 2:
        return a
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _used(codes: np.ndarray, size: int) -> list[int]:
    """Which of ``size`` codes occur in ``codes`` (a count per code: no sort)."""
    used: list[int] = np.flatnonzero(np.bincount(codes, minlength=size)).tolist()
    return used


class Location(BaseModel):
    """Where a finding points: any of file and line, row, evidence item, ref, contract item."""

    model_config = ConfigDict(frozen=True)

    file: str | None = Field(None, description="Package-relative path of the file")
    line: int | None = Field(None, description="1-based line number in `file`")
    row_id: str | None = Field(None, description="Training row id (row_id or pair_id)")
    evidence_id: str | None = Field(None, description="Evidence catalog id")
    ref: str | None = Field(None, description="The package ref concerned")
    key_path: str | None = Field(None, description="JSON key path inside the record")
    contract: str | None = Field(None, description="Contract item path (output or artifact)")
    byte_offset: int | None = Field(None, description="0-based byte offset in `file`")

    @field_validator("file", "row_id", "evidence_id", "ref", "key_path", "contract")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        # Names that are not UTF-8 reach Python as lone surrogates: shown escaped.
        return None if value is None else printable(value)

    def short(self) -> str:
        """A one-line human form, ``file:line`` first."""
        parts = []
        if self.file:
            parts.append(f"{self.file}:{self.line}" if self.line else self.file)
        if self.byte_offset is not None:
            parts.append(f"byte {self.byte_offset}")
        for label, value in (
            ("row", self.row_id),
            ("evidence", self.evidence_id),
            ("ref", self.ref),
            ("key", self.key_path),
            ("contract", self.contract),
        ):
            if value:
                parts.append(f"{label} {value}")
        return ", ".join(parts)


LOCATION_FIELDS = tuple(Location.model_fields)
_ROW_FIELDS = ("file", "line", "row_id")


class RowTable:
    """The row columns row locations point into: file, line and row id by row position.

    Made from the package's row index (:meth:`of_index`), whose arrays it shares;
    :meth:`compact` keeps only the rows some finding names (for a report sent to
    another process). ``keys``: the row positions a compacted table describes.
    """

    __slots__ = ("files", "file", "line", "row_id", "keys", "_fold")

    def __init__(
        self,
        files: Sequence[str],
        file: np.ndarray,
        line: np.ndarray,
        row_id: np.ndarray,
        keys: np.ndarray | None = None,
    ) -> None:
        self.files = tuple(files)
        self.file, self.line, self.row_id, self.keys = file, line, row_id, keys
        self._fold: Any = None  # lower-cased row ids, made on the first search

    @classmethod
    def of_index(cls, ix: Any) -> RowTable:
        """The table of a :class:`~aa_review.core.package.index.RowIndex` (no copy)."""
        table = cls(ix.files, ix.file, ix.line, ix.row_id)
        table._fold = ix.row_id_folded  # the index keeps its own, often made already
        return table

    def __getstate__(self) -> tuple[Any, ...]:
        return self.files, self.file, self.line, self.row_id, self.keys

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.files, self.file, self.line, self.row_id, self.keys = state
        self._fold = None

    def folded_ids_of(self, positions: np.ndarray) -> np.ndarray:
        """Row ids of ``positions``, lower-cased (for case-insensitive search)."""
        if self._fold is None:
            lower = np.char.lower(self.row_id)
            self._fold = lower if not np.array_equal(lower, self.row_id) else self.row_id
        folded = self._fold() if callable(self._fold) else self._fold
        out: np.ndarray = folded[self._at(positions)]
        return out

    def _at(self, positions: np.ndarray) -> np.ndarray:
        return positions if self.keys is None else np.searchsorted(self.keys, positions)

    def compact(self, positions: np.ndarray) -> RowTable:
        """A table of just ``positions`` (sorted, unique), which keeps answering by position."""
        at = self._at(positions)
        return RowTable(
            self.files,
            self.file[at],
            self.line[at],
            self.row_id[at],
            np.array(positions, dtype=np.int64),
        )

    def files_of(self, positions: np.ndarray) -> list[str]:
        names = np.asarray(self.files, dtype=object)
        out: list[str] = names[self.file[self._at(positions)]].tolist()
        return out

    def lines_of(self, positions: np.ndarray) -> list[int]:
        out: list[int] = self.line[self._at(positions)].tolist()
        return out

    def ids_of(self, positions: np.ndarray) -> list[str | None]:
        return [
            b.decode("utf-8", "replace") or None for b in self.row_id[self._at(positions)].tolist()
        ]

    def raw_ids_of(self, positions: np.ndarray) -> np.ndarray:
        ids: np.ndarray = self.row_id[self._at(positions)]
        return ids


# A column: its distinct values and, per location, the index of its value (None: all the
# first value). A ``str.format`` template column holds one template and per location the
# integer to put in it (key paths such as ``row_evidence_links[123]``), flagged by _FMT.
_FMT = "\x00fmt"
_Col = tuple[tuple[Any, ...], "np.ndarray | None"]
_NONE: _Col = ((None,), None)


def _encode(values: Sequence[Any]) -> _Col:
    """Dictionary-encode one value per location (text made printable: names that are not
    UTF-8 are shown escaped, never carried as lone surrogates no output accepts)."""
    values = [printable(v) if isinstance(v, str) else v for v in values]
    table: dict[Any, int] = {}
    codes = np.fromiter(
        (table.setdefault(v, len(table)) for v in values), dtype=np.int32, count=len(values)
    )
    if len(table) == 1:
        return (next(iter(table)),), None
    return tuple(table), codes


class Locations(Sequence[Location]):
    """Many locations as columns; indexable and iterable as :class:`Location` objects.

    ``rows``: row positions (``-1`` where a location is not a row) into ``table``,
    which gives those locations their file, line and row id.
    """

    __slots__ = ("_n", "_rows", "_table", "_cols")

    def __init__(
        self,
        n: int,
        cols: dict[str, _Col] | None = None,
        rows: np.ndarray | None = None,
        table: RowTable | None = None,
    ) -> None:
        self._n = int(n)
        self._cols = {k: v for k, v in (cols or {}).items() if v != _NONE}
        self._rows = None if rows is None else np.asarray(rows, dtype=np.int64)
        self._table = table if self._rows is not None else None
        if self._rows is not None and len(self._rows) != self._n:
            raise ValueError("one row position per location")

    # -- making ------------------------------------------------------------
    @classmethod
    def one(cls, loc: Location) -> Locations:
        return cls(1, {k: ((v,), None) for k, v in loc if v is not None})

    @classmethod
    def of(cls, locs: Iterable[Location | dict[str, Any]]) -> Locations:
        """From Location objects (or their dicts, as in JSON)."""
        items = [x if isinstance(x, Location) else Location(**x) for x in locs]
        cols = {f: _encode([getattr(x, f) for x in items]) for f in LOCATION_FIELDS}
        return cls(len(items), cols)

    @classmethod
    def at_rows(cls, table: RowTable, rows: Sequence[int] | np.ndarray, **fields: Any) -> Locations:
        """One location per row position, with its file, line and row id from ``table``;
        other fields as for :meth:`columns`."""
        rows = np.asarray(rows, dtype=np.int64)
        bad = set(fields) & set(_ROW_FIELDS)
        if bad:
            raise ValueError(f"{sorted(bad)}: a row location has the row's own")
        return cls(len(rows), _columns(len(rows), fields), rows, table)

    @classmethod
    def columns(cls, n: int, **fields: Any) -> Locations:
        """``n`` locations; each field is one value for all, one value per location (a
        list or array), or ``(template, ints)``: ``template.format(i)`` per location."""
        return cls(n, _columns(n, fields))

    @classmethod
    def concat(cls, parts: Sequence[Locations]) -> Locations:
        """All locations of ``parts``, in order."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls(0)
        if len(parts) == 1:
            return parts[0]
        n = sum(len(p) for p in parts)
        tables = {id(p._table): p._table for p in parts if p._table is not None}
        if len(tables) > 1:  # rows of different audits: spell their fields out
            return cls.of(loc for p in parts for loc in p)
        table = next(iter(tables.values()), None)
        rows = None
        if table is not None:
            rows = np.concatenate(
                [p._rows if p._rows is not None else np.full(len(p), -1, np.int64) for p in parts]
            )
        cols = {
            f: _concat_col([p._col(f) for p in parts], [len(p) for p in parts])
            for f in LOCATION_FIELDS
        }
        return cls(n, cols, rows, table)

    # -- reading -----------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def _col(self, name: str) -> _Col:
        return self._cols.get(name, _NONE)

    def __getitem__(self, i: int) -> Location:  # type: ignore[override]  # Sequence's stubs also take a slice; these index by int only
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        out = {f: _value(self._col(f), i) for f in LOCATION_FIELDS}
        if self._rows is not None and self._rows[i] >= 0:
            p = self._rows[i : i + 1]
            assert self._table is not None
            out.update(
                file=self._table.files_of(p)[0],
                line=self._table.lines_of(p)[0],
                row_id=self._table.ids_of(p)[0],
            )
        return Location(**{k: v for k, v in out.items() if v is not None})

    def __iter__(self) -> Iterator[Location]:
        for i in range(self._n):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Locations):
            return len(self) == len(other) and self.to_json() == other.to_json()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # Python's unhashable idiom; object's stubs type __hash__ as a method

    def __repr__(self) -> str:
        return f"Locations({self._n}, first={self[0].short()!r})" if self._n else "Locations(0)"

    def __getstate__(self) -> tuple[Any, ...]:
        return self._n, self._cols, self._rows, self._table

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self._n, self._cols, self._rows, self._table = state

    def values(self, name: str) -> list[Any]:
        """Field ``name`` of every location, in order (None where it has none)."""
        out = _values(self._col(name), self._n)
        if name in _ROW_FIELDS and self._rows is not None:
            assert self._table is not None
            at = np.flatnonzero(self._rows >= 0)
            pos = self._rows[at]
            got: list[Any] = (
                self._table.files_of(pos)
                if name == "file"
                else self._table.lines_of(pos)
                if name == "line"
                else self._table.ids_of(pos)
            )
            if len(at) == self._n:
                return got
            for i, v in zip(at.tolist(), got, strict=True):
                out[i] = v
        return out

    def distinct(self, name: str) -> set[Any]:
        """The distinct values of field ``name`` (cheap except for many row ids)."""
        values, codes = self._col(name)
        rows = self._rows if name in _ROW_FIELDS else None
        free = None if rows is None else rows < 0  # locations the column speaks for
        if codes is not None and free is not None:
            codes = codes[free]
        if values[:1] == (_FMT,):
            assert codes is not None
            out = {values[1].format(c) for c in distinct_sorted(codes).tolist()}
        elif codes is None:
            out = {values[0]} if free is None or free.any() else set()
        else:
            out = {values[c] for c in _used(codes, len(values))}
        if rows is not None and self._table is not None:
            at = self._table._at(rows[rows >= 0])
            if name == "file":
                out |= {
                    self._table.files[c]
                    for c in _used(self._table.file[at], len(self._table.files))
                }
            elif name == "line":
                out |= set(distinct_sorted(self._table.line[at]).tolist())
            else:
                out |= {
                    b.decode("utf-8", "replace") or None
                    for b in distinct_sorted(self._table.row_id[at]).tolist()
                }
        return out

    def to_json(self) -> list[dict[str, Any]]:
        """Every location as a dict of its non-null fields (what ``--json`` prints)."""
        names = [
            f
            for f in LOCATION_FIELDS
            if f in self._cols or (f in _ROW_FIELDS and self._rows is not None)
        ]
        columns = [self.values(f) for f in names]
        return [
            {k: v for k, v in zip(names, vals, strict=True) if v is not None}
            for vals in zip(*columns, strict=True)
        ]

    @property
    def table(self) -> RowTable | None:
        return self._table

    def row_positions(self) -> np.ndarray:
        """Row positions of the row locations (sorted, unique) in the audited index."""
        if self._rows is None:
            return np.empty(0, np.int64)
        return distinct_sorted(self._rows[self._rows >= 0])

    def rows_per_location(self) -> np.ndarray:
        """Per location, its row position in the audited index (-1 where it is not a row)."""
        if self._rows is None:
            return np.full(self._n, -1, dtype=np.int64)
        return self._rows

    def row_at(self, i: int) -> int | None:
        """The row position of location ``i``, or None when it is not a row."""
        if self._rows is None:
            return None
        pos = int(self._rows[i])
        return pos if pos >= 0 else None

    def with_table(self, table: RowTable) -> Locations:
        return self if self._rows is None else Locations(self._n, self._cols, self._rows, table)

    def contains_text(self, name: str, needle: str) -> bool:
        """Whether field ``name`` of some location contains ``needle`` (case-insensitive)."""
        needle = needle.lower()
        if name == "row_id" and self._rows is not None and self._table is not None:
            ids = self._table.folded_ids_of(self._rows[self._rows >= 0])
            if len(ids) and bool((np.char.find(ids, needle.encode()) >= 0).any()):
                return True
            values, codes = self._col(name)
            free = self._rows < 0
            if not free.any():
                return False
            vals = (
                {values[0]}
                if codes is None
                else {values[c] for c in _used(codes[free], len(values))}
            )
            return any(v is not None and needle in str(v).lower() for v in vals)
        return any(v is not None and needle in str(v).lower() for v in self.distinct(name))

    # -- pydantic ----------------------------------------------------------
    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        items = core_schema.list_schema(handler.generate_schema(Location))
        from_list = core_schema.chain_schema(
            [items, core_schema.no_info_plain_validator_function(cls.of)]
        )
        return core_schema.json_or_python_schema(
            json_schema=from_list,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(cls), from_list]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                _serialize, info_arg=True
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        # Validation and output alike: a list of Location objects (without their nulls),
        # defined beside Finding.location, which every schema holding a Finding has.
        ref = Location.__pydantic_core_schema__.get("ref")
        item = handler(
            core_schema.definition_reference_schema(ref)
            if ref
            else Location.__pydantic_core_schema__
        )
        return {"type": "array", "items": item}


def _serialize(value: Locations, info: Any) -> Any:
    # JSON: the list; Python dumps keep the object (the CLI writes it with orjson's default).
    return value.to_json() if info.mode_is_json() else value


def _columns(n: int, fields: dict[str, Any]) -> dict[str, _Col]:
    cols: dict[str, _Col] = {}
    for name, value in fields.items():
        if name not in LOCATION_FIELDS:
            raise ValueError(f"{name} is not a location field")
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
            cols[name] = ((_FMT, value[0]), np.asarray(value[1], dtype=np.int64))
        elif isinstance(value, (list, np.ndarray)):
            cols[name] = _encode(list(value))
        elif value is not None:
            cols[name] = (printable(value) if isinstance(value, str) else value,), None
        else:
            continue
        codes = cols[name][1]
        if codes is not None and len(codes) != n:
            raise ValueError(f"{name}: {len(codes)} values for {n} locations")
    return cols


def _value(col: _Col, i: int) -> Any:
    values, codes = col
    if values[:1] == (_FMT,):
        assert codes is not None
        return values[1].format(int(codes[i]))
    return values[0] if codes is None else values[int(codes[i])]


def _values(col: _Col, n: int) -> list[Any]:
    values, codes = col
    if codes is None:
        return [values[0]] * n
    if values[:1] == (_FMT,):
        return [values[1].format(c) for c in codes.tolist()]
    out: list[Any] = np.asarray(values, dtype=object)[codes].tolist()
    return out


def _concat_col(cols: list[_Col], sizes: list[int]) -> _Col:
    if all(c == cols[0] for c in cols) and cols[0][1] is None:
        return cols[0]
    if any(c[0][:1] == (_FMT,) for c in cols):
        return _encode([v for c, n in zip(cols, sizes, strict=True) for v in _values(c, n)])
    table: dict[Any, int] = {}
    chunks = []
    for (values, codes), n in zip(cols, sizes, strict=True):
        remap = np.array([table.setdefault(v, len(table)) for v in values], dtype=np.int32)
        chunks.append(np.full(n, remap[0], np.int32) if codes is None else remap[codes])
    return tuple(table), np.concatenate(chunks)
