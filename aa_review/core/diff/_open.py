"""Opening both sides of a diff at once: a package folder, or a fingerprint file for ``old``."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from aa_review.core.diff._fingerprint import Fingerprint

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["open_pair"]


def _open(path: Path) -> Package:
    from aa_review.core.package import open_package

    return open_package(path)


def open_pair(old: Path | str, new: Path | str) -> tuple[Package | Fingerprint, Package]:
    """Open ``old`` (a package folder, or a fingerprint file) and the package ``new``.

    The two are opened in parallel: each load spends part of its time in this process
    (documents, the index merge) while the other's row scan runs in worker processes.

    Raises
    ------
    PackageError, FingerprintError, OSError
        When either side cannot be opened (the first error, old side first).
    """
    old, new = Path(old), Path(new)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="aa-diff-open") as pool:
        fa: Future[Package | Fingerprint]
        if old.is_file():
            fa = pool.submit(Fingerprint.load, old)
        else:
            fa = pool.submit(_open, old)
        fb = pool.submit(_open, new)
        a, b = fa.exception(), fb.exception()
        if a is not None:
            raise a
        if b is not None:
            raise b
        return fa.result(), fb.result()
