"""Atomic file writes, the workspace folder lock, and where revisions are kept."""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from aa_review.core.atomic import atomic_write, fsync_dir
from aa_review.core.dossier._errors import WorkspaceError, WorkspaceLockedError

__all__ = ["FolderLock", "FolderStore", "MemoryStore", "atomic_write_json", "dossier_folder_name",
           "fsync_dir"]

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_REV_FILE = re.compile(r"^rev-([1-9][0-9]*)\.json$")


def atomic_write_json(path: Path, value: Any, *, indent: int | None = 2) -> None:
    """Write JSON to a temp file beside ``path``, fsync, rename over ``path``, fsync the folder."""
    data = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    atomic_write(path, lambda fh: fh.write(data))


def dossier_folder_name(dossier_id: str) -> str:
    """Folder name of a dossier: the id when it is a safe file name, else a hash of it."""
    if _SAFE_NAME.fullmatch(dossier_id) and dossier_id not in (".", ".."):
        return dossier_id
    return "id-" + hashlib.sha256(dossier_id.encode("utf-8")).hexdigest()[:32]


class FolderLock:
    """An exclusive ``flock`` on ``<folder>/.lock``, held until :meth:`release`.

    ``flock`` locks belong to the open file description, so a second open in the
    same process is refused exactly like one in another process; the OS drops
    the lock when the holder dies.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fh: Any = None
        fh = open(folder / ".lock", "a+b")  # held open for as long as the lock is held
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise WorkspaceLockedError(str(folder)) from None
        except OSError as exc:
            fh.close()
            raise WorkspaceError(str(folder), f"cannot lock the workspace: {exc}") from exc
        self._fh = fh

    def release(self) -> None:
        """Unlock and close; safe to call twice."""
        if self._fh is not None:
            try:
                fcntl.flock(self._fh.fileno(), fcntl.LOCK_UN)
            finally:
                self._fh.close()
                self._fh = None


class MemoryStore:
    """Revisions live only in memory (the plain ``Workspace(...)`` constructor)."""

    projection_dir: Path | None = None

    def save(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
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

    def save(self, dossier_id: str, revision: int, raw: dict[str, Any]) -> None:
        """Atomically replace the revision file."""
        atomic_write_json(self.path(dossier_id, revision), raw)

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
            revs = sorted((int(m.group(1)), p) for p in sub.iterdir()
                          if (m := _REV_FILE.fullmatch(p.name)))
            for _, p in revs:
                try:
                    out.append(json.loads(p.read_text(encoding="utf-8")))
                except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                    raise WorkspaceError(str(self.folder), f"cannot read {p}: {exc}") from exc
        return out
