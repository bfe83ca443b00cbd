"""Package digest: one content hash over every file of a package folder."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["package_digest", "digest_of", "file_sha256", "list_package_files"]

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


def digest_of(entries: list[tuple[str, Path, bool]],
              lines: Iterable[tuple[int, str] | None]) -> str:
    """The package digest of ``entries`` (:func:`list_package_files`), given per entry its
    ``(size, hex SHA-256)`` (None for a symlink): the one definition of the digest."""
    total = hashlib.sha256()
    for (rel, path, is_link), facts in zip(entries, lines, strict=True):
        if is_link or facts is None:
            line = f"{rel}\0link\0{os.readlink(path)}\n"
        else:
            line = f"{rel}\0{facts[0]}\0{facts[1]}\n"
        total.update(line.encode("utf-8", "surrogateescape"))
    return "sha256:" + total.hexdigest()


def package_digest(
    root: Path, progress: Callable[[int, int], None] | None = None, workers: int = 4
) -> str:
    """``sha256:`` digest over the sorted list of (relative path, size, SHA-256) of every file.

    Any change to any file's bytes, or a file added, removed or renamed, changes
    the digest. A symlink contributes its target text, not the target's bytes.
    """
    entries = list_package_files(root)

    def one(entry: tuple[str, Path, bool]) -> tuple[int, str] | None:
        _, path, is_link = entry
        return None if is_link else (path.stat().st_size, file_sha256(path))

    def each() -> Iterator[tuple[int, str] | None]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for i, facts in enumerate(pool.map(one, entries), 1):
                if progress is not None:
                    progress(i, len(entries))
                yield facts

    return digest_of(entries, each())
