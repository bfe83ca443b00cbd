"""Keys are personal (spec 10.6): one principal, one key; who can act here, who is elsewhere."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    DECIDER,
    EVALUATOR,
    LEAD,
    Clock,
    archive,
    journal_snapshot,
    keyed_principals,
    passing,
)

from aa_review.core.dossier import (
    KeyPlace,
    KeyStore,
    PrincipalRegistry,
    PrincipalRegistryError,
    Workspace,
    WorkspaceReadOnlyError,
    init_workspace_folder,
    json_digest,
    make_entry,
    verify_journal,
)

D = "dos-7f3a9c"


def sharing(principals: list[dict[str, Any]], a: str, b: str) -> list[dict[str, Any]]:
    """``principals`` with ``b`` given ``a``'s public key."""
    out = copy.deepcopy(principals)
    key = next(p["public_key"] for p in out if p["principal_id"] == a)
    for p in out:
        if p["principal_id"] == b:
            p["public_key"] = key
    return out


def test_a_registry_in_which_two_principals_share_a_key_is_refused() -> None:
    shared = sharing(keyed_principals(), LEAD, EVALUATOR)
    with pytest.raises(PrincipalRegistryError) as info:
        PrincipalRegistry(shared)
    message = str(info.value)
    assert LEAD in message and EVALUATOR in message and "share one public key" in message


def test_a_workspace_is_not_created_with_a_shared_key(tmp_path: Path) -> None:
    shared = sharing(keyed_principals(), DECIDER, EVALUATOR)
    with pytest.raises(PrincipalRegistryError):
        init_workspace_folder(tmp_path / "ws", shared, archive())
    assert not (tmp_path / "ws").exists()  # nothing written


def test_a_registry_change_that_would_share_a_key_is_refused(tmp_path: Path) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        before = journal_snapshot(folder)
        with pytest.raises(PrincipalRegistryError, match="share one public key"):
            ws.change_registry(sharing(keyed_principals(), LEAD, DECIDER), DECIDER)
        assert journal_snapshot(folder) == before
        assert not ws.read_only


def test_a_replay_meeting_a_registry_change_to_a_shared_key_fails(tmp_path: Path) -> None:
    """A maintainer's valid signature does not make a shared-key registry trusted."""
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        entries = ws.journal_entries()
    old = keyed_principals()
    new = sharing(old, LEAD, EVALUATOR)
    signer = KeyStore().signer(DECIDER)
    assert signer is not None
    last = entries[-1]
    forged = make_entry(
        len(entries),
        last["entry_hash"],
        "2026-03-01T00:00:01Z",
        "registry_changed",
        dossier_id=None,
        revision=None,
        actor={"principal_id": DECIDER, "role": "human_maintainer"},
        payload={
            "registry_digest": json_digest(old),
            "old_registry_digest": json_digest(old),
            "new_registry_digest": json_digest(new),
        },
        sign=signer.sign,
    )
    versions = {json_digest(old): old, json_digest(new): new}
    assert verify_journal(entries, principals=versions)["valid"]
    result = verify_journal([*entries, forged], principals=versions)
    assert result == {
        "valid": False,
        "first_bad_seq": len(entries),
        "reason": "JOURNAL_REGISTRY_UNTRUSTED",
    }


def test_key_holdings_say_whose_key_is_here(tmp_path: Path) -> None:
    """Only principals whose private key is in this user's store can act here."""
    mine = KeyStore(tmp_path / "mine")
    theirs = KeyStore(tmp_path / "theirs")
    lead = mine.create(LEAD)
    evaluator = theirs.create(EVALUATOR)
    stale = mine.create(DECIDER)  # a key of DECIDER here, but not the registered one
    registered = theirs.create("p-maint-other")
    principals = [
        {"principal_id": LEAD, "role": "training_research_lead", "kind": "human"},
        {"principal_id": EVALUATOR, "role": "independent_evaluator", "kind": "human"},
        {"principal_id": DECIDER, "role": "human_maintainer", "kind": "human"},
        {"principal_id": "p-nokey", "role": "human_maintainer", "kind": "human"},
    ]
    principals[0]["public_key"] = lead.public_key
    principals[1]["public_key"] = evaluator.public_key
    principals[2]["public_key"] = registered.public_key
    assert stale.public_key != registered.public_key
    folder = init_workspace_folder(tmp_path / "ws", principals, archive())
    with Workspace.open_folder(folder, clock=Clock(), key_store=mine) as ws:
        places = {h.principal.principal_id: h.place for h in ws.key_holdings()}
        assert places == {
            LEAD: KeyPlace.HERE,
            EVALUATOR: KeyPlace.ELSEWHERE,
            DECIDER: KeyPlace.OTHER_KEY_HERE,
            "p-nokey": KeyPlace.NO_PUBLIC_KEY,
        }
        here = [h.principal.principal_id for h in ws.key_holdings() if h.here]
        assert here == [LEAD]
        # The holdings agree with who the workspace lets sign.
        assert ws.can_act(LEAD) is None
        assert all(ws.can_act(pid) is not None for pid in (EVALUATOR, DECIDER, "p-nokey"))
        held = next(h for h in ws.key_holdings() if h.principal.principal_id == EVALUATOR)
        assert "held elsewhere" in held.detail


def test_the_registry_file_is_not_trusted_for_a_shared_key_on_opening(tmp_path: Path) -> None:
    """principals.json edited by hand to share a key: the workspace is not opened for
    writing; it opens read-only with the reason (10.5)."""
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
    shared = sharing(keyed_principals(), LEAD, EVALUATOR)
    (folder / "principals.json").write_text(json.dumps({"principals": shared}))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only
        assert ws.journal_fault.startswith("WORKSPACE_FILE_UNREADABLE: principals.json")
        assert "share one public key" in ws.journal_fault
        with pytest.raises(WorkspaceReadOnlyError):
            ws.import_dossier(passing(), LEAD)
