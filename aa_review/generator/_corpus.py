"""generate_corpus: many small packages in one folder (for list views and batch audits)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ._package import generate_package
from ._result import GeneratedPackage

__all__ = ["generate_corpus"]


def generate_corpus(
    out_dir: Path,
    count: int,
    *,
    rows: int = 60,
    seed: int = 0,
    version: str = "v0.2",
    defects: Sequence[Sequence[str]] | None = None,
) -> list[GeneratedPackage]:
    """Write ``count`` packages into ``out_dir``, package ``i`` from seed ``seed + i``.

    Parameters
    ----------
    out_dir : Path
        Folder receiving the package roots ``pkg_corpus_s<seed>_<i>``.
    count : int
        Number of packages.
    rows : int
        Rows per package.
    seed : int
        First seed; the corpus is deterministic as a whole.
    version : str
        ``"v0.2"`` or ``"v0.1"`` for every package.
    defects : sequence of sequences of str, optional
        Defects of package ``i`` are ``defects[i % len(defects)]``; clean when omitted.

    Returns
    -------
    list of GeneratedPackage
    """
    out = []
    for i in range(count):
        names = list(defects[i % len(defects)]) if defects else []
        out.append(
            generate_package(
                Path(out_dir),
                rows=rows,
                seed=seed + i,
                version=version,
                defects=names,
                package_id=f"pkg_corpus_s{seed}_{i:04d}",
            )
        )
    return out
