"""What verification trusts (spec 9, 10.5): signed projections as anchors, a readable registry.

A public projection is signed by its publisher over its canonical form without the
``signature`` key; as an anchor it counts only when that signature verifies under
a key of the registry in force at its ``journal_head``. Verifying without a
readable registry is a failed verification, never a pass with a note.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import (
    DECIDER,
    SIGNER,
    Clock,
    journal_entries,
    keyed_principals,
    signed_workspace,
    write_journal_lines,
)

from aa_review.cli import dossier_cmd
from aa_review.core.dossier import (
    GENESIS_HASH,
    KeyStore,
    Workspace,
    canonical_json,
    entry_hash,
    json_digest,
    verify_journal,
)
from aa_review.core.dossier._keys import verify_signature

D = "dos-7f3a9c"


def projections(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((folder / "projections").glob("*.json"))]


def cli(folder: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, Any, str]:
    parser = argparse.ArgumentParser()
    dossier_cmd.register(parser.add_subparsers())
    args = parser.parse_args(["dossier", "verify-journal", str(folder / "journal"), *extra])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def anchor_file(tmp_path: Path, projection: dict[str, Any]) -> str:
    path = tmp_path / f"anchor-{uuid.uuid4().hex[:8]}.json"
    path.write_text(json.dumps(projection, indent=2))
    return str(path)


def signed_text(projection: dict[str, Any]) -> str:
    """Written from the contract: the canonical form (1.3) without the signature key."""
    return canonical_json({k: v for k, v in projection.items() if k != "signature"}).decode()


def key_of(principal_id: str) -> str:
    return next(p["public_key"] for p in keyed_principals() if p["principal_id"] == principal_id)


def assert_refused(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], anchor: dict[str, Any]
) -> None:
    """Refused as an anchor by the API and by ``verify-journal --anchor``; never trusted."""
    result = verify_journal(journal_entries(folder), anchor=anchor, principals=keyed_principals())
    assert result["valid"] is False and result["reason"] == "JOURNAL_SIGNATURE_INVALID", result
    assert result["anchor_refused"]
    code, out, err = cli(folder, capsys, "--no-witness", "--anchor", anchor_file(tmp_path, anchor))
    assert code == 1 and out["valid"] is False and out["reason"] == "JOURNAL_SIGNATURE_INVALID"
    assert "anchor is refused" in err


# -- signed projections (9, 10.5) ------------------------------------------------------------
def test_a_published_projection_is_signed_by_its_publisher_and_names_no_one(
    tmp_path: Path, capsys
) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    assert verify_signature(key_of(DECIDER), signed_text(p), p["signature"])
    others = [q["public_key"] for q in keyed_principals() if q["principal_id"] != DECIDER]
    assert not any(verify_signature(k, signed_text(p), p["signature"]) for k in others)
    text = json.dumps(p)
    assert DECIDER not in text and key_of(DECIDER) not in text
    # The genuine projection is an anchor: accepted by the API and the command line.
    assert verify_journal(journal_entries(folder), anchor=p, principals=keyed_principals())["valid"]
    code, out, _ = cli(folder, capsys, "--no-witness", "--anchor", anchor_file(tmp_path, p))
    assert code == 0 and out["valid"]


def test_an_edited_outcome_re_signed_with_a_fresh_key_is_refused(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    forger = KeyStore(tmp_path / "forger-keys").create(DECIDER)  # the decider's id, another key
    forged = {**p, "outcome": "deferred", "gates": {**p["gates"], "G4": "fail"}}
    forged["signature"] = forger.sign(signed_text(forged))
    assert_refused(folder, tmp_path, capsys, forged)


def test_an_edited_projection_keeping_the_genuine_signature_is_refused(
    tmp_path: Path, capsys
) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    assert_refused(folder, tmp_path, capsys, {**p, "created_on": "2026-01-01"})


@pytest.mark.parametrize("how", ["absent", "null", "garbage"])
def test_an_unsigned_projection_is_refused(tmp_path: Path, capsys, how: str) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    unsigned = {k: v for k, v in p.items() if k != "signature"}
    if how == "null":
        unsigned["signature"] = None
    elif how == "garbage":
        unsigned["signature"] = "ed25519:AAAA"
    assert_refused(folder, tmp_path, capsys, unsigned)


def test_the_signature_of_another_projection_is_refused(tmp_path: Path, capsys) -> None:
    folder = signed_workspace(tmp_path)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        second = ws.project(D, 1, DECIDER)
    first = next(p for p in projections(folder) if p["projection_id"] != second["projection_id"])
    assert first["journal_head"] != second["journal_head"]
    assert_refused(folder, tmp_path, capsys, {**first, "signature": second["signature"]})
    # Each, with its own signature, is an anchor.
    assert verify_journal(
        journal_entries(folder), anchor=[first, second], principals=keyed_principals()
    )["valid"]


def test_without_a_registry_no_projection_is_an_anchor(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    result = verify_journal(journal_entries(folder), anchor=p)
    assert result["valid"] is False and result["reason"] == "JOURNAL_SIGNATURE_INVALID"
    # A bare head saved earlier still needs no registry (spec 10, step 5).
    assert verify_journal(journal_entries(folder), anchor=p["journal_head"])["valid"]


def test_the_key_must_be_in_the_registry_in_force_at_the_projections_head(
    tmp_path: Path, capsys
) -> None:
    folder = signed_workspace(tmp_path)
    (early,) = projections(folder)
    nell_id = f"p-maint-nell-{uuid.uuid4().hex[:6]}"
    nell = KeyStore().create(nell_id)
    new = [
        *keyed_principals(),
        {
            "principal_id": nell_id,
            "role": "human_maintainer",
            "kind": "human",
            "public_key": nell.public_key,
        },
    ]
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        ws.change_registry(new, SIGNER)
        late = ws.project(D, 1, nell_id)
    versions = {json_digest(keyed_principals()): keyed_principals(), json_digest(new): new}
    # Nell, registered only after the early head, cannot vouch for a projection made there.
    backdated = {**early, "signature": nell.sign(signed_text(early))}
    result = verify_journal(journal_entries(folder), anchor=backdated, principals=versions)
    assert result["reason"] == "JOURNAL_SIGNATURE_INVALID" and "anchor_refused" in result
    code, out, _ = cli(folder, capsys, "--no-witness", "--anchor", anchor_file(tmp_path, backdated))
    assert code == 1 and out["reason"] == "JOURNAL_SIGNATURE_INVALID"
    # Her own projection, made under the registry that lists her, is an anchor.
    assert verify_journal(journal_entries(folder), anchor=late, principals=versions)["valid"]
    code, out, _ = cli(folder, capsys, "--no-witness", "--anchor", anchor_file(tmp_path, late))
    assert code == 0 and out["valid"]


def test_a_forged_projection_beyond_the_end_is_refused_a_genuine_one_names_the_cut(
    tmp_path: Path,
) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    kept = journal_entries(folder)[: p["journal_head"]["seq"]]
    result = verify_journal(kept, anchor=p, principals=keyed_principals())
    assert result["reason"] == "JOURNAL_HEAD_MISMATCH"  # a truncated journal, genuinely anchored
    forger = KeyStore(tmp_path / "forger-keys").create("p-x")
    far = {**p, "journal_head": {"seq": 99, "entry_hash": p["journal_head"]["entry_hash"]}}
    far["signature"] = forger.sign(signed_text(far))
    result = verify_journal(journal_entries(folder), anchor=far, principals=keyed_principals())
    assert result["reason"] == "JOURNAL_SIGNATURE_INVALID" and "anchor_refused" in result


# -- a readable registry or a failed verification (10.5) ----------------------------------
def rechain(es: list[dict[str, Any]], sign: Callable[[dict[str, Any]], str] | None = None) -> bytes:
    prev, out = GENESIS_HASH, []
    for i, e in enumerate(es):
        e = copy.deepcopy(e)
        old = e["entry_hash"]
        e["seq"], e["prev_hash"] = i, prev
        e["entry_hash"] = entry_hash(e)
        if e["entry_hash"] != old:
            e.pop("signature", None)
            if sign is not None:
                e["signature"] = sign(e)
        prev = e["entry_hash"]
        out.append(canonical_json(e) + b"\n")
    return b"".join(out)


def _denial(base: dict[str, Any], actor: dict[str, str], digest: str) -> dict[str, Any]:
    return {
        **copy.deepcopy(base),
        "kind": "operation_denied",
        "dossier_id": None,
        "revision": None,
        "actor": actor,
        "from_state": None,
        "to_state": None,
        "payload": {"op": "x", "target": "y", "reason_code": "R", "registry_digest": digest},
    }


def forge(folder: Path, how: str, tmp_path: Path) -> None:
    """The four forgeries of issue 23, made by someone with write access and no key."""
    es = journal_entries(folder)
    digest = es[-1]["payload"]["registry_digest"]
    if how == "genuine":
        return
    if how == "appended-unsigned":
        extra = _denial(es[-1], {"principal_id": SIGNER, "role": "human_maintainer"}, digest)
        write_journal_lines(folder, rechain([*es, extra]).splitlines())
    elif how == "eligible-by-strangers":  # unsigned, by principals in no registry
        bind = es[-1]
        check = {
            **copy.deepcopy(bind),
            "from_state": "evidence_bound",
            "to_state": "independently_checked",
            "actor": {"principal_id": "p-eval-mallory", "role": "independent_evaluator"},
            "payload": {"action": "check", "registry_digest": digest},
        }
        decide = {
            **copy.deepcopy(bind),
            "from_state": "independently_checked",
            "to_state": "eligible",
            "actor": {"principal_id": "p-maint-mallory", "role": "human_maintainer"},
            "payload": {"action": "decide_eligible", "registry_digest": digest},
        }
        write_journal_lines(folder, rechain([*es, check, decide]).splitlines())
        assert verify_journal(journal_entries(folder))[
            "valid"
        ]  # a legal chain without the registry
    elif how == "signed-with-another-key":
        mallory = KeyStore(tmp_path / "mallory-keys").create(DECIDER)
        extra = _denial(es[-1], {"principal_id": DECIDER, "role": "human_maintainer"}, digest)
        write_journal_lines(
            folder, rechain([*es, extra], sign=lambda e: mallory.sign(e["entry_hash"])).splitlines()
        )
    elif how == "genesis-rewritten":
        es[0]["payload"]["claimed_state"] = "evidence_bound"
        write_journal_lines(folder, rechain(es).splitlines())


def break_registry(path: Path, how: str) -> None:
    path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "folder":
        path.mkdir()
    elif how == "unparsable":
        path.write_text('{"principals": [')


FORGERIES = [
    "genuine",
    "appended-unsigned",
    "eligible-by-strangers",
    "signed-with-another-key",
    "genesis-rewritten",
]


@pytest.mark.parametrize("registry", ["deleted", "fifo", "folder", "unparsable"])
@pytest.mark.parametrize("forgery", FORGERIES)
def test_without_a_readable_registry_verification_fails(
    tmp_path: Path, capsys, forgery: str, registry: str
) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    forge(folder, forgery, tmp_path)
    break_registry(folder / "principals.json", registry)
    code, out, err = cli(folder, capsys, "--no-witness")
    assert code == 1, (code, out, err)
    assert out == {"valid": False, "first_bad_seq": 0, "reason": "JOURNAL_REGISTRY_UNTRUSTED"}
    assert "principals.json" in err


@pytest.mark.parametrize("forgery", FORGERIES[1:])
def test_with_the_registry_each_forgery_is_caught(tmp_path: Path, capsys, forgery: str) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    forge(folder, forgery, tmp_path)
    code, out, _ = cli(folder, capsys, "--no-witness")
    assert code == 1 and out["valid"] is False
    assert out["reason"] in {"JOURNAL_SIGNATURE_INVALID", "JOURNAL_ACTOR_UNKNOWN"}


@pytest.mark.parametrize("what", ["fifo", "folder", "unparsable"])
def test_a_given_registry_or_anchor_that_is_no_regular_json_file(
    tmp_path: Path, capsys, what: str
) -> None:
    folder = signed_workspace(tmp_path, upto="evidence_bound")
    given = tmp_path / "given.json"
    given.write_text("{}")
    break_registry(given, what)
    code, out, _ = cli(folder, capsys, "--no-witness", "--principals", str(given))
    assert code == 1 and out["reason"] == "JOURNAL_REGISTRY_UNTRUSTED"
    code, out, err = cli(folder, capsys, "--no-witness", "--anchor", str(given))
    assert code == 2 and out is None and "anchor" in err


def test_the_workspace_verifies_against_a_projection_the_same_way(tmp_path: Path) -> None:
    folder = signed_workspace(tmp_path)
    (p,) = projections(folder)
    with Workspace.open_folder(folder, clock=Clock()) as ws:
        assert ws.verify_journal(anchor=p)["valid"]
        forged = {**p, "outcome": "deferred"}
        result = ws.verify_journal(anchor=forged)
        assert result["reason"] == "JOURNAL_SIGNATURE_INVALID" and "anchor_refused" in result
