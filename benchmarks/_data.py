"""Generated stress packages for benchmarks, cached under bench-data/ (git-ignored)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "bench_dir",
    "stress_package",
    "changed_package",
    "scratch",
    "add_data_arguments",
    "Listing",
    "data_listing",
    "data_changes",
]

# rel path -> (kind, size, mtime_ns, link count); kind "d" for a folder (no size or time:
# a folder's time moves when a file is made and removed in it, which changes no data).
Listing = dict[str, tuple[str, int, int, int]]


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


def changed_package(src: Path, into: Path, seed: int = 1, **changes: object) -> Path:
    """A copy of the package ``src`` with ``changes`` (``ChangeSpec`` fields), made in the
    folder ``into`` (see :func:`scratch`: removed when the benchmark ends). Its files are
    copied, not hard-linked: a hard link would change the source's files (their link
    count, which the audit reports as ``file.hard_link``) for every later benchmark.
    Returns the copy's root."""
    from aa_review.generator import ChangeSpec, derive_package

    print(f"deriving a changed copy of {src.name}…", flush=True)
    spec = ChangeSpec(**changes)  # type: ignore[arg-type]  # the caller names the fields
    derive_package(src, into, spec, seed=seed, link_unchanged=False)
    return into / src.name


_SCRATCH = ".scratch-"


def _another_runs(top: str) -> bool:
    """A scratch folder of a benchmark running beside this one (another process): it
    comes and goes with that run, so it is no change of this one's."""
    return top.startswith(_SCRATCH) and f"-{os.getpid()}-" not in top


@contextlib.contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A folder for one run's derived data, inside ``bench-data/`` (the same disk as the
    packages, not a memory-backed temporary folder), removed when the run ends."""
    d = Path(tempfile.mkdtemp(prefix=f"{_SCRATCH}{prefix}-{os.getpid()}-", dir=bench_dir()))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def add_data_arguments(parser: object) -> None:
    """``--degenerate``: the labelled extra case (every row alike), instead of varied data."""
    parser.add_argument(  # type: ignore[attr-defined]
        "--degenerate",
        action="store_true",
        help="use the degenerate package compiler 0.2.1 writes (every row cites the same 33 "
        "items with the same scores) instead of the varied one; a labelled extra case",
    )


def data_listing(root: Path | None = None) -> Listing:
    """Every entry under ``root`` (``bench-data/``): names, sizes, modification times and
    link counts, without following symlinks. Cheap enough to take around every run, and
    enough to see a file rewritten, removed, or hard-linked from elsewhere."""
    base = root or bench_dir()
    out: Listing = {}
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, base)
            if _another_runs(rel.split(os.sep, 1)[0]):
                continue
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if name in dirnames and not os.path.islink(full):
                out[rel] = ("d", 0, 0, 0)
            else:
                out[rel] = ("f", st.st_size, st.st_mtime_ns, st.st_nlink)
    return out


def data_changes(before: Listing, after: Listing) -> list[str]:
    """What a benchmark changed in ``bench-data/``: every entry found before must be there
    after, unchanged. A new top-level entry is a data set made once and cached (a stress
    package and its ``.complete`` marker): adding one changes nothing that was found; a
    new entry inside one found before does, and so does this run's own scratch folder
    left behind. Scratch folders of other benchmarks running beside it are not listed."""
    changes = [f"removed {rel}" for rel in before if rel not in after]
    changes += [
        f"changed {rel} ({before[rel]} -> {after[rel]})"
        for rel in before
        if rel in after and before[rel] != after[rel]
    ]
    tops = {rel.split(os.sep, 1)[0] for rel in before}
    changes += [
        f"added {rel}"
        for rel in after
        if rel not in before
        and (rel.split(os.sep, 1)[0] in tops or (rel.startswith(_SCRATCH) and os.sep not in rel))
    ]
    return sorted(changes)
