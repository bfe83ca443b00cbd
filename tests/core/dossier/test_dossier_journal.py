"""Journal verification (spec 10): sequence, chain, replay, separation of duties, anchor."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    AGENT,
    DECIDER,
    EVALUATOR,
    LEAD,
    NOW,
    archive,
    load,
    passing,
    principals,
)

from aa_review.core.dossier import (
    GENESIS_HASH,
    JournalFile,
    Workspace,
    entry_hash,
    make_entry,
    verify_journal,
)

D = "dos-7f3a9c"


@pytest.fixture(scope="module")
def journal_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A realistic journal: two dossiers through several transitions, a denial, a projection."""
    folder = tmp_path_factory.mktemp("journal")
    ws = Workspace(principals(), archive(), lambda: NOW, folder / "journal.jsonl")
    ws.import_dossier(passing())
    ws.bind(D, 1, AGENT)  # refused
    ws.bind(D, 1, LEAD)
    ws.check(D, 1, EVALUATOR)
    ws.decide_eligible(D, 1, DECIDER)
    ws.attempt_operation("export_dataset", AGENT, D)
    ws.project(D, 1)
    ws.import_dossier(load("dossier_failing_underpowered.json"))
    ws.bind("dos-weak-0c44", 1, LEAD)
    ws.check("dos-weak-0c44", 1, EVALUATOR)  # auto-deferred
    ws.edit_evidence("dos-weak-0c44", 1, LEAD, ["license", "license_id"], "MIT")
    out = ws.journal_entries()
    assert len(out) == 13
    return folder / "journal.jsonl", out


@pytest.fixture
def entries(journal_once: tuple[Path, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A private copy of the shared journal's entries, free to tamper with."""
    return copy.deepcopy(journal_once[1])


def rechain(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute seq, prev_hash and entry_hash: what a forger with write access would do."""
    prev = GENESIS_HASH
    out = []
    for i, e in enumerate(entries):
        e = copy.deepcopy(e)
        e["seq"], e["prev_hash"] = i, prev
        e["entry_hash"] = entry_hash(e)
        prev = e["entry_hash"]
        out.append(e)
    return out


def test_valid_journal(entries: list[dict[str, Any]]) -> None:
    result = verify_journal(entries)
    assert result == {
        "valid": True,
        "entries": 13,
        "head": {"seq": 12, "entry_hash": entries[-1]["entry_hash"]},
    }
    assert entries[0]["prev_hash"] == "sha256:" + "0" * 64
    assert all(b["prev_hash"] == a["entry_hash"] for a, b in itertools.pairwise(entries))
    assert verify_journal([]) == {"valid": True, "entries": 0, "head": None}


def test_entry_format(
    entries: list[dict[str, Any]], journal_once: tuple[Path, list[dict[str, Any]]]
) -> None:
    lines = journal_once[0].read_bytes().splitlines()
    assert [json.loads(line) for line in lines] == entries
    assert (
        lines[0]
        == json.dumps(
            entries[0], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
    )  # one canonical entry per line
    for e in entries:
        assert set(e) == {
            "seq",
            "prev_hash",
            "at",
            "kind",
            "dossier_id",
            "revision",
            "actor",
            "from_state",
            "to_state",
            "payload",
            "entry_hash",
        }
        assert e["entry_hash"] == entry_hash(e)
        assert set(e["actor"]) == {"principal_id", "role"}


def test_tampered_payload(entries: list[dict[str, Any]]) -> None:
    entries[5]["payload"]["op"] = "harmless"
    assert verify_journal(entries) == {
        "valid": False,
        "first_bad_seq": 5,
        "reason": "JOURNAL_ENTRY_HASH_MISMATCH",
    }


def test_tampered_and_rehashed_entry_breaks_the_next_link(entries: list[dict[str, Any]]) -> None:
    entries[3]["actor"]["principal_id"] = "p-maint-eve"
    entries[3]["entry_hash"] = entry_hash(entries[3])
    assert verify_journal(entries) == {
        "valid": False,
        "first_bad_seq": 4,
        "reason": "JOURNAL_PREV_HASH_MISMATCH",
    }


def test_reordered_entries(entries: list[dict[str, Any]]) -> None:
    entries[6], entries[7] = entries[7], entries[6]
    assert verify_journal(entries) == {
        "valid": False,
        "first_bad_seq": 6,
        "reason": "JOURNAL_SEQ_GAP",
    }


def test_deleted_entry(entries: list[dict[str, Any]]) -> None:
    del entries[2]
    assert verify_journal(entries) == {
        "valid": False,
        "first_bad_seq": 2,
        "reason": "JOURNAL_SEQ_GAP",
    }


def test_deleted_entry_with_the_chain_rebuilt_is_an_illegal_transition(
    entries: list[dict[str, Any]],
) -> None:
    # Dropping the bind and re-chaining leaves a check from draft: the replay catches it.
    forged = rechain(entries[:2] + entries[3:])
    assert verify_journal(forged) == {
        "valid": False,
        "first_bad_seq": 2,
        "reason": "JOURNAL_ILLEGAL_TRANSITION",
    }


@pytest.mark.parametrize(
    ("seq", "field", "value"),
    [
        (3, "to_state", "eligible"),  # evidence_bound -> eligible is not in the table
        (4, "from_state", "evidence_bound"),  # does not start from the replayed state
        (2, "actor", {"principal_id": "p-agent-gus", "role": "agent"}),  # role not permitted
        (0, "to_state", "eligible"),  # imports arrive as draft or evidence_bound only
    ],
)
def test_illegal_transition(
    entries: list[dict[str, Any]], seq: int, field: str, value: Any
) -> None:
    entries[seq][field] = value
    assert verify_journal(rechain(entries)) == {
        "valid": False,
        "first_bad_seq": seq,
        "reason": "JOURNAL_ILLEGAL_TRANSITION",
    }


def test_an_entrys_own_claim_of_kind_is_not_what_is_checked(entries: list[dict[str, Any]]) -> None:
    """Whether a maintainer is human is the registry's to say (10.1), never the entry's:
    without a registry the replay checks the recorded role only (section 10, step 4);
    an agent posing as a human maintainer is caught against the registry
    (test_dossier_journal_tamper.py::test_role_not_held_and_agent_posing_as_human_maintainer)."""
    entries[4]["payload"]["actor_kind"] = "agent"
    assert verify_journal(rechain(entries))["valid"] is True
    entries[4]["actor"]["role"] = "agent"
    assert verify_journal(rechain(entries))["reason"] == "JOURNAL_ILLEGAL_TRANSITION"


def test_duplicate_import_is_illegal(entries: list[dict[str, Any]]) -> None:
    assert verify_journal(rechain([*entries, entries[0]]))["reason"] == (
        "JOURNAL_ILLEGAL_TRANSITION"
    )


@pytest.mark.parametrize(
    ("seq", "actor"),
    [
        (3, {"principal_id": LEAD, "role": "independent_evaluator"}),  # checker == binder
        (4, {"principal_id": EVALUATOR, "role": "human_maintainer"}),  # decider == checker
    ],
)
def test_separation_of_duties(entries: list[dict[str, Any]], seq: int, actor: dict) -> None:
    entries[seq]["actor"] = actor
    assert verify_journal(rechain(entries)) == {
        "valid": False,
        "first_bad_seq": seq,
        "reason": "JOURNAL_SEPARATION_OF_DUTIES",
    }


def test_anchor_detects_truncation_and_a_rewritten_head(entries: list[dict[str, Any]]) -> None:
    anchor = {"seq": 12, "entry_hash": entries[12]["entry_hash"]}
    assert verify_journal(entries, anchor)["valid"]
    # Cutting the tail leaves a valid chain that only the anchor can catch.
    assert verify_journal(entries[:10])["valid"]
    assert verify_journal(entries[:10], anchor) == {
        "valid": False,
        "first_bad_seq": 10,
        "reason": "JOURNAL_HEAD_MISMATCH",
    }
    # Replacing the last entry and re-chaining: valid chain, wrong head.
    forged = rechain([*entries[:12], entries[5]])
    assert verify_journal(forged)["valid"]
    assert verify_journal(forged, anchor) == {
        "valid": False,
        "first_bad_seq": 12,
        "reason": "JOURNAL_HEAD_MISMATCH",
    }


@pytest.mark.parametrize("bad", ["not json", 42, {"seq": 0}, None])
def test_malformed_entry(entries: list[dict[str, Any]], bad: Any) -> None:
    entries[7] = bad
    assert verify_journal(entries) == {
        "valid": False,
        "first_bad_seq": 7,
        "reason": "JOURNAL_ENTRY_MALFORMED",
    }


def test_file_round_trip_and_torn_tail(tmp_path: Path) -> None:
    jf = JournalFile(tmp_path / "j.jsonl")
    prev = GENESIS_HASH
    for i in range(3):
        e = make_entry(
            i,
            prev,
            "2026-03-01T00:00:00Z",
            "operation_denied",
            dossier_id=None,
            revision=None,
            actor={"principal_id": "a", "role": "agent"},
            payload={"op": "x", "target": "t", "reason_code": "R"},
        )
        jf.append(e)
        prev = e["entry_hash"]
    raw = jf.path.read_bytes()
    assert raw.count(b"\n") == 3 and json.loads(raw.splitlines()[0])["seq"] == 0
    with open(jf.path, "ab") as fh:
        fh.write(b'{"seq":3,"prev_hash":"sha')  # an append cut short
    read = jf.read()
    assert len(read.entries) == 3 and read.torn_tail.startswith(b'{"seq":3')
    assert verify_journal(read.entries)["valid"]
    jf.lock()
    jf.truncate(read.offsets[-1])
    jf.release()
    assert jf.path.read_bytes() == raw


def test_a_garbled_middle_line_is_reported(tmp_path: Path, ws: Workspace) -> None:
    ws.import_dossier(passing())
    ws.bind(D, 1, LEAD)
    path = tmp_path / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[0] = lines[0][:-5] + b"#####"
    path.write_bytes(b"\n".join(lines))
    assert verify_journal(JournalFile(path).read().entries) == {
        "valid": False,
        "first_bad_seq": 0,
        "reason": "JOURNAL_ENTRY_MALFORMED",
    }
