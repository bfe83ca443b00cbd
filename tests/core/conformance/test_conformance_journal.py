"""Spec section 10, base rules: seq, prev_hash, entry_hash, replay, separation of duties,
anchor — through the public ``verify_journal(entries, anchor=None)``, without a registry.

Journals here are written by hand from the entry shape of section 10 (hashes with the
digest of 1.3), not by the workspace, so the verifier is checked against the spec.
Sections 10.1-10.5 are covered by their own tests (see docs/conformance.md).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Clock
from spec_fixture import DECIDER, EVAL, LEAD, MAINT, build, spec_digest
from test_conformance_lifecycle import D, to_state

from aa_review.core.dossier import Workspace, init_workspace_folder, verify_journal

ZERO = "sha256:" + "0" * 64
ROLES = {
    LEAD: "training_research_lead",
    EVAL: "independent_evaluator",
    MAINT: "human_maintainer",
    DECIDER: "human_maintainer",
    "reducer": "system_reducer",
}


def chain(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Number, link and hash entries exactly as section 10 says."""
    out: list[dict[str, Any]] = []
    prev = ZERO
    for i, row in enumerate(rows):
        e = {
            "seq": i,
            "prev_hash": prev,
            "at": f"2026-12-15T12:00:{i:02d}Z",
            "kind": row["kind"],
            "dossier_id": row.get("dossier_id", D),
            "revision": row.get("revision", 1),
            "actor": {"principal_id": row["by"], "role": row.get("role", ROLES.get(row["by"]))},
            "from_state": row.get("from"),
            "to_state": row.get("to"),
            "payload": row.get("payload", {}),
        }
        e["entry_hash"] = spec_digest(e)
        prev = e["entry_hash"]
        out.append(e)
    return out


def rehash(entries: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """Recompute hashes from ``start`` on (a forger who can write the file)."""
    out = copy.deepcopy(entries)
    for i in range(start, len(out)):
        out[i]["prev_hash"] = ZERO if i == 0 else out[i - 1]["entry_hash"]
        body = {k: v for k, v in out[i].items() if k != "entry_hash"}
        out[i]["entry_hash"] = spec_digest(body)
    return out


# The app's journal writer records the actor's kind with human-maintainer transitions;
# section 10 does not require it (see test_10_t5_verifies_without_an_actor_kind).
HUMAN = {"actor_kind": "human"}


def lifecycle(
    decider: str = DECIDER,
    checker: str = EVAL,
    binder: str = LEAD,
    checker_role: str | None = None,
    decider_role: str | None = None,
    t5_payload: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    return chain(
        [
            {
                "kind": "imported",
                "by": LEAD,
                "to": "draft",
                "payload": {"file_digest": spec_digest("file"), "signoffs": []},
            },
            {
                "kind": "transition",
                "by": binder,
                "role": "training_research_lead",
                "from": "draft",
                "to": "evidence_bound",
            },
            {
                "kind": "transition",
                "by": checker,
                "role": checker_role or "independent_evaluator",
                "from": "evidence_bound",
                "to": "independently_checked",
            },
            {
                "kind": "transition",
                "by": decider,
                "role": decider_role or "human_maintainer",
                "from": "independently_checked",
                "to": "eligible",
                "payload": HUMAN if t5_payload is None else t5_payload,
            },
            {
                "kind": "operation_denied",
                "by": LEAD,
                "dossier_id": None,
                "revision": None,
                "payload": {
                    "op": "export_dataset",
                    "target": "x",
                    "reason_code": "OPERATION_DENIED_ACTIVATION_DEFERRED",
                },
            },
            {
                "kind": "projection_published",
                "by": MAINT,
                "from": "eligible",
                "to": "eligible",
                "payload": {"projection_id": "0d8a3c1e-0000-4000-8000-000000000000"},
            },
        ]
    )


def test_10_a_journal_written_from_the_spec_verifies() -> None:
    entries = lifecycle()
    r = verify_journal(entries)
    assert r == {
        "valid": True,
        "entries": 6,
        "head": {"seq": 5, "entry_hash": entries[5]["entry_hash"]},
    }


def test_10_t5_verifies_without_an_actor_kind() -> None:
    assert verify_journal(lifecycle(t5_payload={}))["valid"] is True


def test_10_seq_must_equal_the_position() -> None:
    entries = lifecycle()
    gap = rehash([*entries[:2], *entries[3:]], 2)  # an entry removed from the middle
    assert verify_journal(gap) == {"valid": False, "first_bad_seq": 2, "reason": "JOURNAL_SEQ_GAP"}
    moved = copy.deepcopy(entries)
    moved[3]["seq"] = 4
    assert verify_journal(rehash(moved, 3))["reason"] == "JOURNAL_SEQ_GAP"


def test_10_prev_hash_links_to_the_previous_entry_and_genesis_is_zero() -> None:
    entries = lifecycle()
    bad = copy.deepcopy(entries)
    bad[4]["prev_hash"] = entries[2]["entry_hash"]
    bad[4]["entry_hash"] = spec_digest({k: v for k, v in bad[4].items() if k != "entry_hash"})
    assert verify_journal(bad) == {
        "valid": False,
        "first_bad_seq": 4,
        "reason": "JOURNAL_PREV_HASH_MISMATCH",
    }
    genesis = copy.deepcopy(entries)
    genesis[0]["prev_hash"] = "sha256:" + "1" * 64
    genesis = rehash(genesis, 0)
    genesis[0]["prev_hash"] = "sha256:" + "1" * 64  # rehash resets it; keep the bad one
    genesis[0]["entry_hash"] = spec_digest(
        {k: v for k, v in genesis[0].items() if k != "entry_hash"}
    )
    assert verify_journal(genesis)["reason"] == "JOURNAL_PREV_HASH_MISMATCH"
    assert verify_journal(genesis)["first_bad_seq"] == 0


def test_10_entry_hash_is_the_digest_of_the_entry_without_it() -> None:
    entries = lifecycle()
    edited = copy.deepcopy(entries)
    edited[4]["payload"]["target"] = "y"
    assert verify_journal(edited) == {
        "valid": False,
        "first_bad_seq": 4,
        "reason": "JOURNAL_ENTRY_HASH_MISMATCH",
    }


def test_10_checks_run_in_order_for_each_entry() -> None:
    entries = lifecycle()
    both = copy.deepcopy(entries)
    both[2]["seq"] = 7
    both[2]["payload"] = {"forged": True}  # wrong seq and wrong hash: seq is step 1
    assert verify_journal(both)["reason"] == "JOURNAL_SEQ_GAP"


@pytest.mark.parametrize(
    ("rows", "bad"),
    [
        # a transition that does not start from the replayed state
        (
            [
                {"kind": "imported", "by": LEAD, "to": "draft"},
                {
                    "kind": "transition",
                    "by": EVAL,
                    "from": "evidence_bound",
                    "to": "independently_checked",
                },
            ],
            1,
        ),
        # a transition not in the table
        (
            [
                {"kind": "imported", "by": LEAD, "to": "draft"},
                {
                    "kind": "transition",
                    "by": MAINT,
                    "from": "draft",
                    "to": "eligible",
                    "payload": HUMAN,
                },
            ],
            1,
        ),
        # the right step with a role the table does not permit
        (
            [
                {"kind": "imported", "by": LEAD, "to": "draft"},
                {"kind": "transition", "by": EVAL, "from": "draft", "to": "evidence_bound"},
            ],
            1,
        ),
        # imported twice: only a (dossier, revision) not seen before
        (
            [
                {"kind": "imported", "by": LEAD, "to": "draft"},
                {"kind": "imported", "by": LEAD, "to": "draft"},
            ],
            1,
        ),
        # a transition of a revision that was never imported or created
        ([{"kind": "transition", "by": LEAD, "from": "draft", "to": "evidence_bound"}], 0),
        # nothing moves an expired revision
        (
            [
                {"kind": "imported", "by": LEAD, "to": "draft"},
                {"kind": "transition", "by": "reducer", "from": "draft", "to": "expired"},
                {"kind": "transition", "by": LEAD, "from": "expired", "to": "evidence_bound"},
            ],
            2,
        ),
    ],
    ids=[
        "wrong-from-state",
        "not-in-table",
        "role-not-permitted",
        "imported-twice",
        "never-imported",
        "after-expired",
    ],
)
def test_10_replay_refuses_illegal_transitions(rows: list[dict[str, Any]], bad: int) -> None:
    assert verify_journal(chain(rows)) == {
        "valid": False,
        "first_bad_seq": bad,
        "reason": "JOURNAL_ILLEGAL_TRANSITION",
    }


def test_10_replay_accepts_reducer_steps_and_new_revisions() -> None:
    rows = [
        {"kind": "imported", "by": LEAD, "to": "draft"},
        {"kind": "transition", "by": LEAD, "from": "draft", "to": "evidence_bound"},
        {"kind": "transition", "by": EVAL, "from": "evidence_bound", "to": "independently_checked"},
        {"kind": "transition", "by": "reducer", "from": "independently_checked", "to": "deferred"},
        {"kind": "transition", "by": "reducer", "from": "deferred", "to": "expired"},
        {"kind": "transition", "by": LEAD, "revision": 2, "from": None, "to": "draft"},
        {
            "kind": "transition_refused",
            "by": EVAL,
            "from": "expired",
            "to": None,
            "payload": {"reason": "TRANSITION_ILLEGAL"},
        },
    ]
    assert verify_journal(chain(rows))["valid"] is True


@pytest.mark.parametrize(
    ("kw", "bad"),
    [
        ({"checker": LEAD, "checker_role": "independent_evaluator"}, 2),  # checker = binder
        ({"decider": EVAL, "decider_role": "human_maintainer"}, 3),  # decider = checker
        ({"decider": LEAD, "decider_role": "human_maintainer"}, 3),  # decider = binder
    ],
    ids=["checker-is-binder", "decider-is-checker", "decider-is-binder"],
)
def test_10_separation_of_duties(kw: dict[str, str], bad: int) -> None:
    assert verify_journal(lifecycle(**kw)) == {
        "valid": False,
        "first_bad_seq": bad,
        "reason": "JOURNAL_SEPARATION_OF_DUTIES",
    }


def test_10_anchor_detects_truncation_and_a_different_head() -> None:
    entries = lifecycle()
    anchor = {"seq": 5, "entry_hash": entries[5]["entry_hash"]}
    assert verify_journal(entries, anchor)["valid"] is True
    assert verify_journal(entries[:4])["valid"] is True  # a chain alone cannot tell
    cut = verify_journal(entries[:4], anchor)
    assert (cut["valid"], cut["reason"]) == (False, "JOURNAL_HEAD_MISMATCH")
    other = verify_journal(entries, {"seq": 3, "entry_hash": entries[2]["entry_hash"]})
    assert (other["valid"], other["reason"]) == (False, "JOURNAL_HEAD_MISMATCH")
    earlier = verify_journal(entries, {"seq": 3, "entry_hash": entries[3]["entry_hash"]})
    assert earlier["valid"] is True  # the journal reaches an older anchor with its hash


def test_10_the_workspaces_own_journal_verifies_and_its_head_is_an_anchor(
    make_ws: Callable[..., Workspace],
) -> None:
    ws = to_state(make_ws(), "eligible")
    ws.project(D, 1)
    ws.attempt_operation("change_routing", LEAD, "router")
    entries = ws.journal_entries()
    assert {e["kind"] for e in entries} == {
        "imported",
        "transition",
        "projection_published",
        "operation_denied",
    }
    head = ws.journal_head()
    r = verify_journal(entries, head)
    assert r["valid"] is True and r["head"] == head


def test_10_a_failed_verification_at_start_up_opens_read_only(tmp_path: Path, clock: Clock) -> None:
    from aa_review.demo.sample import keyed_principals

    v = build()
    # A workspace folder signs every entry (10.2): its principals get keys in the
    # test run's own key store.
    folder = init_workspace_folder(tmp_path / "ws", keyed_principals(v.principals), v.archive)
    with Workspace.open_folder(folder, clock=clock) as ws:
        ws.import_dossier(v.dossier)
        ws.attempt_operation("export_dataset", LEAD, "x")
    path = sorted((folder / "journal").iterdir())[1]  # the second action's file
    text = path.read_text(encoding="utf-8")
    assert '"target":"x"' in text
    path.write_text(text.replace('"target":"x"', '"target":"y"'), encoding="utf-8")
    with Workspace.open_folder(folder, clock=clock) as again:
        assert again.read_only is True
        r = again.bind(D, 1, LEAD)
        assert r.outcome.value == "refused"
        assert again.revision(D, 1)["state"] == "draft"
    assert path.read_text(encoding="utf-8") == text.replace('"target":"x"', '"target":"y"')
