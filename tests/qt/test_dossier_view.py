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


@pytest.fixture
def panel(window, demo: Path):
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    p = window.dossier
    p.confirms: list[str] = []
    p.infos: list[str] = []
    p.confirm = lambda title, text: p.confirms.append(text) or True
    p.inform = lambda title, text: p.infos.append(text)
    p.dossier_box.setCurrentIndex(p.dossier_box.findData("dos-demo-ready"))
    yield p
    p.close_workspace()


def act(panel, who: str, action: Action):
    panel.actor_box.setCurrentIndex(panel.actor_box.findData(who))
    return panel.request(action)


def state(panel) -> str:
    return panel.ws.revision(*panel.current)["state"]


def test_draft_to_eligible_with_three_principals(panel) -> None:
    assert state(panel) == "draft"
    assert [r[2] for r in panel.gate_model.items] == ["pass"] * 11  # live, before any check
    assert act(panel, "p-lead-ada", Action.BIND).outcome.value == "applied"
    assert state(panel) == "evidence_bound"
    digest = panel.ws._get(*panel.current).evidence_digest
    assert digest in panel.confirms[-1]  # the sign-off named what was signed
    assert act(panel, "p-eval-cy", Action.CHECK).outcome.value == "applied"
    assert state(panel) == "independently_checked"
    assert act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE).outcome.value == "applied"
    assert state(panel) == "eligible"
    assert "eligible" in panel.banner.text() and "grants nothing" in panel.banner.text()
    kinds = [row[4] for row in panel.journal_model.items]
    assert kinds.count("transition") == 3
    assert "Journal verified" in panel.journal_status.text()
    # Who signed each entry, checked against the registry's keys (spec 10.2, 12).
    signed_by = [row[5] for row in panel.journal_model.items]
    assert signed_by[-1] == "p-maint-eve ✓" and "p-eval-cy ✓" in signed_by
    assert "every entry signed by its principal" in panel.journal_status.text()
    assert "matches this machine's witness" in panel.journal_status.text()


def test_a_cut_journal_shows_the_witness_mismatch(window, demo: Path) -> None:
    journal = demo / "dossier_workspace" / "journal.jsonl"
    assert window.open_workspace(demo / "dossier_workspace")
    window.dossier.close_workspace()  # its head is now witnessed on this machine
    journal.write_bytes(journal.read_bytes().splitlines(keepends=True)[0])
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    text = window.dossier.journal_status.text()
    assert "JOURNAL_HEAD_MISMATCH" in text and "does NOT reach the head" in text
    assert "read-only" in window.dossier.folder_label.text()
    window.dossier.close_workspace()


def test_buttons_follow_roles_and_blocked_ones_explain(panel) -> None:
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-eval-cy"))
    assert panel.buttons[Action.BIND].property("blocked") == "ACTOR_ROLE_NOT_PERMITTED"
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-lead-ada"))
    assert panel.buttons[Action.BIND].property("blocked") is None
    result = act(panel, "p-agent-gus", Action.BIND)
    assert result.outcome.value == "refused" and result.reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert "does not hold the role" in panel.infos[-1]
    refused = [e for e in panel.ws.journal_entries() if e.get("kind") == "transition_refused"]
    assert refused and refused[-1]["actor"]["principal_id"] == "p-agent-gus"
    # a maintainer of kind agent is not a human maintainer
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    assert act(panel, "p-maint-bot", Action.DECIDE_ELIGIBLE).reason == "ACTOR_ROLE_NOT_PERMITTED"


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


@pytest.mark.parametrize(("field", "who", "steps", "refused_step"), [
    ("training_identity", "p-lead-bo", [], ("p-lead-bo", Action.BIND)),
    ("provider_identity", "p-eval-dee", [("p-lead-ada", Action.BIND)],
     ("p-eval-dee", Action.CHECK)),
])
def test_separation_of_duties_refusals(panel, field, who, steps, refused_step) -> None:
    _make_training_side(panel, field, who)
    for step in steps:
        assert act(panel, *step).outcome.value == "applied"
    panel.actor_box.setCurrentIndex(panel.actor_box.findData(refused_step[0]))
    assert panel.buttons[refused_step[1]].property("blocked") == "SEPARATION_OF_DUTIES"
    result = act(panel, *refused_step)
    assert result.outcome.value == "refused" and result.reason == "SEPARATION_OF_DUTIES"
    assert "separation of duties" in panel.infos[-1]


def test_author_cannot_check_or_decide_own_dossier(panel) -> None:
    # the author (p-lead-ada) binds; a checker is someone else; the deciding maintainer
    # must differ from the author, binder and checker: roles already keep them apart,
    # and an agent-kind maintainer is refused as not human
    act(panel, "p-lead-ada", Action.BIND)
    assert act(panel, "p-lead-ada", Action.CHECK).reason == "ACTOR_ROLE_NOT_PERMITTED"
    assert act(panel, "p-eval-cy", Action.CHECK).outcome.value == "applied"
    assert act(panel, "p-eval-cy", Action.DECIDE_ELIGIBLE).reason == "ACTOR_ROLE_NOT_PERMITTED"


def test_edit_of_bound_evidence_creates_revision_and_expires_old(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    panel.edit_dialog = lambda: _FakeDialog(["power_analysis", "parameters", "seed"], 99)
    result = act(panel, "p-lead-ada", Action.EDIT)
    assert result.outcome.value == "applied_as_new_revision" and result.new_revision == 2
    assert any("EXPIRES revision 1" in c for c in panel.confirms)
    assert panel.current == ("dos-demo-ready", 2) and state(panel) == "draft"
    assert panel.ws.revision("dos-demo-ready", 1)["state"] == "expired"


def test_changed_bound_package_makes_dossier_stale(panel, demo: Path) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.refresh()
    assert "Stale" in panel.banner.text() and "package" in panel.banner.text().lower()
    result = act(panel, "p-eval-cy", Action.CHECK)
    assert result.outcome.value == "expired"
    assert state(panel) == "expired"
    assert "Expired" in panel.banner.text()


def test_tampered_journal_is_shown(window, demo: Path) -> None:
    journal = demo / "dossier_workspace" / "journal.jsonl"
    lines = journal.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["at"] = "2020-01-01T00:00:00Z"
    lines[1] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    journal.write_text("\n".join(lines) + "\n")
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    assert "NOT valid" in panel.journal_status.text() and "#1" in panel.journal_status.text()
    assert "read-only" in panel.folder_label.text()
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
    from aa_review.qt.views.dossier_dialogs import ProjectionDialog

    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE)
    dialog = ProjectionDialog(panel, panel.ws, *panel.current, "p-maint-eve")
    assert set(dialog.preview) <= set(PUBLIC_KEYS)
    out = tmp_path / "projection.json"
    exported = dialog.export(out)
    text = out.read_text()
    assert exported is not None and json.loads(text) == exported
    for private in ("p-lead-ada", "p-eval-cy", "p-maint-eve", "dos-demo-ready"):
        assert private not in text
    assert any(e.get("kind") == "projection_published" for e in panel.ws.journal_entries())


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
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-maint-eve"))
    signed = panel.authorize(authorization["amendment_ref"], authorization["amendment_digest"])
    assert signed is not None and signed.outcome.value == "applied"
    assert act(panel, "p-eval-cy", Action.CHECK).state_after == {"1": "independently_checked"}
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-maint-fay"))
    assert panel.buttons[Action.DECIDE_ELIGIBLE].property("blocked") == "SEPARATION_OF_DUTIES"
    result = act(panel, "p-maint-fay", Action.DECIDE_ELIGIBLE)
    assert result.reason == "SEPARATION_OF_DUTIES"
    assert act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE).outcome.value == "applied"


def test_g9_selects_what_it_rests_on_in_the_package(window, tmp_path: Path, settings) -> None:
    """A package whose rows cite hidden evidence: G9 shows the audit, and selecting it
    filters the rows to those citations and selects the hidden item."""
    import shutil

    from aa_review.generator import generate_package

    home = ensure_sample(tmp_path / "demo")
    bad = generate_package(tmp_path / "gen", rows=80, seed=4, package_id=SAMPLE_PACKAGE_ID,
                           defects=["hidden_cited"]).root
    shutil.rmtree(home / SAMPLE_PACKAGE_ID)
    shutil.copytree(bad, home / SAMPLE_PACKAGE_ID, symlinks=True)
    settings.setValue("audit/auto", "true")
    window.open_package(home / SAMPLE_PACKAGE_ID)
    assert window.open_workspace(home / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)
    panel = window.dossier
    panel.dossier_box.setCurrentIndex(panel.dossier_box.findData("dos-demo-ready"))
    g9 = next(r for r in panel.gate_model.items if r[0] == "G9")
    assert "rows cite hidden evidence" in g9[3]
    panel.gate_view.setCurrentIndex(panel.gate_model.index(8, 0))
    assert window.rows.query.text() == "evidence.visibility:hidden_excluded"
    assert window.rows.model.rowCount() > 0
    ev = window.session.package.evidence_at(window.session.selection.current.evidence)
    assert ev is not None and ev.visibility == "hidden_excluded"
    panel.close_workspace()


def test_deferred_operation_is_denied_even_when_eligible(panel) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    act(panel, "p-eval-cy", Action.CHECK)
    act(panel, "p-maint-eve", Action.DECIDE_ELIGIBLE)
    result = panel.attempt_operation("export_dataset")
    assert result is not None and result["decision"] == "denied"
    assert "denied" in panel.infos[-1]
    rows = panel.denial_model.items
    assert rows and rows[-1][1] == "p-maint-eve" and rows[-1][2] == "export_dataset"
    assert rows[-1][4] == "denied"


@pytest.fixture
def g1_runs(monkeypatch) -> list[int]:
    """Revisions G1 (the seeded power simulation) is evaluated for, from now on."""
    from aa_review.core.dossier import GATES

    runs: list[int] = []
    g1 = GATES["G1"]
    monkeypatch.setitem(GATES, "G1", lambda ctx: runs.append(ctx.parsed.model.revision)
                        or g1(ctx))
    return runs


def statuses(panel) -> list[str]:
    return [row[2] for row in panel.gate_model.items]


def test_changing_the_actor_reuses_the_evaluation(panel, g1_runs) -> None:
    rows = list(panel.gate_model.items)
    for who in ("p-eval-cy", "p-lead-ada", "p-maint-eve", "p-agent-gus", "p-eval-cy"):
        panel.actor_box.setCurrentIndex(panel.actor_box.findData(who))
        assert panel.gate_model.items == rows and panel.record.checked_by == who
        # what the actor may see still follows the actor: private intervals for evaluators
        assert ("Power: base" in panel.metrics.text()) and \
            (("[0." in panel.metrics.text()) is (who == "p-eval-cy"))
    assert g1_runs == []


def test_a_transition_or_a_changed_package_reevaluates(panel, demo: Path, g1_runs) -> None:
    act(panel, "p-lead-ada", Action.BIND)
    assert g1_runs == [1] and statuses(panel) == ["pass"] * 11
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-eval-cy"))
    assert g1_runs == [1]
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-lead-ada"))
    # the bound package changed: the revision would expire, so no gate is evaluated
    assert statuses(panel) == ["unknown"] * 11 and not panel.record.eligible_if_decided
    assert "Stale" in panel.banner.text()


def test_an_edit_or_a_changed_package_of_a_draft_reevaluates(panel, demo: Path,
                                                            g1_runs) -> None:
    panel.edit_dialog = lambda: _FakeDialog(["license", "license_id"], "SYN-EVAL-ONLY-1.0")
    assert act(panel, "p-lead-ada", Action.EDIT).outcome.value == "applied"  # in place
    assert g1_runs == [1]
    # G6 for the license; G8 because the authorization signed the old evidence digest
    assert [g for g, _t, st, *_ in panel.gate_model.items if st != "pass"] == ["G6", "G8"]
    panel.actor_box.setCurrentIndex(panel.actor_box.findData("p-maint-eve"))
    assert g1_runs == [1] and statuses(panel)[5] == "fail"
    manifest = demo / SAMPLE_PACKAGE_ID / "experience_compiler" / "compiler_manifest.json"
    manifest.write_text(manifest.read_text().replace('"domain"', '"domain" ', 1))
    panel.refresh()
    assert g1_runs == [1, 1]
    assert "package changed" in panel.banner.text().lower()
    assert any("PACKAGE_CHANGED" in c for c in panel.record.dossier_reason_codes)
