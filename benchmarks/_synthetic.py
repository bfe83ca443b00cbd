"""A synthetic RowIndex of any size (no files), for view and filter benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from aa_review.core.package.index import RowIndex, build_index
from aa_review.core.package.layout import ROW_FILES
from aa_review.core.package.records import Evidence
from aa_review.core.package.rowscan import RowChunk

__all__ = ["synthetic_index", "FakePackage"]


def synthetic_index(
    rows: int, evidence: int = 400, seed: int = 0, hidden: int = 12, rows_per_set: int = 10
) -> tuple[RowIndex, list[Evidence]]:
    """An index shaped like a varied package's: a catalog of ``evidence`` items (the last
    ``hidden`` of them hidden), rows citing subsets of it (about one distinct set per
    ``rows_per_set`` rows, a few to ~60 items each, a window moving along the rows, now
    and then a hidden item), scores spread."""
    rnd = random.Random(seed)
    catalog = [
        Evidence(
            evidence_id=f"evidence_{i:016x}",
            ref=f"attempts/x/artifacts/f{i}.csv",
            evidence_type="artifact" if i % 3 else "trace",
            visibility="hidden_excluded" if i >= evidence - hidden else "visible",
            resolves=True,
            confidence=1.0,
        )
        for i in range(evidence)
    ]
    ids = [e.evidence_id for e in catalog]
    visible = evidence - hidden
    n_sets = max(1, rows // rows_per_set)
    sets = []
    for k in range(n_sets):
        lo = k * visible // n_sets - int(rnd.random() ** 3 * 30)
        hi = (k + 1) * visible // n_sets + 1 + int(rnd.random() ** 3 * 30)
        chosen = {0, 1} | set(range(max(0, lo), min(visible, hi)))
        chosen |= {rnd.randrange(2, visible) for _ in range(rnd.randint(0, 8))}
        if hidden and k % 97 == 96:
            chosen.add(visible + (k // 97) % hidden)
        sets.append(tuple(ids[i] for i in sorted(chosen)))
    files = [rel for rel, _ in ROW_FILES]
    types = [t for _, t in ROW_FILES]
    chunk = RowChunk(file_code=0, start=0)
    chunk.sets = sets
    for i in range(rows):
        f = i * len(files) // rows
        chunk.line.append(i + 1)
        chunk.offset.append(i * 9000)
        chunk.length.append(9000)
        chunk.row_id.append(f"row_pkg_stress_{types[f]}_{i:016x}")
        chunk.data_type.append(types[f])
        chunk.task.append("pkg_stress")
        chunk.set_code.append(min(n_sets - 1, i // rows_per_set))
        chunk.confidence.append(round(rnd.uniform(0.3, 1.0), 3))
        chunk.quality.append(round(rnd.uniform(0.5, 1.0), 3))
    return build_index([chunk], files, ids, {}), catalog


@dataclass
class FakePackage:
    """Enough of a Package for filtering and the rows model."""

    index: RowIndex
    catalog: list[Evidence] = field(default_factory=list)
    package_id: str = "pkg_stress"

    def evidence_at(self, pos: int) -> Evidence | None:
        return self.catalog[pos] if pos < len(self.catalog) else None
