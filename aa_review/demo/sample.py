"""The demo dossier workspace written beside the demo package (see ``aa_review.demo``).

The demo is several people on one machine: every demo principal's private key is
created in this one user's key store, so that one person can step a dossier through
author, evaluator and maintainer alone. The workspace says so (``one_machine_note``,
shown by the window and by ``aa-review dossier status``). A team's workspace is made
with ``aa-review dossier init`` from the records each person's ``aa-review keys
create`` printed, and holds no one's private key.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aa_review.core.dossier._errors import KeyStoreError
from aa_review.core.dossier._keys import KeyStore
from aa_review.core.dossier._workspace import Workspace, init_workspace_folder
from aa_review.core.package.digest import package_digest
from aa_review.demo._sample_archive import LEAD, SAMPLE_PRINCIPALS, sample_archive
from aa_review.demo._sample_dossier import sample_dossier
from aa_review.demo._sample_seal import seal

__all__ = ["SAMPLE_DOSSIER_IDS", "SAMPLE_EXPIRES_AT", "keyed_principals", "write_sample_workspace"]

# The demo is meant to be stepped through for years: it expires late, deterministically.
SAMPLE_EXPIRES_AT = "2099-12-31T00:00:00Z"
SAMPLE_DOSSIER_IDS = ("dos-demo-ready", "dos-demo-contaminated")
# Import time recorded in the demo journal.
_CREATED = datetime(2026, 3, 1, tzinfo=UTC)


def keyed_principals(
    principals: list[dict[str, Any]], key_store: KeyStore | None = None
) -> list[dict[str, Any]]:
    """``principals`` with a ``public_key`` each, creating missing keys in the key store.

    A key already in the store is reused (never replaced), so the demo principals
    keep their keys from one demo workspace to the next.
    """
    store = key_store if key_store is not None else KeyStore()
    out = []
    for rec in principals:
        pid = rec["principal_id"]
        signer = store.signer(pid)
        if signer is None:
            try:
                signer = store.create(pid)
            except KeyStoreError:  # created meanwhile by another process
                signer = store.signer(pid)
        assert signer is not None
        out.append({**rec, "public_key": signer.public_key})
    return out


def write_sample_workspace(
    folder: Path, package: Path, key_store: KeyStore | None = None, *, digest: str | None = None
) -> None:
    """Create a workspace folder with two draft dossiers bound to ``package``.

    ``dos-demo-ready`` passes every gate once checked (given the audit engine's
    contamination hook for the bound package); ``dos-demo-contaminated`` lists a
    calibration item, an exploit-trace item and an item of a pool family among
    its training sources, so G9 fails and the reducer defers it.

    Parameters
    ----------
    folder : Path
        The workspace folder to create (its parent must exist).
    package : Path
        The compiled package the dossiers bind by ``package_digest``; its folder
        name is used as the package id.
    key_store : KeyStore, optional
        Where the demo principals' private keys are created or found (default: the
        user's key store), so that the window can act as each of them: a demo of
        several people on one machine, never how a team shares a workspace.
    digest : str, optional
        ``package_digest(package)`` when already known (it is computed otherwise).
    """
    archive = sample_archive()
    init_workspace_folder(folder, keyed_principals(SAMPLE_PRINCIPALS, key_store), archive)
    bound = [
        {
            "package_id": package.name,
            "package_digest": digest if digest is not None else package_digest(package),
        }
    ]
    ready = sample_dossier(archive, expires_at=SAMPLE_EXPIRES_AT, source_packages=bound)
    ready["dossier_id"] = SAMPLE_DOSSIER_IDS[0]
    contaminated = copy.deepcopy(ready)
    contaminated["dossier_id"] = SAMPLE_DOSSIER_IDS[1]
    contaminated["evidence"]["dataset_plan"]["training_source_items"] += [
        "item-cal-1",
        "item-exploit",
        "item-leak",
    ]
    seal(contaminated)
    ws = Workspace.open_folder(folder, clock=lambda: _CREATED, key_store=key_store)
    try:
        ws.import_dossier(ready, LEAD)
        ws.import_dossier(contaminated, LEAD)
    finally:
        ws.close()
