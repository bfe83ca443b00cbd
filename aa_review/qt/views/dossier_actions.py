"""What the dossier panel asks of the workspace: steps, sign-offs, refusals and denials on request.

Every call runs in the panel's worker, followed by a fresh snapshot. A step the
acting principal may not take does nothing when asked (it is disabled, and writes
nothing); asking for it so that the refusal is journaled goes through
:meth:`DossierActions.request_refusal`, which names what will be written and asks
first (spec 12). Confirmations name what is signed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from aa_review.core import dossier as dz
from aa_review.qt.views.dossier_dialogs import ProjectionDialog, write_projection

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from aa_review.qt.views.dossier_worker import DossierWorker

__all__ = ["DossierActions"]


class DossierActions:
    """The request half of :class:`~aa_review.qt.views.dossier_panel.DossierPanel`."""

    ws: dz.Workspace | None
    state: dz.PanelState | None
    snapshot: dz.Snapshot | None
    worker: DossierWorker
    actor_id: str
    last_result: Any
    _generation: int
    _want: tuple[str, int | None] | None
    _working: str
    confirm: Any
    inform: Any
    edit_dialog: Any
    _take: Any

    # -- steps ---------------------------------------------------------------------------
    def request(self, step: Any) -> Any:
        """Take ``step`` as the acting principal, when the panel state allows it.

        A disabled step writes nothing and returns None. Binding and deciding eligible
        are confirmed first, naming the evidence digest being signed; an edit opens
        its dialog. Returns the TransitionResult once done (at once in synchronous mode).
        """
        st, ws = self.state, self.ws
        if st is None or ws is None or self.worker.busy or step not in st.steps:
            return None
        view = st.steps[step]
        if not view.enabled:
            return None
        snap = st.snapshot
        d, r, actor = snap.dossier_id, snap.revision, self.actor_id
        if step is dz.AUTHORIZE:
            return self.authorize()
        if step is dz.Action.EDIT:
            return self._edit(st)
        if step in (dz.Action.BIND, dz.Action.CHECK, dz.Action.DECIDE_ELIGIBLE) and (
            snap.freshness.expires
        ):
            # The core says this step expires the revision instead: ask first, naming it.
            why = "; ".join(dz.explain(c).sentence for c in snap.freshness.expiring)
            if not self.confirm(
                "This step expires the revision",
                f"{dz.STEPS[step].label.rstrip('…')} now EXPIRES {d} revision {r} "
                f"instead, for good: {why}\n\nAn expired revision can no longer be "
                "checked or decided; a training research lead can then start a new "
                f"revision from it. Expire revision {r} as {actor}?",
            ):
                return None
        elif step in (dz.Action.BIND, dz.Action.DECIDE_ELIGIBLE):
            what = "Bind" if step is dz.Action.BIND else "Decide eligible for"
            if not self.confirm(
                "Sign off",
                f"{what} {d} revision {r} as {actor}?\n\n"
                f"You are signing the evidence digest\n{snap.evidence_digest}",
            ):
                return None
        call = {
            dz.Action.BIND: ws.bind,
            dz.Action.CHECK: ws.check,
            dz.Action.DECIDE_ELIGIBLE: ws.decide_eligible,
            dz.Action.DEFER: ws.decide_deferred,
        }[step]
        words = {
            dz.Action.CHECK: "Running the independent check…",
            dz.Action.BIND: "Binding the evidence…",
        }.get(step, "Recording the decision…")
        return self._run(step, words, lambda: call(d, r, actor))

    def _edit(self, st: dz.PanelState) -> Any:
        assert self.ws is not None
        snap, ws, actor = st.snapshot, self.ws, self.actor_id
        d, r = snap.dossier_id, snap.revision
        dialog = self.edit_dialog()
        if not dialog.exec():
            return None
        path, value = dialog.path(), dialog.value()
        if snap.state is not dz.DossierState.DRAFT and not self.confirm(
            "Edit bound evidence",
            f"Revision {r} is {snap.state.value}. Editing its evidence creates revision "
            f"{snap.revisions[-1] + 1} in draft and EXPIRES revision {r}.\n\nGo ahead?",
        ):
            return None
        return self._run(
            dz.Action.EDIT,
            "Editing the evidence…",
            lambda: ws.edit_evidence(d, r, actor, path, value),
        )

    def authorize(self, ref: str | None = None, digest: str | None = None) -> Any:
        """G8 sign-off: the amendment ref and digest, a confirmation naming the evidence
        digest, then the workspace."""
        from PySide6.QtWidgets import QInputDialog

        st, ws = self.state, self.ws
        if st is None or ws is None or not st.steps[dz.AUTHORIZE].enabled or self.worker.busy:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        current = snap.parsed.raw.get("authorization") or {}
        values = {"amendment_ref": ref, "amendment_digest": digest}
        for label, key in (
            ("Amendment ref", "amendment_ref"),
            ("Amendment digest (sha256:…)", "amendment_digest"),
        ):
            if values[key] is None:
                value, ok = QInputDialog.getText(
                    cast("QWidget", self),
                    "Authorize amendment proposal",
                    label,
                    text=str(current.get(key) or ""),
                )
                if not ok:
                    return None
                values[key] = value
        if not self.confirm(
            "Sign off",
            f"Authorize proposing amendment {values['amendment_ref']}"
            f" for {d} revision {r} as {actor}?\n\nYou are signing the evidence "
            f"digest\n{snap.evidence_digest}",
        ):
            return None
        a_ref, a_digest = str(values["amendment_ref"]), str(values["amendment_digest"])
        return self._run(
            dz.AUTHORIZE,
            "Signing the authorization…",
            lambda: ws.authorize_amendment(d, r, actor, a_ref, a_digest),
        )

    def request_revise(self) -> Any:
        """From an expired revision, start the next one in draft (spec 7.3), confirmed
        first; the panel then shows the new revision."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.worker.busy or not st.may_revise.enabled:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        if not self.confirm(
            "New revision",
            f"Start {d} revision {snap.revisions[-1] + 1} from expired revision {r} as "
            f"{actor}?\n\nIts evidence is copied into a draft that you then edit, bind "
            f"and have checked again; revision {r} stays expired. The new revision is "
            "signed into the journal.",
        ):
            return None
        return self._run(("revise",), "Starting a new revision…", lambda: ws.revise(d, r, actor))

    # -- refusals and denials on request -------------------------------------------------
    def request_refusal(self, step: Any) -> Any:
        """Ask for a step the acting principal may not take, so that it is refused and the
        refusal journaled: an explicit action, confirmed first (spec 7.2, 12)."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.worker.busy or step not in st.steps:
            return None
        view = st.steps[step]
        if view.enabled or not view.journals_refusal:
            return None
        snap, actor = st.snapshot, self.actor_id
        d, r = snap.dossier_id, snap.revision
        noun = dz.STEPS[view.step].noun
        if not self.confirm(
            "Journal a refused request",
            f"{view.why_not}\n\nAsking for {noun} anyway makes the workspace "
            f"refuse it and write a permanent transition_refused entry, signed "
            f"by {actor}, to the journal of {d}. Nothing else changes.\n\n"
            "Request it and journal the refusal?",
        ):
            return None
        effective = view.step

        def ask() -> Any:
            # Ask only what is still refused: a request must never take the step itself.
            if ws.admission(effective, d, r, actor) is None and not (
                effective is dz.Action.DECIDE_ELIGIBLE
                and not dz.eligible_precondition(ws.parsed(d, r), ws.freshness(d, r))
            ):
                return None
            if effective is dz.AUTHORIZE:
                return ws.authorize_amendment(d, r, actor, "", "")
            if effective in (dz.Action.EDIT, dz.Action.EDIT_DRAFT):
                plan = ws.parsed(d, r).raw["evidence"].get("dataset_plan")
                return ws.edit_evidence(d, r, actor, ["dataset_plan"], plan)
            assert isinstance(effective, dz.Action)
            call = {
                dz.Action.BIND: ws.bind,
                dz.Action.CHECK: ws.check,
                dz.Action.DECIDE_ELIGIBLE: ws.decide_eligible,
                dz.Action.DEFER: ws.decide_deferred,
            }[effective]
            return call(d, r, actor)

        return self._run(step, "Journaling the refused request…", ask, asked_refusal=True)

    def attempt_operation(self, op: str) -> Any:
        """Ask for a deferred operation as the acting principal: it is always denied, and
        the denial journaled (spec 8); confirmed first."""
        st, ws = self.state, self.ws
        if st is None or ws is None or self.worker.busy or not self.actor_id:
            return None
        d, actor = st.snapshot.dossier_id, self.actor_id
        words = op.replace("_", " ")
        if not self.confirm(
            "Request a deferred operation",
            f"While activation is deferred, {words} is denied whoever asks, in "
            f"every state (spec 7.5, 8). Asking writes a permanent "
            f"operation_denied entry, signed by {actor}, naming {d}.\n\n"
            "Request it and journal the denial?",
        ):
            return None
        return self._run(
            ("operation", op),
            "Journaling the denied request…",
            lambda: ws.attempt_operation(op, actor, d),
        )

    # -- not-applied actions (spec 10.6) ----------------------------------------------------
    def resolve_not_applied(self, how: str, na: dz.NotAppliedView) -> Any:
        """Redo (``how="redo"``) or withdraw a not-applied action as its author; confirmed first."""
        st, ws = self.state, self.ws
        allowed = na.can_redo if how == "redo" else na.can_withdraw
        if st is None or ws is None or self.worker.busy or not allowed:
            return None
        actor, h = self.actor_id, na.entry_hash
        text = (
            f"Take the {na.what} again on the kept branch, validated against the state "
            f"there and signed again by {actor}? A redo the kept state refuses is journaled "
            "as refused, and the action stays not applied (to be withdrawn)."
            if how == "redo"
            else f"Withdraw your {na.what} of {na.when} UTC? A permanent 'withdrawn' entry, "
            f"signed by {actor}, names it; the action stays listed, never deleted."
        )
        if not self.confirm("Redo" if how == "redo" else "Withdraw", text):
            return None

        def call() -> Any:
            try:
                return ws.redo(h, actor) if how == "redo" else ws.withdraw(h, actor)
            except (dz.ForkResolutionError, dz.ProjectionError, dz.WorkspaceReadOnlyError) as e:
                return e

        return self._run(("resolve", how), "Writing the entry…", call)

    # -- the public projection ------------------------------------------------------------
    def show_projection(self, path: Path | None = None) -> Any:
        """Preview exactly what leaves, then export it (journaled) to ``path`` or a chosen file."""
        st, ws = self.state, self.ws
        if st is None or ws is None or not st.may_project.enabled or self.worker.busy:
            return None
        d, r = st.snapshot.dossier_id, st.snapshot.revision
        self._working = "Preparing the projection…"
        self.worker.submit(
            ("projection", self._generation, d, r, path), lambda: ws.projection_preview(d, r)
        )
        return self.last_result

    def _projection_previewed(self, token: Any, preview: dict[str, Any]) -> None:
        _, _, d, r, path = token
        self.last_projection_preview = preview
        if path is None:
            dialog = ProjectionDialog(
                self,  # type: ignore[arg-type]  # this mixin is always part of the DossierPanel widget
                preview,
                f"{d}-projection.json",
            )
            if not dialog.exec() or dialog.path is None:
                return
            path = dialog.path
        ws, actor = self.ws, self.actor_id
        assert ws is not None

        def export() -> Any:
            try:
                projection = ws.project(d, r, actor)
            except (dz.ProjectionError, dz.WorkspaceReadOnlyError) as exc:
                return exc
            write_projection(Path(path), projection)
            return projection

        self._run(("export", str(path)), "Exporting the projection…", export)

    # -- running and reporting -------------------------------------------------------------
    def _run(self, step: Any, words: str, call: Any, asked_refusal: bool = False) -> Any:
        """Run ``call`` in the worker, then a snapshot of the (possibly new) revision."""
        ws, cache, st = self.ws, getattr(self, "cache", None), self.state
        assert ws is not None and st is not None
        d, r = st.snapshot.dossier_id, st.snapshot.revision

        def job() -> tuple[Any, dz.Snapshot]:
            result = call()
            new = getattr(result, "new_revision", None)
            return result, dz.take_snapshot(ws, d, new if new is not None else r, cache)

        self.last_result = None
        self._working = words
        self.worker.submit(("action", self._generation, step, st, asked_refusal), job)
        return self.last_result

    def _action_done(self, token: Any, result: Any) -> None:
        kind = token[0]
        if kind == "projection":
            self._projection_previewed(token, result)
            return
        _, _, step, before, asked_refusal = token
        outcome, snap = result
        self.last_result = outcome
        if self._want is not None and snap.dossier_id == self._want[0]:
            self._want = (snap.dossier_id, snap.revision)
        self._take(snap)
        self._report(step, before, outcome, asked_refusal)

    def _report(self, step: Any, before: dz.PanelState, outcome: Any, asked_refusal: bool) -> None:
        if isinstance(step, tuple) and step[0] == "operation":
            fault = outcome.get("not_journaled") or outcome.get("journal_fault")
            where = f"It was not journaled ({fault})." if fault else "The denial is in the journal."
            self.inform(
                "Denied",
                f"{step[1].replace('_', ' ').capitalize()} was denied "
                f"({dz.denial_words(outcome.get('reason_code', ''))}). {where} "
                "Nothing in this app can perform it.",
            )
            return
        if isinstance(step, tuple) and step[0] == "resolve":
            if isinstance(outcome, Exception):
                self.inform("Not done", str(outcome))
            elif getattr(outcome, "outcome", None) in (dz.Outcome.REFUSED, dz.Outcome.EXPIRED):
                self.inform(
                    "Not redone",
                    f"The kept state does not allow it ({outcome.reason}); it stays not "
                    "applied: withdraw it.",
                )
            return
        if isinstance(step, tuple) and step[0] == "export":
            if isinstance(outcome, Exception):
                self.inform("Not exported", str(outcome))
            return
        if isinstance(step, tuple) and step[0] == "revise":
            if outcome.outcome is dz.Outcome.REFUSED:
                self.inform(
                    "No new revision",
                    f"{before.may_revise.why_not or 'The workspace refused it.'} "
                    f"({outcome.reason})",
                )
            return
        if outcome is None:
            self.inform(
                "Not journaled",
                "The step is no longer refused for you, so nothing was asked and nothing written.",
            )
            return
        if outcome.outcome is dz.Outcome.REFUSED:
            view = before.steps.get(step)
            effective = view.step if view is not None else step
            text = dz.refusal_text(
                effective,
                outcome.reason or "",
                before.actor,
                before.actor_id,
                before.snapshot.standing,
                view.could if view else (),
                before.snapshot.read_only_fault,
            )
            written = (
                "Nothing was journaled: the principal you act as cannot sign here, or "
                "the journal cannot be written."
                if outcome.reason
                in ("ACTOR_KEY_UNAVAILABLE", "WORKSPACE_READ_ONLY", "JOURNAL_WRITE_FAILED")
                else "The refusal is recorded in the journal."
            )
            self.inform("Refused", f"{text}\n\n({outcome.reason}. {written})")
        elif outcome.outcome is dz.Outcome.EXPIRED:
            self.inform(
                "Expired",
                f"The revision has expired instead: {dz.explain(outcome.reason or '').sentence}",
            )
