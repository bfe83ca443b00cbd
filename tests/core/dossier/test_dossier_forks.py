"""Forks of a shared workspace (`JOURNAL_FORKED`, spec 10.6) and the move from the former layout.

Two copies of one workspace folder stand for two clones: an action file copied from
one into the other is what a merge brings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from dossier_builder import DECIDER, EVALUATOR, LEAD, Clock, archive, keyed_principals, passing

from aa_review.core.dossier import (
    ForkResolutionError,
    Workspace,
    init_workspace_folder,
    json_digest,
)
from aa_review.core.dossier._storage import FolderStore
from aa_review.core.dossier._witness import WitnessStore

D = "dos-7f3a9c"


def open_clone(folder: Path, clock: Clock) -> Workspace:
    """Each clone is another person's: a witness store of its own (keys are shared here)."""
    return Workspace.open_folder(
        folder, clock=clock, witness_store=WitnessStore(folder.parent / f"witness-{folder.name}")
    )


def action_files(folder: Path) -> set[str]:
    return {p.name for p in (folder / "journal").iterdir()}


@pytest.fixture
def clones(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one workspace holding an imported draft."""
    a = init_workspace_folder(tmp_path / "a", keyed_principals(), archive())
    with open_clone(a, Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
    b = tmp_path / "b"
    shutil.copytree(a, b)
    return a, b


def merge(into: Path, other: Path) -> None:
    """What a git merge brings: the other clone's new files (none is changed in place)."""
    for p in other.rglob("*"):
        target = into / p.relative_to(other)
        if p.is_dir():
            target.mkdir(exist_ok=True)
        elif not target.exists():
            shutil.copy2(p, target)
        else:
            assert target.read_bytes() == p.read_bytes(), f"{target} differs: not mergeable"


def fork(clones: tuple[Path, Path], at_a: Clock, at_b: Clock) -> tuple[str, str]:
    """Ada binds in clone a, and in clone b an agent-free step by the same head: a
    denied operation by the decider; b is then merged into a. Returns both first hashes."""
    a, b = clones
    before = action_files(a)
    with open_clone(a, at_a) as ws:
        assert ws.bind(D, 1, LEAD).outcome.value == "applied"
    with open_clone(b, at_b) as ws:
        assert ws.attempt_operation("export_dataset", DECIDER, D)["decision"] == "denied"
    (mine,) = action_files(a) - before
    (theirs,) = action_files(b) - before
    merge(a, b)
    merge(b, a)
    return mine, theirs


def test_the_earlier_action_is_kept_in_every_clone(clones: tuple[Path, Path]) -> None:
    later = Clock()
    later.advance(minutes=5)
    _, theirs = fork(clones, Clock(), later)  # the bind came first
    views = []
    for folder in clones:
        with open_clone(folder, Clock()) as ws:
            assert not ws.read_only, ws.journal_fault
            assert ws.revision(D, 1)["state"] == "evidence_bound"
            na = ws.not_applied()
            assert [(n["file"], n["author"], n["kind"]) for n in na] == [
                (f"journal/{theirs}", DECIDER, "operation_denied")
            ]
            views.append(([e["entry_hash"] for e in ws.journal_entries()], na))
    assert views[0] == views[1]


def test_a_tie_in_time_keeps_the_lower_entry_hash(clones: tuple[Path, Path]) -> None:
    mine, theirs = fork(clones, Clock(), Clock())  # the same instant
    kept = min(mine, theirs, key=lambda n: n.split("-", 1)[1])
    with open_clone(clones[0], Clock()) as ws:
        assert ws.journal_entries()[-1]["entry_hash"].split(":")[1] in kept
        assert ws.not_applied()[0]["file"] == f"journal/{({mine, theirs} - {kept}).pop()}"


def test_only_the_author_withdraws_and_a_withdrawal_is_kept(clones: tuple[Path, Path]) -> None:
    later = Clock()
    later.advance(minutes=5)
    fork(clones, Clock(), later)
    a, _ = clones
    with open_clone(a, later) as ws:
        (na,) = ws.not_applied()
        with pytest.raises(ForkResolutionError, match="NOT_APPLIED_NOT_AUTHOR"):
            ws.withdraw(na["entry_hash"], LEAD)
        entry = ws.withdraw(na["entry_hash"], DECIDER)
        assert entry["kind"] == "withdrawn" and entry["payload"]["withdraws"] == na["entry_hash"]
        with pytest.raises(ForkResolutionError, match="NOT_APPLIED_RESOLVED"):
            ws.redo(na["entry_hash"], DECIDER)
    with open_clone(a, later) as ws:
        assert not ws.read_only, ws.journal_fault
        (again,) = ws.not_applied()  # still there, never deleted
        assert (again["status"], again["resolved_by"]) == ("withdrawn", entry["entry_hash"])


def test_a_redo_is_validated_against_the_kept_state(tmp_path: Path) -> None:
    # Both clones bind the same draft: the later bind cannot be redone (already bound).
    a = init_workspace_folder(tmp_path / "a", keyed_principals(), archive())
    with open_clone(a, Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
    b = tmp_path / "b"
    shutil.copytree(a, b)
    later = Clock()
    later.advance(minutes=5)
    with open_clone(a, Clock()) as ws:
        ws.bind(D, 1, LEAD)
    with open_clone(b, later) as ws:
        ws.bind(D, 1, LEAD)
    merge(b, a)
    with open_clone(b, later) as ws:
        assert not ws.read_only, ws.journal_fault  # b's witnessed head is on the lost branch
        (na,) = ws.not_applied()
        r = ws.redo(na["entry_hash"], LEAD)
        assert r.outcome.value == "refused"
        assert ws.not_applied()[0]["status"] == "not_applied"  # still to withdraw
        ws.withdraw(na["entry_hash"], LEAD)
        assert ws.not_applied()[0]["status"] == "withdrawn"


def test_a_forged_not_applied_action_opens_read_only(clones: tuple[Path, Path]) -> None:
    later = Clock()
    later.advance(minutes=5)
    _, theirs = fork(clones, Clock(), later)
    a, _ = clones
    path = a / "journal" / theirs
    e = json.loads(path.read_text())
    e["signature"] = "ed25519:" + "A" * 86 + "=="
    path.write_text(json.dumps(e, separators=(",", ":"), sort_keys=True) + "\n")
    with open_clone(a, later) as ws:
        assert ws.read_only and f"journal/{theirs}" in ws.journal_fault, ws.journal_fault


def test_what_arrived_names_who_and_which_key(clones: tuple[Path, Path]) -> None:
    a, b = clones
    with open_clone(b, Clock()) as ws:
        assert [x["kind"] for x in ws.arrived()] == ["imported"]  # b's first opening
        ws.bind(D, 1, LEAD)
        ws.check(D, 1, EVALUATOR)
    merge(a, b)
    with open_clone(a, Clock()) as ws:
        arrived = ws.arrived()
        assert [(x["actor"], x["action"], x["signature"]) for x in arrived] == [
            (LEAD, "bind", "valid"),
            (EVALUATOR, "check", "valid"),
        ]
        keys = {p.principal_id: p.public_key for p in ws.principals}
        assert arrived[1]["public_key"] == keys[EVALUATOR]
    with open_clone(a, Clock()) as ws:
        assert ws.arrived() == []  # witnessed now


# -- the former layout ------------------------------------------------------------------------
def legacy(folder: Path) -> dict[str, bytes]:
    """Turn a workspace folder into the former layout: journal.jsonl and rev-N.json."""
    from aa_review.core.dossier import JournalFolder

    entries = JournalFolder(folder / "journal").read().entries
    (folder / "journal.jsonl").write_bytes(
        b"".join(p.read_bytes() for p in sorted((folder / "journal").iterdir()))
    )
    shutil.rmtree(folder / "journal")
    store, latest = FolderStore(folder), {}
    for e in entries:
        if "revision_digest" in e["payload"]:
            latest[(e["dossier_id"], e["revision"])] = e["payload"]["revision_digest"]
    files = {}
    for (d, r), digest in latest.items():
        data = store.revision_file(d, digest).read_bytes()
        (store.dossier_dir(d) / f"rev-{r}.json").write_bytes(data)
        files[f"rev-{r}.json"] = data
    shutil.rmtree(store.dossier_dir(D) / "revisions")
    return files


def test_a_workspace_of_the_former_layout_moves_on_opening(tmp_path: Path) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        ws.bind(D, 1, LEAD)
        ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")  # a two-line action
        hashes = [e["entry_hash"] for e in ws.journal_entries()]
    old = (folder / "journal.jsonl").read_bytes() if (folder / "journal.jsonl").exists() else None
    assert old is None
    files = legacy(folder)
    old = (folder / "journal.jsonl").read_bytes()
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert not ws.read_only, ws.journal_fault
        assert [e["entry_hash"] for e in ws.journal_entries()] == hashes
        assert ws.revision(D, 1)["state"] == "expired" and ws.revision(D, 2)["state"] == "draft"
        assert ws.bind(D, 2, LEAD).outcome.value == "applied"  # writable
    assert len(action_files(folder)) == 4  # import, bind, the edit (two lines), bind
    assert (folder / "journal.jsonl.migrated").read_bytes() == old  # nothing lost
    for name, data in files.items():
        assert (folder / "dossiers" / D / name).read_bytes() == data


def test_a_tampered_revision_of_the_former_layout_stays_tampered(tmp_path: Path) -> None:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        ws.bind(D, 1, LEAD)
    legacy(folder)
    rev = folder / "dossiers" / D / "rev-1.json"
    tree = json.loads(rev.read_text())
    tree["state"] = "eligible"
    rev.write_text(json.dumps(tree))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only and ws.journal_fault.startswith("WORKSPACE_FILE_MISSING")
        assert D not in ws.dossier_ids()
    assert FolderStore(folder).revision_file(D, json_digest(tree)).exists()  # kept, unused
