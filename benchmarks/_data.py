"""Generated stress packages for benchmarks, cached under bench-data/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["bench_dir", "stress_package"]


def bench_dir() -> Path:
    d = Path(os.environ.get("AA_REVIEW_BENCH_DIR", Path(__file__).resolve().parents[1]
                            / "bench-data"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def stress_package(rows: int, seed: int = 1, lean: bool = False) -> Path:
    """A clean generated package of ``rows`` rows, made once and reused.

    ``lean`` makes a package of only what opening reads (``pkg_stress_<rows>_lean``),
    for load figures at sizes a full package would not fit on disk; not for audits.
    """
    from aa_review.generator import generate_package

    pid = f"pkg_stress_{rows}" + ("_lean" if lean else "")
    root = bench_dir() / pid
    done = bench_dir() / f".{pid}.complete"
    if not done.exists():
        print(f"generating {pid} (first run only)…", flush=True)
        if root.exists():
            import shutil

            shutil.rmtree(root)
        generate_package(bench_dir(), rows=rows, seed=seed, package_id=pid, lean=lean)
        done.write_text("ok\n")
    return root
