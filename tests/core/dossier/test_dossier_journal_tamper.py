"""Tampering with a workspace is detected, with its reason, by ``verify-journal`` and on opening.

Each case edits the files of a real workspace folder the way an attacker (or a
careless user) with write access to the folder would, but without the users'
private keys or their witness store (spec 10.1 to 10.5).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    DECIDER,
    EVALUATOR,
    LEAD,
    SIGNER,
    Clock,
    action_files,
    archive,
    journal_entries,
    journal_lines,
    journal_snapshot,
    keyed_principals,
    signed_workspace,
    write_journal_lines,
)

from aa_review.cli import dossier_cmd
from aa_review.core.dossier import (
    GENESIS_HASH,
    KeyStore,
    ProjectionError,
    Workspace,
    WorkspaceLockedError,
    WorkspaceReadOnlyError,
    canonical_json,
    entry_hash,
    json_digest,
    verify_journal,
)
from aa_review.core.dossier._storage import FolderStore

D = "dos-7f3a9c"


def rev_file(folder: Path, dossier_id: str, revision: int) -> Path:
    """The file holding a revision's content now: the one its last journal entry names."""
    digest = [
        e["payload"]["revision_digest"]
        for e in journal_entries(folder)
        if (e["dossier_id"], e["revision"]) == (dossier_id, revision)
        and "revision_digest" in e["payload"]
    ][-1]
    return FolderStore(folder).revision_file(dossier_id, digest)


def rechain(
    es: list[dict[str, Any]],
    sign: Callable[[dict[str, Any]], str | None] | None = None,
) -> list[bytes]:
    """Recompute seq, prev_hash and entry_hash -- what a forger with write access does."""
    prev, out = GENESIS_HASH, []
    for i, e in enumerate(es):
        e = copy.deepcopy(e)
        old = e["entry_hash"]
        e["seq"], e["prev_hash"] = i, prev
        e["entry_hash"] = entry_hash(e)
        if sign is not None or e["entry_hash"] != old:  # an unchanged entry keeps its signature
            e.pop("signature", None)
            sig = sign(e) if sign else None
            if sig:
                e["signature"] = sig
        prev = e["entry_hash"]
        out.append(canonical_json(e))
    return out


def forged(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    e = copy.deepcopy(base)
    for k, v in changes.items():
        e[k] = v
    return e


def cli(folder: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, Any]:
    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    args = parser.parse_args(["dossier", "verify-journal", str(folder / "journal"), *extra])
    code = args.func(args)
    out, _ = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None


def opened(folder: Path) -> tuple[bool, str | None]:
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        return ws.read_only, ws.journal_fault


def assert_detected(
    folder: Path, capsys: pytest.CaptureFixture[str], reason: str, seq: int | None = None
) -> None:
    """``verify-journal`` exits 1 naming ``reason`` and the workspace opens read-only."""
    before = journal_snapshot(folder)
    code, result = cli(folder, capsys)
    assert code == 1 and result["valid"] is False and result["reason"] == reason, result
    if seq is not None:
        assert result["first_bad_seq"] == seq, result
    read_only, fault = opened(folder)
    assert read_only and fault is not None and fault.startswith(reason), fault
    # Opening a tampered workspace repairs nothing: the evidence stays as found.
    assert journal_snapshot(folder) == before


# -- forged and appended entries (10.1, 10.2) ---------------------------------------------
def test_appended_entry_with_recomputed_hash(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path)
    es = journal_entries(folder)
    extra = forged(
        es[-1],
        kind="operation_denied",
        dossier_id=None,
        revision=None,
        actor={"principal_id": SIGNER, "role": "human_maintainer"},
        from_state=None,
        to_state=None,
        payload={
            "op": "export_dataset",
            "target": "x",
            "reason_code": "R",
            "registry_digest": es[-1]["payload"]["registry_digest"],
        },
    )
    write_journal_lines(folder, journal_lines(folder) + rechain([*es, extra])[-1:])
    # Without the signer's key the chain can be extended but not signed.
    assert_detected(folder, capsys, "JOURNAL_SIGNATURE_INVALID", len(es))
    code, result = cli(folder, capsys, "--anchor-seq", "0", "--anchor-hash", es[0]["entry_hash"])
    assert code == 1 and result["reason"] == "JOURNAL_SIGNATURE_INVALID"


def test_forged_check_and_decision_by_principals_not_in_the_registry(
    tmp_path: Path, capsys
) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    es = journal_entries(folder)
    bind = es[-1]
    digest = bind["payload"]["registry_digest"]
    rev = json.loads(rev_file(folder, D, 1).read_text())
    rev["state"] = "eligible"  # written where the forged entry will name it, by its digest
    FolderStore(folder).revision_file(D, json_digest(rev)).write_text(json.dumps(rev))
    check = forged(
        bind,
        from_state="evidence_bound",
        to_state="independently_checked",
        actor={"principal_id": "p-eval-mallory", "role": "independent_evaluator"},
        payload={"action": "check", "actor_kind": "human", "registry_digest": digest},
    )
    decide = forged(
        bind,
        from_state="independently_checked",
        to_state="eligible",
        actor={"principal_id": "p-maint-mallory", "role": "human_maintainer"},
        payload={
            "action": "decide_eligible",
            "actor_kind": "human",
            "registry_digest": digest,
            "revision_digest": json_digest(rev),
        },
    )
    write_journal_lines(folder, rechain([*es, check, decide]))
    assert_detected(folder, capsys, "JOURNAL_ACTOR_UNKNOWN", len(es))
    # Without the registry the forgery is a legal chain: the registry is what catches it.
    assert verify_journal(journal_entries(folder))["valid"]
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        with pytest.raises(WorkspaceReadOnlyError):
            ws.project(D, 1, DECIDER)
        assert ws.decide_deferred(D, 1, DECIDER).reason == "WORKSPACE_READ_ONLY"
    assert not list((folder / "projections").glob("*.json"))  # nothing eligible published


def test_forged_entry_signed_with_a_key_not_in_the_registry(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    es = journal_entries(folder)
    mallory = KeyStore(tmp_path / "mallory-keys").create(DECIDER)  # DECIDER's id, another key
    deny = forged(
        es[-1],
        kind="operation_denied",
        dossier_id=None,
        revision=None,
        actor={"principal_id": DECIDER, "role": "human_maintainer"},
        from_state=None,
        to_state=None,
        payload={
            "op": "x",
            "target": "y",
            "reason_code": "R",
            "registry_digest": es[-1]["payload"]["registry_digest"],
        },
    )
    signed = rechain([*es, deny], sign=lambda e: mallory.sign(e["entry_hash"]))
    write_journal_lines(folder, journal_lines(folder) + signed[-1:])
    assert_detected(folder, capsys, "JOURNAL_SIGNATURE_INVALID", len(es))


def test_role_not_held_and_agent_posing_as_human_maintainer(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path)
    es = journal_entries(folder)
    bad = copy.deepcopy(es)
    bad[1]["actor"]["role"] = "human_maintainer"  # the lead did bind, in its own role only
    assert (
        verify_journal([json.loads(x) for x in rechain(bad)], principals=keyed_principals())[
            "reason"
        ]
        == "JOURNAL_ROLE_NOT_HELD"
    )
    agent = next(p for p in keyed_principals() if p["principal_id"] == "p-maint-bot")
    decide = next(i for i, e in enumerate(es) if e["to_state"] == "eligible")
    bad = copy.deepcopy(es)
    bad[decide]["actor"]["principal_id"] = agent["principal_id"]
    result = verify_journal([json.loads(x) for x in rechain(bad)], principals=keyed_principals())
    assert result == {"valid": False, "first_bad_seq": decide, "reason": "JOURNAL_ROLE_NOT_HELD"}


def test_registry_swapped_without_a_signed_change(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    es = journal_entries(folder)
    mallory = KeyStore(tmp_path / "mallory-keys").create("p-maint-mallory")
    swapped = [
        *keyed_principals(),
        {
            "principal_id": "p-maint-mallory",
            "role": "human_maintainer",
            "kind": "human",
            "public_key": mallory.public_key,
        },
    ]
    (folder / "principals.json").write_text(json.dumps({"principals": swapped}))
    # principals.json alone: the workspace refuses a registry the journal never adopted.
    read_only, fault = opened(folder)
    assert read_only and fault.startswith("JOURNAL_REGISTRY_UNTRUSTED")
    code, result = cli(folder, capsys)
    assert code == 1 and result["reason"] == "JOURNAL_REGISTRY_UNTRUSTED"
    # With entries naming the new registry, signed by its new member: untrusted as well.
    deny = forged(
        es[-1],
        kind="operation_denied",
        dossier_id=None,
        revision=None,
        actor={"principal_id": "p-maint-mallory", "role": "human_maintainer"},
        from_state=None,
        to_state=None,
        payload={
            "op": "x",
            "target": "y",
            "reason_code": "R",
            "registry_digest": json_digest(swapped),
        },
    )
    write_journal_lines(
        folder,
        journal_lines(folder)
        + rechain([*es, deny], sign=lambda e: mallory.sign(e["entry_hash"]))[-1:],
    )
    assert_detected(folder, capsys, "JOURNAL_REGISTRY_UNTRUSTED", len(es))


def test_a_signed_registry_change_is_trusted(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    new = keyed_principals()[:-1]  # drops the registered reducer principal
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        with pytest.raises(Exception, match="ACTOR_ROLE_NOT_PERMITTED"):
            ws.change_registry(new, LEAD)  # not a human maintainer
        digest = ws.change_registry(new, SIGNER)
        assert ws.principals.digest == digest
        assert ws.attempt_operation("export_dataset", DECIDER, "x")["decision"] == "denied"
    assert json.loads((folder / "principals.json").read_text())["principals"] == new
    assert opened(folder) == (False, None)
    code, result = cli(folder, capsys)
    assert code == 0 and result["valid"], result


# -- truncation and rewriting (10.3) -------------------------------------------------------
def test_last_line_cut_mid_way_within_the_witnessed_head(tmp_path: Path, capsys) -> None:
    # An action file is written whole and renamed: a file cut short is damage, never a crash.
    folder = signed_workspace(tmp_path)
    last = action_files(folder)[-1]
    n = len(journal_lines(folder))
    last.write_bytes(last.read_bytes()[:-40])  # the head, witnessed
    assert_detected(folder, capsys, "JOURNAL_ENTRY_MALFORMED", n - 1)


def test_an_append_killed_before_its_rename_leaves_only_a_temporary_file(
    tmp_path: Path, capsys
) -> None:
    folder = signed_workspace(tmp_path)
    n = len(journal_lines(folder))
    torn = folder / "journal" / f".{n:08d}-{'a' * 64}.jsonl.x1y2.tmp"  # a crash mid-append
    torn.write_bytes(b'{"actor":{"principal_id":"p-lead')
    code, result = cli(folder, capsys)
    assert code == 0 and result["valid"] and result["entries"] == n
    assert opened(folder) == (False, None)  # removed on opening: it was never acknowledged
    assert not torn.exists() and len(journal_lines(folder)) == n


@pytest.mark.parametrize("keep", [-1, -3])
def test_deleted_last_lines(tmp_path: Path, capsys, keep: int) -> None:
    folder = signed_workspace(tmp_path)
    raw = journal_lines(folder)
    write_journal_lines(folder, raw[:keep])
    assert_detected(folder, capsys, "JOURNAL_HEAD_MISMATCH", len(raw) + keep)


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_emptied_or_deleted_journal(tmp_path: Path, capsys, how: str) -> None:
    folder = signed_workspace(tmp_path)
    if how == "emptied":
        for p in action_files(folder):
            p.unlink()
        assert_detected(folder, capsys, "JOURNAL_HEAD_MISMATCH", 0)
    else:
        import shutil

        shutil.rmtree(folder / "journal")
        read_only, fault = opened(folder)
        assert read_only and fault.startswith("JOURNAL_HEAD_MISMATCH at seq 0")


def test_entry_0_rewritten_and_the_chain_recomputed(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path)
    es = journal_entries(folder)
    es[0]["payload"]["claimed_state"] = "evidence_bound"
    write_journal_lines(folder, rechain(es))
    assert_detected(folder, capsys, "JOURNAL_SIGNATURE_INVALID", 0)


def test_entry_0_rewritten_by_an_insider_holding_every_key(tmp_path: Path, capsys) -> None:
    # Re-signed with the real keys: only the witnessed heads can tell.
    folder = signed_workspace(tmp_path)
    es = journal_entries(folder)
    es[0]["payload"]["claimed_state"] = "evidence_bound"
    keys = KeyStore()
    by_id = {p["principal_id"]: p for p in keyed_principals()}

    def sign(e: dict[str, Any]) -> str:
        who = e["payload"].get("caused_by") or e["actor"]["principal_id"]
        assert who in by_id
        signer = keys.signer(who)
        assert signer is not None
        return signer.sign(e["entry_hash"])

    write_journal_lines(folder, rechain(es, sign=sign))
    assert verify_journal(journal_entries(folder), principals=keyed_principals())["valid"]
    assert_detected(folder, capsys, "JOURNAL_HEAD_MISMATCH", 0)
    # The projection carries the head it was made under: an anchor anyone can keep.
    projection = next((folder / "projections").glob("*.json"))
    code, result = cli(folder, capsys, "--no-witness", "--anchor", str(projection))
    assert code == 1 and result["reason"] == "JOURNAL_HEAD_MISMATCH"


def test_a_projection_file_is_an_anchor(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path)
    projection = next((folder / "projections").glob("*.json"))
    head = json.loads(projection.read_text())["journal_head"]
    assert journal_entries(folder)[head["seq"]]["entry_hash"] == head["entry_hash"]
    code, result = cli(folder, capsys, "--no-witness", "--anchor", str(projection))
    assert code == 0 and result["valid"]
    registry = keyed_principals()
    assert verify_journal(journal_entries(folder), anchor=projection, principals=registry)["valid"]
    write_journal_lines(folder, journal_lines(folder)[: head["seq"]])
    code, result = cli(folder, capsys, "--no-witness", "--anchor", str(projection))
    assert (code, result["reason"]) == (1, "JOURNAL_HEAD_MISMATCH")
    assert verify_journal(journal_entries(folder), anchor=projection, principals=registry)[
        "reason"
    ] == ("JOURNAL_HEAD_MISMATCH")
    (tmp_path / "junk.json").write_text("[1, 2")
    code, result = cli(folder, capsys, "--anchor", str(tmp_path / "junk.json"))
    assert code == 2 and result is None


# -- strict lines (10.4) ---------------------------------------------------------------------
def _edit_line(folder: Path, i: int, edit: Callable[[bytes], bytes]) -> None:
    raw = journal_lines(folder)
    raw[i] = edit(raw[i])
    write_journal_lines(folder, raw)


STRICT_CASES: dict[str, Callable[[bytes], bytes]] = {
    "duplicate_key": lambda b: b.replace(
        b'"to_state":"evidence_bound"', b'"to_state":"eligible","to_state":"evidence_bound"'
    ),
    "non_canonical_space": lambda b: b.replace(b'"kind":', b'"kind": '),
    "non_canonical_escape": lambda b: b.replace(b'"transition"', b'"tr\\u0061nsition"'),
    "nan": lambda b: b.replace(b'"revision":1', b'"revision":NaN'),
    "infinity": lambda b: b.replace(b'"revision":1', b'"revision":Infinity'),
    "5000_digit_integer": lambda b: b.replace(b'"revision":1', b'"revision":' + b"9" * 5000),
    "integer_beyond_2_53": lambda b: b.replace(b'"revision":1', b'"revision":9007199254740993'),
    "100000_deep": lambda b: b.replace(
        b'"payload":{', b'"payload":{"x":' + b"[" * 100_000 + b"]" * 100_000 + b","
    ),
    "over_1_mib": lambda b: b.replace(
        b'"payload":{', b'"payload":{"x":"' + b"a" * (1 << 20) + b'",'
    ),
    "not_utf8": lambda b: b.replace(b'"kind"', b'"k\xffind"'),
}


@pytest.mark.parametrize("case", sorted(STRICT_CASES))
def test_strict_lines(tmp_path: Path, capsys, case: str) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    before = journal_lines(folder)[1]
    _edit_line(folder, 1, STRICT_CASES[case])
    assert journal_lines(folder)[1] != before
    assert_detected(folder, capsys, "JOURNAL_ENTRY_MALFORMED", 1)


HOSTILE: dict[str, Callable[[], Any]] = {
    "nan": lambda: float("nan"),
    "infinity": lambda: float("inf"),
    "5000_digits": lambda: 10**5000,
    "beyond_2_53": lambda: 2**53 + 1,
    "deep": lambda: "deep",
    "int_key": lambda: {1: "int key"},
    "object": object,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_verify_journal_never_raises_on_hostile_values(name: str) -> None:
    value = HOSTILE[name]()
    entry = {
        "seq": 0,
        "prev_hash": GENESIS_HASH,
        "at": "2026-03-01T00:00:00Z",
        "kind": "operation_denied",
        "dossier_id": None,
        "revision": None,
        "actor": {"principal_id": "a", "role": "agent"},
        "from_state": None,
        "to_state": None,
        "payload": {},
        "entry_hash": "sha256:" + "0" * 64,
    }
    node: Any = []
    if value == "deep":
        for _ in range(100_000):
            node = [node]
        value = node
    entry["payload"] = {"v": value}
    assert verify_journal([entry]) == {
        "valid": False,
        "first_bad_seq": 0,
        "reason": "JOURNAL_ENTRY_MALFORMED",
    }
    assert verify_journal([entry], principals=keyed_principals())["reason"] == (
        "JOURNAL_ENTRY_MALFORMED"
    )


# -- crash and concurrency (10.5) -------------------------------------------------------------
def test_kill_between_revision_write_and_append_rolls_back(tmp_path: Path) -> None:
    # The new content is written (named by its digest) before the journal names it: a
    # kill before the append leaves a file no entry names, which is never used.
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    rev = json.loads(rev_file(folder, D, 1).read_text())
    staged = dict(rev, state="independently_checked")
    unnamed = FolderStore(folder).revision_file(D, json_digest(staged))
    unnamed.write_text(json.dumps(staged))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert not ws.read_only and ws.revision(D, 1)["state"] == "evidence_bound"
        assert ws.check(D, 1, EVALUATOR).outcome.value == "applied"
    assert rev_file(folder, D, 1) != unnamed


def test_kill_between_append_and_promotion_rolls_forward(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    from aa_review.core.dossier._storage import FolderStore

    def killed(self: FolderStore, dossier_id: str, revision: int) -> None:
        raise OSError("killed before the rename")

    with Workspace.open_folder(folder, clock=Clock()) as ws:
        monkeypatch.setattr(FolderStore, "promote", killed)
        ws.check(D, 1, EVALUATOR)  # acknowledged: the journal holds it
    monkeypatch.undo()
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert not ws.read_only
        assert ws.revision(D, 1)["state"] in ("independently_checked", "deferred")
        assert ws.decide_eligible(D, 1, DECIDER).outcome.value == "applied"


def test_an_action_is_one_file_that_lands_whole(tmp_path: Path) -> None:
    # A bound edit is one action of two lines (expire revision 1, create revision 2): one
    # file, renamed into place whole. Removing it after the witness saw it is tampering.
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    before = action_files(folder)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")
    added = [p for p in action_files(folder) if p not in before]
    assert len(added) == 1
    raw = added[0].read_bytes().splitlines()
    assert len(raw) == 2 and json.loads(raw[0])["payload"]["continued"] is True
    added[0].unlink()
    read_only, fault = opened(folder)
    assert read_only and fault.startswith("JOURNAL_HEAD_MISMATCH")


def test_stray_temporary_files_are_removed_on_opening(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    strays = [
        folder / "dossiers" / D / "revisions" / ".ab.json.x1y2.tmp",
        folder / "journal" / ".00000009-ab.jsonl.x1y2.tmp",
        folder / ".principals.json.ab.tmp",
        folder / "projections" / ".p.json.q.tmp",
    ]
    (folder / "projections").mkdir(exist_ok=True)
    for p in strays:
        p.write_text("{half")
    assert opened(folder) == (False, None)
    assert not any(p.exists() for p in strays)


def test_two_writers_through_the_plain_constructor(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    journal = folder / "journal"
    with Workspace.open_folder(folder, clock=Clock()), pytest.raises(WorkspaceLockedError):
        Workspace(keyed_principals(), archive(), Clock(), journal)
    first = Workspace(keyed_principals(), archive(), Clock(), tmp_path / "plain.jsonl")
    with pytest.raises(WorkspaceLockedError):
        Workspace(keyed_principals(), archive(), Clock(), tmp_path / "plain.jsonl")
    first.close()
    Workspace(keyed_principals(), archive(), Clock(), tmp_path / "plain.jsonl").close()


def test_deleting_a_lock_file_lets_no_second_writer_in(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        for stale in folder.glob(".lock"):
            stale.unlink()
        with pytest.raises(WorkspaceLockedError):
            Workspace.open_folder(folder, clock=Clock())
        assert ws.check(D, 1, EVALUATOR).outcome.value == "applied"
    assert opened(folder) == (False, None)


def test_a_writer_that_ignores_the_lock_is_caught_before_the_next_append(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        rogue = action_files(folder)[-1]  # a rogue writer, no lock, adds an action file
        (folder / "journal" / f"{len(journal_lines(folder)):08d}-{'b' * 64}.jsonl").write_bytes(
            rogue.read_bytes()
        )
        r = ws.check(D, 1, EVALUATOR)
        assert r.outcome.value == "refused" and r.reason == "JOURNAL_WRITE_FAILED"
        assert ws.read_only and ws.journal_fault.startswith("JOURNAL_CONCURRENT_WRITE")
        assert ws.revision(D, 1)["state"] == "evidence_bound"
    assert len(list((folder / "dossiers" / D / "revisions").iterdir())) == 2  # import, bind


def test_a_replaced_journal_file_is_caught_before_the_next_append(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        import shutil

        journal = folder / "journal"
        shutil.copytree(journal, folder / "journal.copy")
        shutil.rmtree(journal)
        os.replace(folder / "journal.copy", journal)  # same files, another folder
        r = ws.attempt_operation("export_dataset", DECIDER, "x")
        assert r["decision"] == "denied" and "JOURNAL_CONCURRENT_WRITE" in r["journal_fault"]


# -- keys (10.2) -----------------------------------------------------------------------------
def test_a_principal_whose_key_is_not_here_cannot_act(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    elsewhere = KeyStore(tmp_path / "empty-store")
    before = journal_lines(folder)
    with Workspace.open_folder(folder, clock=Clock(), key_store=elsewhere) as ws:
        assert not ws.read_only  # reading and verifying need no private key
        r = ws.check(D, 1, EVALUATOR)
        assert (r.outcome.value, r.reason) == ("refused", "ACTOR_KEY_UNAVAILABLE")
        assert "not on this machine" in (ws.can_act(EVALUATOR) or "")
        from aa_review.core.dossier import Action, refusal_for

        assert refusal_for(ws, Action.CHECK, D, 1, EVALUATOR) == "ACTOR_KEY_UNAVAILABLE"
        assert "not_journaled" in ws.attempt_operation("export_dataset", DECIDER, "x")
        with pytest.raises(ProjectionError):
            ws.project(D, 1, DECIDER)
    assert journal_lines(folder) == before


def test_forget_witness_is_how_a_human_accepts_a_restored_journal(tmp_path: Path, capsys) -> None:
    import shutil

    folder = signed_workspace(tmp_path, upto="evidence_bound")
    shutil.copytree(folder, tmp_path / "backup")
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.check(D, 1, EVALUATOR)
    shutil.rmtree(folder)
    shutil.copytree(tmp_path / "backup", folder)  # restored from an older backup
    read_only, fault = opened(folder)
    assert read_only and fault.startswith("JOURNAL_HEAD_MISMATCH")
    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    args = parser.parse_args(["dossier", "forget-witness", str(folder / "journal")])
    assert args.func(args) == 0
    assert opened(folder) == (False, None)


def test_a_closed_workspace_writes_nothing(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    ws = Workspace.open_folder(folder, clock=Clock())
    ws.close()
    before = journal_lines(folder)
    with Workspace.open_folder(folder, clock=Clock()) as other:  # the lock is free again
        assert other.attempt_operation("export_dataset", DECIDER, "x")["decision"] == "denied"
    assert ws.check(D, 1, EVALUATOR).reason == "JOURNAL_WRITE_FAILED"
    assert len(journal_lines(folder)) == len(before) + 1 and opened(folder) == (False, None)
