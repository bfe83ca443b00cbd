"""Sign-off in the window: the dossier panel over the demo workspace, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aa_review.core.dossier import PUBLIC_KEYS, Action
from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample

pytestmark = pytest.mark.gui


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return ensure_sample(tmp_path / "demo")


def prompts(p) -> None:
    p.confirms: list[str] = []
    p.infos: list[str] = []
    p.confirm = lambda title, text: p.confirms.append(text) or True
    p.inform = lambda title, text: p.infos.append(text)


@pytest.fixture
def panel(window, demo: Path):
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    prompts(p)
    p.select_dossier("dos-demo-ready")
    yield p
    p.close_workspace()


def act(panel, who: str, action):
    panel.set_actor(who)
    return panel.request(action)


def state(panel) -> str:
    return panel.ws.revision(*panel.current)["state"]


def journal(panel) -> list[dict]:
    return panel.ws.journal_entries()


def test_draft_to_eligible_with_three_principals(panel) -> None:
    assert state(panel) == "draft"
    assert [r[1] for r in panel.gate_model.items] == ["pass"] * 11  # live, before any check
    assert act(panel, "p-lead-ada", Action.BIND).outcome.value == "applied"
    assert state(panel) == "evidence_bound"
    digest = panel.ws.parsed(*panel.current).evidence_digest
    assert digest in panel.confirms[-1]  # the sign-off named what was signed
    assert act(panel, "p-eval-cy", Action.CHECK).outcome.value == "applied"
    assert state(panel) == "independently_checked"
    assert act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE).outcome.value == "applied"
    assert state(panel) == "eligible"
    assert "eligible" in panel.verdict.text() and "grants nothing" in panel.verdict.text()
    kinds = [e.kind for e in panel.state.timeline]
    assert kinds.count("transition") == 3
    assert "Journal verified" in panel.journal_status.text()
    # Who signed each entry, checked against the registry's keys (spec 10.2, 12).
    signed_by = [e.signer for e in panel.state.timeline]
    assert signed_by[-1] == "p-maint-eve ✓" and "p-eval-cy ✓" in signed_by
    assert "every entry signed by its principal" in panel.journal_status.text()
    assert "matches this machine's witness" in panel.journal_status.text()
    head = panel.ws.journal_head()["entry_hash"]
    assert head in panel.journal_status.text()  # the head digest, shown once


def test_a_deferred_check_shows_its_unmet_gates_at_the_top(panel) -> None:
    panel.select_dossier("dos-demo-contaminated")
    act(panel, "p-lead-ada", Action.BIND)
    assert act(panel, "p-eval-cy", Action.CHECK).state_after == {"1": "deferred"}
    verdict = panel.verdict.text()
    assert "deferred" in verdict and "1 of 11 gates unmet" in verdict
    assert "G9 Dataset plan vs archive" in verdict
    assert "training_source_items" in verdict and "To pass:" in verdict
    assert "Next:" in verdict and "p-lead-ada or p-lead-bo" in verdict
    # The gate table lists the unmet gates first, the others after, in order.
    assert [r[0] for r in panel.gate_model.items] == ["G9"] + [
        f"G{i}" for i in range(1, 12) if i != 9
    ]
    assert panel.tabs.tabText(0) == "Gates (1 unmet)"
    # The evaluator sees which items; a maintainer reads the rule only (spec G9).
    assert "item-cal-1" in panel.gate_model.items[0][3]
    panel.set_actor("p-maint-eve")
    assert "item-cal-1" not in panel.gate_model.items[0][3]
    assert "item-cal-1" not in panel.verdict.text()


def _journal_bytes(folder: Path) -> bytes:
    """The journal folder's action files, names and bytes (one file per action)."""
    return b"".join(
        p.name.encode() + p.read_bytes() for p in sorted((folder / "journal").iterdir())
    )


def test_a_disabled_step_writes_nothing(panel, qtbot) -> None:
    from PySide6.QtCore import Qt

    panel.set_actor("p-agent-gus")
    before = _journal_bytes(panel.folder)
    for step, button in panel.buttons.items():
        assert not button.isEnabled(), step
        assert button.toolTip().startswith("Not now.")
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert panel.request(step) is None
    assert not panel.project_button.isEnabled()
    assert _journal_bytes(panel.folder) == before
    assert panel.confirms == [] and panel.infos == []


def test_refusal_texts_name_the_role_needed_and_the_role_held(panel) -> None:
    panel.set_actor("p-eval-cy")
    tip = panel.buttons[Action.BIND].toolTip()
    assert "needs role training_research_lead" in tip
    assert "p-eval-cy holds role independent_evaluator" in tip
    assert "Who could: p-lead-ada or p-lead-bo" in tip
    assert panel.buttons[Action.BIND].property("blocked") == "ACTOR_ROLE_NOT_PERMITTED"
    panel.set_actor("p-lead-ada")
    assert panel.buttons[Action.BIND].property("blocked") is None
    assert panel.buttons[Action.BIND].isEnabled()


def test_a_journaled_refusal_is_an_explicit_confirmed_request(panel) -> None:
    panel.set_actor("p-agent-gus")
    count = len(journal(panel))
    panel.confirm = lambda title, text: panel.confirms.append(text) or False
    assert panel.request_refusal(Action.BIND) is None  # declined: nothing written
    assert len(journal(panel)) == count
    assert "permanent transition_refused entry" in panel.confirms[-1]
    assert "needs role training_research_lead" in panel.confirms[-1]
    panel.confirm = lambda title, text: panel.confirms.append(text) or True
    result = panel.request_refusal(Action.BIND)
    assert result.outcome.value == "refused" and result.reason == "ACTOR_ROLE_NOT_PERMITTED"
    entries = journal(panel)
    assert len(entries) == count + 1 and entries[-1]["kind"] == "transition_refused"
    assert entries[-1]["actor"]["principal_id"] == "p-agent-gus"
    assert "needs role training_research_lead; p-agent-gus holds role agent" in panel.infos[-1]
    assert "recorded in the journal" in panel.infos[-1]
    newest = panel.journal_model.items[0]  # newest first by default
    assert newest[2] == "asked for binding the evidence" and newest[3].startswith("refused")
    # A step one may take is never "requested as refused": it would be taken.
    panel.set_actor("p-lead-ada")
    assert panel.request_refusal(Action.BIND) is None and len(journal(panel)) == count + 1
    assert [a.text() for a in panel.refusal_menu.actions()] and all(
        "Bind" not in a.text() for a in panel.refusal_menu.actions()
    )


def test_the_timeline_count_is_the_dossiers_entries(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    panel.select_dossier("dos-demo-contaminated")
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    own = [e for e in journal(panel) if e.get("dossier_id") == "dos-demo-contaminated"]
    assert panel.journal_model.rowCount() == len(panel.state.timeline) == len(own) == 4
    assert f"{len(own)} entries of dos-demo-contaminated" in panel.tabs.journal_count.text()
    assert panel.tabs.tabText(1) == "Journal (4)"
    panel.tabs.only_dossier.setChecked(False)
    assert panel.journal_model.rowCount() == len(journal(panel))
    panel.tabs.only_dossier.setChecked(True)
    panel.tabs.order_box.setCurrentIndex(panel.tabs.order_box.findData("oldest"))
    assert panel.journal_model.items[0][2] == "imported the dossier as draft"
    panel.journal_view.setCurrentIndex(panel.journal_model.index(0, 0))
    detail = panel.tabs.entry_detail.toPlainText()  # details on demand: digest and payload
    assert own[0]["entry_hash"] in detail and '"file_digest"' in detail


def test_acting_as_is_remembered_per_workspace_never_silently_wrong(
    window, demo: Path, settings
) -> None:
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    assert p.actor_id == "" and "nobody" in p.actor_label.text()  # first time: a choice
    assert not any(b.isEnabled() for b in p.buttons.values())
    p.set_actor("p-eval-cy")
    p.select_dossier("dos-demo-contaminated")
    p.close_workspace()
    assert window.open_workspace(demo / "dossier_workspace")
    assert p.actor_id == "p-eval-cy" and "p-eval-cy" in p.actor_label.text()
    assert "independent_evaluator" in p.actor_label.text()
    assert p.current == ("dos-demo-contaminated", 1)  # the dossier the user had
    settings.setValue(p._key("actor"), "p-gone")  # the registry no longer names them
    p.close_workspace()
    assert window.open_workspace(demo / "dossier_workspace")
    assert p.actor_id == "" and "p-gone" in p.actor_label.text()
    p.close_workspace()


def test_a_cut_journal_shows_the_witness_mismatch(window, demo: Path) -> None:
    journal = demo / "dossier_workspace" / "journal"
    assert window.open_workspace(demo / "dossier_workspace")
    window.dossier.close_workspace()  # its head is now witnessed on this machine
    for action_file in sorted(journal.iterdir())[1:]:  # every action but the first removed
        action_file.unlink()
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    text = window.dossier.journal_status.text()
    assert "JOURNAL_HEAD_MISMATCH" in text and "does NOT reach the head" in text
    assert "read-only" in window.dossier.folder_label.text()
    window.dossier.close_workspace()


def _make_training_side(panel, field: str, who: str) -> None:
    """As the lead, edit the draft so that ``who`` is a training-side identity."""
    dialog_values = (["independence_plan", field], who)
    panel.edit_dialog = lambda: _FakeDialog(*dialog_values)
    assert act(panel, "p-lead-ada", Action.EDIT).outcome.value == "applied"


class _FakeDialog:
    def __init__(self, path: list[str], value: object) -> None:
        self._path, self._value = path, value

    def exec(self) -> bool:
        return True

    def path(self) -> list[str]:
        return self._path

    def value(self) -> object:
        return self._value


@pytest.mark.parametrize(
    ("field", "who", "steps", "refused_step", "capacity"),
    [
        ("training_identity", "p-lead-bo", [], ("p-lead-bo", Action.BIND), "training_identity"),
        (
            "provider_identity",
            "p-eval-dee",
            [("p-lead-ada", Action.BIND)],
            ("p-eval-dee", Action.CHECK),
            "provider_identity",
        ),
    ],
)
def test_separation_of_duties_refusals(panel, field, who, steps, refused_step, capacity) -> None:
    _make_training_side(panel, field, who)
    for step in steps:
        assert act(panel, *step).outcome.value == "applied"
    panel.set_actor(refused_step[0])
    button = panel.buttons[refused_step[1]]
    assert button.property("blocked") == "SEPARATION_OF_DUTIES" and not button.isEnabled()
    assert f"independence_plan.{capacity}" in button.toolTip()
    result = panel.request_refusal(refused_step[1])
    assert result.outcome.value == "refused" and result.reason == "SEPARATION_OF_DUTIES"
    assert "Separation of duties" in panel.infos[-1]


def test_author_cannot_check_or_decide_own_dossier(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    panel.set_actor("p-lead-ada")
    assert panel.buttons[Action.CHECK].property("blocked") == "ACTOR_ROLE_NOT_PERMITTED"
    assert act(panel, "p-eval-cy", Action.CHECK).outcome.value == "applied"
    panel.set_actor("p-eval-cy")
    assert panel.buttons[Action.DECIDE_ELIGIBLE].property("blocked") == "ACTOR_ROLE_NOT_PERMITTED"
    panel.set_actor("p-maint-bot")  # an agent-kind maintainer is not a human maintainer
    assert "never a human maintainer" in panel.buttons[Action.DECIDE_ELIGIBLE].toolTip()


def test_edit_of_bound_evidence_creates_revision_and_expires_old(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    panel.edit_dialog = lambda: _FakeDialog(["power_analysis", "parameters", "seed"], 99)
    result = act(panel, "p-lead-ada", Action.EDIT)
    assert result.outcome.value == "applied_as_new_revision" and result.new_revision == 2
    assert any("EXPIRES revision 1" in c for c in panel.confirms)
    assert panel.current == ("dos-demo-ready", 2) and state(panel) == "draft"
    assert panel.ws.revision("dos-demo-ready", 1)["state"] == "expired"
    panel.select_dossier("dos-demo-ready", 1)
    assert "superseded by revision 2" in panel.verdict.text()
    assert "Expired:" in panel.verdict.text()


def test_changed_bound_package_makes_dossier_stale(panel, demo: Path) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.refresh()  # re-verify (the window's watcher would reload the package too)
    assert "Stale" in panel.verdict.text() and "package" in panel.verdict.text().lower()
    assert (
        "expires this revision instead" in panel.buttons[Action.CHECK].toolTip()
        or panel.state.stale
    )
    result = act(panel, "p-eval-cy", Action.CHECK)
    assert result.outcome.value == "expired"
    assert state(panel) == "expired"
    assert "Expired" in panel.verdict.text()


def test_tampered_journal_is_shown(window, demo: Path) -> None:
    journal_file = sorted((demo / "dossier_workspace" / "journal").iterdir())[1]
    entry = json.loads(journal_file.read_text())
    entry["at"] = "2020-01-01T00:00:00Z"
    journal_file.write_text(json.dumps(entry, sort_keys=True, separators=(",", ":")) + "\n")
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    assert "NOT valid" in panel.journal_status.text() and "#1" in panel.journal_status.text()
    assert "read-only" in panel.folder_label.text()
    panel.set_actor("p-lead-ada")
    assert "read-only" in panel.buttons[Action.BIND].toolTip()
    panel.close_workspace()


def test_second_window_is_refused(window, demo: Path, settings, qtbot, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from aa_review.qt.app import create_window

    assert window.open_workspace(demo / "dossier_workspace")
    other = create_window(settings)
    qtbot.addWidget(other)
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append(a[2]))
    assert not other.open_workspace(demo / "dossier_workspace")
    assert warned and "dossier_workspace" in warned[0]
    window.dossier.close_workspace()


def test_projection_previewed_then_exported(panel, tmp_path: Path) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE)
    assert panel.project_button.isEnabled()
    out = tmp_path / "projection.json"
    panel.show_projection(out)
    assert set(panel.last_projection_preview) <= set(PUBLIC_KEYS)
    text = out.read_text()
    assert json.loads(text)["outcome"] == "eligible"
    for private in ("p-lead-ada", "p-eval-cy", "p-maint-eve", "dos-demo-ready"):
        assert private not in text
    assert any(e.get("kind") == "projection_published" for e in journal(panel))


def test_gates_are_evaluated_only_when_the_panel_is_seen(window, demo: Path) -> None:
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    window.center.setCurrentWidget(window.rows)
    assert window.open_workspace(demo / "dossier_workspace")
    assert window.dossier.gate_model.rowCount() == 0  # hidden: nothing evaluated yet
    window.center.setCurrentWidget(window.dossier)
    assert window.dossier.gate_model.rowCount() == 11
    window.dossier.close_workspace()


def test_training_side_maintainer_cannot_decide(panel) -> None:
    """The third rule: the deciding maintainer may not be a training-side identity."""
    authorization = panel.ws.revision(*panel.current)["authorization"]
    _make_training_side(panel, "candidate_author_identity", "p-maint-fay")
    act(panel, "p-lead-ada", Action.BIND)
    # the edit changed the evidence digest, so the maintainer signs the authorization again
    panel.set_actor("p-maint-eve")
    signed = panel.authorize(authorization["amendment_ref"], authorization["amendment_digest"])
    assert signed is not None and signed.outcome.value == "applied"
    assert act(panel, "p-eval-cy", Action.CHECK).state_after == {"1": "independently_checked"}
    panel.set_actor("p-maint-fay")
    assert panel.buttons[Action.DECIDE_ELIGIBLE].property("blocked") == "SEPARATION_OF_DUTIES"
    assert "candidate_author_identity" in panel.buttons[Action.DECIDE_ELIGIBLE].toolTip()
    assert panel.request_refusal(Action.DECIDE_ELIGIBLE).reason == "SEPARATION_OF_DUTIES"
    assert act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE).outcome.value == "applied"


def test_g9_selects_what_it_rests_on_in_the_package(window, tmp_path: Path, settings) -> None:
    """A package whose rows cite hidden evidence: G9 fails from the window's own audit,
    and selecting it filters the rows to those citations and selects the hidden item."""
    import shutil

    from aa_review.generator import generate_package

    home = ensure_sample(tmp_path / "demo")
    bad = generate_package(
        tmp_path / "gen", rows=80, seed=4, package_id=SAMPLE_PACKAGE_ID, defects=["hidden_cited"]
    ).root
    shutil.rmtree(home / SAMPLE_PACKAGE_ID)
    shutil.copytree(bad, home / SAMPLE_PACKAGE_ID, symlinks=True)
    settings.setValue("audit/auto", "true")
    window.open_package(home / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(home / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    panel.select_dossier("dos-demo-ready")
    g9 = panel.gate_model.items[0]  # unmet first
    assert g9[0] == "G9" and "rows cite hidden evidence" in g9[3]
    window.rows.query.set_text("type:failure_case")
    panel.gate_view.setCurrentIndex(panel.gate_model.index(0, 0))
    assert window.rows.query.text() == "type:failure_case"  # offered, not rewritten
    offer = window.offer_button
    assert offer.isVisibleTo(window) and offer.text().startswith("Show the ")
    offer.click()
    assert offer.text() == "Restore your queries"  # the next offer: the user's query back
    assert window.rows.query.text() == "finding:link.hidden_cited"  # the rows G9 names
    assert window.rows.model.rowCount() > 0
    ev = window.session.package.evidence_at(window.session.selection.current.evidence)
    assert ev is not None and ev.visibility == "hidden_excluded"
    panel.close_workspace()


def test_deferred_operation_is_denied_even_when_eligible(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE)
    count = len(journal(panel))
    result = panel.attempt_operation("export_dataset")
    assert result is not None and result["decision"] == "denied"
    assert "operation_denied entry" in panel.confirms[-1]  # confirmed first
    assert "denied" in panel.infos[-1] and len(journal(panel)) == count + 1
    rows = panel.denial_model.items
    assert rows and rows[-1][1] == "p-maint-eve (human_maintainer)"
    assert rows[-1][2] == "export_dataset" and rows[-1][4] == "denied"
    assert rows[-1][5].startswith("activation is deferred")  # the reason in words
    panel.select_dossier("dos-demo-contaminated")  # the log is filtered by dossier
    assert panel.denial_model.rowCount() == 0
    panel.tabs.denials_only_dossier.setChecked(False)
    assert panel.denial_model.rowCount() == 1


@pytest.fixture
def g1_runs(monkeypatch) -> list[int]:
    """Revisions G1 (the seeded power simulation) is evaluated for, from now on."""
    from aa_review.core.dossier import GATES

    runs: list[int] = []
    g1 = GATES["G1"]
    monkeypatch.setitem(GATES, "G1", lambda ctx: runs.append(ctx.parsed.model.revision) or g1(ctx))
    return runs


def statuses(panel) -> list[str]:
    return [row[1] for row in sorted(panel.gate_model.items, key=lambda r: int(r[0][1:]))]


def test_changing_the_actor_evaluates_nothing(panel, g1_runs) -> None:
    rows = list(panel.gate_model.items)
    for who in ("p-eval-cy", "p-lead-ada", "p-maint-eve", "p-agent-gus", "p-eval-cy"):
        panel.set_actor(who)
        assert [r[:3] for r in panel.gate_model.items] == [r[:3] for r in rows]
        # what the actor may see still follows the actor: private intervals for evaluators
        assert ("Power: base" in panel.metrics.text()) and (
            ("[0." in panel.metrics.text()) is (who == "p-eval-cy")
        )
    assert g1_runs == []


def test_a_transition_or_a_changed_package_reevaluates(panel, demo: Path, g1_runs) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    assert g1_runs == [1] and statuses(panel) == ["pass"] * 11
    panel.set_actor("p-eval-cy")
    assert g1_runs == [1]
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.refresh()
    # the bound package changed: the revision would expire, so no gate is evaluated
    assert statuses(panel) == ["unknown"] * 11 and not panel.record.eligible_if_decided
    assert "Stale" in panel.verdict.text()


def test_an_edit_or_a_changed_package_of_a_draft_reevaluates(panel, demo: Path, g1_runs) -> None:
    panel.edit_dialog = lambda: _FakeDialog(["license", "license_id"], "SYN-EVAL-ONLY-1.0")
    assert act(panel, "p-lead-ada", Action.EDIT).outcome.value == "applied"  # in place
    assert g1_runs == [1]
    # G6 for the license; G8 because the authorization signed the old evidence digest
    assert [r[0] for r in panel.gate_model.items if r[1] != "pass"] == ["G6", "G8"]
    panel.set_actor("p-maint-eve")
    assert g1_runs == [1] and statuses(panel)[5] == "fail"
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.refresh()
    assert g1_runs == [1, 1]
    assert "package" in panel.verdict.text().lower()
    assert any("PACKAGE_CHANGED" in c for c in panel.record.dossier_reason_codes)


def test_changing_the_actor_does_no_package_work_on_the_gui_thread(
    window, demo: Path, qtbot, monkeypatch
) -> None:
    """Package work (hashing, auditing) runs off the GUI thread, and the open package is
    hashed once: by the window, whose digest the dossier takes; choosing who acts does no
    work at all."""
    import threading

    import aa_review.core.audits as audit_module
    from aa_review.core.dossier import _packages
    from aa_review.core.session import _prepare

    def gui() -> bool:
        return threading.current_thread() is threading.main_thread()

    monkeypatch.setenv("AA_REVIEW_SYNCHRONOUS", "0")
    by_dossier: list[bool] = []  # the workspace hashing a bound package (True: GUI thread)
    real = _packages.package_digest
    monkeypatch.setattr(
        _packages,
        "package_digest",
        lambda root, *a, **k: by_dossier.append(gui()) or real(root, *a, **k),
    )
    by_window: list[tuple[str, bool]] = []  # each file the window's digest hashed
    real_file = _prepare.file_sha256
    monkeypatch.setattr(
        _prepare,
        "file_sha256",
        lambda root, rel: by_window.append((rel, gui())) or real_file(root, rel),
    )
    audits: list[bool] = []  # G9's look at the package (no audit ran)
    real_rows = audit_module.contamination_rows
    monkeypatch.setattr(
        audit_module, "contamination_rows", lambda pkg: audits.append(gui()) or real_rows(pkg)
    )
    window.open_package(demo / SAMPLE_PACKAGE_ID)  # loaded in a thread; no audit
    qtbot.waitUntil(
        lambda: window.session.package is not None and not window.controller.busy("load"),
        timeout=60_000,
    )
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    prompts(panel)
    qtbot.waitUntil(lambda: not panel.busy and panel.state is not None, timeout=60_000)
    assert by_dossier == [] and audits == [False]  # the window's digest; G9 in the worker
    files = [rel for rel, _ in by_window]
    assert files and len(files) == len(set(files)) and not any(g for _, g in by_window)
    assert panel.state.snapshot.freshness.blocking == ()  # the package verified as bound
    for who in ("p-lead-ada", "p-eval-cy", "p-maint-eve", "p-lead-ada"):
        panel.set_actor(who)
        assert not panel.busy  # nothing was handed to the worker either
    assert by_dossier == [] and audits == [False] and len(by_window) == len(files)
    assert panel.request(Action.BIND) is None  # asynchronous: the result comes later
    assert panel.busy and not panel.buttons[Action.BIND].isEnabled()
    assert panel.progress_row.isVisibleTo(panel)
    qtbot.waitUntil(lambda: not panel.busy, timeout=60_000)
    assert state(panel) == "evidence_bound" and panel.last_result.outcome.value == "applied"
    assert by_dossier == [] and True not in audits and len(by_window) == len(files)
    panel.close_workspace()


def test_a_blocked_decision_says_why_and_can_be_journaled_as_refused(panel, demo: Path) -> None:
    """T5's precondition: with the bound package no longer verifiable here, deciding
    eligible is disabled (no dossier-level reason may block), deferring is not."""
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    # The window closed the package, and the folder it was bound from is gone too.
    (demo / SAMPLE_PACKAGE_ID).rename(demo.parent / "moved-away")
    panel.set_package_facts(None)
    panel.set_actor("p-maint-eve")
    eligible = panel.buttons[Action.DECIDE_ELIGIBLE]
    assert not eligible.isEnabled() and eligible.property("blocked") == "PRECONDITION_UNMET"
    assert "no dossier-level reason" in eligible.toolTip()
    assert panel.buttons[Action.DEFER].isEnabled()  # a human may always defer (T4)
    assert "a decision to defer" in panel.state.next_step
    result = panel.request_refusal(Action.DECIDE_ELIGIBLE)
    assert result.reason == "PRECONDITION_UNMET"
    assert journal(panel)[-1]["kind"] == "transition_refused"
    assert state(panel) == "independently_checked"


def test_the_panel_waits_for_the_digest_the_window_computes(
    window, demo: Path, monkeypatch
) -> None:
    """A package the window holds but has not hashed yet is hashed once, by the window:
    the panel asks for the digest and waits, instead of hashing it a second time."""
    from aa_review.core.dossier import _packages
    from aa_review.core.package.digest import package_digest

    # The window's own digest job (run at open for a small package) is held back here.
    monkeypatch.setattr(window.controller, "ensure_digest", lambda: None)
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    pkg = window.session.package
    digest = package_digest(pkg.root)
    monkeypatch.setattr(_packages, "package_digest", lambda *a, **k: pytest.fail("hashed"))
    panel = window.dossier
    asked: list[int] = []
    panel.request_digest = lambda: asked.append(1)
    facts = window.session.facts
    assert facts is not None and facts.digest is None  # not hashed yet
    panel.set_open_package(facts, window.session.report)  # as the window hands it
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    assert asked == [1] and panel.state is None
    assert panel.progress_label.text() == "Waiting for the package digest…"
    # The window's digest: the review session replaces its facts, the window hands them on.
    assert window.session.set_digest(window.session.version, digest)
    assert panel.session._facts is window.session.facts
    assert panel.state is not None and panel.state.snapshot.freshness.blocking == ()
    assert asked == [1] and not panel.progress_row.isVisible()
    panel.close_workspace()


def test_all_eleven_gates_show_at_1366x768_without_scrolling(window, demo: Path) -> None:
    """Spec 12 and the guided sign-off: the gate table fits all eleven gates at 1366x768,
    and the tab takes the page's height instead of scrolling as a whole."""
    from PySide6.QtWidgets import QApplication

    window.resize(1366, 768)
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    panel.select_dossier("dos-demo-contaminated")
    for _ in range(5):
        QApplication.processEvents()
    view = panel.gate_view
    assert view.viewport().height() >= 11 * view.verticalHeader().defaultSectionSize()
    assert view.rowAt(view.viewport().height() - 1) in (-1, 10)  # G11 in view, no scroll
    page = panel.parentWidget().parentWidget()  # the window's scroll area around the tab
    assert panel.height() <= page.viewport().height()
    panel.close_workspace()


def test_the_palette_names_each_step_once_in_full(panel) -> None:
    """Narrow, the buttons show short names; the command palette still says each step
    in full, once, and a step the actor may not take writes nothing from there either."""
    window = panel.window()
    panel.set_actor("p-agent-gus")
    labels = [e.label for e in window.dossier_commands()]
    steps = [x for x in labels if x.startswith("Dossier: ")]
    assert [x.split(" — ")[0] for x in steps] == [
        "Dossier: Bind evidence",
        "Dossier: Run independent check",
        "Dossier: Decide eligible",
        "Dossier: Decide deferred",
        "Dossier: Edit evidence…",
        "Dossier: Authorize amendment proposal…",
        "Dossier: Public projection…",
    ]
    # none is p-agent-gus's to take: each says why (the panel's own reason)
    assert all(" — unavailable: " in x for x in steps)
    assert "needs role training_research_lead" in steps[0]
    # and whom to act as instead follows them
    assert all(x.startswith("Act as: ") for x in labels[len(steps) :])
    before = _journal_bytes(panel.folder)
    for entry in window.dossier_commands():
        entry.run()
    assert _journal_bytes(panel.folder) == before


def test_importing_a_dossier_file_in_the_window_refuses_with_place_rule_and_remedy(
    panel, tmp_path: Path
) -> None:
    # Spec 15 / issue 22: a refused import names the JSON path, the rule and what would
    # satisfy it, in the window too, and changes nothing.
    import json

    warns: list[str] = []
    panel.warn = lambda title, text: warns.append(text)
    tree = panel.ws.revision("dos-demo-ready", 1)
    good = {k: v for k, v in tree.items() if k not in ("imported_untrusted",)}
    good.update(dossier_id="dos-imported", revision=1, state="draft", check=None, binding=None)
    bad = {**good, "spec_revision": 1.0, "state": "Draft"}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    (tmp_path / "good.json").write_text(json.dumps(good))
    panel.set_actor("p-lead-ada")
    assert panel.import_button.isEnabled()
    before = journal(panel)
    panel.import_file(tmp_path / "bad.json")
    assert len(warns) == 1 and "was not imported and nothing was journaled" in warns[0]
    assert "spec_revision:" in warns[0] and "state:" in warns[0]
    assert "READINESS_DOSSIER.md 15" in warns[0] and "to fix: write one of" in warns[0]
    assert journal(panel) == before and "dos-imported" not in panel.ws.dossier_ids()
    panel.import_file(tmp_path / "good.json")
    assert len(warns) == 1  # nothing more to warn about
    assert "dos-imported" in panel.ws.dossier_ids()
    assert panel.current == ("dos-imported", 1)
    assert journal(panel)[-1]["kind"] == "imported"


@pytest.mark.parametrize(
    ("dossier", "actor"),
    [("dos-demo-contaminated", None), ("dos-demo-ready", "p-maint-eve")],
)
def test_the_revision_box_shows_its_whole_text_at_1366(
    window, demo: Path, dossier: str, actor: str | None
) -> None:
    """Seen in a screenshot: the box read "revision" for "revision 1" (sized while empty;
    then squeezed by the acting principal's long line, the demo's note included)."""
    from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionComboBox

    window.resize(1366, 768)
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    panel.select_dossier(dossier)
    panel.wait_idle()
    if actor is not None:  # the sign-off, as the demo walks it, ending as ``actor``
        panel.confirm = lambda title, text: True
        for who, step in (
            ("p-lead-ada", "Bind evidence"),
            ("p-eval-cy", "Run independent check"),
            (actor, "Decide eligible"),
        ):
            panel.set_actor(who)
            panel.wait_idle()
            dict(panel.step_commands())[step].click()
            panel.wait_idle()
        assert panel.ws.revision(*panel.current)["state"] == "eligible"
    for _ in range(5):
        QApplication.processEvents()
    box = panel.revision_box
    assert box.currentText().startswith("revision ")
    # at 1366 and narrower (docks beside the tab), the box keeps its text whole
    for width in (1366, 1280, 1200):
        window.resize(width, 768)
        for _ in range(5):
            QApplication.processEvents()
        opt = QStyleOptionComboBox()
        box.initStyleOption(opt)
        field = box.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, box
        )
        assert field.width() >= box.fontMetrics().horizontalAdvance(box.currentText()), width
    panel.close_workspace()


def test_the_dossier_tab_tells_the_bound_packages_audit_beside_the_verdict(
    window, demo: Path
) -> None:
    """Issue 25 item 4: after open and audit the Dossier tab names the bound package's
    critical finding beside the verdict (not in it), and "Show findings" brings the
    Findings view forward; before the audit it says "not run"."""
    from PySide6.QtWidgets import QApplication

    window.resize(1366, 768)
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    panel.select_dossier("dos-demo-ready")
    panel.wait_idle()
    assert panel.audit_label.toolTip().startswith(
        f"Audit of the bound package {SAMPLE_PACKAGE_ID}: not run"
    )
    assert panel.audit_row.isVisible() and not panel.audit_link.isVisible()
    verdict = panel.verdict.text()
    window.controller.run_audit()
    assert window.session.report is not None
    panel.wait_idle()
    for _ in range(3):
        QApplication.processEvents()
    full = panel.audit_label.toolTip()
    assert "1 critical" in full and "worst privacy.secret (critical)" in full
    assert window.session.report.summary_line() in full  # the report's own line
    shown = panel.audit_label.text()  # in view at 1366x768, not elided away
    assert "worst privacy.secret (critical)" in shown and "1 critical" in shown
    assert "privacy.secret" not in panel.verdict.text() and panel.verdict.text() == verdict
    assert panel.audit_link.isVisible()
    window.docks["evidence"].raise_()
    panel.audit_link.linkActivated.emit("findings")
    QApplication.processEvents()
    assert not window.docks["findings"].visibleRegion().isEmpty()
    assert window.docks["evidence"].visibleRegion().isEmpty()
    panel.close_workspace()
