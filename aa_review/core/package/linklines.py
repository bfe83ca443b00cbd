"""``row_evidence_links`` read line by line, in the layout the compiler writes, and counted.

The compiler writes the evidence map with one link per line. That layout is walked
here on the mapped file, each link's line handed over as bytes; any other layout (or
any surprise) raises :class:`NotLineLayout`, and callers fall back to the exact
streaming reader (:class:`~aa_review.core.package.jsonstream.ObjectStream`), which
locates what is wrong. Raw newlines cannot occur inside JSON strings, so a line
boundary is always a token boundary.
"""

from __future__ import annotations

import functools
import mmap
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

import orjson

from aa_review.core.package.jsonstream import ObjectStream
from aa_review.core.package.layout import MAP_PATH
from aa_review.core.package.safepath import PackageRoot

if TYPE_CHECKING:
    from pydantic import TypeAdapter

__all__ = ["NotLineLayout", "walk_link_lines", "count_links", "BadLink"]

_KEY = b'\n  "row_evidence_links": ['
_BIG = frozenset({"evidence_catalog", "row_evidence_links"})
FAST_MAX = 32 * 1024 * 1024  # a header, link line or tail larger: the streaming reader
_BATCH = 4096
_BLOCK = 1 << 20  # bytes of link lines handed over at once by walk_link_lines(on_block=)


def _closes(block: bytes) -> bool:
    """Whether a run of lines may hold the links' closing ``]`` (a line ``]`` or ``],``),
    which a link line of the compiler's layout never ends with (it ends ``},``). A run
    that holds it would not parse as links; those lines go one by one instead."""
    return b"]\n" in block or b"],\n" in block or block.endswith(b"]")


class NotLineLayout(Exception):
    """The map is not in the compiler's one-link-per-line layout (or is broken)."""


def walk_link_lines(
    fh: IO[bytes],
    on_line: Callable[[bytes], None],
    on_block: Callable[[bytes], None] | None = None,
) -> dict[str, Any]:
    """Hand every link's JSON text (one line, trailing comma removed) to ``on_line``, in
    order, and return the map's keys after the links.

    With ``on_block``, runs of whole link lines (about a megabyte; as the file has them,
    separated by their commas and line breaks, the last comma removed) go to it instead,
    and only the lines near the links' end to ``on_line``: for a caller that parses a
    run as one JSON array, with no Python work per link.

    Raises
    ------
    NotLineLayout
        When the map is not laid out one link per line, or anything in it does not
        parse here: nothing is reported, the caller reads the map again exactly.
        ``on_line`` may have been called for some links before.
    """
    try:
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            return _walk(mm, on_line, on_block)
    except (ValueError, OSError, orjson.JSONDecodeError) as exc:
        raise NotLineLayout(str(exc)) from None


def _walk(
    mm: mmap.mmap,
    on_line: Callable[[bytes], None],
    on_block: Callable[[bytes], None] | None = None,
) -> dict[str, Any]:
    start = mm.find(_KEY)
    if start < 0 or start > FAST_MAX:
        raise NotLineLayout("no links key near the start")  # the streaming reader bounds it
    # A top-level key only if what precedes it is an open object's members.
    head = orjson.loads(mm[: start + 1] + b'"_": null}')
    if not isinstance(head, dict) or "row_evidence_links" in head:
        raise NotLineLayout("the links key is not a top-level key")
    pos = start + len(_KEY)  # just after "["
    if mm[pos : pos + 1] == b"]":
        end = pos + 1
    else:
        more = True
        while True:
            if mm[pos : pos + 1] != b"\n":
                raise NotLineLayout("not one link per line")
            if on_block is not None and more:
                # Up to the last line ending in a comma within the next _BLOCK bytes, if
                # no line of it closes the links (else the lines one by one, as without).
                cut = mm.rfind(b",\n", pos + 1, pos + _BLOCK)
                block = mm[pos + 1 : cut] if cut > pos else b""
                if block and not _closes(block):
                    on_block(block)
                    pos = cut + 1
                    continue
                on_block = None
            nl = mm.find(b"\n", pos + 1)
            if nl < 0 or nl - pos > FAST_MAX:
                raise NotLineLayout("a link line too long, or no end")
            raw = mm[pos + 1 : nl]
            line = raw.strip()
            if not more:
                if line not in (b"]", b"],"):
                    raise NotLineLayout("the links do not end alone on a line")
                end = pos + 1 + raw.index(b"]") + 1
                break
            more = line.endswith(b",")
            on_line(line[:-1] if more else line)
            pos = nl
    if len(mm) - end > FAST_MAX:
        raise NotLineLayout("a tail too long")
    rest = mm[end:].strip()
    if rest.startswith(b","):
        tail = orjson.loads(b"{" + rest[1:])
    elif rest == b"}":
        tail = {}
    else:
        raise NotLineLayout("the map does not end after its links")
    if not isinstance(tail, dict):
        raise NotLineLayout("the tail is not object members")
    return tail


@functools.cache
def _links() -> TypeAdapter[list[Any]]:
    """The links' validator. Built on first use: the evidence map's worker process walks
    the link lines without it, and so without importing pydantic."""
    from pydantic import TypeAdapter
    from typing_extensions import TypedDict  # pydantic reads only this one before 3.12

    class _Link(TypedDict, total=False):
        """The fields of a link and their types, as
        :class:`~aa_review.core.package.records.RowLink` reads them (the same lax rules;
        other keys are allowed)."""

        row_id: str | None
        row_file: str | None
        data_type: str | None
        source_task_id: str | None
        source_trace_id: str | None
        source_step_ids: list[int] | None
        source_artifact_refs: list[str] | None
        evidence_ref_ids: list[str] | None
        visible_evidence_ref_ids: list[str] | None
        inferred_evidence_ref_ids: list[str] | None

    return TypeAdapter(list[_Link])


class BadLink(ValueError):
    """A link whose fields have unusable types (``index``: its position in the list)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index, self.message = index, message


class _Counter:
    """Counts links and validates their fields in batches (no Python work per link)."""

    def __init__(self) -> None:
        self.n = 0
        self._batch: list[bytes] = []

    def line(self, raw: bytes) -> None:
        self._batch.append(raw)
        if len(self._batch) >= _BATCH:
            self.flush()

    def block(self, raw: bytes) -> None:
        self._count(b"[" + raw + b"]")

    def flush(self) -> None:
        if self._batch:
            self._count(b"[" + b",".join(self._batch) + b"]")
            self._batch = []

    def _count(self, array: bytes) -> None:
        # One parse and validation in pydantic-core for the batch; a link that is not an
        # object, a run that is not whole links, or anything wrong, sends the caller to
        # the exact reader. The links are counted as parsed, however they are laid out.
        from pydantic import ValidationError

        try:
            self.n += len(_links().validate_json(array))
        except ValidationError as exc:
            raise NotLineLayout(str(exc)) from None


def count_links(safe: PackageRoot) -> int:
    """How many ``row_evidence_links`` the map holds, every one's fields validated as
    :class:`~aa_review.core.package.records.RowLink` reads them, without an object per link.

    Raises
    ------
    RecordError
        The map does not parse (located).
    BadLink
        A link's fields have unusable types.
    OSError, UnsafeRefError
        The map cannot be read.
    """
    with safe.open(MAP_PATH) as fh:
        counter = _Counter()
        try:
            walk_link_lines(fh, counter.line, counter.block)
            counter.flush()
            return counter.n
        except NotLineLayout:
            pass
    return _count_exactly(safe)


def _count_exactly(safe: PackageRoot) -> int:
    n = 0
    batch: list[Any] = []
    where: list[int] = []

    from pydantic import ValidationError

    def check() -> None:
        try:
            _links().validate_python(batch)
        except ValidationError as exc:
            err = exc.errors()[0]
            at = where[int(err["loc"][0])] if err["loc"] else where[0]
            raise BadLink(at, err["msg"]) from None
        batch.clear()
        where.clear()

    with safe.open(MAP_PATH) as fh:
        for key, value in ObjectStream(fh, MAP_PATH).items(_BIG):
            if key == "row_evidence_links" and isinstance(value, Iterator):
                for item in value:
                    if isinstance(item, dict):  # anything else counts, as RowLink() did
                        batch.append(item)
                        where.append(n)
                        if len(batch) >= _BATCH:
                            check()
                    n += 1
    if batch:
        check()
    return n
