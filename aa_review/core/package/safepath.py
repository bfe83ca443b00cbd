"""The one way to open a package file: relative to the package root, never leaving it.

Every ref comes from a package file and is untrusted. :func:`open_beneath` walks a
ref one component at a time from a descriptor of the package root (``openat`` with
``O_NOFOLLOW``): a symlink on the way is read, never followed by the kernel, and its
target is walked the same way, so a symlink (or a file swapped for one while the
package loads) can name a place inside the package but never make a read leave it.
The last component is opened non-blocking (a FIFO cannot hang the reader), only a
regular file is accepted (``fstat`` on the descriptor), and a size limit is enforced
on that descriptor. Paths longer than ``PATH_MAX`` work: no path is ever handed to
the kernel whole.

Worker processes import this module: it needs the standard library only.
"""

from __future__ import annotations

import errno
import os
import stat
from collections import deque
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from aa_review.core.util.errors import UnsafeRefError
from aa_review.core.util.text import printable  # re-exported: callers import it from here

__all__ = [
    "PackageRoot",
    "open_beneath",
    "read_beneath",
    "stat_beneath",
    "PackageFileError",
    "SymlinkOutError",
    "SpecialFileError",
    "FileTooLargeError",
    "file_kind",
    "printable",
]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _NONBLOCK | _CLOEXEC
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC | getattr(os, "O_NOCTTY", 0)
_MAX_LINKS = 40  # as the kernel: more symlinks on one walk is a loop


class PackageFileError(OSError):
    """A package file that is refused: it is never read. ``reason`` says why."""

    def __init__(self, rel: str, reason: str, err: int = errno.EPERM) -> None:
        super().__init__(err, reason, rel)
        self.rel = rel
        self.reason = reason

    def __str__(self) -> str:
        return f"{printable(self.rel)}: {self.reason}"


class SymlinkOutError(PackageFileError):
    """A symlink on the ref's path leads out of the package."""

    def __init__(self, rel: str) -> None:
        super().__init__(
            rel, "a symlink on its path leads out of the package; not opened", errno.ELOOP
        )


class SpecialFileError(PackageFileError):
    """Not a regular file: a FIFO, socket, device or folder; never opened or read."""

    def __init__(self, rel: str, kind: str) -> None:
        super().__init__(rel, f"not a regular file but {_article(kind)}; not opened", errno.EINVAL)
        self.kind = kind
        self.kind_article = _article(kind)


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiouAEIOU" else "a ") + kind


class FileTooLargeError(PackageFileError):
    """Over the size limit of the reader that asked; not read."""

    def __init__(self, rel: str, size: int, limit: int) -> None:
        super().__init__(
            rel,
            f"{size:,} bytes is over the {limit:,}-byte limit for this file; it was not read",
            errno.EFBIG,
        )
        self.size = size
        self.limit = limit


def file_kind(mode: int) -> str:
    """A word for the file type in ``st_mode``."""
    for test, word in (
        (stat.S_ISREG, "regular file"),
        (stat.S_ISDIR, "folder"),
        (stat.S_ISLNK, "symlink"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return word
    return "special file"


def _parts(rel: str) -> list[str]:
    return [p for p in rel.replace("\\", "/").split("/") if p not in ("", ".")]


def _walk(root: str, rel: str, real_root: str | None = None) -> tuple[list[int], str]:
    """Descriptors of the folders from the root to the last component's parent, and that
    component's name, every symlink on the way resolved inside the package.

    The caller closes the descriptors. Raises :class:`SymlinkOutError` when a symlink
    leads out, ``OSError`` when a component is missing or not a folder.
    """
    todo = deque(_parts(rel))
    stack = [os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)]
    links = 0
    try:
        while todo:
            name = todo.popleft()
            if name == "..":
                if len(stack) == 1:
                    raise SymlinkOutError(rel)
                os.close(stack.pop())
                continue
            if not todo:  # the last component: followed only if it is a symlink
                target = _link_target(stack[-1], name)
                if target is None:
                    return stack, name
            else:
                try:
                    stack.append(os.open(name, _DIR_FLAGS, dir_fd=stack[-1]))
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                        raise
                    target = _link_target(stack[-1], name)
                    if target is None:
                        raise
            links += 1
            if links > _MAX_LINKS:
                raise OSError(errno.ELOOP, "too many levels of symlinks", rel)
            if target.startswith("/"):
                inside = _inside_root(root, target, real_root)
                if inside is None:
                    raise SymlinkOutError(rel)
                while len(stack) > 1:
                    os.close(stack.pop())
                todo.extendleft(reversed(_parts(inside)))
            else:
                todo.extendleft(reversed(_parts(target)))
        return stack, "."
    except BaseException:
        for fd in stack:
            os.close(fd)
        raise


def _link_target(dir_fd: int, name: str) -> str | None:
    """The target text of ``name`` in ``dir_fd`` if it is a symlink, else None."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if not stat.S_ISLNK(st.st_mode):
        return None
    return os.readlink(name, dir_fd=dir_fd)


def _inside_root(root: str, target: str, real_root: str | None) -> str | None:
    """An absolute link target as a path relative to the root, None when it is outside."""
    base = real_root or os.path.realpath(root)
    norm = os.path.normpath(target)
    if norm == base:
        return "."
    if norm.startswith(base.rstrip("/") + "/"):
        return norm[len(base.rstrip("/")) + 1 :]
    return None


def stat_beneath(root: str, rel: str, real_root: str | None = None) -> os.stat_result:
    """``stat`` of ``rel`` (symlinks inside the package followed, none out of it).

    Raises ``OSError`` (``FileNotFoundError`` when absent, :class:`SymlinkOutError`).
    """
    stack, name = _walk(root, rel, real_root)
    try:
        return os.stat(name, dir_fd=stack[-1], follow_symlinks=False)
    finally:
        for fd in stack:
            os.close(fd)


def open_beneath(
    root: str, rel: str, *, limit: int | None = None, real_root: str | None = None
) -> int:
    """A read-only descriptor of the regular file ``rel`` under ``root`` (see the module).

    Raises :class:`SymlinkOutError`, :class:`SpecialFileError` (never opened when the
    type shows before opening), :class:`FileTooLargeError` over ``limit`` bytes, or the
    ``OSError`` of the failing call (missing, permission, name too long).
    """
    stack, name = _walk(root, rel, real_root)
    try:
        if name == ".":
            raise SpecialFileError(rel, "folder")
        before = os.stat(name, dir_fd=stack[-1], follow_symlinks=False)
        if not stat.S_ISREG(before.st_mode):
            raise SpecialFileError(rel, file_kind(before.st_mode))
        fd = os.open(name, _FILE_FLAGS, dir_fd=stack[-1])
    finally:
        for d in stack:
            os.close(d)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between the stat and the open
            raise SpecialFileError(rel, file_kind(st.st_mode))
        if limit is not None and st.st_size > limit:
            raise FileTooLargeError(rel, st.st_size, limit)
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_beneath(
    root: str, rel: str, *, limit: int | None = None, real_root: str | None = None
) -> bytes:
    """The bytes of ``rel`` (see :func:`open_beneath`); a file grown past ``limit`` while
    being read is refused too."""
    fd = open_beneath(root, rel, limit=limit, real_root=real_root)
    with os.fdopen(fd, "rb", buffering=0) as fh:
        if limit is None:
            return fh.read()
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(rel, len(data), limit)
    return data


class PackageRoot:
    """A package folder that only hands out its own files.

    Absolute refs, refs with a ``..`` component and refs whose path crosses a symlink
    leading out of the folder raise :class:`UnsafeRefError` and are never opened.
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
        """The path of ``ref`` inside the package, symlinks checked; it may not exist.

        For showing and for ``stat``-free bookkeeping only: open with :meth:`open`.
        """
        self.check(ref)
        if self.is_symlink_out(ref):
            raise UnsafeRefError(ref, "a symlink leads out of the package")
        return self.path / ref

    def is_symlink_out(self, ref: str) -> bool:
        """True when a symlink on the way of ``ref`` leads outside the package."""
        try:
            stack, _ = _walk(str(self.path), ref, str(self.real))
        except SymlinkOutError:
            return True
        except (OSError, ValueError):
            return False
        for fd in stack:
            os.close(fd)
        return False

    def stat(self, ref: str) -> os.stat_result | None:
        """``stat`` of what ``ref`` names inside the package, None when nothing reachable."""
        try:
            self.check(ref)
            return stat_beneath(str(self.path), ref, str(self.real))
        except (OSError, ValueError, UnsafeRefError):
            return None

    def exists(self, ref: str) -> bool:
        """Whether ``ref`` names an existing file or folder inside the package."""
        return self.stat(ref) is not None

    def is_file(self, ref: str) -> bool:
        """Whether ``ref`` names a regular file inside the package."""
        st = self.stat(ref)
        return st is not None and stat.S_ISREG(st.st_mode)

    def is_dir(self, ref: str) -> bool:
        st = self.stat(ref)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def regular_files_in(self, ref: str) -> list[str]:
        """Names of the regular files in folder ``ref`` (sorted; [] when it is no folder)."""
        try:
            self.check(ref)
            stack, name = _walk(str(self.path), ref, str(self.real))
        except (OSError, UnsafeRefError):
            return []
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=stack[-1])
        except OSError:
            return []
        finally:
            for d in stack:
                os.close(d)
        try:
            with os.scandir(fd) as it:
                return sorted(e.name for e in it if e.is_file(follow_symlinks=False))
        except OSError:
            return []
        finally:
            os.close(fd)

    def open(self, ref: str, *, limit: int | None = None, buffering: int = -1) -> BinaryIO:
        """Open the regular file ``ref`` for reading; see :func:`open_beneath`."""
        self.check(ref)
        fd = open_beneath(str(self.path), ref, limit=limit, real_root=str(self.real))
        return os.fdopen(fd, "rb", buffering=buffering)

    def read_bytes(self, ref: str, *, limit: int | None = None) -> bytes:
        """The bytes of the regular file ``ref``; see :func:`read_beneath`."""
        self.check(ref)
        return read_beneath(str(self.path), ref, limit=limit, real_root=str(self.real))
