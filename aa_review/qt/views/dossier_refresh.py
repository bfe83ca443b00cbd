"""What the dossier panel shows for a revision, and how it forwards a request to the workspace."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtWidgets import QMessageBox

from aa_review.core import dossier as dz
from aa_review.core.findings import distinct_sorted

if TYPE_CHECKING:
    from aa_review.qt.views.dossier_panel import DossierPanel

__all__ = ["refresh_panel", "perform", "REFUSAL_WORDS"]

REFUSAL_WORDS = {
    "TRANSITION_ILLEGAL": "this step is not possible from the revision's current state",
    "ACTOR_ROLE_NOT_PERMITTED": "the principal you act as does not hold the role this step "
    "needs (or is not a human, where a human maintainer is required)",
    "SEPARATION_OF_DUTIES": "separation of duties: the author, binder, checker and deciding "
    "maintainer must be different people, none of them on the training side",
    "PRECONDITION_UNMET": "a precondition of this step is not met",
    "WORKSPACE_READ_ONLY": "the workspace is read-only because its journal failed verification",
    "JOURNAL_WRITE_FAILED": "the journal could not be written; nothing was changed",
    "ACTOR_KEY_UNAVAILABLE": "the private key of the principal you act as is not on this "
    "machine (aa-review keys create / show); nothing was journaled",
}
_BLOCKED_STYLE = "QPushButton { color: palette(mid); }"


def _banner(panel: DossierPanel, d: str, r: int, rev: dict[str, Any],
            fresh: dz.Freshness) -> None:
    from aa_review.qt.views.dossier_panel import _STATE_COLORS

    state = str(rev.get("state"))
    color = _STATE_COLORS.get(state, "#546e7a")
    text = f"<b>{d}</b> revision {r}: <span style='color:{color}'><b>{state}</b></span>"
    latest = panel.ws.revisions(d)[-1] if panel.ws else r
    if r != latest:
        text += f" — superseded by revision {latest}"
    reasons = [dz.humanize_code(c) for c in fresh.expiring]
    if state == "expired":
        expired_by = _expiry_reason(panel, d, r)
        text += ("<br><span style='color:#c62828'><b>Expired</b>: "
                 f"{expired_by or '; '.join(reasons) or 'see the journal'}</span>")
    elif reasons:
        text += ("<br><span style='color:#c62828'><b>Stale</b>: the next step will expire it: "
                 f"{'; '.join(reasons)}</span>")
    if fresh.changed_sections:
        text += f"<br>Changed evidence sections: {', '.join(fresh.changed_sections)}"
    if fresh.blocking:
        text += "<br>Blocks eligibility: " + "; ".join(dz.humanize_code(c) for c in fresh.blocking)
    text += "<br><i>Eligible grants nothing: it only permits proposing a human-merged " \
            "activation amendment.</i>"
    panel.banner.setText(text)


def _expiry_reason(panel: DossierPanel, d: str, r: int) -> str | None:
    assert panel.ws is not None
    for e in reversed(panel.ws.journal_entries()):
        if isinstance(e, dict) and e.get("dossier_id") == d and e.get("revision") == r \
                and e.get("to_state") == "expired":
            payload = e.get("payload") or {}
            codes = payload.get("reasons") or payload.get("reason_codes") or \
                payload.get("expiring") or []
            if isinstance(codes, str):
                codes = [codes]
            return "; ".join(dz.humanize_code(str(c)) for c in codes) or None
    return None


def effective_action(action: dz.Action, state: object) -> dz.Action:
    """A draft is edited in place (T0); a bound revision by a new revision (T7)."""
    return dz.Action.EDIT_DRAFT if action is dz.Action.EDIT and state == "draft" else action


def refresh_panel(panel: DossierPanel) -> None:
    ws, cur = panel.ws, panel.current
    if ws is None or cur is None:
        return
    if panel.previews is None or panel.previews.ws is not ws:  # one cache per workspace
        panel.previews = dz.PreviewCache(ws)
    previews = panel.previews
    d, r = cur
    rev = ws.revision(d, r)
    actor = panel.actor
    # The core re-evaluates only when something the verdict depends on has changed.
    fresh, record = previews.preview(d, r, actor)
    _banner(panel, d, r, rev, fresh)
    for action, button in panel.buttons.items():
        why = dz.refusal_for(ws, effective_action(action, rev.get("state")), d, r, actor)
        button.setEnabled(True)  # a blocked button still explains itself when clicked
        button.setStyleSheet(_BLOCKED_STYLE if why else "")
        button.setProperty("blocked", why)
        button.setToolTip((button.toolTip().split("\n")[0]) +
                          (f"\nNot now: {REFUSAL_WORDS.get(why, why)}" if why else ""))
    panel.project_button.setEnabled(rev.get("state") in ("eligible", "deferred", "expired"))
    panel.authorize_button.setEnabled(rev.get("state") in ("draft", "evidence_bound"))
    panel.record = record
    rows = dz.gate_rows(record)
    bound = {p.get("package_id") for p in (rev.get("evidence") or {}).get("source_packages") or []
             if isinstance(p, dict)}
    hidden = _hidden_citations(panel) if panel.package_root is not None and \
        panel.package_root.name in bound else 0
    tips = ["" for _ in rows]
    if hidden:
        rows = [(g, t, s, reasons + f"; package audit: {hidden} rows cite hidden evidence", m)
                if g == "G9" else (g, t, s, reasons, m) for g, t, s, reasons, m in rows]
        tips = ["Select G9 to see those rows in the package views" if g == "G9" else ""
                for g, *_ in rows]
    panel.gate_model.set_items(rows, tooltips=tips)
    panel.gate_view.resizeColumnsToContents()
    principal = ws.principals.get(actor)
    private = principal is not None and principal.role.value == "independent_evaluator"
    lines = dz.metrics_lines(record, private)
    stored = rev.get("check")
    lines.insert(0, ("Gates as evaluated now (live); the stored check of "
                     f"{stored.get('checked_at')} by {stored.get('checked_by')} is in the journal."
                     if isinstance(stored, dict) else
                     "Gates as evaluated now (live): nothing is recorded until the independent "
                     "check runs."))
    panel.metrics.setText("\n".join(lines))
    _history(panel, d)
    _journal(panel, d)
    _plots(panel, previews, d, r, record)


def _hidden_citations(panel: DossierPanel) -> int:
    if panel.audit is None:
        return 0
    hidden = [f for f in panel.audit.findings if f.code == "link.hidden_cited"]
    rows = [f.locations.row_positions() for f in hidden]  # every citing row, each once
    return len(distinct_sorted(np.concatenate(rows))) if rows else 0


def _history(panel: DossierPanel, d: str) -> None:
    assert panel.ws is not None
    items = []
    for rr in panel.ws.revisions(d):
        rv = panel.ws.revision(d, rr)
        items.append((rr, rv.get("state"), rv.get("created_at"), rv.get("created_by"),
                      rv.get("supersedes")))
    panel.history_model.set_items(items)


_SIGNATURE_MARKS = {"valid": "✓", "invalid": "✗ INVALID", "missing": "✗ MISSING",
                    "not_required": "(no key)", "unchecked": "?"}


def _journal(panel: DossierPanel, d: str) -> None:
    assert panel.ws is not None
    status = panel.ws.journal_status()  # the core verifies; the panel only shows
    signed = {s["seq"]: s for s in status["signatures"]}
    items = []
    for e in status["entries"]:
        if not isinstance(e, dict) or e.get("dossier_id") not in (d, None):
            continue
        actor = e.get("actor") or {}
        move = f"{e.get('from_state') or '∅'} → {e.get('to_state') or '∅'}"
        what = e.get("kind", "")
        reason = (e.get("payload") or {}).get("reason")
        sig = signed.get(e.get("seq"))
        signer = f"{sig['signer']} {_SIGNATURE_MARKS.get(sig['status'], sig['status'])}" \
            if sig else "— not verified"
        items.append((e.get("seq"), e.get("at"), actor.get("principal_id"), actor.get("role"),
                      what + (f" ({reason})" if reason else ""), signer, move,
                      str(e.get("entry_hash", ""))[:23] + "…"))
    panel.journal_model.set_items(items)
    verdict, witness = status["verdict"], status["witness"]
    seen = witness.get("witnessed") or {}
    witness_text = {
        "matches": f"matches this machine's witness (head #{seen.get('seq')})",
        "mismatch": "does NOT reach the head this machine witnessed: entries were cut, "
                    "removed or rewritten",
        "unwitnessed_tail": "the last head could not be recorded in the witness store",
    }.get(str(witness.get("status")), "not witnessed yet (empty journal)")
    if verdict.get("valid"):
        signers = {s["status"] for s in status["signatures"]}
        sig_text = ("every entry signed by its principal" if signers <= {"valid"}
                    else "entries of principals without a key are unsigned")
        panel.journal_status.setText(f"Journal verified: {verdict.get('entries')} entries, "
                                     f"hash chain intact, {sig_text}. Witness: {witness_text}.")
        panel.journal_status.setStyleSheet("color: #2e7d32;")
    else:
        panel.journal_status.setText(
            f"Journal NOT valid: first bad entry #{verdict.get('first_bad_seq')}: "
            f"{verdict.get('reason')}. Witness: {witness_text}. The workspace is read-only "
            "until a human repairs it.")
        panel.journal_status.setStyleSheet("color: #c62828; font-weight: bold;")
    denials = []
    for e in panel.ws.denial_log():
        p = e.get("payload") or {}
        denials.append((e.get("at"), (e.get("actor") or {}).get("principal_id"),
                        p.get("op"), p.get("target"), "denied",
                        dz.humanize_code(str(p.get("reason_code", "")))))
    panel.denial_model.set_items(denials)


def _plots(panel: DossierPanel, previews: dz.PreviewCache, d: str, r: int,
           record: dz.CheckRecord) -> None:
    assert panel.ws is not None
    panel.plots.show_power(previews.power_curve(d, r))
    panel.plots.show_bounds(*dz.lower_rung_bounds(record, panel.ws._get(d, r)))


def perform(panel: DossierPanel, action: dz.Action) -> dz.TransitionResult | None:
    """Forward one request to the workspace; confirmations for sign-offs and edits."""
    ws, cur, actor = panel.ws, panel.current, panel.actor
    if ws is None or cur is None:
        return None
    d, r = cur
    state = ws.revision(d, r).get("state")
    blocked = dz.refusal_for(ws, effective_action(action, state), d, r, actor)
    digest = ws._get(d, r).evidence_digest
    if blocked is None and action in (dz.Action.BIND, dz.Action.DECIDE_ELIGIBLE):
        what = "Bind" if action is dz.Action.BIND else "Decide eligible for"
        if not panel.confirm("Sign off", f"{what} {d} revision {r} as {actor}?\n\n"
                             f"You are signing the evidence digest\n{digest}"):
            return None
    if action is dz.Action.EDIT:
        if blocked is None:
            return _edit(panel, d, r, actor)
        # Asked anyway so the workspace refuses it and the journal records the attempt.
        result = ws.edit_evidence(d, r, actor, ["dataset_plan"],
                                  ws.revision(d, r)["evidence"].get("dataset_plan"))
    else:
        call = {dz.Action.BIND: ws.bind, dz.Action.CHECK: ws.check,
                dz.Action.DECIDE_ELIGIBLE: ws.decide_eligible,
                dz.Action.DEFER: ws.decide_deferred}[action]
        result = call(d, r, actor)
    _report(panel, action, result)
    return result


def _edit(panel: DossierPanel, d: str, r: int, actor: str) -> dz.TransitionResult | None:
    assert panel.ws is not None
    dialog = panel.edit_dialog()
    if not dialog.exec():
        return None
    path, value = dialog.path(), dialog.value()
    state = panel.ws.revision(d, r).get("state")
    if state != "draft" and not panel.confirm(
            "Edit bound evidence",
            f"Revision {r} is {state}. Editing its evidence creates revision "
            f"{panel.ws.revisions(d)[-1] + 1} in draft and EXPIRES revision {r}.\n\nGo ahead?"):
        return None
    result = panel.ws.edit_evidence(d, r, actor, path, value)
    _report(panel, dz.Action.EDIT, result)
    return result


def _report(panel: DossierPanel, action: dz.Action, result: dz.TransitionResult) -> None:
    outcome = result.outcome.value
    if outcome == "refused":
        words = REFUSAL_WORDS.get(result.reason or "", result.reason or "")
        panel.inform("Refused", f"{action.value} was refused: {words}.\n"
                     f"({result.reason}; " + ("nothing was journaled: no one who can sign "
                     "here asked.)" if result.reason == "ACTOR_KEY_UNAVAILABLE" else
                     "the refusal is recorded in the journal.)"))
    elif outcome == "expired":
        panel.inform("Expired", "The revision has expired instead: "
                     f"{dz.humanize_code(result.reason or '')}.")
    d = panel.dossier_box.currentData()
    if result.new_revision is not None:
        panel._dossier_changed(select_latest=True)
    elif d is not None:
        refresh_panel(panel)
    panel.last_result = result


def confirm_box(parent: Any, title: str, text: str) -> bool:
    return QMessageBox.question(parent, title, text) == QMessageBox.StandardButton.Yes


def authorize(panel: DossierPanel, ref: str | None, digest: str | None
              ) -> dz.TransitionResult | None:
    """G8 sign-off: confirm naming the evidence digest, then ask the workspace."""
    from PySide6.QtWidgets import QInputDialog

    ws, cur, actor = panel.ws, panel.current, panel.actor
    if ws is None or cur is None:
        return None
    d, r = cur
    current = ws.revision(d, r).get("authorization") or {}
    for label, value, key in (("Amendment ref", ref, "amendment_ref"),
                              ("Amendment digest (sha256:…)", digest, "amendment_digest")):
        if value is None:
            value, ok = QInputDialog.getText(panel, "Authorize amendment proposal", label,
                                             text=str(current.get(key) or ""))
            if not ok:
                return None
        if key == "amendment_ref":
            ref = value
        else:
            digest = value
    evidence = ws._get(d, r).evidence_digest
    if not panel.confirm("Sign off", f"Authorize proposing amendment {ref} for {d} revision "
                         f"{r} as {actor}?\n\nYou are signing the evidence digest\n{evidence}"):
        return None
    result = ws.authorize_amendment(d, r, actor, str(ref), str(digest))
    _report(panel, dz.Action.BIND, result) if result.outcome.value == "refused" else \
        refresh_panel(panel)
    panel.last_result = result
    return result
