"""One contracted file compared with its contract entries; also a worker process's job.

A large JSON artifact is compared in a spawned worker, which imports this module: it
needs the standard library, orjson and the package's safe opener only (no pydantic,
no numpy), so the worker starts in a few milliseconds.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aa_review.core.contracts._compare import ArtifactShape, Diff, DiffKind, compare, read_artifact
from aa_review.core.package.safepath import PackageRoot, file_kind
from aa_review.core.util.errors import UnsafeRefError

__all__ = ["ContractedFile", "FileCheck", "check_in", "check_elsewhere"]


@dataclass(frozen=True)
class ContractedFile:
    """One artifact and every contract entry that describes it, first the fullest."""

    ref: str
    format: str
    contracts: tuple[tuple[str, dict[str, Any]], ...]  # (contract path, entry)


@dataclass
class FileCheck:
    """A contracted file compared with each of its contract entries."""

    file: ContractedFile
    shape: ArtifactShape | None  # None: the file is absent or its ref unsafe, not opened
    per_contract: list[list[Diff]]  # parallel to ``file.contracts``
    unsafe: str | None = None  # why an unsafe ref was not opened

    @property
    def diffs(self) -> list[Diff]:
        """The distinct differences, each naming the contract entries that state it."""
        merged: dict[tuple[Any, ...], Diff] = {}
        for (cpath, _), diffs in zip(self.file.contracts, self.per_contract, strict=True):
            for d in diffs:
                key = (d.kind, d.field, d.message, d.line)
                have = merged.get(key)
                merged[key] = replace(d, contracts=(have.contracts if have else ()) + (cpath,))
        return list(merged.values())


def check_in(safe: PackageRoot, cf: ContractedFile, keep: int) -> FileCheck:
    """Open ``cf`` through ``safe`` (never outside the package) and compare it with each
    of its contracts, keeping ``keep`` rows of a table."""
    try:
        safe.resolve(cf.ref)
    except UnsafeRefError as exc:
        diff = Diff(DiffKind.MISSING_FILE, None, f"{cf.ref} is not opened: {exc.reason}")
        return FileCheck(cf, None, [[diff] for _ in cf.contracts], unsafe=exc.reason)
    st = safe.stat(cf.ref)
    if st is None or not stat.S_ISREG(st.st_mode):
        what = (
            "does not exist"
            if st is None
            else f"is not a regular file but a {file_kind(st.st_mode)}; not opened"
        )
        diff = Diff(DiffKind.MISSING_FILE, None, f"{cf.ref} {what}")
        return FileCheck(cf, None, [[diff] for _ in cf.contracts])
    # Opened by the one package opener: never outside the package, never a FIFO.
    shape = read_artifact(lambda: safe.open(cf.ref), cf.format, keep)
    return FileCheck(cf, shape, [compare(shape, c) for _, c in cf.contracts])


def check_elsewhere(root: str, cf: ContractedFile, keep: int) -> FileCheck:
    """:func:`check_in` in a worker process, for a large JSON artifact: the parsed value
    stays there (parsing it again here would cost as much as the comparison)."""
    check = check_in(PackageRoot(Path(root)), cf, keep)
    if check.shape is not None and check.shape.value is not None:
        st = PackageRoot(Path(root)).stat(cf.ref)
        check.shape.value, check.shape.value_dropped = None, st.st_size if st else 1
    return check
