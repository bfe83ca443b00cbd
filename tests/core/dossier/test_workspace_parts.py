"""The workspace's parts, each alone, and the façade that holds them (issue 24).

The journal, the registry and the revisions held are built here without a
``Workspace``; the last tests keep ``Workspace`` a façade: no mixin bases, and
every method but a few delegates to a part.
"""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import NOW, passing, principals

from aa_review.core.dossier import Workspace
from aa_review.core.dossier._errors import RevisionNotFoundError, WorkspaceReadOnlyError
from aa_review.core.dossier._keys import KeyStore
from aa_review.core.dossier._lifecycle import Lifecycle
from aa_review.core.dossier._models_dossier import parse_dossier
from aa_review.core.dossier._principals import PrincipalRegistry, Role
from aa_review.core.dossier._storage import MemoryStore
from aa_review.core.dossier._witness import WitnessStore
from aa_review.core.dossier._workspace_acts import WorkspaceActs
from aa_review.core.dossier._workspace_journal import WorkspaceJournal
from aa_review.core.dossier._workspace_open import Opening
from aa_review.core.dossier._workspace_packages import BoundPackages
from aa_review.core.dossier._workspace_records import RevisionsHeld
from aa_review.core.dossier._workspace_registry import WorkspaceRegistry
from aa_review.core.dossier._workspace_views import WorkspaceViews
from aa_review.core.dossier._workspace_write import JournalWriter

LEAD, EVALUATOR = "p-lead-ada", "p-eval-cy"


def keyed(keys: KeyStore, *ids: str) -> list[dict[str, Any]]:
    """The golden principals, those named with a key created in ``keys``."""
    out = []
    for rec in principals():
        if rec["principal_id"] in ids:
            rec = {**rec, "public_key": keys.create(rec["principal_id"]).public_key}
        out.append(rec)
    return out


# -- the registry -------------------------------------------------------------------------
def test_the_registry_resolves_roles_and_says_who_can_sign_here(tmp_path: Path) -> None:
    keys = KeyStore(tmp_path / "keys")
    tree = keyed(keys, LEAD, EVALUATOR)
    here = WorkspaceRegistry(PrincipalRegistry(tree), keys, folder_mode=True)
    lead = here.get(LEAD)
    assert lead is not None and lead.role is Role.TRAINING_RESEARCH_LEAD
    assert here.can_act(LEAD) is None
    signer = here.signer_for(lead)
    assert signer is not None and signer.public_key == lead.public_key
    # In a workspace folder, a principal without a public key cannot act.
    unkeyed = next(p["principal_id"] for p in tree if "public_key" not in p)
    assert str(here.can_act(unkeyed)).startswith("ACTOR_KEY_UNAVAILABLE")
    assert str(here.can_act("p-nobody")).startswith("ACTOR_UNKNOWN")
    # Another user's machine: the same registry, none of the private keys.
    elsewhere = WorkspaceRegistry(
        PrincipalRegistry(tree), KeyStore(tmp_path / "other"), folder_mode=True
    )
    assert str(elsewhere.can_act(EVALUATOR)).startswith("ACTOR_KEY_UNAVAILABLE")
    held = [h.principal.principal_id for h in here.key_holdings() if h.here]
    assert sorted(held) == sorted([LEAD, EVALUATOR])


def test_a_registry_change_puts_the_new_version_in_force_and_keeps_the_old(
    tmp_path: Path,
) -> None:
    store = MemoryStore()
    first = PrincipalRegistry(principals())
    here = WorkspaceRegistry(first, KeyStore(tmp_path / "keys"), folder_mode=False)
    second = PrincipalRegistry([p for p in principals() if p["principal_id"] != EVALUATOR])
    here.put_in_force(second)
    assert here.get(EVALUATOR) is None and here.in_force is here.given is second
    assert set(here.versions(store)) == {second.digest}


# -- the journal (with the writer over it, no workspace) ------------------------------------
def parts(tmp_path: Path) -> tuple[WorkspaceJournal, JournalWriter]:
    journal = WorkspaceJournal.at(
        tmp_path / "journal.jsonl", WitnessStore(tmp_path / "witness"), folder=False
    )
    journal.lock()
    registry = WorkspaceRegistry(
        PrincipalRegistry(principals()), KeyStore(tmp_path / "keys"), folder_mode=False
    )
    return journal, JournalWriter(journal, registry, MemoryStore(), RevisionsHeld())


def deny(writer: JournalWriter, target: str) -> dict[str, Any]:
    return writer.append(
        NOW,
        "operation_denied",
        dossier_id=None,
        revision=None,
        actor=writer.registry.get(LEAD),
        payload={"op": "train", "target": target, "reason_code": "OPERATION_DEFERRED"},
    )


def test_the_journal_chains_appends_and_witnesses_each_head(tmp_path: Path) -> None:
    journal, writer = parts(tmp_path)
    first, second = deny(writer, "a"), deny(writer, "b")
    assert second["prev_hash"] == first["entry_hash"]
    assert journal.head_anchor() == {"seq": 1, "entry_hash": second["entry_hash"]}
    assert journal.witness_status()["status"] == "matches"
    assert journal.witness_status()["witnessed"] == journal.head_anchor()
    versions = writer.registry.versions(writer.store)
    assert journal.verify(None, versions)["valid"]
    assert [e["entry_hash"] for e in journal.denial_log()] == [
        first["entry_hash"],
        second["entry_hash"],
    ]
    journal.release()


def test_the_journal_part_refuses_a_tampered_entry(tmp_path: Path) -> None:
    journal, writer = parts(tmp_path)
    deny(writer, "a")
    deny(writer, "b")
    journal.release()
    path = journal.file.path
    lines = path.read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[0])
    entry["payload"]["target"] = "elsewhere"  # the line still parses; its hash no longer holds
    lines[0] = json.dumps(entry, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    path.write_bytes(b"".join(lines))
    reader = WorkspaceJournal.at(path, WitnessStore(tmp_path / "witness"), folder=False)
    verdict = reader.verify(None, writer.registry.versions(writer.store))
    assert not verdict["valid"]
    assert verdict["first_bad_seq"] == 0
    assert verdict["reason"].startswith("JOURNAL_")


def test_a_journal_with_a_fault_refuses_every_write_and_writes_nothing(tmp_path: Path) -> None:
    journal, writer = parts(tmp_path)
    deny(writer, "a")
    before = journal.file.path.read_bytes()
    journal.set_fault("JOURNAL_HEAD_MISMATCH at seq 0")
    journal.set_fault("a later fault")  # the first one is kept
    fault = writer.commit(NOW, [], [{"kind": "operation_denied", "actor": None}])
    assert (
        fault == "JOURNAL_WRITE_FAILED: the workspace is read-only (JOURNAL_HEAD_MISMATCH at seq 0)"
    )
    assert journal.file.path.read_bytes() == before
    with pytest.raises(WorkspaceReadOnlyError, match="JOURNAL_HEAD_MISMATCH"):
        journal.require_writable()
    journal.release()


# -- the revisions held -------------------------------------------------------------------------
def test_the_revisions_held_know_what_is_superseded_and_what_is_taken() -> None:
    held = RevisionsHeld()
    first = parse_dossier(passing())
    d, r = first.model.dossier_id, first.model.revision
    with pytest.raises(RevisionNotFoundError):
        held.get(d, r)
    held.hold(first, journaled=False)
    assert held.get(d, r) is first and not held.superseded(d, r)
    assert held.taken(d, r) and not held.taken(d, r + 1)
    held.journaled.add((d, r + 1))  # journaled, its file not held: still taken
    assert held.taken(d, r + 1) and held.numbers(d) == [r]
    later = parse_dossier({**passing(), "revision": r + 1})
    held.hold(later, journaled=True)
    assert held.superseded(d, r) and held.dossier_ids() == [d]


# -- the façade ---------------------------------------------------------------------------------
PART_CLASSES = (
    WorkspaceJournal,
    WorkspaceRegistry,
    RevisionsHeld,
    BoundPackages,
    WorkspaceViews,
    JournalWriter,
    Opening,
    Lifecycle,
    WorkspaceActs,
)
# The methods of Workspace that do more than hand the call to a part: the constructor
# (which builds the parts), the folder form (open_folder, reload_archive) and the
# context-manager pair. Everything else is one statement asking a part.
MAX_OWN_METHODS = 5


def test_the_workspace_and_its_parts_stack_no_mixins() -> None:
    assert Workspace.__mro__ == (Workspace, object)
    for cls in PART_CLASSES:
        assert cls.__mro__ == (cls, object), cls


def _is_delegation(fn: ast.FunctionDef, parts: set[str]) -> bool:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
        return False
    value = body[0].value
    if value is None:
        return False
    logic = (ast.IfExp, ast.BoolOp, ast.Compare, ast.Lambda, ast.comprehension, ast.BinOp)
    if any(isinstance(n, logic) for n in ast.walk(value)):
        return False
    asks_a_part = any(
        isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        and n.attr in parts
        for n in ast.walk(value)
    )
    hands_itself = (  # a function of the workspace over its public steps (forks)
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and any(isinstance(a, ast.Name) and a.id == "self" for a in value.args)
    )
    return asks_a_part or hands_itself


def test_the_workspace_is_a_small_facade_over_its_parts(tmp_path: Path) -> None:
    ws = Workspace(principals(), {}, lambda: NOW, tmp_path / "journal.jsonl")
    parts = {name for name, v in vars(ws).items() if isinstance(v, (*PART_CLASSES, MemoryStore))}
    assert parts >= {"journal", "registry", "records", "views", "writer", "lifecycle", "acts"}
    tree = ast.parse(textwrap.dedent(inspect.getsource(Workspace)))
    cls = tree.body[0]
    assert isinstance(cls, ast.ClassDef)
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef)]
    own = sorted(m.name for m in methods if not _is_delegation(m, parts))
    assert len(own) <= MAX_OWN_METHODS, own
    assert "__init__" in own  # the check can tell logic from delegation
    assert len(methods) - len(own) > 40  # and the public API is still there, delegated
    ws.close()
