"""The user's key store and ``aa-review keys`` (spec 10.2): private keys never in a workspace."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from aa_review.cli import main
from aa_review.core.dossier import KeyStore, KeyStoreError, verify_signature


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AA_REVIEW_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_keys_are_private_files_of_the_user(data_dir: Path) -> None:
    signer = KeyStore().create("p-lead-ada")
    path = data_dir / "keys" / "p-lead-ada.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    sig = signer.sign("sha256:" + "a" * 64)
    assert verify_signature(signer.public_key, "sha256:" + "a" * 64, sig)
    assert not verify_signature(signer.public_key, "sha256:" + "b" * 64, sig)
    assert not verify_signature(signer.public_key, "sha256:" + "a" * 64, "ed25519:AAAA")
    assert not verify_signature("ed25519:nonsense", "x", sig)
    with pytest.raises(KeyStoreError, match="already exists"):
        KeyStore().create("p-lead-ada")  # never replaced
    assert KeyStore().signer("p-lead-ada").public_key == signer.public_key
    assert KeyStore().signer("nobody") is None
    # Ids that are not file names get a hashed name, inside the store.
    odd = KeyStore().create("../../etc/passwd")
    assert KeyStore().path("../../etc/passwd").parent == data_dir / "keys"
    assert KeyStore().signer("../../etc/passwd").public_key == odd.public_key


def test_a_key_others_can_read_is_refused(data_dir: Path) -> None:
    KeyStore().create("p-eval-cy")
    path = data_dir / "keys" / "p-eval-cy.key"
    path.chmod(0o644)
    with pytest.raises(KeyStoreError, match="chmod 600"):
        KeyStore().signer("p-eval-cy")


def test_keys_command(data_dir: Path, capsys) -> None:
    assert main(["keys", "create", "p-maint-eve"]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert record["principal_id"] == "p-maint-eve" and record["public_key"].startswith("ed25519:")
    assert "private key written to" in err and "private_key" not in out
    assert main(["keys", "show", "p-maint-eve"]) == 0
    assert json.loads(capsys.readouterr().out) == record
    assert main(["keys", "create", "p-maint-eve"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["keys", "show", "p-nobody"]) == 2
    assert "aa-review keys create p-nobody" in capsys.readouterr().err
    assert main(["keys", "list"]) == 0
    assert capsys.readouterr().out == f"p-maint-eve\t{record['public_key']}\n"
