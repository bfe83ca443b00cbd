"""Nothing on disk fakes a verdict (spec 10.5 as extended).

A staged projection is published only when it is the content its journal entry
records; every workspace file is opened as package files are (no symlink out of the
workspace, no FIFO or device, bounded sizes), and such a file makes the workspace
open read-only with its reason -- never a hang, never a traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from dossier_builder import (
    DECIDER,
    EVALUATOR,
    LEAD,
    Clock,
    archive,
    keyed_principals,
    passing,
    revision_file,
)

from aa_review.core.dossier import (
    JournalFolder,
    Workspace,
    WorkspaceError,
    WorkspaceReadOnlyError,
    init_workspace_folder,
    json_digest,
)

D = "dos-7f3a9c"


def build(tmp_path: Path, upto: str = "eligible") -> tuple[Path, dict | None]:
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())
    projection = None
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.import_dossier(passing(), LEAD)
        ws.bind(D, 1, LEAD)
        if upto == "eligible":
            ws.check(D, 1, EVALUATOR)
            assert ws.decide_eligible(D, 1, DECIDER).outcome.value == "applied"
            projection = ws.project(D, 1, DECIDER)
    return folder, projection


def opened(folder: Path) -> tuple[bool, str | None, list[str]]:
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        return ws.read_only, ws.journal_fault, ws.open_notes


# -- staged projections (10.5) ----------------------------------------------------------------
def test_a_planted_pending_projection_is_never_renamed_over_the_genuine_one(
    tmp_path: Path,
) -> None:
    folder, projection = build(tmp_path)
    assert projection is not None
    pid = projection["projection_id"]
    genuine = folder / "projections" / f"{pid}.json"
    before = genuine.read_bytes()
    planted = dict(json.loads(before), gates=dict.fromkeys(projection["gates"], "pass"))
    planted["outcome"] = "eligible"
    planted["created_on"] = "2099-01-01"
    (folder / "projections" / f"{pid}.pending.json").write_text(json.dumps(planted))
    read_only, fault, notes = opened(folder)
    assert (read_only, fault) == (False, None)
    assert genuine.read_bytes() == before  # not replaced
    assert not (folder / "projections" / f"{pid}.pending.json").exists()  # discarded
    assert any(n.startswith("JOURNAL_ENTRY_MALFORMED") and pid in n for n in notes)


def test_a_staged_projection_is_published_only_with_the_digest_its_entry_records(
    tmp_path: Path,
) -> None:
    folder, projection = build(tmp_path)
    assert projection is not None
    pid = projection["projection_id"]
    genuine = folder / "projections" / f"{pid}.json"
    entry = next(
        e
        for e in JournalFolder(folder / "journal").read().entries
        if e["kind"] == "projection_published"
    )
    assert entry["payload"]["projection_digest"] == json_digest(json.loads(genuine.read_text()))
    # A kill between the append and the rename: the staged file is the genuine one.
    os.replace(genuine, genuine.with_name(f"{pid}.pending.json"))
    assert opened(folder)[:2] == (False, None)
    assert json.loads(genuine.read_text()) == projection
    # The same window, but the staged file was swapped for another outcome.
    forged = dict(projection, outcome="deferred")
    genuine.unlink()
    genuine.with_name(f"{pid}.pending.json").write_text(json.dumps(forged))
    read_only, _, notes = opened(folder)
    assert not read_only and not genuine.exists() and len(notes) == 1


# -- revisions: the verified replay's, never a file's (10.5) ----------------------------------
def test_one_edited_line_of_a_revision_is_named_as_tampered_and_never_shown(
    tmp_path: Path,
) -> None:
    folder, _ = build(tmp_path, upto="evidence_bound")
    path = revision_file(folder, D, 1)
    text = path.read_text()
    assert '"state": "evidence_bound"' in text
    path.write_text(text.replace('"state": "evidence_bound"', '"state": "eligible"', 1))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only
        assert ws.journal_fault.startswith("JOURNAL_STATE_MISMATCH")
        assert path.relative_to(folder).as_posix() in ws.journal_fault
        assert D not in ws.dossier_ids()  # the edited state is shown nowhere


# -- files that are not regular files inside the workspace ------------------------------------
def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to("/dev/zero")


MAKERS = {"fifo": _fifo, "dev_zero": _dev_zero}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("how", ["fifo", "dev_zero", "link_out"])
def test_a_revision_file_that_is_not_a_regular_file_opens_read_only(
    tmp_path: Path, how: str
) -> None:
    folder, _ = build(tmp_path, upto="evidence_bound")
    path = revision_file(folder, D, 1)
    if how == "link_out":
        outside = tmp_path / "outside.json"
        outside.write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(outside)
    else:
        MAKERS[how](path)
    read_only, fault, _ = opened(folder)
    assert read_only and fault is not None
    assert fault.startswith("WORKSPACE_FILE_UNSAFE") and path.name in fault, fault


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("how", ["fifo", "dev_zero"])
def test_a_journal_file_that_is_not_a_regular_file_opens_read_only(
    tmp_path: Path, how: str
) -> None:
    folder, _ = build(tmp_path, upto="evidence_bound")
    last = sorted((folder / "journal").iterdir())[-1]
    MAKERS[how](last)
    read_only, fault, _ = opened(folder)
    assert read_only and fault is not None and f"journal/{last.name}" in fault, fault


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("name", ["principals.json", "archive.json"])
@pytest.mark.parametrize("how", ["fifo", "dev_zero"])
def test_registry_or_archive_that_is_not_a_regular_file_opens_read_only(
    tmp_path: Path, name: str, how: str
) -> None:
    # 10.5: "such a file makes the workspace open read-only with its reason".
    folder, _ = build(tmp_path, upto="evidence_bound")
    MAKERS[how](folder / name)
    before = _files(folder)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only
        assert ws.journal_fault.startswith(f"WORKSPACE_FILE_UNSAFE: {name}"), ws.journal_fault
        # The journal is still verified and shown as far as it can be.
        assert list(ws.revisions(D)) == [1]
        assert ws.standing(D, 1).state.value == "evidence_bound"
        with pytest.raises(WorkspaceReadOnlyError):
            ws.import_dossier(passing(), LEAD)
        assert ws.check(D, 1, EVALUATOR).outcome.value == "refused"
    assert _files(folder) == before  # nothing was written


def _files(folder: Path) -> dict[str, tuple[str, int]]:
    """Every entry of the folder: its kind and size (a FIFO is never opened)."""
    out: dict[str, tuple[str, int]] = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        kind = "dir" if p.is_dir() and not p.is_symlink() else "file"
        out[p.relative_to(folder).as_posix()] = (kind, 0 if kind == "dir" else st.st_size)
    return out


def test_an_archive_that_does_not_parse_opens_read_only_and_its_gates_are_unknown(
    tmp_path: Path,
) -> None:
    folder, _ = build(tmp_path, upto="evidence_bound")
    bad = archive()
    bad["groups"][0]["split"] = "holdout"
    (folder / "archive.json").write_text(json.dumps(bad))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only and "archive.json" in ws.journal_fault
        assert "groups[0].split" in ws.journal_fault
        fresh, record = ws.evaluate_now(D, 1, EVALUATOR)
    # The gates that read the archive are unknown, never judged against an empty one;
    # the epoch rule cannot be told either: it blocks, it expires nothing.
    assert not fresh.expires and "WORKSPACE_ARCHIVE_UNREADABLE" in fresh.blocking
    for gid in ("G1", "G3", "G4", "G9", "G10"):
        gate = record.gates[gid]
        assert gate.status.value == "unknown", (gid, gate.reason_codes)
        assert gate.reason_codes == ("WORKSPACE_ARCHIVE_UNREADABLE",)
    assert record.gates["G5"].status.value == "pass"  # reads no archive
    assert not record.eligible_if_decided


def test_a_registry_in_which_two_principals_share_a_key_opens_read_only(
    tmp_path: Path,
) -> None:
    folder, _ = build(tmp_path, upto="evidence_bound")
    tree = json.loads((folder / "principals.json").read_text())
    tree["principals"][1]["public_key"] = tree["principals"][0]["public_key"]
    (folder / "principals.json").write_text(json.dumps(tree))
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.read_only
        assert ws.journal_fault.startswith("WORKSPACE_FILE_UNREADABLE: principals.json")
        assert list(ws.revisions(D)) == [1]  # the journal's registry verifies what it shows


def test_a_folder_that_is_no_workspace_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(WorkspaceError, match="is not a workspace folder"):
        Workspace.open_folder(tmp_path / "empty", clock=Clock())
    assert list((tmp_path / "empty").iterdir()) == []  # nothing created


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_staged_projection_that_is_a_fifo_is_discarded(tmp_path: Path) -> None:
    folder, projection = build(tmp_path)
    assert projection is not None
    pid = projection["projection_id"]
    genuine = folder / "projections" / f"{pid}.json"
    genuine.unlink()
    os.mkfifo(genuine.with_name(f"{pid}.pending.json"))
    read_only, _, notes = opened(folder)
    assert not read_only and not genuine.exists() and len(notes) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_witness_file_that_is_a_fifo_opens_read_only(tmp_path: Path) -> None:
    from aa_review.core.dossier import WitnessStore

    folder, _ = build(tmp_path, upto="evidence_bound")
    genesis = JournalFolder(folder / "journal").read().entries[0]["entry_hash"]
    store = WitnessStore()
    record = store.folder / "journals" / f"{genesis.split(':')[1]}.json"
    assert record.is_file()
    saved = record.read_bytes()
    _fifo(record)
    try:
        read_only, fault, _ = opened(folder)
        assert read_only and fault.startswith("WITNESS_UNREADABLE"), fault
    finally:
        record.unlink()
        record.write_bytes(saved)
