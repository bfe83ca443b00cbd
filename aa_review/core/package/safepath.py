"""Resolving untrusted package refs without ever leaving the package folder."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from aa_review.core.errors import UnsafeRefError

__all__ = ["PackageRoot"]


class PackageRoot:
    """A package folder that only hands out paths inside itself.

    Every ref comes from a package file and is untrusted: absolute refs, refs
    with a ``..`` component and refs whose path crosses a symlink leading out
    of the folder raise :class:`UnsafeRefError` and are never opened.
    """

    def __init__(self, root: Path) -> None:
        self.path = Path(root)
        self.real = Path(os.path.realpath(self.path))

    def check(self, ref: str) -> None:
        """Raise :class:`UnsafeRefError` for a ref that names no place inside the package."""
        if not ref or "\x00" in ref:
            raise UnsafeRefError(ref, "empty or contains a NUL byte")
        if ref.startswith(("/", "\\")) or (len(ref) > 1 and ref[1] == ":"):
            raise UnsafeRefError(ref, "absolute path")
        if ".." in PurePosixPath(ref.replace("\\", "/")).parts:
            raise UnsafeRefError(ref, "'..' climbs out of the package")

    def resolve(self, ref: str) -> Path:
        """The path of ``ref`` inside the package, symlinks checked; it may not exist."""
        self.check(ref)
        candidate = self.path / ref
        real = Path(os.path.realpath(candidate))
        if real != self.real and self.real not in real.parents:
            raise UnsafeRefError(ref, "a symlink leads out of the package")
        return candidate

    def is_symlink_out(self, ref: str) -> bool:
        """True when ``ref`` is well formed but a symlink on its way leads outside."""
        try:
            self.resolve(ref)
        except UnsafeRefError as exc:
            return exc.reason.startswith("a symlink")
        return False

    def exists(self, ref: str) -> bool:
        """Whether ``ref`` names an existing file or folder inside the package."""
        try:
            return self.resolve(ref).exists()
        except UnsafeRefError:
            return False
