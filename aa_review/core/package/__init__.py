"""Opening a compiled package: safe paths, JSONL reading, the columnar row index."""

from __future__ import annotations

from aa_review.core.package.digest import package_digest
from aa_review.core.package.index import RowIndex, RowSet
from aa_review.core.package.loader import LoadCancelled, find_root, iter_rows, open_package
from aa_review.core.package.model import LoadProgress, Package
from aa_review.core.package.safepath import PackageRoot

__all__ = [
    "open_package",
    "find_root",
    "iter_rows",
    "LoadCancelled",
    "LoadProgress",
    "Package",
    "PackageRoot",
    "RowIndex",
    "RowSet",
    "package_digest",
]
