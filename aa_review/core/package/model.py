"""The opened package: documents, catalog, row index and located problems."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from aa_review.core.findings import Finding
from aa_review.core.package.catalog import iter_map_links
from aa_review.core.package.derive import visibility
from aa_review.core.package.documents import Documents
from aa_review.core.package.index import RowIndex
from aa_review.core.package.records import Evidence, EvidenceMapHeader, RowLink
from aa_review.core.package.safepath import PackageRoot, printable
from aa_review.core.util.errors import RecordError

__all__ = ["Package", "LoadProgress", "RowCounts", "HIDDEN"]

HIDDEN = "hidden_excluded"  # the visibility of grader-only material (format section 7)


@dataclass(frozen=True)
class LoadProgress:
    """How far loading is: bytes of row files scanned and rows indexed so far."""

    stage: str
    done: int
    total: int
    rows: int

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)


@dataclass(frozen=True)
class RowCounts:
    """How many rows of each data type, and in each row file: what counting the rows
    needs, with or without an index (:func:`~aa_review.core.package.loader.count_rows`).

    ``by_type``: each data type (``""`` for none) in the order first met; ``by_file``:
    every row file (its path in the package), in the layout's order, 0 for none.
    """

    by_type: dict[str, int]
    by_file: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.by_file.values())

    @classmethod
    def of_index(cls, index: RowIndex) -> RowCounts:
        return cls(by_type=index.counts_by("data_type"), by_file=index.counts_by("file"))


@dataclass(eq=False)
class Package:
    """An opened compiled package. Rows stay on disk; ``index`` holds them as columns."""

    root: Path
    safe: PackageRoot
    version: str
    docs: Documents
    map_header: EvidenceMapHeader | None
    catalog: list[Evidence]
    catalog_derived: bool
    index: RowIndex
    problems: list[Finding] = field(default_factory=list)
    # False when opened without its rows (an audit whose checks read none): empty index.
    rows_read: bool = True

    @property
    def package_id(self) -> str:
        """The package root folder's name (the exporter names it after the task); bytes
        that are not UTF-8 are shown escaped."""
        return printable(self.root.name)

    @property
    def task_id(self) -> str | None:
        for src in (self.docs.manifest, self.map_header):
            if src is not None and src.source_task_id:
                return src.source_task_id
        return None

    @cached_property
    def evidence_by_id(self) -> dict[str, Evidence]:
        return {e.evidence_id: e for e in self.catalog}

    @cached_property
    def _ref_positions(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for i, e in enumerate(self.catalog):
            out.setdefault(e.ref, i)
        return out

    def evidence_of_ref(self, ref: str | None) -> int | None:
        """Position of the first catalog item with this ref, None when there is none.

        The one place a ref is looked up: findings, contract entries and the palette
        all name evidence by ref.
        """
        return None if not ref else self._ref_positions.get(ref)

    def hidden_evidence(self) -> np.ndarray:
        """Catalog positions of hidden material, by the catalog's visibility or by the ref
        itself (format section 7: a hidden path is hidden whatever the catalog says)."""
        hidden = getattr(self, "_hidden", None)
        if hidden is None:
            hidden = np.array(
                [
                    i
                    for i, e in enumerate(self.catalog)
                    if e.visibility == HIDDEN or visibility(e.ref) == HIDDEN
                ],
                dtype=np.int64,
            )
            self._hidden = hidden
        return hidden

    def rows_citing_hidden(self) -> np.ndarray:
        """Positions of the rows citing a hidden catalog item, sorted (from the index alone:
        the audit also reads refs a row lists outside its evidence ids)."""
        return np.flatnonzero(self.index.citing_mask(self.hidden_evidence()))

    def evidence_at(self, pos: int) -> Evidence | None:
        """Catalog entry at an index position, None for ids the catalog lacks."""
        return self.catalog[pos] if pos < self.index.catalog_size else None

    def schema_versions(self) -> dict[str, str | None]:
        m = self.docs.manifest
        return {
            "compiler": m.schema_version if m else None,
            "row": m.training_row_schema_version if m else None,
            "evidence_map": self.map_header.schema_version if self.map_header else None,
        }

    def read_row_bytes(self, pos: int) -> bytes:
        rel = self.index.files[int(self.index.file[pos])]
        with self.safe.open(rel, buffering=0) as fh:
            fh.seek(int(self.index.offset[pos]))
            return fh.read(int(self.index.length[pos]))

    def read_row(self, pos: int) -> dict[str, Any]:
        """The full row at index position ``pos``, read from disk by offset."""
        data = self.read_row_bytes(pos)
        try:
            row = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            rel = self.index.files[int(self.index.file[pos])]
            raise RecordError(
                rel,
                int(self.index.line[pos]),
                f"row changed on disk since loading ({exc.msg}); reload",
            ) from None
        if not isinstance(row, dict):
            raise RecordError(
                self.index.files[int(self.index.file[pos])],
                int(self.index.line[pos]),
                "row is not a JSON object",
            )
        return row

    def iter_links(self) -> Iterator[RowLink]:
        """``row_evidence_links`` as the map states them, or as derived for v0.1 packages."""
        if not self.catalog_derived:
            yield from iter_map_links(self.safe)
            return
        ix = self.index
        for i in range(len(ix)):
            ids = [ix.evidence_ids[e] for e in ix.evidence_of_row(i).tolist()]
            yield RowLink(
                row_id=ix.row_id_str(i),
                row_file=ix.files[int(ix.file[i])].rsplit("/", 1)[1],
                data_type=ix.data_types[int(ix.data_type[i])],
                source_task_id=ix.tasks[int(ix.task[i])],
                evidence_ref_ids=ids,
            )
