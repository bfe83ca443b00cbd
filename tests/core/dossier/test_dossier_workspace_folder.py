"""The workspace folder: layout, exclusive lock, persistence, read-only on a bad journal."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from dossier_builder import (
    AGENT,
    DECIDER,
    EVALUATOR,
    LEAD,
    archive,
    keyed_principals,
    passing,
    revision_file,
)

from aa_review.core.dossier import (
    JournalFolder,
    Workspace,
    WorkspaceError,
    WorkspaceLockedError,
    WorkspaceReadOnlyError,
    init_workspace_folder,
    json_digest,
)

D = "dos-7f3a9c"
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return init_workspace_folder(tmp_path / "ws", keyed_principals(), archive())


def test_layout_and_persistence(folder: Path, clock) -> None:
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing())
        ws.bind(D, 1, LEAD)
        ws.check(D, 1, EVALUATOR)
        ws.decide_eligible(D, 1, DECIDER)
        p = ws.project(D, 1)
        ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    registry = "registry/" + json_digest(keyed_principals()).split(":")[1] + ".json"
    actions = sorted(p.name for p in (folder / "journal").iterdir())
    # One file per action (import, bind, check, decide, project, the two-line bound edit),
    # each named by its first entry's seq and hash.
    assert len(actions) == 6 and all(n.endswith(".jsonl") for n in actions)
    assert [int(n.split("-")[0]) for n in actions] == [0, 1, 2, 3, 4, 5]
    contents = sorted(p.name for p in (folder / "dossiers" / D / "revisions").iterdir())
    # Every content a revision had, named by its digest, never rewritten.
    assert contents == sorted(
        {
            e["payload"]["revision_digest"].split(":")[1] + ".json"
            for e in JournalFolder(folder / "journal").read().entries
            if "revision_digest" in e["payload"]
        }
    )
    assert names == sorted(
        [
            "principals.json",
            "archive.json",
            "journal",
            *(f"journal/{n}" for n in actions),
            "dossiers",
            f"dossiers/{D}",
            f"dossiers/{D}/revisions",
            *(f"dossiers/{D}/revisions/{n}" for n in contents),
            "projections",
            f"projections/{p['projection_id']}.json",
            "registry",
            registry,
        ]
    )
    rev1 = json.loads(revision_file(folder, D, 1).read_text())
    assert rev1["state"] == "expired" and rev1["check"]["dossier_reason_codes"] == [
        "DOSSIER_EVIDENCE_CHANGED"
    ]
    with Workspace.open_folder(folder, clock=clock) as again:
        assert not again.read_only
        assert again.revisions(D) == [1, 2]
        assert again.revision(D, 1) == rev1
        assert again.bind(D, 2, LEAD).state_after == {"2": "evidence_bound"}
        assert again.verify_journal()["valid"]


def test_second_workspace_on_the_same_folder_is_refused(folder: Path, clock) -> None:
    first = Workspace.open_folder(folder, clock=clock)
    with pytest.raises(WorkspaceLockedError) as info:
        Workspace.open_folder(folder, clock=clock)
    assert str(folder.resolve()) in str(info.value)
    first.close()
    second = Workspace.open_folder(folder, clock=clock)  # released on close
    second.close()
    second.close()  # idempotent


def test_another_process_is_refused(folder: Path, clock) -> None:
    code = textwrap.dedent(f"""
        import sys
        from aa_review.core.dossier import Workspace, WorkspaceLockedError
        try:
            Workspace.open_folder({str(folder)!r})
        except WorkspaceLockedError as exc:
            print(exc)
            sys.exit(3)
        sys.exit(0)
    """)
    with Workspace.open_folder(folder, clock=clock):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 3 and str(folder.resolve()) in out.stdout
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0


def test_missing_or_broken_files(tmp_path: Path, folder: Path, clock) -> None:
    with pytest.raises(WorkspaceError, match="is not a folder"):
        Workspace.open_folder(tmp_path / "nowhere", clock=clock)
    # 10.5: a workspace file it cannot use makes the workspace open read-only with its
    # reason; closing releases the lock.
    (folder / "archive.json").write_text("{not json")
    with Workspace.open_folder(folder, clock=clock) as ws:
        assert ws.read_only and "archive.json cannot be read" in ws.journal_fault
    (folder / "archive.json").unlink()
    with Workspace.open_folder(folder, clock=clock) as ws:
        assert ws.read_only and "archive.json is missing" in ws.journal_fault
    (folder / "archive.json").write_text(json.dumps(archive()))
    with Workspace.open_folder(folder, clock=clock) as ws:
        assert not ws.read_only


def test_tampered_journal_opens_read_only(folder: Path, clock) -> None:
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing())
        ws.bind(D, 1, LEAD)
    journal = sorted((folder / "journal").iterdir())[0]
    journal.write_text(journal.read_text().replace(LEAD, "p-lead-bo", 1))
    with Workspace.open_folder(folder, clock=clock) as ws:
        # The first occurrence is the author named in the import entry.
        assert ws.read_only and ws.journal_fault == "JOURNAL_ENTRY_HASH_MISMATCH at seq 0"
        with pytest.raises(WorkspaceReadOnlyError):
            ws.import_dossier(dict(passing(), revision=2))
        assert ws.attempt_operation("export_dataset", AGENT, "x")["decision"] == "denied"
        # Nothing the journal does not verify is shown as a state (10.5): none here.
        assert ws.dossier_ids() == []


def test_revision_files_that_disagree_with_the_journal_open_read_only(folder: Path, clock) -> None:
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing())
        ws.bind(D, 1, LEAD)
    path = revision_file(folder, D, 1)
    tree = json.loads(path.read_text())
    tree["state"] = "eligible"  # edited behind the app's back
    path.write_text(json.dumps(tree))
    with Workspace.open_folder(folder, clock=clock) as ws:
        assert ws.read_only and ws.journal_fault.startswith("JOURNAL_STATE_MISMATCH")
        assert path.name in ws.journal_fault and "tampered" in ws.journal_fault
        # Never shown as the verdict: the edited file is not the revision.
        assert D not in ws.dossier_ids()


def test_no_temporary_files_are_left_behind(folder: Path, clock) -> None:
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing())
        for _ in range(3):
            ws.edit_evidence(D, 1, LEAD, ["budgets", "compute", "amount"], 1)
    assert not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def test_unsafe_dossier_ids_get_a_hashed_folder(folder: Path, clock) -> None:
    tree = dict(passing(), dossier_id="../../etc/evil id")
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(tree)
    subdirs = [p.name for p in (folder / "dossiers").iterdir()]
    assert len(subdirs) == 1 and subdirs[0].startswith("id-")
    assert not (folder.parent / "etc").exists()
    with Workspace.open_folder(folder, clock=clock) as ws:
        assert ws.dossier_ids() == ["../../etc/evil id"]


def test_reload_archive(folder: Path, clock) -> None:
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(passing())
        ws.bind(D, 1, LEAD)
        changed = archive()
        changed["epochs"][2]["manifest_digest"] = "sha256:" + "9" * 64
        (folder / "archive.json").write_text(json.dumps(changed))
        assert ws.freshness(D, 1).expiring == ()
        ws.reload_archive()
        assert ws.freshness(D, 1).expiring == ("DOSSIER_EPOCH_CHANGED",)
