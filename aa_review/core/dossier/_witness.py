"""The user's witness store: journal heads kept outside every workspace (spec 10.3).

After every append the writer records ``{seq, entry_hash}`` of the head, keyed by
the journal's genesis entry hash. Whoever holds an older head detects a journal
that was cut, emptied or rewritten since. A second small record per journal file
path remembers which genesis lived there, so a journal rewritten from entry 0
(a new genesis hash) is caught too.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._keys import private_dir, user_data_dir
from aa_review.core.package.safepath import read_beneath
from aa_review.core.util.atomic import atomic_write

__all__ = ["WitnessError", "WitnessStore"]


class WitnessError(Exception):
    """A witness record exists but cannot be read; the journal cannot be trusted as is."""


def _hex(digest: str) -> str:
    return digest.split(":", 1)[1]


def _head(value: Any) -> dict[str, Any] | None:
    if (
        isinstance(value, dict)
        and isinstance(value.get("seq"), int)
        and not isinstance(value.get("seq"), bool)
        and value["seq"] >= 0
        and is_digest(value.get("entry_hash"))
    ):
        return {"seq": value["seq"], "entry_hash": value["entry_hash"]}
    return None


class WitnessStore:
    """Witnessed heads under ``witness/`` of the user's data folder.

    Parameters
    ----------
    folder : Path, optional
        Defaults to ``witness/`` under :func:`user_data_dir` (read when first used).
    """

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder

    @property
    def folder(self) -> Path:
        """Where the records are."""
        return self._folder if self._folder is not None else user_data_dir() / "witness"

    def _journal_file(self, genesis_hash: str) -> Path:
        return self.folder / "journals" / f"{_hex(genesis_hash)}.json"

    def _path_file(self, journal_path: Path) -> Path:
        key = hashlib.sha256(os.fsencode(os.path.realpath(journal_path))).hexdigest()
        return self.folder / "paths" / f"{key}.json"

    def record(self, genesis_hash: str) -> dict[str, Any] | None:
        """``{genesis_hash, registry_digest, head}`` witnessed for a journal, or None.

        Raises
        ------
        WitnessError
            The record exists but is damaged.
        """
        if not is_digest(genesis_hash):
            return None
        rec = self._read(self._journal_file(genesis_hash))
        if rec is None:
            return None
        head = _head(rec.get("head"))
        if head is None or rec.get("genesis_hash") != genesis_hash:
            raise WitnessError(f"{self._journal_file(genesis_hash)}: not a witness record")
        return {
            "genesis_hash": genesis_hash,
            "registry_digest": rec.get("registry_digest"),
            "head": head,
        }

    def genesis_at(self, journal_path: Path) -> dict[str, Any] | None:
        """``{genesis_hash, head}`` last witnessed for the journal at this path, or None."""
        rec = self._read(self._path_file(journal_path))
        if rec is None:
            return None
        genesis = rec.get("genesis_hash")
        if not isinstance(genesis, str) or not is_digest(genesis):
            raise WitnessError(f"{self._path_file(journal_path)}: not a witness record")
        found = self.record(genesis)
        return {
            "genesis_hash": genesis,
            "head": found["head"] if found else {"seq": 0, "entry_hash": genesis},
        }

    def witness(
        self,
        journal_path: Path,
        genesis_hash: str,
        registry_digest: str | None,
        head: dict[str, Any],
    ) -> None:
        """Record ``head`` as the latest witnessed head of the journal (and where it lives).

        Raises
        ------
        OSError, KeyStoreError
            The store cannot be written.
        """
        rec = {
            "genesis_hash": genesis_hash,
            "registry_digest": registry_digest,
            "head": {"seq": head["seq"], "entry_hash": head["entry_hash"]},
        }
        self._write(self._journal_file(genesis_hash), rec)
        path_file = self._path_file(journal_path)
        if head["seq"] == 0 or not path_file.exists():
            self._write(
                path_file, {"journal": os.path.realpath(journal_path), "genesis_hash": genesis_hash}
            )

    def forget(self, journal_path: Path, genesis_hash: str | None) -> None:
        """Drop what is witnessed for a journal (a human's decision, never the app's)."""
        self._path_file(journal_path).unlink(missing_ok=True)
        if genesis_hash and is_digest(genesis_hash):
            self._journal_file(genesis_hash).unlink(missing_ok=True)

    def _read(self, path: Path) -> dict[str, Any] | None:
        # Opened as package files are: a FIFO or a link to a device is refused, never read.
        try:
            rel = path.relative_to(self.folder).as_posix()
            root = str(self.folder)
            data = read_beneath(root, rel, limit=1 << 20, real_root=os.path.realpath(root))
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise WitnessError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        try:
            rec = json.loads(data)
        except ValueError:
            raise WitnessError(f"{path}: not a witness record") from None
        if not isinstance(rec, dict):
            raise WitnessError(f"{path}: not a witness record")
        return rec

    @staticmethod
    def _write(path: Path, rec: dict[str, Any]) -> None:
        private_dir(path.parent)
        atomic_write(path, lambda fh: fh.write(json.dumps(rec, sort_keys=True) + "\n"))
