"""Hashing every package file once, in threads: byte SHA-256, catalog text hash, digest."""

from __future__ import annotations

import hashlib
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from aa_review.core.derive import CONTENT_HASH_LIMIT, content_hash_bytes
from aa_review.core.package.digest import list_package_files

__all__ = ["FileFacts", "FileHashes", "hash_file", "hash_package", "text_hash", "HashCancelled"]

CHUNK = 1 << 20


class HashCancelled(Exception):
    """The caller's ``cancelled()`` turned true while hashing."""


@dataclass(frozen=True)
class FileFacts:
    """One file: size, SHA-256 of its bytes and, when small enough, its catalog text hash."""

    size: int
    sha256: str
    text_hash: str | None


@dataclass
class FileHashes:
    """Facts of every regular file (by package-relative path) and the package digest."""

    files: dict[str, FileFacts] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    digest: str | None = None
    nbytes: int = 0


def text_hash(data: bytes, byte_hex: str | None = None) -> str:
    """The catalog hash (format 7.3): the file read as UTF-8 text (``errors="replace"``,
    universal newlines) and re-encoded.

    For valid UTF-8 that is the bytes with CRLF and CR turned into LF (no multi-byte
    sequence contains those bytes), so only invalid UTF-8 needs the decode/encode round
    trip; LF-only valid UTF-8 hashes like its bytes.
    """
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return content_hash_bytes(data)
    if b"\r" not in data:
        return "sha256:" + (byte_hex or hashlib.sha256(data).hexdigest())
    text = data.replace(b"\r\n", b"\n")
    if b"\r" in text:
        text = text.replace(b"\r", b"\n")
    return "sha256:" + hashlib.sha256(text).hexdigest()


_local = threading.local()


def _buffer() -> bytearray:
    """One reusable 1 MiB read buffer per thread."""
    buf = getattr(_local, "buf", None)
    if buf is None:
        buf = _local.buf = bytearray(CHUNK)
    return buf  # type: ignore[no-any-return]


def hash_file(path: Path | str, size: int | None = None) -> FileFacts:
    """Hash one file in 1 MiB chunks (hashlib releases the GIL while it works).

    The catalog hash of a file up to 2,000,000 bytes equals its byte hash unless it
    holds a CR or non-ASCII bytes (checked chunk by chunk while hot in cache); only
    such files are read again whole for the text-mode hash.
    """
    size = os.path.getsize(path) if size is None else size
    h = hashlib.sha256()
    buf = _buffer()
    view = memoryview(buf)
    n_total, plain = 0, True
    with open(path, "rb", buffering=0) as fh:
        while k := fh.readinto(buf):
            h.update(view[:k])
            n_total += k
            if plain:
                chunk = buf if k == CHUNK else bytes(view[:k])
                plain = chunk.isascii() and b"\r" not in chunk
    byte_hex = h.hexdigest()
    if n_total > CONTENT_HASH_LIMIT:
        return FileFacts(n_total, byte_hex, None)
    if plain:
        return FileFacts(n_total, byte_hex, "sha256:" + byte_hex)
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) != n_total:
        raise OSError(f"{path} changed while it was being hashed")
    return FileFacts(n_total, byte_hex, text_hash(data, byte_hex))


def hash_package(root: Path, *, threads: int = 4, full: bool = True,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] = lambda: False) -> FileHashes:
    """Hash every file under ``root`` (symlinks are listed, never followed) and digest them.

    The digest is computed exactly as :func:`aa_review.core.package.package_digest` does.
    Files are hashed in ``threads`` threads; results come back through a queue, so the
    bookkeeping stays linear in the number of files. With ``full=False`` (catalog hashes
    only) files over 2,000,000 bytes are only sized, and there is no digest.
    """
    entries = list_package_files(root)
    paths = {rel: path for rel, path, is_link in entries if not is_link}
    sizes = {rel: path.stat().st_size for rel, path in paths.items()}
    total = sum(sizes.values())
    out = FileHashes(nbytes=total)
    done_bytes = 0
    results: queue.SimpleQueue[tuple[str, FileFacts | None, str | None]] = queue.SimpleQueue()

    def one(rel: str) -> None:
        try:
            if not full and sizes[rel] > CONTENT_HASH_LIMIT:
                results.put((rel, FileFacts(sizes[rel], "", None), None))
                return
            results.put((rel, hash_file(paths[rel], sizes[rel]), None))
        except OSError as exc:
            results.put((rel, None, exc.strerror or str(exc)))

    # Largest first, so a big file does not start last and finish alone.
    order = sorted(paths, key=lambda r: -sizes[r])
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for rel in order:
            pool.submit(one, rel)
        for _ in order:
            while True:
                try:
                    rel, facts, error = results.get(timeout=0.2)
                    break
                except queue.Empty:
                    if cancelled():
                        pool.shutdown(wait=False, cancel_futures=True)
                        raise HashCancelled() from None
            if facts is not None:
                out.files[rel] = facts
            else:
                out.errors[rel] = error or "unreadable"
            done_bytes += sizes[rel]
            if progress is not None:
                progress(done_bytes, total)
    if out.errors or not full:
        return out  # no digest: a file could not be read, or was not hashed
    digest = hashlib.sha256()
    for rel, path, is_link in entries:
        if is_link:
            line = f"{rel}\0link\0{os.readlink(path)}\n"
        else:
            facts = out.files[rel]
            line = f"{rel}\0{facts.size}\0{facts.sha256}\n"
        digest.update(line.encode("utf-8", "surrogateescape"))
    out.digest = "sha256:" + digest.hexdigest()
    return out
