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
from aa_review.core.package.safepath import read_beneath
from aa_review.core.util.atomic import atomic_write, fsync_dir

__all__ = [
    "MAX_JSON_BYTES",
    "MAX_REVISION_BYTES",
    "FolderStore",
    "MemoryStore",
    "WorkspaceFileError",
    "atomic_write_json",
    "dossier_folder_name",
    "fsync_dir",
    "read_file",
    "read_json_file",
]

log = logging.getLogger(__name__)

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_REV_FILE = re.compile(r"^rev-([1-9][0-9]*)\.json$")
_PENDING = re.compile(r"^rev-([1-9][0-9]*)\.pending\.json$")
_STRAY_TMP = re.compile(r"^\..+\.tmp$")
_REGISTRY_FILE = re.compile(r"^([0-9a-f]{64})\.json$")
MAX_JSON_BYTES = 64 << 20  # principals.json, archive.json, a registry version, a projection
MAX_REVISION_BYTES = 256 << 20  # a revision (the size ``dossier check`` accepts)
MAX_FINGERPRINT_BYTES = 256 << 20


def read_file(folder: Path, rel: str, limit: int) -> bytes:
    """The bytes of ``rel`` under a workspace folder, opened as package files are.

    Never follows a symlink out of the folder, never opens a FIFO, socket or device
    (it cannot block), and refuses more than ``limit`` bytes (a link to ``/dev/zero``
    is refused, never read).

    Raises
    ------
    OSError
        Missing (``FileNotFoundError``), unsafe (``PackageFileError``) or unreadable.
    """
    root = str(folder)
    return read_beneath(root, rel, limit=limit, real_root=os.path.realpath(root))


class WorkspaceFileError(WorkspaceError):
    """A workspace file is missing, unsafe or not what it must be; ``fault`` says so in full."""

    def __init__(self, folder: Path, fault: str) -> None:
        self.fault = fault
        super().__init__(str(folder), fault)


def read_json_file(folder: Path, rel: str, limit: int = MAX_JSON_BYTES) -> Any:
    """:func:`read_file` parsed as JSON.

    Raises
    ------
    WorkspaceFileError
        The file is missing, unsafe, too large, not UTF-8 or not JSON; its ``fault``
        names the file.
    """
    try:
        data = read_file(folder, rel, limit)
    except FileNotFoundError:
        raise WorkspaceFileError(folder, f"WORKSPACE_FILE_MISSING: {rel} is missing") from None
    except OSError as exc:
        raise WorkspaceFileError(folder, f"WORKSPACE_FILE_UNSAFE: {rel}: {exc}") from None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WorkspaceFileError(
            folder, f"WORKSPACE_FILE_UNREADABLE: {rel} cannot be read: {exc}"
        ) from None


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
    """Revisions, registry versions and fingerprints of a workspace folder, by content.

    A revision's content is ``dossiers/<dossier_id>/revisions/<hex>.json``, named by
    its digest (1.3) and never rewritten; which content is revision N now is what the
    verified journal's last ``revision_digest`` for it says (spec 10.5, 10.6). Every
    file is read as package files are (:func:`read_file`).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.projection_dir: Path | None = folder / "projections"
        self._fresh: dict[tuple[str, int], Path] = {}

    def dossier_dir(self, dossier_id: str) -> Path:
        """``dossiers/<dossier_id>/``."""
        return self.folder / "dossiers" / dossier_folder_name(dossier_id)

    def revision_file(self, dossier_id: str, digest: str) -> Path:
        """Where the revision content with this digest is kept."""
        return self.dossier_dir(dossier_id) / "revisions" / f"{digest.split(':', 1)[-1]}.json"

    def rel(self, path: Path) -> str:
        """``path`` relative to the workspace folder, for messages and safe reads."""
        return path.relative_to(self.folder).as_posix()

    def save(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Keep a revision's content (named by its digest)."""
        self.stage(dossier_id, revision, raw)

    def stage(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Write the revision's next content, named by its digest, before the journal names it."""
        target = self.revision_file(dossier_id, json_digest(raw))
        if os.path.lexists(target):
            return
        atomic_write_json(target, raw)
        self._fresh[(dossier_id, revision)] = target

    def promote(self, dossier_id: str, revision: int) -> None:
        """The journal holds the change: nothing to move (the journal names the content)."""
        self._fresh.pop((dossier_id, revision), None)

    def unstage(self, dossier_id: str, revision: int) -> None:
        """The journal does not hold the change: drop the content this attempt wrote."""
        target = self._fresh.pop((dossier_id, revision), None)
        if target is not None:
            target.unlink(missing_ok=True)

    def load_revision(self, dossier_id: str, digest: str) -> Any:
        """The revision content the journal names, read safely and checked against ``digest``.

        Raises
        ------
        WorkspaceFileError
            The file is missing, not a regular file inside the workspace, too large,
            not JSON, or does not have ``digest`` (a tampered revision file).
        """
        path = self.revision_file(dossier_id, digest)
        raw = read_json_file(self.folder, self.rel(path), MAX_REVISION_BYTES)
        if json_digest(raw) != digest:
            raise WorkspaceFileError(
                self.folder,
                f"JOURNAL_STATE_MISMATCH: {self.rel(path)} was tampered with: its content "
                f"is not the revision the journal records ({digest})",
            )
        return raw

    # -- fingerprints of bound packages -------------------------------------------------
    def fingerprint_path(self, dossier_id: str, digest: str) -> Path:
        """``dossiers/<id>/fingerprints/<hex of the digest>.npz``, beside the revisions."""
        return (
            self.dossier_dir(dossier_id) / "fingerprints" / f"{digest.removeprefix('sha256:')}.npz"
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
        try:
            return read_file(self.folder, self.rel(path), MAX_FINGERPRINT_BYTES)
        except OSError:
            return None

    def clean_stray(self) -> int:
        """Remove temporary files an interrupted atomic write left (``.<name>.*.tmp``)."""
        folders = [
            self.folder,
            self.folder / "journal",
            self.folder / "projections",
            self.folder / "registry",
        ]
        root = self.folder / "dossiers"
        if root.is_dir() and not root.is_symlink():
            subs = [p for p in root.iterdir() if p.is_dir() and not p.is_symlink()]
            folders += subs + [p / n for p in subs for n in ("fingerprints", "revisions")]
        removed = 0
        for folder in folders:
            if folder.is_symlink() or not folder.is_dir():
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
        if not os.path.lexists(target):
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
            if not m:
                continue
            try:
                tree = read_json_file(self.folder, self.rel(p), MAX_JSON_BYTES).get("principals")
                digest = json_digest(tree)
            except (OSError, ValueError, AttributeError, TypeError, RecursionError):
                continue
            if is_digest(digest) and digest == "sha256:" + m.group(1):
                out[digest] = tree
        return out

    def legacy_revision_files(self) -> list[Path]:
        """``rev-N.json`` and ``rev-N.pending.json`` of the former layout (migration only)."""
        root = self.folder / "dossiers"
        if not root.is_dir():
            return []
        return sorted(
            p
            for sub in root.iterdir()
            if sub.is_dir() and not sub.is_symlink()
            for p in sub.iterdir()
            if _REV_FILE.fullmatch(p.name) or _PENDING.fullmatch(p.name)
        )

    def load_all(self) -> list[Any]:
        """Nothing: a folder's revisions are the ones its journal names (see load_revision)."""
        return []
