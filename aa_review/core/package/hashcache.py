"""A per-file SHA-256 cache, so that ``aa-review info`` does not hash every byte each time.

As git's index and DVC's state database do, a file whose device, inode, size,
modification time and change time (nanoseconds) are those it had when it was hashed is
taken to hold the same bytes. That is a speed-up, never a proof: whoever can write a
file can also put its modification time back, and a copy or a restore can give other
bytes the same times. So only ``info`` uses it; ``info --verify``, every audit and the
readiness dossier's digest re-check hash every byte.

The cache lives in the user's cache folder: ``$AA_REVIEW_CACHE_DIR``, else
``$XDG_CACHE_HOME/aa-review``, else ``~/.cache/aa-review``; one small JSON file per
package folder (named by a hash of its real path), written atomically (a temporary
file renamed over it). It is bounded: at most :data:`MAX_PACKAGES` package files (the
least recently used go) and :data:`MAX_ENTRIES` files per package. A file changed less
than :data:`RACY_NS` before it was hashed is not remembered (git's "racily clean"
case: a write in the same clock tick would leave its times unchanged). A file whose
name is not UTF-8 (POSIX names are bytes) is not remembered either, as JSON cannot hold
its name; nor is a package whose real path is not UTF-8. A cache that cannot be read or
written is ignored: the digest is then computed from the bytes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

__all__ = ["HashCache", "cache_dir", "Stamp", "MAX_PACKAGES", "MAX_ENTRIES", "RACY_NS"]

log = logging.getLogger(__name__)

# (st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns): what a file must still have.
Stamp = tuple[int, int, int, int, int]
MAX_PACKAGES = 64
MAX_ENTRIES = 1_000_000
RACY_NS = 2_000_000_000
_VERSION = 1


def cache_dir() -> Path:
    """The folder holding the cache (``$AA_REVIEW_CACHE_DIR`` overrides it, for tests)."""
    env = os.environ.get("AA_REVIEW_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "aa-review"


class HashCache:
    """The remembered hashes of one package folder's files, by package-relative path."""

    def __init__(self, root: Path | str, folder: Path | None = None) -> None:
        real = os.path.realpath(root)
        self.folder = (folder or cache_dir()) / "file-hashes"
        name = hashlib.sha256(os.fsencode(real)).hexdigest()[:32]
        self.path = self.folder / f"{name}.json"
        self._root = real
        self._files: dict[str, list[Any]] = {}
        self._dirty = False
        self.hits = self.misses = 0
        self._load()

    def _load(self) -> None:
        try:
            doc = orjson.loads(self.path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return
        if (
            isinstance(doc, dict)
            and doc.get("version") == _VERSION
            and doc.get("root") == os.fsdecode(self._root)
            and isinstance(doc.get("files"), dict)
        ):
            self._files = doc["files"]

    def get(self, rel: str, stamp: Stamp | None) -> str | None:
        """The remembered hex SHA-256 of ``rel`` if its stamp is unchanged, else None."""
        entry = self._files.get(rel)
        if (
            stamp is not None
            and isinstance(entry, list)
            and len(entry) == 6
            and tuple(entry[:5]) == stamp
            and isinstance(entry[5], str)
        ):
            self.hits += 1
            return entry[5]
        self.misses += 1
        return None

    def put(self, rel: str, stamp: Stamp | None, sha256: str, hashed_at_ns: int) -> None:
        """Remember ``sha256`` for ``rel`` with the stamp it had while being hashed."""
        if stamp is None or hashed_at_ns - max(stamp[3], stamp[4]) < RACY_NS:
            self._files.pop(rel, None)  # changed too recently to trust its times
            return
        if not _utf8(rel):
            return  # a name JSON cannot hold: hashed every time
        if rel not in self._files and len(self._files) >= MAX_ENTRIES:
            return
        self._files[rel] = [*stamp, sha256]
        self._dirty = True

    def clear(self) -> None:
        """Forget every file (the next digest hashes them all)."""
        self._dirty = self._dirty or bool(self._files)
        self._files = {}

    def keep_only(self, rels: set[str]) -> None:
        """Forget files that are no longer in the package."""
        gone = [r for r in self._files if r not in rels]
        for r in gone:
            del self._files[r]
        self._dirty = self._dirty or bool(gone)

    def save(self) -> None:
        """Write the cache atomically, then drop the least recently used packages' files."""
        if not _utf8(os.fsdecode(self._root)):
            return  # its own path cannot be recorded: no cache for this package
        if not self._dirty:
            _touch(self.path)
            return
        doc = {"version": _VERSION, "root": os.fsdecode(self._root), "files": self._files}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(orjson.dumps(doc))
                os.replace(tmp, self.path)
            except BaseException:
                with _quiet():
                    os.unlink(tmp)
                raise
        except OSError as exc:
            log.info("the file hash cache cannot be written (%s); it is not used", exc)
            return
        self._dirty = False
        _prune(self.folder)


def _utf8(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (a name decoded from non-UTF-8 bytes does not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _touch(path: Path) -> None:
    with _quiet():
        os.utime(path)  # recently used: pruned last


def _prune(folder: Path) -> None:
    with _quiet():
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in files[MAX_PACKAGES:]:
            old.unlink()
        cutoff = time.time() - 3600
        for tmp in folder.glob(".tmp-*"):  # left by a process that died while writing
            if tmp.stat().st_mtime < cutoff:
                tmp.unlink()


class _quiet:
    """Ignore OSError (a cache is never worth an error)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: object, tb: object) -> bool:
        return isinstance(exc, OSError)
