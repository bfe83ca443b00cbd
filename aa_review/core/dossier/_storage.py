"""Atomic file writes and where revisions, registry versions and projections are kept."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import is_digest, json_digest
from aa_review.core.dossier._errors import WorkspaceError
from aa_review.core.util.atomic import atomic_write, fsync_dir

__all__ = ["FolderStore", "MemoryStore", "atomic_write_json", "dossier_folder_name", "fsync_dir"]

log = logging.getLogger(__name__)

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_REV_FILE = re.compile(r"^rev-([1-9][0-9]*)\.json$")
_PENDING = re.compile(r"^rev-([1-9][0-9]*)\.pending\.json$")
_STRAY_TMP = re.compile(r"^\..+\.tmp$")
_REGISTRY_FILE = re.compile(r"^([0-9a-f]{64})\.json$")


def atomic_write_json(path: Path, value: Any, *, indent: int | None = 2) -> None:
    """Write JSON to a temp file beside ``path``, fsync, rename over ``path``, fsync the folder."""
    data = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    atomic_write(path, lambda fh: fh.write(data))


def dossier_folder_name(dossier_id: str) -> str:
    """Folder name of a dossier: the id when it is a safe file name, else a hash of it."""
    if _SAFE_NAME.fullmatch(dossier_id) and dossier_id not in (".", ".."):
        return dossier_id
    return "id-" + hashlib.sha256(dossier_id.encode("utf-8")).hexdigest()[:32]


class MemoryStore:
    """Revisions live only in memory (the plain ``Workspace(...)`` constructor)."""

    projection_dir: Path | None = None

    def __init__(self) -> None:
        self._fingerprints: dict[str, bytes] = {}

    def save_fingerprint(self, dossier_id: str, data: bytes) -> str:
        """Keep a bound package's fingerprint; returns its digest."""
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        self._fingerprints[digest] = bytes(data)
        return digest

    def load_fingerprint(self, dossier_id: str, digest: str) -> bytes | None:
        """The fingerprint kept under ``digest``, or None."""
        return self._fingerprints.get(digest)

    def save(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Nothing to persist."""

    def stage(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Nothing to persist."""

    def promote(self, dossier_id: str, revision: int) -> None:
        """Nothing to persist."""

    def unstage(self, dossier_id: str, revision: int) -> None:
        """Nothing to persist."""

    def load_all(self) -> list[Any]:
        """No stored revisions."""
        return []


class FolderStore:
    """``dossiers/<dossier_id>/rev-<n>.json`` under a workspace folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.projection_dir: Path | None = folder / "projections"

    def path(self, dossier_id: str, revision: int) -> Path:
        """Where a revision is stored."""
        return self.folder / "dossiers" / dossier_folder_name(dossier_id) / f"rev-{revision}.json"

    def pending_path(self, dossier_id: str, revision: int) -> Path:
        """Where a revision waits while its journal entries are appended."""
        return self.path(dossier_id, revision).with_name(f"rev-{revision}.pending.json")

    def save(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Atomically replace the revision file."""
        atomic_write_json(self.path(dossier_id, revision), raw)

    def stage(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Write the revision's next content beside it, before the journal says so."""
        atomic_write_json(self.pending_path(dossier_id, revision), raw)

    def promote(self, dossier_id: str, revision: int) -> None:
        """The journal holds the change: the staged content becomes the revision file."""
        target = self.path(dossier_id, revision)
        os.replace(self.pending_path(dossier_id, revision), target)
        fsync_dir(target.parent)

    def unstage(self, dossier_id: str, revision: int) -> None:
        """The journal does not hold the change: drop the staged content."""
        self.pending_path(dossier_id, revision).unlink(missing_ok=True)

    # -- fingerprints of bound packages -------------------------------------------------
    def fingerprint_path(self, dossier_id: str, digest: str) -> Path:
        """``dossiers/<id>/fingerprints/<hex of the digest>.npz``, beside the revisions."""
        return (
            self.path(dossier_id, 1).parent
            / "fingerprints"
            / f"{digest.removeprefix('sha256:')}.npz"
        )

    def save_fingerprint(self, dossier_id: str, data: bytes) -> str:
        """Keep a bound package's fingerprint, named by its digest (atomic); returns it.

        Written before the journal names it: an interrupted bind leaves an unnamed
        file, never a named one missing.
        """
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        target = self.fingerprint_path(dossier_id, digest)
        if not target.exists():
            atomic_write(target, lambda fh: fh.write(data), "wb")
        return digest

    def load_fingerprint(self, dossier_id: str, digest: str) -> bytes | None:
        """The bytes kept under ``digest`` (None when there is no such file); the caller
        checks they still have that digest."""
        if not is_digest(digest):
            return None
        path = self.fingerprint_path(dossier_id, digest)
        if path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()

    def pending(self) -> list[Path]:
        """Staged revision files left by an interrupted commit."""
        root = self.folder / "dossiers"
        if not root.is_dir():
            return []
        return sorted(
            p
            for sub in root.iterdir()
            if sub.is_dir()
            for p in sub.iterdir()
            if _PENDING.fullmatch(p.name)
        )

    def clean_stray(self) -> int:
        """Remove temporary files an interrupted atomic write left (``.<name>.*.tmp``)."""
        folders = [self.folder, self.folder / "projections", self.folder / "registry"]
        root = self.folder / "dossiers"
        if root.is_dir():
            folders += [p for p in root.iterdir() if p.is_dir() and not p.is_symlink()]
            folders += [p / "fingerprints" for p in list(folders[3:])]
        removed = 0
        for folder in folders:
            if not folder.is_dir():
                continue
            for p in folder.iterdir():
                if _STRAY_TMP.fullmatch(p.name) and p.is_file() and not p.is_symlink():
                    p.unlink(missing_ok=True)
                    removed += 1
        if removed:
            log.warning(
                "workspace %s: removed %d temporary files of interrupted writes",
                self.folder,
                removed,
            )
        return removed

    # -- registry versions (spec 10.2) ---------------------------------------------------
    def save_registry(self, principals: list[dict[str, Any]]) -> str:
        """Keep a registry version as ``registry/<hex of its digest>.json``; returns the digest."""
        digest = json_digest(principals)
        target = self.folder / "registry" / f"{digest.split(':', 1)[1]}.json"
        if not target.exists():
            atomic_write_json(target, {"principals": principals})
        return digest

    def registries(self) -> dict[str, list[Any]]:
        """Every kept registry version whose content matches its name, by digest."""
        out: dict[str, list[Any]] = {}
        folder = self.folder / "registry"
        if not folder.is_dir():
            return out
        for p in sorted(folder.iterdir()):
            m = _REGISTRY_FILE.fullmatch(p.name)
            if not m or not p.is_file():
                continue
            try:
                tree = json.loads(p.read_bytes()).get("principals")
                digest = json_digest(tree)
            except (OSError, ValueError, AttributeError, TypeError, RecursionError):
                continue
            if is_digest(digest) and digest == "sha256:" + m.group(1):
                out[digest] = tree
        return out

    def load_all(self) -> list[Any]:
        """Every stored revision tree, in folder and revision order.

        Raises
        ------
        WorkspaceError
            A revision file is not readable JSON.
        """
        out: list[Any] = []
        root = self.folder / "dossiers"
        if not root.is_dir():
            return out
        for sub in sorted(p for p in root.iterdir() if p.is_dir()):
            revs = sorted(
                (int(m.group(1)), p) for p in sub.iterdir() if (m := _REV_FILE.fullmatch(p.name))
            )
            for _, p in revs:
                try:
                    out.append(json.loads(p.read_text(encoding="utf-8")))
                except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise WorkspaceError(str(self.folder), f"cannot read {p}: {exc}") from exc
        return out
