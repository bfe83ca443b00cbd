"""PreviewCache: one evaluation per key; every input of the verdict changes the key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    AGENT_MAINTAINER,
    EVALUATOR,
    LEAD,
    SIGNER,
    Clock,
    DossierBuilder,
    archive,
    passing,
)

from aa_review.core.dossier import GATES, PreviewCache, Workspace, preview_check
from aa_review.core.package.digest import package_digest

D = "dos-7f3a9c"


@pytest.fixture
def g1_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Ids of the revisions G1 (the power simulation) was evaluated for, in order."""
    runs: list[str] = []
    g1 = GATES["G1"]

    def counted(ctx: Any) -> Any:
        runs.append(f"{ctx.parsed.model.dossier_id}@{ctx.parsed.model.revision}")
        return g1(ctx)

    monkeypatch.setitem(GATES, "G1", counted)
    return runs


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "packages" / "pkg-1"
    (root / "experience_compiler").mkdir(parents=True)
    (root / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r1"}\n')
    return root


def same_as_uncached(cache: PreviewCache, viewer: str, revision: int = 1) -> Any:
    """The cached preview, asserted equal to an evaluation from scratch; returns the record."""
    fresh, record = cache.preview(D, revision, viewer)
    ref_fresh, ref_record = preview_check(cache.ws, D, revision, viewer)
    assert fresh == ref_fresh
    assert record.to_json() == ref_record.to_json()
    return record


def test_another_viewer_or_a_later_second_reuses_the_evaluation(
    ws: Workspace, clock: Clock, g1_runs: list[str]
) -> None:
    ws.import_dossier(passing())
    cache = PreviewCache(ws)
    first = cache.preview(D, 1, LEAD)[1]
    assert g1_runs == [f"{D}@1"]
    clock.advance(minutes=5)
    _fresh, again = cache.preview(D, 1, EVALUATOR)
    assert g1_runs == [f"{D}@1"]  # nothing the verdict reads has changed
    assert again.checked_by == EVALUATOR and again.checked_at == "2026-03-01T00:05:00Z"
    assert again.gates == first.gates and again.eligible_if_decided
    same_as_uncached(cache, EVALUATOR)


def _edit_draft(ws: Workspace, **_: Any) -> None:
    ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "SYN-EVAL-ONLY-1.0")


def _bind(ws: Workspace, **_: Any) -> None:
    ws.bind(D, 1, LEAD)


def _refused(ws: Workspace, **_: Any) -> None:
    # Only the journal changes; the verdict cannot, but a changed journal is never trusted.
    assert ws.check(D, 1, EVALUATOR).outcome.value == "refused"


def _archive_observations(ws: Workspace, **_: Any) -> None:
    newer = archive()
    newer["failure_observations"] = []  # G3 rests on observations of the archive
    ws.update_archive(newer)


def _archive_epoch(ws: Workspace, **_: Any) -> None:
    newer = archive()
    newer["epochs"][2]["manifest_digest"] = "sha256:" + "f" * 64  # ep-2026 resealed
    ws.update_archive(newer)


@pytest.mark.parametrize(
    ("change", "verdict"),
    [
        (_edit_draft, {"G6": "fail"}),
        (_bind, {}),
        (_refused, {}),
        (_archive_observations, {"G3": "fail"}),
        (_archive_epoch, {}),
    ],
)
def test_each_change_of_an_input_reevaluates(
    ws: Workspace, g1_runs: list[str], change: Callable[..., None], verdict: dict[str, str]
) -> None:
    ws.import_dossier(passing())
    cache = PreviewCache(ws)
    assert cache.preview(D, 1, LEAD)[1].eligible_if_decided
    change(ws)
    before = len(g1_runs)
    record = cache.preview(D, 1, LEAD)[1]
    assert len(g1_runs) == before + 1
    for gid, status in verdict.items():
        assert record.gates[gid].status.value == status
    assert record.eligible_if_decided is (change in (_bind, _refused))
    same_as_uncached(cache, LEAD)


def test_the_authorization_outside_the_evidence_is_part_of_the_key(
    ws: Workspace, g1_runs: list[str]
) -> None:
    ws.import_dossier(DossierBuilder().set("authorization.principal_id", AGENT_MAINTAINER).build())
    cache = PreviewCache(ws)
    assert cache.preview(D, 1, LEAD)[1].gates["G8"].status.value == "fail"
    digest, key = ws.parsed(D, 1).evidence_digest, cache.key(D, 1)
    assert (
        ws.authorize_amendment(D, 1, SIGNER, "a.md", "sha256:" + "1" * 64).outcome.value
        == "applied"
    )
    assert ws.parsed(D, 1).evidence_digest == digest  # the evidence digest alone would miss it
    assert cache.key(D, 1).revision_digest != key.revision_digest  # journal head aside
    assert same_as_uncached(cache, LEAD).gates["G8"].status.value == "pass"


def test_time_reaches_the_verdict_only_through_expiry(
    ws: Workspace, clock: Clock, g1_runs: list[str]
) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    cache = PreviewCache(ws)
    cache.preview(D, 1, LEAD)
    clock.now = clock.now.replace(month=6, day=1)  # exactly expires_at: still fresh
    assert cache.preview(D, 1, LEAD)[1].eligible_if_decided and len(g1_runs) == 1
    clock.advance(seconds=1)
    fresh, record = cache.preview(D, 1, LEAD)
    assert fresh.expiring == ("DOSSIER_EXPIRED_BY_TIME",) and not record.eligible_if_decided
    assert {g.status.value for g in record.gates.values()} == {"unknown"}
    same_as_uncached(cache, LEAD)


@pytest.mark.parametrize("bound", [False, True])
def test_a_package_changed_on_disk_reevaluates(
    make_ws: Callable[..., Workspace], package: Path, g1_runs: list[str], bound: bool
) -> None:
    ws = make_ws(package_locator={"pkg-1": package}.get, package_contamination=lambda root: [])
    ws.import_dossier(
        DossierBuilder()
        .set(
            "evidence.source_packages",
            [{"package_id": "pkg-1", "package_digest": package_digest(package)}],
        )
        .build()
    )
    if bound:
        ws.bind(D, 1, LEAD)
    cache = PreviewCache(ws)
    assert cache.preview(D, 1, LEAD)[1].eligible_if_decided
    assert cache.preview(D, 1, EVALUATOR)[1].eligible_if_decided and len(g1_runs) == 1
    (package / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r2"}\n')
    fresh, record = cache.preview(D, 1, LEAD)
    assert "DOSSIER_PACKAGE_CHANGED:pkg-1" in fresh.reasons
    assert "DOSSIER_PACKAGE_CHANGED:pkg-1" in record.dossier_reason_codes
    assert not record.eligible_if_decided
    assert len(g1_runs) == (1 if bound else 2)  # an expiring revision runs no gate
    same_as_uncached(cache, LEAD)


def test_revisions_are_kept_apart_and_the_curve_follows_the_evidence(
    ws: Workspace, g1_runs: list[str]
) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    cache = PreviewCache(ws)
    cache.preview(D, 1, LEAD)
    curve = cache.power_curve(D, 1)
    assert curve is not None and cache.power_curve(D, 1) is curve
    r = ws.edit_evidence(D, 1, LEAD, ["power_analysis", "parameters", "clusters_per_arm"], 5)
    assert r.new_revision == 2
    new = same_as_uncached(cache, LEAD, revision=2)
    assert new.gates["G1"].status.value == "fail"
    assert ws.revision(D, 1)["state"] == "expired"  # T7: the journal and the state moved on
    same_as_uncached(cache, LEAD, revision=1)
    assert g1_runs == [f"{D}@1", f"{D}@2", f"{D}@2", f"{D}@1", f"{D}@1"]
    assert cache.power_curve(D, 2) is not curve
    assert cache.power_curve(D, 2).planned_clusters == 5  # type: ignore[union-attr]
