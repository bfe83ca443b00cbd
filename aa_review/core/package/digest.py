"""Package digest: one content hash over every file of a package folder."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["package_digest", "file_sha256", "list_package_files"]

_CHUNK = 1 << 20
# Folders the compiler's own index skips; they are not part of a package's content.
_SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules"})


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes, read in 1 MiB chunks (hashlib drops the GIL)."""
    h = hashlib.sha256()
    with open(path, "rb", buffering=0) as fh:
        buf = bytearray(_CHUNK)
        view = memoryview(buf)
        while n := fh.readinto(buf):
            h.update(view[:n])
    return h.hexdigest()


def list_package_files(root: Path) -> list[tuple[str, Path, bool]]:
    """Every entry under ``root`` as ``(relpath, path, is_symlink)``, sorted by relpath.

    Symlinks are listed, never followed: a link's target is not package content.
    """
    out: list[tuple[str, Path, bool]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        base = Path(dirpath)
        for d in list(dirnames):
            if (base / d).is_symlink():
                dirnames.remove(d)
                out.append(((base / d).relative_to(root).as_posix(), base / d, True))
        for name in filenames:
            p = base / name
            out.append((p.relative_to(root).as_posix(), p, p.is_symlink()))
    out.sort(key=lambda t: t[0])
    return out


def package_digest(
    root: Path, progress: Callable[[int, int], None] | None = None, workers: int = 4
) -> str:
    """``sha256:`` digest over the sorted list of (relative path, size, SHA-256) of every file.

    Any change to any file's bytes, or a file added, removed or renamed, changes
    the digest. A symlink contributes its target text, not the target's bytes.
    """
    entries = list_package_files(root)

    def one(entry: tuple[str, Path, bool]) -> bytes:
        rel, path, is_link = entry
        if is_link:
            return f"{rel}\0link\0{os.readlink(path)}\n".encode("utf-8", "surrogateescape")
        return f"{rel}\0{path.stat().st_size}\0{file_sha256(path)}\n".encode(
            "utf-8", "surrogateescape"
        )

    total = hashlib.sha256()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for i, line in enumerate(pool.map(one, entries), 1):
            total.update(line)
            if progress is not None:
                progress(i, len(entries))
    return "sha256:" + total.hexdigest()
