"""One pass over ``source_evidence_map.json``: its links (compactly) and its tail keys.

The compiler writes one link per line. That layout is read line by line with
orjson; any other layout (or any surprise) falls back to the exact streaming
reader. Raw newlines cannot occur inside JSON strings, so a line boundary is
always a token boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from aa_review.core.audits._fingerprint import link_fingerprint
from aa_review.core.package.jsondepth import may_be_too_deep, too_deep
from aa_review.core.package.jsonstream import ObjectStream
from aa_review.core.package.layout import MAP_PATH
from aa_review.core.package.linklines import NotLineLayout, walk_link_lines
from aa_review.core.package.safepath import PackageRoot
from aa_review.core.util.errors import RecordError, UnsafeRefError

__all__ = ["MapScan", "LinkCols", "scan_map", "scan_map_at"]

_BIG = frozenset({"evidence_catalog", "row_evidence_links"})


@dataclass
class LinkCols:
    """Links as columns; id lists are interned as codes into ``id_sets``.

    Read in a worker process for a large map, then pickled back: each repeated text
    (file, type, task, evidence id) is one object, so it is pickled once and referred
    to after, and the lookup table of the id lists is rebuilt here, never sent.
    """

    row_id: list[str] = field(default_factory=list)
    row_file: list[str] = field(default_factory=list)
    data_type: list[str] = field(default_factory=list)
    task: list[str] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    visible: list[int] = field(default_factory=list)
    inferred: list[int] = field(default_factory=list)
    fingerprint: list[int] = field(default_factory=list)
    id_sets: list[tuple[str, ...]] = field(default_factory=list)
    _codes: dict[tuple[str, ...], int] = field(default_factory=dict, compare=False, repr=False)
    # One object per distinct text (see above).
    _texts: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.row_id)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_codes", "_texts")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._codes = {key: code for code, key in enumerate(self.id_sets)}
        self._texts = {}

    def _text(self, value: str) -> str:
        return self._texts.setdefault(value, value)

    def _code(self, value: Any) -> int:
        key: tuple[Any, ...] = tuple(value) if type(value) is list else ()
        try:
            code = self._codes.get(key)
        except TypeError:  # an unhashable element: compare its text instead
            key = tuple(str(v) for v in key)
            code = self._codes.get(key)
        if code is None:
            # Only texts are shared: an equal number of another type stays as it is.
            key = tuple(self._text(v) if type(v) is str else v for v in key)
            code = self._codes[key] = len(self.id_sets)
            self.id_sets.append(key)
        return code

    def add(self, link: Any) -> None:
        if not isinstance(link, dict):
            link = {}
        get = link.get
        self.row_id.append(str(get("row_id") or ""))
        self.row_file.append(self._text(str(get("row_file") or "")))
        self.data_type.append(self._text(str(get("data_type") or "")))
        self.task.append(self._text(str(get("source_task_id") or "")))
        self.ids.append(self._code(get("evidence_ref_ids")))
        self.visible.append(self._code(get("visible_evidence_ref_ids")))
        self.inferred.append(self._code(get("inferred_evidence_ref_ids")))
        self.fingerprint.append(
            link_fingerprint(
                get("source_trace_id"), get("source_step_ids"), get("source_artifact_refs")
            )
        )


@dataclass
class MapScan:
    """The links and every small key after them; ``error`` if the map could not be read."""

    links: LinkCols
    tail: dict[str, Any]
    has_links: bool
    error: RecordError | None = None


def scan_map_at(root: str) -> MapScan:
    """:func:`scan_map` of the package folder ``root`` (for a worker process)."""
    from pathlib import Path

    return scan_map(PackageRoot(Path(root)))


def scan_map(safe: PackageRoot) -> MapScan:
    """Read the links and tail of the evidence map (fast path, else exact streaming)."""
    links, has = LinkCols(), False
    tail: dict[str, Any] = {}
    try:
        with safe.open(MAP_PATH) as fh:
            try:
                fast = _fast(fh)
            except (ValueError, orjson.JSONDecodeError):
                fast = None
    except (OSError, UnsafeRefError) as exc:
        why = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        return MapScan(links, tail, has, RecordError(MAP_PATH, None, f"cannot be read ({why})"))
    if fast is not None:
        return fast
    try:
        with safe.open(MAP_PATH) as fh:
            for key, value in ObjectStream(fh, MAP_PATH).items(_BIG):
                if key == "row_evidence_links":
                    has = True
                    if not isinstance(value, (str, int, float, dict, type(None))):
                        for item in value:  # an array streams element by element
                            links.add(item)
                elif has and key not in _BIG:
                    tail[key] = value
    except RecordError as exc:
        return MapScan(links, tail, has, exc)
    except (OSError, UnsafeRefError) as exc:
        why = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        return MapScan(links, tail, has, RecordError(MAP_PATH, None, f"cannot be read ({why})"))
    return MapScan(links, tail, has)


def _fast(fh: Any) -> MapScan | None:
    """The links in the compiler's one-per-line layout; None: read the map exactly."""
    links = LinkCols()

    def on_line(line: bytes) -> None:
        link = orjson.loads(line)
        if may_be_too_deep(line) and too_deep(link):
            raise NotLineLayout("a link nests too deep")  # the exact reader locates it
        links.add(link)

    try:
        tail = walk_link_lines(fh, on_line)
    except NotLineLayout:
        return None
    return MapScan(links, tail, True)
