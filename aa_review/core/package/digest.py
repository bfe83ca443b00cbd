"""Package digest: one content hash over every file of a package folder.

The package is listed through folder descriptors (``scandir`` on a descriptor,
``lstat`` relative to it): no symlink is followed, no special file (FIFO, socket,
device) is opened, and paths longer than ``PATH_MAX`` or names that are not UTF-8
are listed like any other. Files are read through
:func:`~aa_review.core.package.safepath.open_beneath`.

Worker processes import this module: it needs the standard library only.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from aa_review.core.package.safepath import file_kind, open_beneath
from aa_review.core.util.buffers import read_buffers

if TYPE_CHECKING:
    from aa_review.core.package.hashcache import HashCache, Stamp

__all__ = [
    "package_digest",
    "digest_of",
    "file_sha256",
    "list_package_files",
    "Entry",
    "Listing",
    "list_package",
    "MAX_DEPTH",
    "cached_digest",
]

# Folders the compiler's own index skips; they are not part of a package's content.
_SKIP_DIRS = frozenset({".git", "__pycache__", ".venv", "node_modules"})
MAX_DEPTH = 64  # folders nested deeper are reported, not listed (one descriptor per level)


@dataclass(frozen=True)
class Entry:
    """One listed package entry.

    ``kind``: ``file`` (regular), ``link`` (a symlink: ``detail`` is its target text),
    ``special`` (FIFO, socket, device: ``detail`` names it) or ``error`` (a folder that
    could not be listed, or is nested too deep: ``detail`` says why).
    """

    rel: str
    kind: str
    size: int = 0
    nlink: int = 1
    detail: str = ""
    # (device, inode, size, mtime_ns, ctime_ns) of a regular file, for the hash cache
    stamp: tuple[int, int, int, int, int] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Listing:
    """Every entry, sorted by ``rel``; :meth:`files` the regular ones."""

    entries: list[Entry]

    def files(self) -> list[Entry]:
        return [e for e in self.entries if e.kind == "file"]

    def problems(self) -> list[Entry]:
        """Entries that are neither regular files nor symlinks."""
        return [e for e in self.entries if e.kind in ("special", "error")]


def list_package(root: Path | str) -> Listing:
    """List every entry under ``root``, never following a symlink or opening a non-folder."""
    out: list[Entry] = []
    top = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        _list_dir(top, "", 0, out)
    finally:
        os.close(top)
    out.sort(key=lambda e: e.rel)
    return Listing(out)


_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _list_dir(fd: int, prefix: str, depth: int, out: list[Entry]) -> None:
    try:
        with os.scandir(fd) as it:
            names = sorted(e.name for e in it)
    except OSError as exc:
        out.append(
            Entry(
                prefix.rstrip("/") or ".",
                "error",
                detail=f"folder cannot be listed ({exc.strerror or exc})",
            )
        )
        return
    for name in names:
        rel = prefix + name
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError as exc:
            if exc.errno != errno.ENOENT:  # gone since the listing: not part of it
                out.append(
                    Entry(rel, "error", detail=f"cannot be examined ({exc.strerror or exc})")
                )
            continue
        mode = st.st_mode
        if stat.S_ISDIR(mode):
            if name in _SKIP_DIRS:
                continue
            if depth + 1 >= MAX_DEPTH:
                out.append(
                    Entry(
                        rel,
                        "error",
                        detail=f"folder nested over {MAX_DEPTH} levels deep; not listed",
                    )
                )
                continue
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                out.append(
                    Entry(rel, "error", detail=f"folder cannot be opened ({exc.strerror or exc})")
                )
                continue
            try:
                _list_dir(child, rel + "/", depth + 1, out)
            finally:
                os.close(child)
        elif stat.S_ISLNK(mode):
            try:
                target = os.readlink(name, dir_fd=fd)
            except OSError as exc:
                target = f"? ({exc.strerror})"
            out.append(Entry(rel, "link", st.st_size, st.st_nlink, target))
        elif stat.S_ISREG(mode):
            out.append(Entry(rel, "file", st.st_size, st.st_nlink, stamp=_stamp(st)))
        else:
            out.append(Entry(rel, "special", 0, st.st_nlink, file_kind(mode)))


def list_package_files(root: Path) -> list[tuple[str, Path, bool]]:
    """Regular files and symlinks under ``root`` as ``(relpath, path, is_symlink)``, sorted.

    Symlinks are listed, never followed: a link's target is not package content.
    Special files and unlistable folders are left out (see :func:`list_package`).
    """
    base = Path(root)
    return [
        (e.rel, base / e.rel, e.kind == "link")
        for e in list_package(root).entries
        if e.kind in ("file", "link")
    ]


def _stamp(st: os.stat_result) -> Stamp:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def file_sha256(root: Path | str, rel: str) -> str:
    """Hex SHA-256 of package file ``rel``'s bytes, read in 1 MiB chunks (no GIL held)."""
    return _sha256_stamped(root, rel)[0]


def _sha256_stamped(root: Path | str, rel: str) -> tuple[str, Stamp | None]:
    """Hex SHA-256 of ``rel`` and the stamp it kept while read (None: it changed meanwhile)."""
    h = hashlib.sha256()
    with os.fdopen(open_beneath(str(root), rel), "rb", buffering=0) as fh:
        before = _stamp(os.fstat(fh.fileno()))
        buf = read_buffers()[0]
        view = memoryview(buf)
        while n := fh.readinto(buf):
            h.update(view[:n])
        after = _stamp(os.fstat(fh.fileno()))
    return h.hexdigest(), before if before == after else None


def digest_of(entries: list[Entry], facts: Iterable[tuple[int, str] | None]) -> str:
    """The package digest of ``entries`` (:func:`list_package`), given per entry its
    ``(size, hex SHA-256)`` (None for anything but a regular file): the one definition
    of the digest. A symlink contributes its target text, a special file its type."""
    total = hashlib.sha256()
    for e, f in zip(entries, facts, strict=True):
        if e.kind == "link":
            line = f"{e.rel}\0link\0{e.detail}\n"
        elif e.kind == "file" and f is not None:
            line = f"{e.rel}\0{f[0]}\0{f[1]}\n"
        else:
            line = f"{e.rel}\0{e.kind}\0{e.detail}\n"
        total.update(line.encode("utf-8", "surrogateescape"))
    return "sha256:" + total.hexdigest()


def package_digest(
    root: Path, progress: Callable[[int, int], None] | None = None, workers: int = 4
) -> str:
    """``sha256:`` digest over the sorted list of (relative path, size, SHA-256) of every file.

    Any change to any file's bytes, or a file added, removed or renamed, changes
    the digest. A symlink contributes its target text, not the target's bytes; a
    special file (never opened) its type. Raises ``OSError`` when a file cannot be read.
    """
    entries = list_package(root).entries

    def one(e: Entry) -> tuple[int, str] | None:
        return (e.size, file_sha256(root, e.rel)) if e.kind == "file" else None

    def each() -> Iterator[tuple[int, str] | None]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for i, facts in enumerate(pool.map(one, entries), 1):
                if progress is not None:
                    progress(i, len(entries))
                yield facts

    return digest_of(entries, each())


def cached_digest(root: Path, cache: HashCache, workers: int = 4) -> str:
    """:func:`package_digest`, taking each file's SHA-256 from ``cache`` when its device,
    inode, size and times are unchanged, and hashing (and remembering) the others.

    Not a check against tampering: see :mod:`aa_review.core.package.hashcache`.
    Raises ``OSError`` when a file cannot be read.
    """
    entries = list_package(root).entries
    facts: list[tuple[int, str] | None] = [None] * len(entries)
    todo: list[int] = []
    for i, e in enumerate(entries):
        if e.kind != "file":
            continue
        known = cache.get(e.rel, e.stamp)
        if known is not None:
            facts[i] = (e.size, known)
        else:
            todo.append(i)

    def one(i: int) -> tuple[int, str, Stamp | None, int]:
        started = time.time_ns()
        digest, stamp = _sha256_stamped(root, entries[i].rel)
        return i, digest, stamp, started

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for i, digest, stamp, started in pool.map(one, todo):
            e = entries[i]
            # The size the listing saw goes into the digest, as package_digest does;
            # a file that changed since the listing is not remembered.
            facts[i] = (e.size, digest)
            cache.put(e.rel, stamp if stamp == e.stamp else None, digest, started)
    cache.keep_only({e.rel for e in entries if e.kind == "file"})
    cache.save()
    return digest_of(entries, facts)
