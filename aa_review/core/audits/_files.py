"""Hashing every package file once, in threads: byte SHA-256, catalog text hash, digest."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
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
    """The catalog hash (format 7.3); equal to the byte hash for LF-only valid UTF-8."""
    if b"\r" not in data:
        if byte_hex is not None and data.isascii():
            return "sha256:" + byte_hex
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return content_hash_bytes(data)
        return "sha256:" + (byte_hex or hashlib.sha256(data).hexdigest())
    return content_hash_bytes(data)


def hash_file(path: Path | str, size: int | None = None) -> FileFacts:
    """Hash one file, reading 1 MiB at a time (hashlib releases the GIL while it works)."""
    size = os.path.getsize(path) if size is None else size
    if size <= CONTENT_HASH_LIMIT:
        with open(path, "rb") as fh:
            data = fh.read()
        byte_hex = hashlib.sha256(data).hexdigest()
        return FileFacts(len(data), byte_hex, text_hash(data, byte_hex))
    h = hashlib.sha256()
    n = 0
    with open(path, "rb", buffering=0) as fh:
        buf = bytearray(CHUNK)
        view = memoryview(buf)
        while k := fh.readinto(buf):
            h.update(view[:k])
            n += k
    return FileFacts(n, h.hexdigest(), None)


def hash_package(root: Path, *, threads: int = 4,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] = lambda: False) -> FileHashes:
    """Hash every file under ``root`` (symlinks are listed, never followed) and digest them.

    The digest is computed exactly as :func:`aa_review.core.package.package_digest` does.
    """
    entries = list_package_files(root)
    sizes: dict[str, int] = {}
    for rel, path, is_link in entries:
        if not is_link:
            sizes[rel] = path.stat().st_size
    total = sum(sizes.values())
    out = FileHashes(nbytes=total)
    done = 0
    paths = {rel: path for rel, path, is_link in entries if not is_link}
    # Largest first, so a big file does not start last and finish alone.
    order = sorted(paths, key=lambda r: -sizes[r])
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        pending: dict[Future[FileFacts], str] = {
            pool.submit(hash_file, paths[rel], sizes[rel]): rel for rel in order}
        while pending:
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            if cancelled():
                pool.shutdown(wait=False, cancel_futures=True)
                raise HashCancelled()
            for fut in finished:
                rel = pending.pop(fut)
                try:
                    out.files[rel] = fut.result()
                except OSError as exc:
                    out.errors[rel] = exc.strerror or str(exc)
                done += sizes[rel]
            if progress is not None and finished:
                progress(done, total)
    if out.errors:
        return out  # no digest: a file could not be read
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
