"""Single rules of spec 10.1 to 10.5 not covered by the tamper table."""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    DATA,
    DECIDER,
    EVALUATOR,
    LEAD,
    Clock,
    archive,
    keyed_principals,
    load,
    passing,
    principals,
    revision_file,
)

from aa_review.cli import dossier_cmd
from aa_review.core.dossier import (
    GENESIS_HASH,
    Workspace,
    entry_hash,
    init_workspace_folder,
    verify_journal,
)

D = "dos-7f3a9c"


def rechain(es: list[dict[str, Any]]) -> list[dict[str, Any]]:
    prev, out = GENESIS_HASH, []
    for i, e in enumerate(es):
        e = copy.deepcopy(e)
        e.pop("signature", None)
        e["seq"], e["prev_hash"] = i, prev
        e["entry_hash"] = entry_hash(e)
        prev = e["entry_hash"]
        out.append(e)
    return out


def test_every_entry_names_its_registry_and_reducer_entries_their_cause(ws: Workspace) -> None:
    ws.import_dossier(load("dossier_failing_contaminated.json"))
    ws.bind("dos-contam-51e0", 1, LEAD)
    ws.check("dos-contam-51e0", 1, EVALUATOR)  # the reducer defers it
    es = ws.journal_entries()
    assert {e["payload"]["registry_digest"] for e in es} == {ws.principals.digest}
    reducer = [e for e in es if e["actor"]["role"] == "system_reducer"]
    # The import without an actor is the reducer's, for the file's author; the deferral
    # is caused by the checker.
    assert [e["payload"]["caused_by"] for e in reducer] == [LEAD, EVALUATOR]
    assert verify_journal(es, principals=principals())["valid"]
    # A cause that is not in the registry: the entry's actor is unknown (10.1).
    bad = copy.deepcopy(es)
    bad[-1]["payload"]["caused_by"] = "p-ghost"
    assert verify_journal(rechain(bad), principals=principals()) == {
        "valid": False,
        "first_bad_seq": len(es) - 1,
        "reason": "JOURNAL_ACTOR_UNKNOWN",
    }
    # Without the registry (spec 10, sections 4-10) the same journal is a legal chain.
    assert verify_journal(rechain(bad))["valid"]


def test_registry_checks_come_before_the_transition_table(ws: Workspace) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    es = ws.journal_entries()
    es[1]["actor"] = {"principal_id": "p-ghost", "role": "independent_evaluator"}
    # Illegal in the table (a bind by an evaluator) and unknown: unknown is reported.
    assert verify_journal(rechain(es), principals=principals())["reason"] == (
        "JOURNAL_ACTOR_UNKNOWN"
    )
    assert verify_journal(rechain(es))["reason"] == "JOURNAL_ILLEGAL_TRANSITION"


def test_an_entry_naming_no_registry_is_untrusted(ws: Workspace) -> None:
    ws.import_dossier(passing())
    es = ws.journal_entries()
    del es[0]["payload"]["registry_digest"]
    assert verify_journal(rechain(es), principals=principals())["reason"] == (
        "JOURNAL_REGISTRY_UNTRUSTED"
    )


def test_an_oversized_entry_is_not_written_and_the_workspace_stays_writable(ws: Workspace) -> None:
    result = ws.attempt_operation("export_dataset", DECIDER, "x" * (2 << 20))
    assert result["decision"] == "denied"
    assert result["not_journaled"].startswith("JOURNAL_ENTRY_MALFORMED")
    assert not ws.read_only and ws.journal_entries() == []
    assert "not_journaled" not in ws.attempt_operation("export_dataset", DECIDER, "x")


def test_a_hostile_revision_file_opens_read_only_without_raising(tmp_path: Path) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
    revision_file(folder, D, 1).write_text("[" * 100_000 + "]" * 100_000)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only and ws.journal_fault.startswith("WORKSPACE_FILE_UNREADABLE")
        assert f"dossiers/{D}/revisions/" in ws.journal_fault


def test_entry_hash_leaves_out_the_signature(tmp_path: Path) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        e = ws.journal_entries()[0]
    assert e["signature"].startswith("ed25519:")
    assert entry_hash(e) == entry_hash({k: v for k, v in e.items() if k != "signature"})


HOSTILE_INPUTS = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep_object": '{"a":' * 5000 + "1" + "}" * 5000,
    "5000_digits": '{"revision": ' + "9" * 5000 + "}",
    "not_utf8": b'{"a": "\xff"}',
}


@pytest.mark.parametrize("command", ["check", "project"])
@pytest.mark.parametrize("case", sorted(HOSTILE_INPUTS))
def test_dossier_commands_exit_2_on_unreadable_input(
    tmp_path: Path, capsys, command: str, case: str
) -> None:
    path = tmp_path / "dossier.json"
    data = HOSTILE_INPUTS[case]
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    argv = ["dossier", command, str(path), "--archive", str(DATA / "archive.json")]
    args = parser.parse_args(argv)
    assert args.func(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and str(path) in err
    # The archive is read the same way.
    args = parser.parse_args(
        ["dossier", command, str(DATA / "dossier_passing.json"), "--archive", str(path)]
    )
    assert args.func(args) == 2


def test_huge_input_exits_2(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from aa_review.cli import _dossier_input

    monkeypatch.setattr(_dossier_input, "MAX_INPUT_BYTES", 1000)
    path = tmp_path / "dossier.json"
    path.write_text(json.dumps(passing()))
    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    args = parser.parse_args(["dossier", "check", str(path), "--archive", str(path)])
    assert args.func(args) == 2
    assert "larger than" in capsys.readouterr().err


def test_every_append_is_witnessed_outside_the_workspace(tmp_path: Path) -> None:
    from aa_review.core.dossier import WitnessStore

    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    store = WitnessStore()
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        genesis = ws.journal_entries()[0]
        assert store.record(genesis["entry_hash"]) == {
            "genesis_hash": genesis["entry_hash"],
            "head": ws.journal_head(),
            # The first registry, trusted on first use, is witnessed with the genesis (10.2).
            "registry_digest": genesis["payload"]["registry_digest"],
        }
        for op in ("export_dataset", "change_routing"):
            ws.attempt_operation(op, DECIDER, "x")
            assert store.record(genesis["entry_hash"])["head"] == ws.journal_head()
        assert ws.witness_status()["status"] == "matches"
    assert not str(store.folder).startswith(str(folder))


def test_a_public_key_must_be_an_ed25519_key() -> None:
    from aa_review.core.dossier import PrincipalRegistry, PrincipalRegistryError

    for bad in ("ssh-ed25519 AAAA", "ed25519:" + "A" * 10, "ed25519:!!", 42):
        with pytest.raises(PrincipalRegistryError, match="public_key"):
            PrincipalRegistry([dict(principals()[0], public_key=bad)])
