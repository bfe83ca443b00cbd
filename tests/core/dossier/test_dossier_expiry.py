"""Freshness (spec 4): expiry by time, changed evidence, changed epoch manifest, changed package."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    DECIDER,
    EVALUATOR,
    LEAD,
    NOW,
    Clock,
    DossierBuilder,
    archive,
    load,
    passing,
)

from aa_review.core.dossier import (
    GATE_IDS,
    PackageState,
    Workspace,
    assess_freshness,
    inspect_packages,
    parse_archive,
    parse_dossier,
)
from aa_review.core.package.digest import package_digest

D = "dos-7f3a9c"


def assert_expired_record(result: Any, reason: str) -> None:
    assert result.outcome.value == "expired"
    assert result.reason == reason
    record = result.check_record
    assert reason in record.dossier_reason_codes and not record.eligible_if_decided
    for gid in GATE_IDS:
        assert record.gates[gid].status.value == "unknown"
        assert record.gates[gid].reason_codes == ("GATE_NOT_EVALUATED_DOSSIER_EXPIRED",)


def test_expiry_by_time(ws: Workspace, clock: Clock) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    clock.now = NOW.replace(month=6, day=1)  # exactly expires_at: still fresh
    assert ws.freshness(D, 1).expiring == ()
    clock.advance(seconds=1)
    r = ws.check(D, 1, EVALUATOR)
    assert_expired_record(r, "DOSSIER_EXPIRED_BY_TIME")
    assert ws.revision(D, 1)["state"] == "expired"
    assert ws.revision(D, 1)["check"] == r.check_record.to_json()


def test_a_draft_expires_by_time_when_binding(ws: Workspace, clock: Clock) -> None:
    ws.import_dossier(passing())
    clock.advance(days=200)
    assert_expired_record(ws.bind(D, 1, LEAD), "DOSSIER_EXPIRED_BY_TIME")


def test_expiry_by_changed_evidence(ws: Workspace) -> None:
    tree = load("dossier_evidence_bound.json")
    tree["evidence"]["budgets"]["compute"]["amount"] = 999_999  # after binding
    ref = ws.import_dossier(tree)
    r = ws.check(ref.dossier_id, 1, EVALUATOR)
    assert_expired_record(r, "DOSSIER_EVIDENCE_DIGEST_MISMATCH")
    assert r.check_record.gates["G3"].detail["changed_sections"] == ["budgets"]


def test_expiry_by_changed_epoch_manifest(ws: Workspace) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    newer = archive()
    newer["archive_snapshot_id"] = "snap-2026-03-01"  # a new snapshot alone changes nothing
    ws.update_archive(newer)
    assert ws.freshness(D, 1).reasons == ()
    newer["epochs"][2]["manifest_digest"] = "sha256:" + "f" * 64  # ep-2026 resealed
    ws.update_archive(newer)
    assert_expired_record(ws.check(D, 1, EVALUATOR), "DOSSIER_EPOCH_CHANGED")


def test_expiry_by_a_removed_epoch_after_the_check(ws: Workspace) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    ws.check(D, 1, EVALUATOR)
    gone = archive()
    gone["epochs"] = [e for e in gone["epochs"] if e["epoch_id"] != "ep-2025a"]
    ws.update_archive(gone)
    assert_expired_record(ws.decide_eligible(D, 1, DECIDER), "DOSSIER_EPOCH_CHANGED")


def test_every_rule_is_reported_without_short_circuit() -> None:
    tree = load("dossier_evidence_bound.json")
    tree["evidence"]["license"]["license_id"] = "MIT"
    arch = archive()
    arch["epochs"][0]["manifest_digest"] = "sha256:" + "e" * 64
    fresh = assess_freshness(parse_dossier(tree), parse_archive(arch), NOW.replace(year=2027), ())
    assert fresh.expiring == (
        "DOSSIER_EXPIRED_BY_TIME",
        "DOSSIER_EVIDENCE_DIGEST_MISMATCH",
        "DOSSIER_EPOCH_CHANGED",
    )
    assert fresh.changed_sections == ("license",)


def test_missing_expiry_and_epochs_block_but_do_not_expire() -> None:
    tree = (
        DossierBuilder()
        .delete("evidence.expiry")
        .set("evidence.epochs.evaluation_epochs", [])
        .build()
    )
    fresh = assess_freshness(parse_dossier(tree), parse_archive(archive()), NOW, ())
    assert fresh.expiring == ()
    assert fresh.blocking == ("DOSSIER_EXPIRY_MISSING", "DOSSIER_EPOCHS_MISSING")


def test_a_draft_with_a_changed_epoch_is_blocked_not_expired() -> None:
    arch = archive()
    arch["epochs"][1]["manifest_digest"] = "sha256:" + "d" * 64
    fresh = assess_freshness(parse_dossier(passing()), parse_archive(arch), NOW, ())
    assert fresh.expiring == () and fresh.blocking == ("DOSSIER_EPOCH_CHANGED",)


# -- bound compiled packages ------------------------------------------------------------------
@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "packages" / "pkg-1"
    (root / "experience_compiler").mkdir(parents=True)
    (root / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r1"}\n')
    (root / "README.md").write_text("tiny fake package\n")
    return root


def test_expiry_by_a_changed_bound_package(make_ws: Any, package: Path) -> None:
    ws = make_ws(package_locator={"pkg-1": package}.get, package_contamination=lambda root: [])
    tree = (
        DossierBuilder()
        .set(
            "evidence.source_packages",
            [{"package_id": "pkg-1", "package_digest": package_digest(package)}],
        )
        .build()
    )
    ws.import_dossier(tree)
    ws.bind(D, 1, LEAD)
    assert ws.freshness(D, 1).reasons == ()
    (package / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r2"}\n')
    r = ws.check(D, 1, EVALUATOR)
    assert_expired_record(r, "DOSSIER_PACKAGE_CHANGED:pkg-1")


def test_a_checked_package_that_vanishes_blocks_the_decision(make_ws: Any, package: Path) -> None:
    where = {"pkg-1": package}
    ws = make_ws(package_locator=where.get, package_contamination=lambda root: [])
    ws.import_dossier(
        DossierBuilder()
        .set(
            "evidence.source_packages",
            [{"package_id": "pkg-1", "package_digest": package_digest(package)}],
        )
        .build()
    )
    ws.bind(D, 1, LEAD)
    assert ws.check(D, 1, EVALUATOR).state_after == {"1": "independently_checked"}
    del where["pkg-1"]  # the package is no longer reachable here: not located, and
    package.rename(package.with_name("moved"))  # not in the folder it was bound from
    r = ws.decide_eligible(D, 1, DECIDER)
    assert (r.outcome.value, r.reason) == ("refused", "PRECONDITION_UNMET")
    package.with_name("moved").rename(package)
    where["pkg-1"] = package
    assert ws.decide_eligible(D, 1, DECIDER).outcome.value == "applied"


def test_package_inspection_states(package: Path) -> None:
    tree = (
        DossierBuilder()
        .set(
            "evidence.source_packages",
            [
                {"package_id": "pkg-1", "package_digest": package_digest(package)},
                {"package_id": "pkg-2", "package_digest": "sha256:" + "0" * 64},
                {"package_id": "pkg-3", "package_digest": "md5:abc"},
            ],
        )
        .build()
    )
    bound = parse_dossier(tree).model.evidence.source_packages
    states = [s.state for s in inspect_packages(bound, {"pkg-1": package}.get)]
    assert states == [PackageState.UNCHANGED, PackageState.UNRESOLVED, PackageState.INVALID]
    assert {s.state for s in inspect_packages(bound[:2], None)} == {PackageState.UNVERIFIABLE}
    codes = [s.reason_code for s in inspect_packages(bound, {"pkg-1": package}.get)]
    assert codes == [
        None,
        "DOSSIER_PACKAGE_UNRESOLVED:pkg-2",
        "DOSSIER_PACKAGE_BINDING_INVALID:pkg-3",
    ]
