"""Spec sections 8 (deferred-operation denial log) and 9 (public projection)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import Clock
from spec_fixture import AGENT, DECIDER, LEAD, MAINT, build
from test_conformance_freshness import EXPIRES
from test_conformance_lifecycle import D, to_state

from aa_review.core.dossier import (
    GATE_IDS,
    DossierState,
    ProjectionError,
    Workspace,
    build_projection,
    check_projection,
)

DEFERRED = (
    "resolve_training_credential",
    "export_dataset",
    "start_provider_job",
    "import_checkpoint",
    "change_routing",
)


# -- 8 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("state", [None, "draft", "independently_checked", "eligible"])
@pytest.mark.parametrize("actor", [LEAD, DECIDER, AGENT, "not-registered"])
def test_8_deferred_operations_are_denied_whatever_the_state_and_whoever_asks(
    make_ws: Callable[..., Workspace], state: str | None, actor: str
) -> None:
    ws = make_ws()
    if state is not None:
        to_state(ws, state)
    for op in DEFERRED:
        before = len(ws.journal_entries())
        r = ws.attempt_operation(op, actor, D)
        assert (r["decision"], r["reason_code"]) == (
            "denied",
            "OPERATION_DENIED_ACTIVATION_DEFERRED",
        )
        if actor == "not-registered":
            # 10.1: an entry in the name of a principal outside the registry would itself
            # fail verification, so the denial stands but is not journaled, and says so.
            assert r["not_journaled"].startswith("ACTOR_UNKNOWN")
            assert len(ws.journal_entries()) == before
        else:
            assert set(r) == {"decision", "reason_code"}
            assert len(ws.journal_entries()) == before + 1


@pytest.mark.parametrize("op", ["train_model", "export_dataset_now", "", "EXPORT_DATASET"])
def test_8_any_other_operation_name_is_denied_as_unregistered(
    make_ws: Callable[..., Workspace], op: str
) -> None:
    r = make_ws().attempt_operation(op, MAINT, "anything")
    assert r == {"decision": "denied", "reason_code": "OPERATION_DENIED_UNREGISTERED_OPERATION"}


def test_8_each_attempt_appends_operation_denied_with_op_target_reason_and_actor(
    make_ws: Callable[..., Workspace],
) -> None:
    ws = make_ws()
    ws.attempt_operation("start_provider_job", LEAD, "job-17")
    ws.attempt_operation("launch_rockets", AGENT, "pad-39a")
    entries = ws.journal_entries()
    assert [e["kind"] for e in entries] == ["operation_denied", "operation_denied"]
    # Section 8's payload, plus what 10.2 adds to every payload (the registry it was
    # written under) and, on the first entry only, the journal's genesis nonce.
    payloads = [e["payload"] for e in entries]
    assert all(p.pop("registry_digest").startswith("sha256:") for p in payloads)
    assert payloads[0].pop("journal_id")
    assert payloads == [
        {
            "op": "start_provider_job",
            "target": "job-17",
            "reason_code": "OPERATION_DENIED_ACTIVATION_DEFERRED",
        },
        {
            "op": "launch_rockets",
            "target": "pad-39a",
            "reason_code": "OPERATION_DENIED_UNREGISTERED_OPERATION",
        },
    ]
    assert [e["actor"]["principal_id"] for e in entries] == [LEAD, AGENT]


def test_8_the_denial_stands_when_the_journal_cannot_be_written(
    make_ws: Callable[..., Workspace], tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = build()
    ws = Workspace(v.principals, v.archive, clock, tmp_path / "journal.jsonl")

    def disk_full(*_a: Any, **_k: Any) -> None:
        raise OSError(28, "No space left on device")

    # Every append fails, as on a full disk (10.5: the writer holds the file itself, so
    # the journal cannot simply be pointed at a folder that does not exist).
    monkeypatch.setattr(type(ws.journal.file), "append", disk_full)
    r = ws.attempt_operation("export_dataset", DECIDER, "all-rows")
    assert r["decision"] == "denied"
    assert r["reason_code"] == "OPERATION_DENIED_ACTIVATION_DEFERRED"
    assert r.get("journal_fault"), "the app surfaces the journal fault"


# -- 9 ------------------------------------------------------------------------------------------
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
# Section 9's allowlist, plus the journal head that amended 10.3 puts in every projection.
KEYS = {
    "kind",
    "schema_version",
    "projection_id",
    "spec",
    "spec_revision",
    "activation",
    "outcome",
    "gates",
    "created_on",
    "journal_head",  # spec 9 with 10.3
    "signature",  # spec 9 with 10.5: the publisher's, naming no principal
}
PUBLIC_WORDS = {
    "TrainingReadinessPublicProjection",
    "SPEC-026",
    "deferred",
    "eligible",
    "expired",
    "pass",
    "fail",
    "unknown",
    *GATE_IDS,
}


def assert_allowlisted(p: dict[str, Any], outcome: str) -> None:
    assert set(p) == KEYS
    assert (p["kind"], p["schema_version"], p["spec"], p["spec_revision"], p["activation"]) == (
        "TrainingReadinessPublicProjection",
        1,
        "SPEC-026",
        1,
        "deferred",
    )
    assert p["outcome"] == outcome
    assert UUID4.fullmatch(p["projection_id"]) and uuid.UUID(p["projection_id"]).version == 4
    assert set(p["gates"]) == set(GATE_IDS)
    assert set(p["gates"].values()) <= {"pass", "fail", "unknown"}
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", p["created_on"])
    assert p["signature"] is None or re.fullmatch(r"ed25519:[A-Za-z0-9+/]{86}==", p["signature"])


def private_strings(*trees: Any) -> set[str]:
    """Every string value of the private trees (keys are the contract's own field names)."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.add(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for t in trees:
        walk(t)
    return out - PUBLIC_WORDS


def leaked(projection: dict[str, Any], private: set[str]) -> set[str]:
    """Private strings found in the serialized projection (docs/decisions.md: strings
    shorter than six characters are compared with whole JSON strings, longer ones as
    substrings; a one-letter private value would otherwise match every UUID)."""
    text = json.dumps(projection)
    tokens = set(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
    return {s for s in private if s in tokens or (len(s) >= 6 and s in text)}


@pytest.mark.parametrize("state", ["draft", "evidence_bound", "independently_checked"])
def test_9_only_a_final_revision_is_projected(
    make_ws: Callable[..., Workspace], tmp_path: Path, state: str
) -> None:
    out = tmp_path / "public"
    out.mkdir()
    ws = to_state(make_ws(projection_dir=out), state)
    before = ws.journal_entries()
    with pytest.raises(ProjectionError):
        ws.project(D, 1)
    assert list(out.iterdir()) == [] and ws.journal_entries() == before


def test_9_eligible_projection_is_the_allowlist_and_nothing_private(
    make_ws: Callable[..., Workspace], tmp_path: Path, clock: Clock
) -> None:
    out = tmp_path / "public"
    out.mkdir()
    v = build()
    ws = to_state(make_ws(v, projection_dir=out), "eligible", v)
    p = ws.project(D, 1)
    assert_allowlisted(p, "eligible")
    assert p["gates"] == dict.fromkeys(GATE_IDS, "pass")
    assert p["created_on"] == clock.now.strftime("%Y-%m-%d")
    private = private_strings(ws.revision(D, 1), v.archive, v.principals)
    assert {D, "pool-01", "o1", "exp-r0", "it-t1", "atom-art", LEAD} <= private
    assert leaked(p, private) == set()
    # Written to a fresh file named by the projection id, and journaled.
    (written,) = list(out.iterdir())
    assert json.loads(written.read_text(encoding="utf-8")) == p
    last = ws.journal_entries()[-1]
    assert last["kind"] == "projection_published"
    assert p["projection_id"] in json.dumps(last["payload"])


def test_9_projection_ids_are_fresh_and_never_derived_from_private_ids(
    make_ws: Callable[..., Workspace],
) -> None:
    ws = to_state(make_ws(), "eligible")
    ids = {ws.project(D, 1)["projection_id"] for _ in range(5)}
    assert len(ids) == 5
    assert D not in "".join(ids)


def test_9_deferred_projection_shows_the_last_checks_conclusions(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build([("ev", "license.license_id", "GPL-3.0")])
    ws = to_state(make_ws(v), "evidence_bound", v)
    ws.check(D, 1, "eval-cai")
    p = ws.project(D, 1)
    assert_allowlisted(p, "deferred")
    assert p["gates"] == {g: ("fail" if g == "G6" else "pass") for g in GATE_IDS}
    assert "G6_LICENSE_UNSUPPORTED" not in json.dumps(p)  # no reason codes (14.11)


def test_9_expired_projection_reports_every_gate_unknown(
    make_ws: Callable[..., Workspace], clock: Clock
) -> None:
    ws = to_state(make_ws(), "eligible")
    clock.now = EXPIRES + timedelta(days=3)
    p = ws.project(D, 1)
    assert_allowlisted(p, "expired")
    assert set(p["gates"].values()) == {"unknown"}


def test_9_without_a_check_every_gate_reads_unknown() -> None:
    p = build_projection(DossierState.DEFERRED, None, EXPIRES)
    assert_allowlisted(p, "deferred")
    assert set(p["gates"].values()) == {"unknown"}


def test_9_seeded_canary_a_private_string_in_the_output_writes_nothing(
    make_ws: Callable[..., Workspace], tmp_path: Path, clock: Clock
) -> None:
    # A private reference that happens to spell today's date would appear in created_on.
    today = clock.now.strftime("%Y-%m-%d")
    v = build([("ev", "target_behavior.description_ref", today)])
    out = tmp_path / "public"
    out.mkdir()
    ws = to_state(make_ws(v, projection_dir=out), "eligible", v)
    before = ws.journal_entries()
    with pytest.raises(ProjectionError) as err:
        ws.project(D, 1)
    assert err.value.reason_code == "PROJECTION_PRIVATE_VALUE_LEAK"
    assert list(out.iterdir()) == [] and ws.journal_entries() == before


@pytest.mark.parametrize(
    "change",
    [
        {"reason_codes": ["G6_LICENSE_UNSUPPORTED"]},
        {"gates": {"G1": "pass"}},
        {"outcome": "independently_checked"},
        {"projection_id": "dossier-spec-1"},
        {"gates": {**dict.fromkeys(GATE_IDS, "pass"), "G4": {"status": "pass"}}},
    ],
    ids=["extra-key", "missing-gates", "outcome", "derived-id", "nested-value"],
)
def test_9_anything_outside_the_allowlist_is_refused(change: dict[str, Any]) -> None:
    p = build_projection(DossierState.ELIGIBLE, None, EXPIRES)
    p.update(change)
    with pytest.raises(ProjectionError) as err:
        check_projection(p, set())
    assert err.value.reason_code == "PROJECTION_ALLOWLIST_VIOLATION"
