"""Bound packages: the caller's facts spare every re-hash, and what changed since binding.

The window holds the bound package and its audit: the workspace must take the
digest and the hidden citations from them, never hash or re-read that package.
At binding the workspace keeps a compact fingerprint (digest recorded in the
binding and the signed journal entry); when the package later differs, the diff
of that fingerprint against it says what changed, while the dossier-level reason
stays DOSSIER_PACKAGE_CHANGED (docs/decisions.md). Checked on generated pairs,
against what the generator records it changed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import revision_file

from aa_review.core import dossier as dz
from aa_review.core.audits import audit_package, contamination_rows
from aa_review.core.dossier import JournalFolder
from aa_review.core.package import open_package
from aa_review.core.package.digest import package_digest
from aa_review.core.session import ReviewSession, prepare_findings, prepare_package
from aa_review.core.session.dossier_hooks import DiffFingerprints
from aa_review.demo.sample import SAMPLE_DOSSIER_IDS, write_sample_workspace
from aa_review.generator import ChangeSpec, derive_package, generate_package

READY = SAMPLE_DOSSIER_IDS[0]
PID = "pkg_bound"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(tmp_path_factory.mktemp("src"), rows=40, seed=3, package_id=PID).root


@pytest.fixture
def bound(tmp_path: Path, source: Path) -> Path:
    root = tmp_path / "packages" / PID
    shutil.copytree(source, root, symlinks=True)
    return root


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every package the dossier core hashes, from now on."""
    seen: list[Path] = []
    real = dz._packages.package_digest
    monkeypatch.setattr(
        dz._packages,
        "package_digest",
        lambda root, *a, **k: seen.append(Path(root)) or real(root, *a, **k),
    )
    return seen


def workspace(folder: Path, bound: Path, facts: Any = None, **kw: Any) -> dz.Workspace:
    if not folder.exists():
        write_sample_workspace(folder, bound)
    return dz.Workspace.open_folder(folder, package_facts=facts, **kw)


# -- facts ------------------------------------------------------------------------------
def test_a_known_digest_is_never_hashed_again(
    tmp_path: Path, bound: Path, hashes: list[Path]
) -> None:
    facts = dz.PackageFacts(PID, bound, package_digest(bound), ())
    hashes.clear()
    with workspace(tmp_path / "ws", bound, lambda pid: facts) as ws:
        ws.bind(READY, 1, "p-lead-ada")
        assert ws.check(READY, 1, "p-eval-cy").state_after == {"1": "independently_checked"}
        for _ in range(3):
            dz.take_snapshot(ws, READY, 1)
    assert hashes == []


def test_an_unknown_digest_is_hashed_once_per_facts_value(
    tmp_path: Path, bound: Path, hashes: list[Path]
) -> None:
    held = {"facts": dz.PackageFacts(PID, bound, None, ())}
    with workspace(tmp_path / "ws", bound, lambda pid: held["facts"]) as ws:
        for _ in range(3):
            ws.package_status(READY, 1)
        assert hashes == [bound]
        held["facts"] = dz.PackageFacts(PID, bound, None, ())  # the package was reloaded
        ws.package_status(READY, 1)
        assert len(hashes) == 2
        ws.forget_package_facts()  # a deliberate re-verification
        assert ws.package_status(READY, 1)[0].state is dz.PackageState.UNCHANGED
        assert len(hashes) == 3


def test_known_hidden_rows_spare_the_contamination_hook(tmp_path: Path, bound: Path) -> None:
    asked: list[Path] = []

    def hook(root: Path) -> list[str]:
        asked.append(root)
        return []

    held = {"facts": dz.PackageFacts(PID, bound, package_digest(bound), ("row-x", "row-y"))}
    with workspace(
        tmp_path / "ws", bound, lambda pid: held["facts"], package_contamination=hook
    ) as ws:
        _, record = ws.evaluate_now(READY, 1, "p-eval-cy")
        g9 = record.gates["G9"]
        assert "G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE" in g9.reason_codes
        assert g9.detail["package_rows_citing_hidden_evidence"] == {PID: ["row-x", "row-y"]}
        assert asked == []
        # Rows unknown: the hook is asked, once for these facts.
        held["facts"] = dz.PackageFacts(PID, bound, package_digest(bound), None)
        for _ in range(2):
            assert ws.evaluate_now(READY, 1, "p-eval-cy")[1].gates["G9"].status.value == "pass"
        assert asked == [bound]


def test_facts_from_an_audit_match_what_the_workspace_would_compute(tmp_path: Path) -> None:
    root = generate_package(
        tmp_path, rows=50, seed=5, package_id="pkg_hidden", defects=["hidden_cited"]
    ).root
    pkg = open_package(root)
    review = ReviewSession()  # the one maker of the facts the window hands the dossier
    review.open(prepare_package(pkg))
    before = review.facts
    assert before is not None and before.digest is None and before.hidden_rows is None
    assert review.set_audit(prepare_findings(pkg, audit_package(pkg)))
    facts = review.facts
    assert facts is not None and facts is not before
    assert facts.digest == package_digest(root)
    assert facts.hidden_rows == tuple(contamination_rows(root)) and facts.hidden_rows
    assert facts.package is pkg


# -- fingerprints -------------------------------------------------------------------------
def _bind(folder: Path, bound: Path, hooks: Any = None) -> dict[str, Any]:
    facts = dz.PackageFacts(PID, bound, None, (), open_package(bound))
    with workspace(folder, bound, lambda pid: facts, fingerprint_hooks=hooks) as ws:
        assert ws.bind(READY, 1, "p-lead-ada").outcome.value == "applied"
        return ws.revision(READY, 1)


def _changed_in_place(bound: Path, later: Path) -> None:
    """The bound folder itself now holds the later version (a copy elsewhere would be
    another version, while the bound content is still where it was bound)."""
    shutil.rmtree(bound)
    shutil.copytree(later, bound, symlinks=True)


def _now_changed(folder: Path, root: Path) -> dz.Workspace:
    facts = dz.PackageFacts(PID, root, None, (), open_package(root))
    return workspace(folder, root, lambda pid: facts, fingerprint_hooks=DiffFingerprints())


def test_binding_keeps_a_compact_fingerprint_named_by_its_digest(
    tmp_path: Path, bound: Path
) -> None:
    rev = _bind(tmp_path / "ws", bound, DiffFingerprints())
    digest = rev["binding"]["package_fingerprints"][PID]
    hexd = digest.removeprefix("sha256:")
    kept = tmp_path / "ws" / "dossiers" / READY / "fingerprints" / f"{hexd}.npz"
    assert dz.bytes_digest(kept.read_bytes()) == digest
    size = sum(p.stat().st_size for p in bound.rglob("*") if p.is_file())
    assert kept.stat().st_size < size / 10  # a fingerprint, never a copy
    bind_entry = [
        e
        for e in JournalFolder(tmp_path / "ws" / "journal").read().entries
        if e["payload"].get("action") == "bind"
    ][-1]
    assert bind_entry["payload"]["package_fingerprints"] == {PID: digest}  # signed with it


def test_what_changed_since_binding_is_what_was_changed(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound, DiffFingerprints())
    made = derive_package(
        bound, tmp_path / "later", ChangeSpec(rows_changed=2, evidence_hidden=1), seed=9
    )
    _changed_in_place(bound, made.root)
    with _now_changed(tmp_path / "ws", made.root) as ws:
        assert ws.freshness(READY, 1).expiring == (f"DOSSIER_PACKAGE_CHANGED:{PID}",)
        (changes,) = ws.changes_since_binding(READY, 1)
        assert changes.status == "changed" and changes.package_id == PID
        rec = made.changes
        assert changes.summary["rows"]["changed"] == len(rec.rows_changed) == 2
        assert changes.summary["hidden_while_cited"] == rec.evidence_hidden
        text = "\n".join(changes.lines)
        assert all(rid in text for rid in rec.rows_changed)
        assert f"{rec.evidence_hidden[0]}" in changes.lines[0]  # the most severe first
        assert "hidden_excluded" in changes.lines[0]
        st = dz.panel_state(dz.take_snapshot(ws, READY, 1), "p-eval-cy")
        assert st.snapshot.changes == (changes,)
        # The check expires it for the spec's reason, not a new one.
        result = ws.check(READY, 1, "p-eval-cy")
        assert result.outcome.value == "expired" and result.reason.startswith(
            "DOSSIER_PACKAGE_CHANGED"
        )
        assert ws.changes_since_binding(READY, 1) == (changes,)  # still said once expired


def test_an_unchanged_package_has_no_changes(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound, DiffFingerprints())
    with _now_changed(tmp_path / "ws", bound) as ws:
        assert ws.changes_since_binding(READY, 1) == ()


def test_a_swapped_fingerprint_file_is_detected(tmp_path: Path, bound: Path) -> None:
    rev = _bind(tmp_path / "ws", bound, DiffFingerprints())
    digest = rev["binding"]["package_fingerprints"][PID]
    made = derive_package(bound, tmp_path / "later", ChangeSpec(rows_added=1), seed=2)
    _changed_in_place(bound, made.root)
    kept = (
        tmp_path
        / "ws"
        / "dossiers"
        / READY
        / "fingerprints"
        / f"{digest.removeprefix('sha256:')}.npz"
    )
    from aa_review.core.diff import fingerprint

    kept.write_bytes(fingerprint(open_package(made.root)).to_bytes())  # "nothing changed"
    with _now_changed(tmp_path / "ws", made.root) as ws:
        (changes,) = ws.changes_since_binding(READY, 1)
        assert changes.status == "fingerprint_altered" and not changes.lines
        assert "swapped or damaged" in changes.message
    kept.unlink()
    with _now_changed(tmp_path / "ws", made.root) as ws:
        assert ws.changes_since_binding(READY, 1)[0].status == "fingerprint_missing"


def test_without_hooks_nothing_is_kept_and_the_change_is_only_named(
    tmp_path: Path, bound: Path
) -> None:
    rev = _bind(tmp_path / "ws", bound, None)
    assert "package_fingerprints" not in rev["binding"]
    made = derive_package(bound, tmp_path / "later", ChangeSpec(rows_removed=1), seed=4)
    _changed_in_place(bound, made.root)
    with _now_changed(tmp_path / "ws", made.root) as ws:
        (changes,) = ws.changes_since_binding(READY, 1)
        assert changes.status == "no_fingerprint" and "cannot be said" in changes.message


def test_a_failing_fingerprint_does_not_stop_binding(tmp_path: Path, bound: Path) -> None:
    class Broken:
        def fingerprint(self, status: Any) -> bytes:
            raise OSError("disk full")

        def changes(self, data: bytes, status: Any) -> Any:
            raise AssertionError

    rev = _bind(tmp_path / "ws", bound, Broken())
    assert rev["state"] == "evidence_bound" and "package_fingerprints" not in rev["binding"]


def test_dossier_check_says_what_changed_since_binding(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound, DiffFingerprints())
    made = derive_package(bound, tmp_path / "later", ChangeSpec(rows_changed=1), seed=5)
    _changed_in_place(bound, made.root)
    rev_file = revision_file(tmp_path / "ws", READY, 1)
    cmd = [
        sys.executable,
        "-m",
        "aa_review",
        "dossier",
        "check",
        str(rev_file),
        "--archive",
        str(tmp_path / "ws" / "archive.json"),
        "--package",
        f"{PID}={made.root}",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "DOSSIER_PACKAGE_CHANGED" in proc.stdout
    assert f"{PID} changed since binding: rows: 1 changed" in proc.stdout
    assert next(iter(made.changes.rows_changed)) in proc.stdout
    as_json = subprocess.run([*cmd, "--json"], capture_output=True, text=True, timeout=300)
    record = json.loads(as_json.stdout)  # the data stays the CheckRecord
    assert (
        as_json.returncode == 1 and "gates" in record and "changed since binding" in as_json.stderr
    )


def test_dossier_check_refuses_a_swapped_fingerprint_file(tmp_path: Path, bound: Path) -> None:
    """A fingerprint file given with --fingerprint that is not the one the binding names
    (here: one of the changed package, which would say nothing changed) is not used."""
    from aa_review.core.diff import fingerprint

    _bind(tmp_path / "ws", bound, DiffFingerprints())
    made = derive_package(bound, tmp_path / "later", ChangeSpec(rows_changed=1), seed=5)
    _changed_in_place(bound, made.root)
    swapped = tmp_path / "swapped.npz"
    swapped.write_bytes(fingerprint(open_package(made.root)).to_bytes())
    rev_file = revision_file(tmp_path / "ws", READY, 1)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "aa_review",
            "dossier",
            "check",
            str(rev_file),
            "--archive",
            str(tmp_path / "ws" / "archive.json"),
            "--package",
            f"{PID}={made.root}",
            "--fingerprint",
            f"{PID}={swapped}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert "DOSSIER_PACKAGE_CHANGED" in proc.stdout and "swapped or damaged" in proc.stdout
    assert "rows: 1 changed" not in proc.stdout


# -- the bound package is the bound content (issue 23, item 4) ---------------------------
def _other_version(bound: Path, tmp_path: Path, seed: int = 7) -> Path:
    """A changed copy of the bound package in another folder (a compare target, say)."""
    return derive_package(bound, tmp_path / "other", ChangeSpec(rows_changed=1), seed=seed).root


def test_binding_records_the_folder_the_bound_content_was_found_in(
    tmp_path: Path, bound: Path
) -> None:
    rev = _bind(tmp_path / "ws", bound)
    assert rev["binding"]["package_folders"] == {PID: str(bound.resolve())}


def test_another_version_open_is_not_the_bound_package(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound, DiffFingerprints())
    other = _other_version(bound, tmp_path)
    with _now_changed(tmp_path / "ws", other) as ws:
        (status,) = ws.package_status(READY, 1)
        assert status.state is dz.PackageState.UNCHANGED and status.root == bound.resolve()
        assert status.other_root == other and status.other_digest == package_digest(other)
        assert ws.freshness(READY, 1).expiring == ()  # never "changed since binding"
        assert ws.changes_since_binding(READY, 1) == ()
        snap = dz.take_snapshot(ws, READY, 1)
        assert snap.other_versions == (status,)
        # The check is of the bound content: it is not expired, and G9 reads that folder.
        result = ws.check(READY, 1, "p-eval-cy")
        assert result.outcome.value == "applied", result


def test_a_byte_identical_copy_elsewhere_is_the_bound_package(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound)
    moved = tmp_path / "moved" / PID
    shutil.copytree(bound, moved, symlinks=True)
    shutil.rmtree(bound)  # the folder recorded at binding is gone; its content is here
    with _now_changed(tmp_path / "ws", moved) as ws:
        (status,) = ws.package_status(READY, 1)
        assert status.state is dz.PackageState.UNCHANGED and status.root == moved
        assert status.other_root is None


def test_with_no_package_open_the_recorded_folder_is_checked(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound)
    with workspace(tmp_path / "ws", bound, None) as ws:  # no facts, no locator
        assert ws.package_status(READY, 1)[0].state is dz.PackageState.UNCHANGED
    _changed_in_place(bound, _other_version(bound, tmp_path))
    with workspace(tmp_path / "ws", bound, None) as ws:
        (status,) = ws.package_status(READY, 1)
        assert status.state is dz.PackageState.CHANGED and status.root == bound.resolve()


def test_dossier_check_names_the_other_version_and_where_the_bound_one_is(
    tmp_path: Path, bound: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from aa_review.cli import main

    _bind(tmp_path / "ws", bound)
    other = _other_version(bound, tmp_path)
    rev_file = revision_file(tmp_path / "ws", READY, 1)
    args = ["dossier", "check", str(rev_file), "--archive", str(tmp_path / "ws" / "archive.json")]
    code = main([*args, "--package", f"{PID}={other}"])
    out = capsys.readouterr().out
    assert "DOSSIER_PACKAGE_CHANGED" not in out and "\nchanged " not in out
    assert code == 0 and "eligible if decided" in out  # the bound content passes
    assert f"{other} is another version" in out
    assert f"the bound one is at {bound.resolve()}, unchanged since binding" in out


def test_a_step_hashes_the_recorded_folder_again(tmp_path: Path, bound: Path) -> None:
    _bind(tmp_path / "ws", bound)
    with workspace(tmp_path / "ws", bound, None) as ws:  # nothing open: the recorded folder
        assert ws.package_status(READY, 1)[0].state is dz.PackageState.UNCHANGED  # remembered
        _changed_in_place(bound, _other_version(bound, tmp_path))
        result = ws.check(READY, 1, "p-eval-cy")  # not decided by the remembered digest
        assert result.outcome.value == "expired" and result.reason.startswith(
            "DOSSIER_PACKAGE_CHANGED"
        )
