"""Generated stress packages for benchmarks, cached under bench-data/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["bench_dir", "stress_package", "changed_package", "add_data_arguments"]


def bench_dir() -> Path:
    d = Path(
        os.environ.get("AA_REVIEW_BENCH_DIR", Path(__file__).resolve().parents[1] / "bench-data")
    )
    d.mkdir(parents=True, exist_ok=True)
    return d


def stress_package(rows: int, seed: int = 1, lean: bool = False, varied: bool = True) -> Path:
    """A generated package of ``rows`` rows, made once and reused.

    ``varied`` (the default) makes the rows differ as real data does: each trace step's
    rows cite a subset of a 400-item catalog (12 items hidden, cited now and then),
    scores spread (``pkg_varied_<rows>``; see ``aa_review.generator.Variation``).
    ``varied=False`` is the degenerate case compiler 0.2.1 writes, every row citing the
    same 33 items with the same scores (``pkg_stress_<rows>``), kept as a labelled extra.
    ``lean`` makes a package of only what opening reads (``..._lean``), for load figures
    at sizes a full package would not fit on disk; not for audits.
    """
    from aa_review.generator import VARIED, generate_package

    pid = ("pkg_varied_" if varied else "pkg_stress_") + str(rows) + ("_lean" if lean else "")
    root = bench_dir() / pid
    done = bench_dir() / f".{pid}.complete"
    if not done.exists():
        print(f"generating {pid} (first run only)…", flush=True)
        if root.exists():
            import shutil

            shutil.rmtree(root)
        generate_package(
            bench_dir(),
            rows=rows,
            seed=seed,
            package_id=pid,
            lean=lean,
            variation=VARIED if varied else None,
        )
        done.write_text("ok\n")
    return root


def changed_package(src: Path, name: str, seed: int = 1, **changes: object) -> Path:
    """A copy of the package ``src`` with ``changes`` (``ChangeSpec`` fields), made once
    beside it as ``<src>_<name>``; the files it leaves alone are hard-linked, so it costs
    only the files it rewrites. Returns the copy's root."""
    from aa_review.generator import ChangeSpec, derive_package

    out = bench_dir() / f"{src.name}_{name}"
    done = bench_dir() / f".{src.name}_{name}.complete"
    if not done.exists():
        print(f"deriving {out.name} (first run only)…", flush=True)
        spec = ChangeSpec(**changes)  # type: ignore[arg-type]  # the caller names the fields
        derive_package(src, out, spec, seed=seed, link_unchanged=True)
        done.write_text("ok\n")
    return out / src.name


def add_data_arguments(parser: object) -> None:
    """``--degenerate``: the labelled extra case (every row alike), instead of varied data."""
    parser.add_argument(  # type: ignore[attr-defined]
        "--degenerate",
        action="store_true",
        help="use the degenerate package compiler 0.2.1 writes (every row cites the same 33 "
        "items with the same scores) instead of the varied one; a labelled extra case",
    )
