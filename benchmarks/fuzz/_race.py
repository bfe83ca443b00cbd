"""The symlink-swap race: a thread swaps package files for symlinks to outside files
(and back) while the package is loaded and audited again and again.

Nothing outside the package may ever be opened, and no bait content may show up in
what was loaded. Used by ``tests/core/test_fuzz.py`` (a few loads) and ``./dev fuzz``.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.fuzz._mutants import BAIT, MANIFEST, ROWS, plant_bait
from benchmarks.fuzz._opens import outside, record_opens

__all__ = ["RaceResult", "race"]

TARGETS = (
    MANIFEST,
    ROWS,
    "experience_compiler/source_evidence_map.json",
    "grading/baseline_grader_result.json",
)
_MARK = BAIT.split(b":")[0].decode()


@dataclass
class RaceResult:
    loads: int = 0
    audits: int = 0
    swaps: int = 0
    saw_link: int = 0  # loads that found a swapped file (refused, reported)
    outside_opens: list[str] = field(default_factory=list)
    bait_seen: list[str] = field(default_factory=list)


def race(root: Path, work: Path, loads: int, audit_every: int = 0) -> RaceResult:
    """Load ``root`` ``loads`` times (and audit every ``audit_every``-th time) while a
    thread swaps :data:`TARGETS` for symlinks to bait files outside, and back."""
    from aa_review.core.audits import audit_package
    from aa_review.core.package import open_package

    bait = plant_bait(work / "outside")
    keep = work / "real"
    keep.mkdir(exist_ok=True)
    targets = [t for t in TARGETS if (root / t).is_file()]
    for i, rel in enumerate(targets):
        os.link(root / rel, keep / str(i))
    result = RaceResult()
    stop = threading.Event()

    def swapper() -> None:
        while not stop.is_set():
            for i, rel in enumerate(targets):
                p = root / rel
                tmp = p.with_name(p.name + ".swap")
                target = bait / ("rows.jsonl" if rel.endswith(".jsonl") else "doc.json")
                os.symlink(target, tmp)
                os.replace(tmp, p)  # now a symlink out of the package
                os.link(keep / str(i), tmp)
                os.replace(tmp, p)  # the real file again
                result.swaps += 1

    thread = threading.Thread(target=swapper, daemon=True)
    thread.start()
    try:
        for n in range(loads):
            with record_opens() as opened:
                pkg = open_package(root, workers=1)
                text = [
                    str(pkg.docs),
                    *(p.message for p in pkg.problems),
                    *(pkg.index.row_id_str(i) for i in range(len(pkg.index))),
                ]
                if audit_every and n % audit_every == 0:
                    report = audit_package(pkg, workers=1, digest=True)
                    text.append(report.model_dump_json())
                    result.audits += 1
            result.loads += 1
            if any(p.code == "input.unsafe_file" for p in pkg.problems):
                result.saw_link += 1
            bad = outside(root, opened, near=work)
            result.outside_opens.extend(bad)
            if any(_MARK in t for t in text):
                result.bait_seen.append(f"load {n}")
    finally:
        stop.set()
        thread.join()
        for i, rel in enumerate(targets):  # leave the package as it was
            os.replace(keep / str(i), root / rel) if not (root / rel).is_file() else None
    return result
