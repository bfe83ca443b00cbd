"""Public projection (spec 9): allowlist only, no private value, fresh random id, journaled."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import DECIDER, EVALUATOR, LEAD, archive, load, passing, principals

from aa_review.core.dossier import (
    GATE_IDS,
    PUBLIC_KEYS,
    DossierState,
    ProjectionError,
    Workspace,
    build_projection,
    check_projection,
)
from aa_review.core.dossier._projection import private_strings

D = "dos-7f3a9c"
ALLOWED_STRINGS = {
    "TrainingReadinessPublicProjection",
    "SPEC-026",
    "deferred",
    "eligible",
    "expired",
    "pass",
    "fail",
    "unknown",
    *PUBLIC_KEYS,
    *GATE_IDS,
}


def every_string(*trees: Any) -> set[str]:
    out: set[str] = set()
    stack = list(trees)
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def assert_no_private_value(
    projection: dict[str, Any], ws: Workspace, dossier_id: str, revision: int
) -> None:
    # journal_head names the journal entry that holds the decision (spec 10.3): the one
    # digest and number beyond the constants, and it must be an entry of this journal.
    head = projection["journal_head"]
    assert (
        head is not None and ws.journal_entries()[head["seq"]]["entry_hash"] == (head["entry_hash"])
    )
    projection = {k: v for k, v in projection.items() if k != "journal_head"}
    text = json.dumps(projection, ensure_ascii=False)
    # Every value of the revision (evidence, binding, check record with its reason codes,
    # metrics and private detail), of the archive and of the principal registry.
    private = (
        every_string(ws.revision(dossier_id, revision), archive(), principals(), [dossier_id])
        - ALLOWED_STRINGS
    )
    assert len(private) > 300
    # Whole-token check for every private string, substring check for the longer ones.
    tokens = set(re.findall(r'"([^"]*)"', text))
    leaked = {s for s in private if s in tokens or (len(s) >= 4 and s in text)}
    assert leaked == set()
    numbers = re.findall(r"\d+(?:\.\d+)?", re.sub(r'"[^"]*"', '""', text))
    assert set(numbers) <= {"1"}  # schema_version and spec_revision only


def keys_recursive(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in keys_recursive(v)}
    return set()


def eligible(ws: Workspace, tree: dict[str, Any] | None = None) -> None:
    ws.import_dossier(tree or passing())
    ws.bind(D, 1, LEAD)
    ws.check(D, 1, EVALUATOR)
    assert ws.decide_eligible(D, 1, DECIDER).outcome.value == "applied"


def test_projection_of_an_eligible_revision(ws: Workspace) -> None:
    eligible(ws)
    head = ws.journal_head()
    p = ws.project(D, 1)
    assert set(p) == PUBLIC_KEYS
    assert keys_recursive(p) == PUBLIC_KEYS | set(GATE_IDS) | {"seq", "entry_hash"}
    assert p["journal_head"] == head  # the decision's head, before the publication entry
    assert p["outcome"] == "eligible" and p["activation"] == "deferred"
    assert p["gates"] == dict.fromkeys(GATE_IDS, "pass")
    assert p["created_on"] == "2026-03-01"
    assert uuid.UUID(p["projection_id"]).version == 4
    assert_no_private_value(p, ws, D, 1)
    entry = ws.journal_entries()[-1]
    assert entry["kind"] == "projection_published"
    assert {k: entry["payload"][k] for k in ("projection_id", "outcome")} == {
        "projection_id": p["projection_id"],
        "outcome": "eligible",
    }


def test_projection_ids_are_fresh_and_unrelated_to_private_ids(ws: Workspace) -> None:
    eligible(ws)
    ids = {ws.project(D, 1)["projection_id"] for _ in range(5)}
    assert len(ids) == 5
    assert not any(D in i or i in D for i in ids)


def test_failing_dossier_projects_conclusions_but_no_reason_codes(ws: Workspace) -> None:
    ws.import_dossier(load("dossier_failing_contaminated.json"))
    d = "dos-contam-51e0"
    ws.bind(d, 1, LEAD)
    ws.check(d, 1, EVALUATOR)
    p = ws.project(d, 1)
    assert p["outcome"] == "deferred" and p["gates"]["G9"] == "fail"
    text = json.dumps({k: v for k, v in p.items() if k != "journal_head"})
    for private in (
        "G9_CONTAMINATION_HIDDEN_ITEM",
        "item-cal-1",
        "cal-1",
        "sha256:",
        "pool-",
        "p-eval-cy",
        "obs-1",
        "exp-r0",
        "atom-1",
        "ep-2026",
        "id-trainer-svc",
    ):
        assert private not in text
    assert_no_private_value(p, ws, d, 1)


def test_expired_revision_projects_expired_with_unknown_gates(ws: Workspace) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    ws.edit_evidence(D, 1, LEAD, ["license", "license_id"], "MIT")
    p = ws.project(D, 1)
    assert p["outcome"] == "expired" and set(p["gates"].values()) == {"unknown"}


def test_a_stale_deferred_revision_is_expired_before_projecting(ws: Workspace, clock) -> None:
    ws.import_dossier(load("dossier_failing_underpowered.json"))
    d = "dos-weak-0c44"
    ws.bind(d, 1, LEAD)
    ws.check(d, 1, EVALUATOR)
    clock.advance(days=200)
    assert ws.project(d, 1)["outcome"] == "expired"
    assert ws.revision(d, 1)["state"] == "expired"


@pytest.mark.parametrize("state", ["draft", "evidence_bound", "independently_checked"])
def test_only_final_states_are_projected(ws: Workspace, state: str) -> None:
    ws.import_dossier(passing())
    if state != "draft":
        ws.bind(D, 1, LEAD)
    if state == "independently_checked":
        ws.check(D, 1, EVALUATOR)
    before = len(ws.journal_entries())
    with pytest.raises(ProjectionError) as info:
        ws.project(D, 1)
    assert info.value.reason_code == "PROJECTION_STATE_NOT_FINAL"
    assert len(ws.journal_entries()) == before


def test_allowlist_violations_are_refused() -> None:
    good = build_projection(DossierState.DEFERRED, None, datetime_now())
    assert set(good["gates"].values()) == {"unknown"}
    check_projection(good, set())
    for bad in (
        {**good, "dossier_id": "x"},
        {**good, "projection_id": "dos-7f3a9c"},
        {**good, "gates": {**good["gates"], "G1": "maybe"}},
        {**good, "outcome": "approved"},
        {**good, "schema_version": "1"},
        {k: v for k, v in good.items() if k != "created_on"},
    ):
        with pytest.raises(ProjectionError) as info:
            check_projection(bad, set())
        assert info.value.reason_code == "PROJECTION_ALLOWLIST_VIOLATION"


def test_seeded_canary_blocks_the_write(ws: Workspace, tmp_path: Path, monkeypatch) -> None:
    eligible(ws)
    projections = tmp_path / "projections"
    ws.store.projection_dir = projections
    canary = "CANARY-7f1e29"
    from aa_review.core.dossier import _workspace_acts

    real = _workspace_acts.build_projection

    def leaky(*a: Any, **k: Any) -> dict[str, Any]:
        p = real(*a, **k)
        p["created_on"] = canary  # as if a private value slipped into an allowed field
        return p

    monkeypatch.setattr(
        _workspace_acts, "private_strings", lambda *t: private_strings(*t) | {canary}
    )
    monkeypatch.setattr(_workspace_acts, "build_projection", leaky)
    before = len(ws.journal_entries())
    with pytest.raises(ProjectionError):
        ws.project(D, 1)
    assert not projections.exists() or list(projections.iterdir()) == []
    assert len(ws.journal_entries()) == before
    with pytest.raises(ProjectionError) as info:
        check_projection(
            {
                **real(DossierState.DEFERRED, None, datetime_now()),
                "projection_id": "8f1d2c34-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
            },
            {"8f1d2c34"},
        )
    assert info.value.reason_code == "PROJECTION_PRIVATE_VALUE_LEAK"


def test_projection_is_written_to_a_fresh_file(ws: Workspace, tmp_path: Path) -> None:
    eligible(ws)
    ws.store.projection_dir = tmp_path / "out"
    p = ws.project(D, 1)
    files = list((tmp_path / "out").iterdir())
    assert [f.name for f in files] == [f"{p['projection_id']}.json"]
    assert json.loads(files[0].read_text()) == p


def datetime_now():
    from dossier_builder import NOW

    return NOW


def test_private_detail_is_shown_to_the_evaluator_only(ws: Workspace) -> None:
    from dossier_builder import AGENT, SIGNER

    ws.import_dossier(load("dossier_failing_contaminated.json"))
    d = "dos-contam-51e0"
    ws.bind(d, 1, LEAD)
    ws.check(d, 1, EVALUATOR)
    full = ws.revision_for(d, 1, EVALUATOR)
    assert full["check"]["gates"]["G9"]["detail"]["hidden_items"] == ["item-cal-1"]
    assert full["evidence"]["effective_sample"]["groups"]
    for viewer in (LEAD, SIGNER, AGENT, "nobody"):
        view = ws.revision_for(d, 1, viewer)
        g9 = view["check"]["gates"]["G9"]
        assert g9["detail"] == {} and "G9_CONTAMINATION_HIDDEN_ITEM" in g9["reason_codes"]
        assert view["evidence"]["effective_sample"] == {"withheld": "evaluator_private"}
        assert "pool-00" not in json.dumps(view) and "item-cal-1" in json.dumps(view)
        # (the author's own training list still names the item; which one is hidden does not)
    assert ws.revision(d, 1) == full  # the stored revision is untouched


def test_a_training_side_identity_never_publishes_or_authorizes(ws: Workspace) -> None:
    from dossier_builder import SIGNER, DossierBuilder

    tree = (
        DossierBuilder()
        .set("evidence.independence_plan.search_controller_identity", SIGNER)
        .build()
    )
    ws.import_dossier(tree)
    r = ws.authorize_amendment(D, 1, SIGNER, "a.md", "sha256:" + "1" * 64)
    assert (r.outcome.value, r.reason) == ("refused", "SEPARATION_OF_DUTIES")
    ws.bind(D, 1, LEAD)
    ws.check(D, 1, EVALUATOR)
    ws.decide_eligible(D, 1, DECIDER)
    with pytest.raises(ProjectionError) as info:
        ws.project(D, 1, actor_id=SIGNER)
    assert info.value.reason_code == "PROJECTION_ACTOR_NOT_PERMITTED"
    assert ws.project(D, 1, actor_id=DECIDER)["outcome"] == "eligible"
    assert ws.journal_entries()[-1]["actor"]["principal_id"] == DECIDER
