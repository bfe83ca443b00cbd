"""The sign-off view as a core state: verdict, unmet gates in words, steps and who may take them.

Cases from spec 12 ("a disabled action explains why: which role it needs, which the
actor holds, who could take it"), 7.2 (refusal precedence), 2.5 and G9 (private
detail only for the independent evaluator) and 10 (the journal as read).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from aa_review.core import dossier as dz
from aa_review.core.dossier import AUTHORIZE, Action, Refusal
from aa_review.demo.sample import SAMPLE_DOSSIER_IDS, write_sample_workspace
from aa_review.generator import generate_package

READY, DIRTY = SAMPLE_DOSSIER_IDS
PRINCIPALS = (
    "p-lead-ada",
    "p-lead-bo",
    "p-eval-cy",
    "p-eval-dee",
    "p-maint-eve",
    "p-maint-fay",
    "p-maint-bot",
    "p-agent-gus",
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_package(
        tmp_path_factory.mktemp("pkg"), rows=30, seed=7, package_id="pkg_panel"
    ).root


@pytest.fixture
def held(package: Path) -> dict[str, dz.PackageFacts]:
    """What the window holds: the bound package, audited clean."""
    return {"facts": dz.PackageFacts(package.name, package, None, ())}


@pytest.fixture
def ws(tmp_path: Path, package: Path, held: dict[str, dz.PackageFacts]) -> Any:
    write_sample_workspace(tmp_path / "ws", package)
    with dz.Workspace.open_folder(tmp_path / "ws", package_facts=lambda pid: held["facts"]) as w:
        yield w


def state(ws: Any, d: str, actor: str | None) -> dz.PanelState:
    return dz.panel_state(dz.take_snapshot(ws, d, ws.revisions(d)[-1]), actor)


def test_a_deferred_check_puts_its_unmet_gates_first_in_words(ws: Any) -> None:
    ws.bind(DIRTY, 1, "p-lead-ada")
    ws.check(DIRTY, 1, "p-eval-cy")
    st = state(ws, DIRTY, "p-maint-eve")
    assert st.state is dz.DossierState.DEFERRED
    assert [g.gate_id for g in st.unmet] == ["G9"]
    assert "1 of 11 gates unmet (1 fail)" in st.headline and "deferred" in st.headline
    # unmet first, then the rest in G1..G11 order
    assert [g.gate_id for g in st.gates] == ["G9"] + [f"G{i}" for i in range(1, 12) if i != 9]
    g9 = st.unmet[0]
    # the field, what is wrong, what would satisfy it, and the spec section
    assert "evidence.dataset_plan.training_source_items" in g9.sentence
    assert "hidden evaluation group" in g9.sentence and "exploit trace" in g9.sentence
    assert "To pass:" in g9.sentence and "spec 5, G9" in g9.sentence


def test_private_detail_only_for_the_independent_evaluator(ws: Any) -> None:
    """G9: telling a training-side identity which item is hidden leaks membership."""
    for who in PRINCIPALS:
        g9 = next(g for g in state(ws, DIRTY, who).gates if g.gate_id == "G9")
        named = "item-cal-1" in g9.sentence or "item-exploit" in g9.sentence
        assert named is who.startswith("p-eval"), who
    nobody = next(g for g in state(ws, DIRTY, None).gates if g.gate_id == "G9")
    assert "item-" not in nobody.sentence


def test_every_gate_reason_the_validator_emits_has_words() -> None:
    """No reason is shown as a bare code: every code of section 5 and docs/decisions.md."""
    codes_file = Path(__file__).resolve().parents[2] / "data" / "spec_reason_codes.txt"
    codes = [
        line.split()[0]
        for line in codes_file.read_text().splitlines()
        if line.strip() and not line.startswith("#") and line.split()[1] in "FU"
    ]
    codes += [
        "G1_POWER_BEYOND_VALIDATOR_LIMIT",
        "G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE",
        "G9_PACKAGE_CONTAMINATION_UNVERIFIED",
        "DOSSIER_PACKAGE_CHANGED:pkg-1",
        "DOSSIER_EXPIRY_MISSING",
        "DOSSIER_EPOCH_CHANGED",
    ]
    assert len(codes) > 100
    for code in codes:
        text = dz.explain(code)
        assert text.field and text.remedy != "see the spec", code
        assert code.split(":")[0].lower().replace("_", " ") not in text.sentence, code


def test_next_step_names_role_conditions_and_who(ws: Any) -> None:
    assert state(ws, READY, "p-lead-ada").next_step.startswith(
        "Next: binding the evidence by a principal with role training_research_lead who is "
        "not on the training side: p-lead-ada or p-lead-bo"
    )
    ws.bind(READY, 1, "p-lead-ada")
    assert state(ws, READY, "p-maint-eve").next_step == (
        "Next: an independent check by a principal with role independent_evaluator who is "
        "not the author or on the training side: p-eval-cy or p-eval-dee."
    )
    ws.check(READY, 1, "p-eval-cy")
    nxt = state(ws, READY, "p-eval-cy").next_step
    assert "human maintainer (role human_maintainer, kind human)" in nxt
    assert "not the author, the checker or on the training side" in nxt
    assert nxt.endswith("p-maint-eve or p-maint-fay.")  # never the agent-kind maintainer


@pytest.mark.parametrize(
    ("who", "step", "needs", "holds"),
    [
        (
            "p-eval-cy",
            Action.BIND,
            "role training_research_lead",
            "p-eval-cy holds role independent_evaluator",
        ),
        ("p-agent-gus", Action.EDIT, "role training_research_lead", "p-agent-gus holds role agent"),
        (
            "p-lead-ada",
            AUTHORIZE,
            "role human_maintainer, kind human",
            "p-lead-ada holds role training_research_lead",
        ),
    ],
)
def test_a_disabled_step_says_the_role_it_needs_and_the_role_held(
    ws: Any, who: str, step: Any, needs: str, holds: str
) -> None:
    view = state(ws, READY, who).steps[step]
    assert not view.enabled and view.refusal is Refusal.ACTOR_ROLE_NOT_PERMITTED
    assert needs in view.why_not and holds in view.why_not
    assert "Who could:" in view.why_not and view.could
    assert all(ws.principals.get(p).role is not ws.principals.get(who).role for p in view.could)


def test_an_agent_maintainer_is_told_it_is_not_a_human(ws: Any) -> None:
    ws.bind(READY, 1, "p-lead-ada")
    ws.check(READY, 1, "p-eval-cy")
    view = state(ws, READY, "p-maint-bot").steps[Action.DECIDE_ELIGIBLE]
    assert not view.enabled and "kind agent" in view.why_not and "never a human" in view.why_not
    assert view.could == ("p-maint-eve", "p-maint-fay")


def test_separation_of_duties_names_the_capacity(ws: Any) -> None:
    ws.edit_evidence(
        READY, 1, "p-lead-ada", ["independence_plan", "provider_identity"], "p-eval-dee"
    )
    ws.bind(READY, 1, "p-lead-ada")
    view = state(ws, READY, "p-eval-dee").steps[Action.CHECK]
    assert view.refusal is Refusal.SEPARATION_OF_DUTIES
    assert "independence_plan.provider_identity" in view.why_not
    assert "p-eval-dee holds role independent_evaluator" in view.why_not
    assert view.could == ("p-eval-cy",)


def test_the_panel_agrees_with_the_workspace_for_every_principal_and_step(ws: Any) -> None:
    """The refusal a disabled step shows is the one the workspace gives (spec 7.2)."""
    ws.bind(READY, 1, "p-lead-ada")
    snap = dz.take_snapshot(ws, READY, 1)
    calls = {
        Action.BIND: ws.bind,
        Action.CHECK: ws.check,
        Action.DEFER: ws.decide_deferred,
        Action.DECIDE_ELIGIBLE: ws.decide_eligible,
    }
    for who in PRINCIPALS:
        st = dz.panel_state(snap, who)
        for step, call in calls.items():
            view = st.steps[step]
            if view.enabled:
                continue
            result = call(READY, 1, who)
            assert result.outcome.value == "refused" and result.reason == view.refusal.value, (
                who,
                step,
            )


def test_nobody_chosen_disables_every_step(ws: Any) -> None:
    st = state(ws, READY, "")
    assert not any(v.enabled for v in st.steps.values())
    assert all(v.why_not.startswith("Choose who you act as") for v in st.steps.values())
    assert not any(v.journals_refusal for v in st.steps.values())


def test_changing_the_actor_reads_nothing(ws: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The snapshot is taken once; wording it for another principal does no I/O at all."""
    snap = dz.take_snapshot(ws, READY, 1)
    touched: list[str] = []
    monkeypatch.setattr(dz.Workspace, "journal_status", lambda *a: touched.append("journal") or {})
    monkeypatch.setattr(dz._packages, "package_digest", lambda *a: touched.append("hash"))
    monkeypatch.setattr("builtins.open", lambda *a, **k: touched.append("open"))
    for who in (*PRINCIPALS, "", "p-unknown"):
        dz.panel_state(snap, who)
    assert touched == []


def test_timeline_and_denials_are_the_dossiers_own(ws: Any) -> None:
    ws.bind(READY, 1, "p-lead-ada")
    ws.bind(DIRTY, 1, "p-lead-ada")
    ws.check(READY, 1, "p-lead-ada")  # refused and journaled: the author may not check
    ws.attempt_operation("export_dataset", "p-maint-eve", READY)
    ws.attempt_operation("change_routing", "p-maint-eve", DIRTY)
    st = state(ws, READY, "p-maint-eve")
    own = [e for e in ws.journal_entries() if e.get("dossier_id") == READY]
    assert len(st.timeline) == len(own) == 3
    assert [e.seq for e in st.timeline] == [e["seq"] for e in own]
    refused = st.timeline[-1]
    assert refused.what == "asked for the independent check" and "refused" in refused.outcome
    assert refused.signer == "p-lead-ada ✓" and refused.change == "stays evidence_bound"
    assert [d.payload["op"] for d in st.denials] == ["export_dataset"]
    j = st.snapshot.journal
    assert j.valid and j.count == len(ws.journal_entries())
    assert j.head_hash == ws.journal_head()["entry_hash"] and j.head_hash in j.summary


def test_a_stale_revision_says_its_next_step_expires_it(
    ws: Any, package: Path, held: dict[str, Any]
) -> None:
    ws.bind(READY, 1, "p-lead-ada")
    # the window now holds a changed package
    held["facts"] = dz.PackageFacts(package.name, package, "sha256:" + "0" * 64, ())
    st = state(ws, READY, "p-eval-cy")
    assert st.stale and st.steps[Action.CHECK].enabled
    assert "expires this revision instead" in st.steps[Action.CHECK].note
    assert any(r.code.startswith("DOSSIER_PACKAGE_CHANGED") for r in st.dossier_reasons)


def test_the_snapshot_is_taken_where_it_is_asked(ws: Any) -> None:
    """Nothing in taking a snapshot is tied to the calling thread (a worker takes it)."""
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(dz.take_snapshot(ws, READY, 1)))
    t.start()
    t.join()
    assert out and dz.panel_state(out[0], "p-lead-ada").steps[Action.BIND].enabled


def test_a_deferred_revision_names_the_edit_and_a_lone_g8_names_the_authorization(ws: Any) -> None:
    """After a deferral the way on is a new revision (7.3); a revision whose only unmet
    gate is G8 needs a maintainer's authorization (2.4), not an edit."""
    ws.bind(DIRTY, 1, "p-lead-ada")
    ws.check(DIRTY, 1, "p-eval-cy")
    st = state(ws, DIRTY, "p-lead-ada")
    assert "1 gate not passing: G9" in [e.outcome for e in st.timeline]
    nxt = st.next_step
    assert nxt == (
        "Next: an edit of the evidence by a principal with role "
        "training_research_lead: p-lead-ada or p-lead-bo (you can take it). It "
        "creates revision 2 in draft, and this revision expires."
    )
    ws.edit_evidence(
        DIRTY,
        1,
        "p-lead-ada",
        ["dataset_plan", "training_source_items"],
        ["item-t1-a", "item-t1-b", "item-t2-a"],
    )
    st = state(ws, DIRTY, "p-lead-ada")
    assert st.snapshot.revision == 2 and [g.gate_id for g in st.unmet] == ["G8"]
    assert st.next_step.startswith("Next: an authorization of the amendment proposal")
    assert "human_maintainer" in st.next_step and "p-maint-eve or p-maint-fay" in st.next_step
    assert "(you can take it)" not in st.next_step
    ws.bind(DIRTY, 2, "p-lead-ada")
    nxt = state(ws, DIRTY, "p-eval-cy").next_step
    assert nxt.startswith("Next: an authorization") and "G8 would not pass" in nxt


def test_unmet_gates_are_counted_by_what_they_are_and_unevaluated_apart() -> None:
    # Issue 25: "11 of 11 gates unmet" counted gates no rule ran for. Failing and
    # unknown gates are named apart; gates never evaluated are not called unmet.
    from aa_review.core.dossier import GateStatus
    from aa_review.core.dossier._panel import GateRow, _unmet_words
    from aa_review.core.dossier._reasons import explain

    def row(gid: str, status: GateStatus, *codes: str) -> GateRow:
        return GateRow(gid, "", status, tuple(explain(c) for c in codes), "", "")

    fail = row("G1", GateStatus.FAIL, "G1_POWER_BELOW_THRESHOLD")
    unknown = row("G2", GateStatus.UNKNOWN, "G2_REPORT_MISSING")
    skipped = row("G3", GateStatus.UNKNOWN, "GATE_NOT_EVALUATED_DOSSIER_EXPIRED")
    assert _unmet_words((fail, unknown)) == "2 of 11 gates unmet (1 fail, 1 unknown)"
    assert _unmet_words((fail, skipped)) == "1 of 11 gates unmet (1 fail), 1 not evaluated"
    assert _unmet_words((skipped,) * 11) == "11 of 11 gates not evaluated"


# -- not-applied actions and what arrived (spec 10.6) --------------------------------------
def _not_applied(**kw: Any) -> dict[str, Any]:
    na = {
        "entry_hash": "sha256:" + "ab" * 32,
        "at": "2026-03-01T09:30:00Z",
        "kind": "transition",
        "action": "check",
        "dossier_id": READY,
        "revision": 1,
        "author": "p-eval-cy",
        "role": "independent_evaluator",
        "public_key": "ed25519:" + "A" * 43 + "=",
        "status": "not_applied",
        "resolved_by": None,
    }
    return {**na, **kw}


def test_a_not_applied_action_is_offered_to_its_author_only(ws: Any) -> None:
    import dataclasses

    snap = dataclasses.replace(dz.take_snapshot(ws, READY, 1), not_applied=(_not_applied(),))
    (mine,) = dz.panel_state(snap, "p-eval-cy").not_applied
    assert (mine.can_redo, mine.can_withdraw, mine.why_not) == (True, True, "")
    assert (mine.what, mine.when, mine.key) == (
        "independent check",
        "2026-03-01 09:30:00",
        "ed25519:AAAAAAAA…",
    )
    (theirs,) = dz.panel_state(snap, "p-lead-ada").not_applied
    assert not theirs.can_redo and not theirs.can_withdraw
    # The demo store holds p-eval-cy's key: the lead is told to act as them.
    assert theirs.why_not == (
        "only its author p-eval-cy can redo or withdraw it; act as them to redo or withdraw it"
    )
    (nobody,) = dz.panel_state(snap, "").not_applied
    assert not nobody.can_withdraw


def test_an_import_is_withdrawn_not_redone_and_a_resolved_action_offers_nothing(ws: Any) -> None:
    import dataclasses

    snap = dataclasses.replace(
        dz.take_snapshot(ws, READY, 1),
        not_applied=(
            _not_applied(kind="imported", action=None, author="p-lead-ada"),
            _not_applied(status="withdrawn", resolved_by="sha256:" + "cd" * 32),
        ),
    )
    imported, withdrawn = dz.panel_state(snap, "p-lead-ada").not_applied
    assert (imported.can_redo, imported.can_withdraw) == (False, True)
    assert imported.why_not.startswith("an import cannot be redone in one step: withdraw it")
    resolved = dz.panel_state(snap, "p-eval-cy").not_applied[1]
    assert not resolved.can_redo and not resolved.can_withdraw
    assert resolved.why_not == f"withdrawn by entry sha256:{'cd' * 32}"
    assert withdrawn.status == "withdrawn"


def test_what_arrived_is_one_line_of_who_did_what() -> None:
    arrived = [
        {"kind": "transition", "action": "bind", "actor": "p-lead-ada"},
        {"kind": "transition", "action": "bind", "actor": "p-lead-ada"},
        {"kind": "transition", "action": "check", "actor": "p-eval-cy"},
    ]
    assert dz.arrived_summary(arrived) == (
        "3 entries arrived: bound by p-lead-ada, checked by p-eval-cy"
    )
    assert dz.arrived_summary(arrived[:1]) == "1 entry arrived: bound by p-lead-ada"
    reducer = [
        {
            "kind": "transition",
            "action": "auto_defer",
            "actor": "p-reducer-hal",
            "signer": "p-eval-cy",
        }
    ]
    assert dz.arrived_summary(reducer) == (
        "1 entry arrived: deferred automatically by p-reducer-hal for p-eval-cy"
    )
    assert dz.arrived_summary([]) == ""


def test_a_key_is_marked_by_the_start_of_its_record() -> None:
    key = "ed25519:" + "Zm9v" * 10 + "YWI="
    assert dz.key_fingerprint(key) == "ed25519:Zm9vZm9v…"
    assert dz.key_fingerprint(None) == dz.key_fingerprint("") == ""
    assert dz.key_fingerprint("ed25519:short") == "?"
