"""Ed25519 keys of principals: the user's private key store and signature checks (spec 10.2).

Private keys live only in the acting user's key store: one file per principal,
mode 0600, in a 0700 folder under the user's data folder (``$AA_REVIEW_DATA_DIR``
overrides it). They never live in a workspace. See docs/decisions.md for why a
file and not the OS keyring.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from aa_review.core.dossier._errors import KeyStoreError

__all__ = [
    "DATA_DIR_ENV",
    "KeyStore",
    "key_fingerprint",
    "Signer",
    "parse_public_key",
    "user_data_dir",
    "verify_signature",
]

DATA_DIR_ENV = "AA_REVIEW_DATA_DIR"
_PREFIX = "ed25519:"
_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def user_data_dir() -> Path:
    """The user's aa-review data folder: ``$AA_REVIEW_DATA_DIR``, else the platform's."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "aa-review"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home()) / "aa-review"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "aa-review"


def private_dir(folder: Path) -> Path:
    """Create ``folder`` (mode 0700) or check that no one else can read it.

    Raises
    ------
    KeyStoreError
        The folder cannot be created, or group or others have access to it.
    """
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        mode = folder.stat().st_mode
    except OSError as exc:
        raise KeyStoreError(f"{folder}: cannot be created ({exc.strerror or exc})") from None
    if sys.platform != "win32" and mode & 0o077:
        raise KeyStoreError(
            f"{folder}: other users have access to it (mode "
            f"{stat.S_IMODE(mode):o}); run chmod 700 on it"
        )
    return folder


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: object, size: int) -> bytes | None:
    if not isinstance(text, str) or not text.startswith(_PREFIX):
        return None
    try:
        data = base64.b64decode(text[len(_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        return None
    return data if len(data) == size else None


def parse_public_key(text: object) -> bytes | None:
    """The 32 key bytes of ``"ed25519:<base64>"``, or None when it is not one."""
    return _unb64(text, 32)


def key_fingerprint(public_key: object) -> str:
    """A short, readable mark of a public key: ``ed25519:`` and its first 8 base64 characters.

    The same characters begin the record ``aa-review keys create`` prints, so a person
    recognises their own key. ``""`` when there is no key, ``"?"`` when it is malformed.
    """
    if public_key is None or public_key == "":
        return ""
    if parse_public_key(public_key) is None:
        return "?"
    return f"{_PREFIX}{str(public_key)[len(_PREFIX) : len(_PREFIX) + 8]}…"


def verify_signature(public_key: object, message: str, signature: object) -> bool:
    """Whether ``signature`` (``"ed25519:<base64 of 64 bytes>"``) signs ``message``'s UTF-8 bytes.

    Never raises: anything malformed is simply not a valid signature.
    """
    key, sig = parse_public_key(public_key), _unb64(signature, 64)
    if key is None or sig is None or not isinstance(message, str):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, message.encode("utf-8"))
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Signer:
    """A principal's private key, loaded from the key store.

    Attributes
    ----------
    principal_id : str
    public_key : str
        ``"ed25519:<base64>"``, what ``principals.json`` must carry for this principal.
    sign : callable
        ``sign(message) -> "ed25519:<base64 signature>"`` over the message's UTF-8 bytes.
    """

    principal_id: str
    public_key: str
    sign: Callable[[str], str]


def _signer(principal_id: str, private: Ed25519PrivateKey) -> Signer:
    public = _PREFIX + _b64(private.public_key().public_bytes_raw())
    return Signer(
        principal_id, public, lambda message: _PREFIX + _b64(private.sign(message.encode("utf-8")))
    )


class KeyStore:
    """The acting user's private keys, one 0600 file per principal in a 0700 folder.

    Parameters
    ----------
    folder : Path, optional
        Defaults to ``keys/`` under :func:`user_data_dir` (read when first used, so a
        test can point ``$AA_REVIEW_DATA_DIR`` elsewhere first).
    """

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder

    @property
    def folder(self) -> Path:
        """Where the key files are."""
        return self._folder if self._folder is not None else user_data_dir() / "keys"

    def path(self, principal_id: str) -> Path:
        """The key file of a principal (a hash of the id when it is not a safe file name)."""
        name = (
            principal_id
            if _SAFE.fullmatch(principal_id) and principal_id not in (".", "..")
            else "id-" + hashlib.sha256(principal_id.encode("utf-8")).hexdigest()[:32]
        )
        return self.folder / f"{name}.key"

    def create(
        self, principal_id: str, *, role: str | None = None, kind: str | None = None
    ) -> Signer:
        """Generate a key pair for ``principal_id``; an existing key is never replaced.

        ``role`` and ``kind``, when given, are kept beside the key (they grant nothing:
        the registry decides) so that :meth:`record` can print the whole line a person
        hands to a maintainer.

        Raises
        ------
        KeyStoreError
            A key already exists for this principal, or the store cannot be written.
        """
        if not isinstance(principal_id, str) or not principal_id:
            raise KeyStoreError("a principal id is a non-empty string")
        folder = private_dir(self.folder)
        target = self.path(principal_id)
        if target.exists():
            raise KeyStoreError(
                f"{target}: a key for {principal_id!r} already exists; it is never replaced"
            )
        private = Ed25519PrivateKey.generate()
        signer = _signer(principal_id, private)
        body = (
            json.dumps(
                {
                    "principal_id": principal_id,
                    **({"role": role} if role else {}),
                    **({"kind": kind} if kind else {}),
                    "public_key": signer.public_key,
                    "private_key": _PREFIX + _b64(private.private_bytes_raw()),
                },
                indent=2,
            )
            + "\n"
        )
        fd, tmp = tempfile.mkstemp(prefix=".key.", suffix=".tmp", dir=folder)
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(body)
                fh.flush()
                os.fsync(fh.fileno())
            os.link(tmp, target)  # fails if another process created it meanwhile
        except FileExistsError:
            raise KeyStoreError(f"{target}: a key for {principal_id!r} already exists") from None
        except OSError as exc:
            raise KeyStoreError(f"{target}: cannot be written ({exc.strerror or exc})") from None
        finally:
            Path(tmp).unlink(missing_ok=True)
        return signer

    def signer(self, principal_id: str) -> Signer | None:
        """The principal's key, or None when this machine has none.

        Raises
        ------
        KeyStoreError
            The key file exists but others can read it, or it is damaged.
        """
        path = self.path(principal_id)
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise KeyStoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if sys.platform != "win32" and st.st_mode & 0o077:
            raise KeyStoreError(
                f"{path}: other users can read this private key (mode "
                f"{stat.S_IMODE(st.st_mode):o}); run chmod 600 on it"
            )
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            raw = _unb64(record.get("private_key"), 32)
            if raw is None or record.get("principal_id") != principal_id:
                raise ValueError("not a key of this principal")
            private = Ed25519PrivateKey.from_private_bytes(raw)
        except (OSError, ValueError, AttributeError) as exc:
            raise KeyStoreError(f"{path}: not a usable key file ({exc})") from None
        return _signer(principal_id, private)

    def record(self, principal_id: str) -> dict[str, str] | None:
        """The public record of a key here: ``{principal_id, role, kind, public_key}``.

        What a person hands to a human maintainer to be added to a registry (role and
        kind only when the key was created with them). None when there is no key.

        Raises
        ------
        KeyStoreError
            As :meth:`signer`.
        """
        signer = self.signer(principal_id)
        if signer is None:
            return None
        try:
            kept = json.loads(self.path(principal_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
        out = {"principal_id": principal_id}
        for name in ("role", "kind"):
            if isinstance(kept.get(name), str):
                out[name] = kept[name]
        out["public_key"] = signer.public_key
        return out

    def principals(self) -> list[tuple[str, str]]:
        """``(principal_id, public_key)`` of every key in the store, sorted by id."""
        out: list[tuple[str, str]] = []
        if not self.folder.is_dir():
            return out
        for path in sorted(self.folder.glob("*.key")):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                pid, public = record["principal_id"], record["public_key"]
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if isinstance(pid, str) and parse_public_key(public) is not None:
                out.append((pid, public))
        return sorted(out)
