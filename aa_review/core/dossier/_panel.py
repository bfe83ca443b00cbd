"""What the sign-off view shows, as frozen values computed from the workspace's public API.

Two steps. :func:`take_snapshot` does everything that costs: the bound packages (from
the caller's facts, hashed only when unknown), the live gate evaluation, the journal
read and verified once, who may take each step. Run it off the GUI thread, once per
change. :func:`panel_state` then words it for one acting principal, a pure function
of the snapshot: changing who acts does no package work, reads no file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aa_review.core.dossier._admission import (
    AUTHORIZE,
    Standing,
    Step,
    admission,
    eligible_precondition,
)
from aa_review.core.dossier._curves import PowerCurve, lower_rung_bounds
from aa_review.core.dossier._freshness import Freshness
from aa_review.core.dossier._gates_common import GATE_IDS, GateStatus
from aa_review.core.dossier._holdings import KeyHolding
from aa_review.core.dossier._keys import key_fingerprint
from aa_review.core.dossier._principals import Principal, PrincipalRegistry, Role
from aa_review.core.dossier._reasons import ReasonText, explain, gate_sentence
from aa_review.core.dossier._states import Action, DossierState, Refusal
from aa_review.core.dossier._steps import (
    STEPS,
    conditions_text,
    needs_words,
    refusal_text,
    who_text,
)
from aa_review.core.dossier._summary import GATE_TITLES, metric_text, metrics_lines
from aa_review.core.dossier._timeline import JournalView, TimelineEntry, arrived_summary
from aa_review.core.dossier._validator import NOT_EVALUATED

if TYPE_CHECKING:
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._preview_cache import PreviewCache
    from aa_review.core.dossier._validator import CheckRecord
    from aa_review.core.dossier._workspace import Workspace

__all__ = [
    "GateRow",
    "NotAppliedView",
    "PanelState",
    "ProjectView",
    "Snapshot",
    "StepView",
    "panel_state",
    "take_snapshot",
    "PANEL_STEPS",
]

# The steps the panel offers, in lifecycle order (an edit is EDIT_DRAFT on a draft).
PANEL_STEPS: tuple[Step, ...] = (
    Action.BIND,
    Action.CHECK,
    Action.DECIDE_ELIGIBLE,
    Action.DEFER,
    Action.EDIT,
    AUTHORIZE,
)
_FINAL = frozenset({DossierState.ELIGIBLE, DossierState.DEFERRED, DossierState.EXPIRED})
_EXPIRING_STEPS = (Action.BIND, Action.CHECK, Action.DECIDE_ELIGIBLE)


@dataclass(frozen=True)
class Snapshot:
    """One revision as the workspace holds it now, for any acting principal (heavy, once).

    Attributes
    ----------
    dossier_id, revision : str, int
    revisions : tuple of int
        Every revision of the dossier, ascending.
    dossiers : tuple of str
        Every dossier of the workspace.
    parsed : ParsedDossier
        The revision (shared; read only).
    standing : Standing
    freshness : Freshness
    record : CheckRecord
        The gates as a check would see them now (nothing is written); for an expired
        revision, the all-``unknown`` record its expiry wrote, which says why.
    principals : PrincipalRegistry
    signable : dict
        principal id -> why it cannot sign here (None: it can).
    admissions : dict
        (step, principal id) -> the refusal it would get (None: admitted).
    read_only_fault : str or None
    journal : JournalView
    history : tuple of (revision, state, created_at, created_by, supersedes)
    power : PowerCurve or None
    bounds : tuple
        ``lower_rung_bounds``: rungs, their bounds, the useful effect.
    changes : tuple
        What changed in each bound package since binding (see
        :meth:`Workspace.changes_since_binding`).
    holdings : tuple of KeyHolding
        Every principal (the reducer aside) and whether its private key is on this
        machine: only those may be chosen to act as, the others are held elsewhere
        (spec 10.6; :meth:`Workspace.key_holdings`).
    packages : tuple of PackageStatus
        The bound packages as the gates saw them (the bound content, found by digest:
        a status with ``other_root`` says another version is open there).
    not_applied : tuple of dict
        The workspace's actions of a concurrent branch that lost a fork, with their
        authors (spec 10.6; :meth:`Workspace.not_applied`).
    arrived : tuple of dict
        The entries beyond the head this user witnessed before this opening (spec
        10.6; :meth:`Workspace.arrived`).
    """

    dossier_id: str
    revision: int
    revisions: tuple[int, ...]
    dossiers: tuple[str, ...]
    parsed: ParsedDossier = field(repr=False)
    standing: Standing
    freshness: Freshness
    record: CheckRecord = field(repr=False)
    principals: PrincipalRegistry = field(repr=False)
    signable: dict[str, str | None]
    admissions: dict[tuple[Step, str], Refusal | None]
    read_only_fault: str | None
    journal: JournalView = field(repr=False)
    history: tuple[tuple[Any, ...], ...]
    power: PowerCurve | None = field(default=None, repr=False)
    bounds: tuple[Any, ...] = ((), (), None)
    changes: tuple[Any, ...] = ()
    holdings: tuple[KeyHolding, ...] = ()
    packages: tuple[Any, ...] = ()
    not_applied: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    arrived: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    @property
    def other_versions(self) -> tuple[Any, ...]:
        """Bound packages found at their bound folder while another version is open."""
        return tuple(p for p in self.packages if getattr(p, "other_root", None) is not None)

    @property
    def state(self) -> DossierState:
        return self.standing.state

    @property
    def evidence_digest(self) -> str:
        return self.parsed.evidence_digest


def take_snapshot(
    ws: Workspace, dossier_id: str, revision: int, cache: PreviewCache | None = None
) -> Snapshot:
    """Everything the panel shows of a revision, from the workspace's public read-only API.

    Bound packages are looked at once (the caller's facts; a hash only when a digest
    is unknown), the gates evaluated once (reused through ``cache`` while nothing
    they depend on changed), the journal read and verified once.
    """
    from aa_review.core.dossier._preview_cache import PreviewCache

    cache = cache if cache is not None else PreviewCache(ws)
    parsed = ws.parsed(dossier_id, revision)
    standing = ws.standing(dossier_id, revision)
    fresh, record = cache.preview(dossier_id, revision, "")
    if standing.state is DossierState.EXPIRED:
        record = _stored(parsed) or record  # an expired revision shows why it expired (4)
    signable = {p.principal_id: ws.can_act(p.principal_id) for p in ws.principals}
    read_only = ws.read_only
    admissions: dict[tuple[Step, str], Refusal | None] = {}
    for step in (*PANEL_STEPS, Action.EDIT_DRAFT):
        for p in ws.principals:
            admissions[(step, p.principal_id)] = admission(
                step, standing, p, read_only=read_only, unable=signable[p.principal_id]
            )
    journal = cache.journal_view()
    history = []
    for r in ws.revisions(dossier_id):
        raw = ws.parsed(dossier_id, r).raw
        history.append(
            (
                r,
                raw.get("state"),
                raw.get("created_at"),
                raw.get("created_by"),
                (raw.get("supersedes") or {}).get("revision")
                if isinstance(raw.get("supersedes"), dict)
                else None,
            )
        )
    changes = ws.changes_since_binding(dossier_id, revision)
    return Snapshot(
        dossier_id=dossier_id,
        revision=revision,
        revisions=tuple(ws.revisions(dossier_id)),
        dossiers=tuple(ws.dossier_ids()),
        parsed=parsed,
        standing=standing,
        freshness=fresh,
        record=record,
        principals=ws.principals,
        signable=signable,
        admissions=admissions,
        read_only_fault=ws.journal_fault,
        journal=journal,
        history=tuple(history),
        power=cache.power_curve(dossier_id, revision),
        bounds=tuple(lower_rung_bounds(record, parsed)),
        changes=tuple(changes),
        holdings=ws.key_holdings(),
        packages=cache.packages(dossier_id, revision),
        not_applied=tuple(ws.not_applied()),
        arrived=tuple(ws.arrived()),
    )


def _stored(parsed: ParsedDossier) -> CheckRecord | None:
    """The check record written into the revision (None when absent or unreadable)."""
    from pydantic import ValidationError

    from aa_review.core.dossier._validator import CheckRecord

    check = parsed.raw.get("check")
    if not isinstance(check, dict):
        return None
    try:
        return CheckRecord.model_validate(check)
    except ValidationError:
        return None


@dataclass(frozen=True)
class GateRow:
    """One gate as the acting principal may see it.

    Attributes
    ----------
    gate_id, title : str
    status : GateStatus
    reasons : tuple of ReasonText
        Private particulars only for the independent evaluator (spec 2.5, G9).
    sentence : str
        The reasons in one sentence ("" when the gate passes).
    metrics : str
    """

    gate_id: str
    title: str
    status: GateStatus
    reasons: tuple[ReasonText, ...]
    sentence: str
    metrics: str

    @property
    def unmet(self) -> bool:
        return self.status is not GateStatus.PASS

    @property
    def evaluated(self) -> bool:
        """False when no rule of the gate ran (its only reason says it was not evaluated)."""
        codes = [r.code for r in self.reasons]
        return not codes or not all(c == NOT_EVALUATED for c in codes)


@dataclass(frozen=True)
class StepView:
    """One step as the acting principal may (or may not) take it.

    Attributes
    ----------
    step : Action or "authorize_amendment"
        For an edit, ``EDIT_DRAFT`` on a draft and ``EDIT`` on a bound revision.
    label : str
    enabled : bool
        The actor may take it now; a disabled step writes nothing when clicked.
    refusal : Refusal or None
        The code the workspace would answer.
    why_not : str
        In words: the step, the role it needs, the role the actor holds, who could.
    note : str
        What the step does (and, when a freshness rule fires, that it expires instead).
    could : tuple of str
        Principals who could take it now, with a key on this machine.
    journals_refusal : bool
        Requesting it anyway writes a ``transition_refused`` entry (the actor can sign
        here and the workspace is writable).
    """

    step: Step
    label: str
    enabled: bool
    refusal: Refusal | None
    why_not: str
    note: str
    could: tuple[str, ...]
    journals_refusal: bool


@dataclass(frozen=True)
class ProjectView:
    """Whether the acting principal may publish a public projection now (spec 9).

    Attributes
    ----------
    enabled : bool
    why_not : str
        In words, when it is not enabled.
    note : str
        What publishing does.
    """

    enabled: bool
    why_not: str
    note: str


@dataclass(frozen=True)
class NotAppliedView:
    """One not-applied action as the panel shows it to the acting principal (spec 10.6).

    ``can_redo`` and ``can_withdraw`` are offered only to its author, acting here with
    their key on this machine, in a writable workspace, while it is not resolved;
    ``why_not`` says otherwise why (and, when only withdrawing is offered, why not redo).
    """

    entry_hash: str
    author: str
    role: str
    what: str
    dossier_id: str
    revision: int | None
    when: str
    key: str
    status: str
    can_redo: bool
    can_withdraw: bool
    why_not: str


_REDOABLE = {"bind", "check", "decide_eligible", "defer"}
_NOT_APPLIED_WORDS = {
    "bind": "bind the evidence",
    "check": "independent check",
    "decide_eligible": "decide eligible",
    "defer": "decide deferred",
    "auto_defer": "automatic deferral",
    "expire": "expiry",
    "create": "new revision by an edit",
    "edit_draft": "edit of the draft",
}
_KIND_WORDS = {
    "imported": "import",
    "signoff": "sign-off",
    "operation_denied": "denied operation",
    "projection_published": "projection",
    "registry_changed": "registry change",
    "withdrawn": "withdrawal",
    "transition_refused": "refused step",
}


def _not_applied_view(snap: Snapshot, na: dict[str, Any], actor_id: str) -> NotAppliedView:
    kind, action = str(na.get("kind") or ""), na.get("action")
    what = (
        _NOT_APPLIED_WORDS.get(str(action), str(action))
        if kind == "transition"
        else _KIND_WORDS.get(kind, kind)
    )
    author = str(na.get("author") or "?")
    redoable = (kind == "transition" and action in _REDOABLE) or kind in (
        "operation_denied",
        "projection_published",
    )
    status = str(na.get("status") or "not_applied")
    unable = snap.signable.get(author, "not in the registry in force")
    if status != "not_applied":
        why = f"{status.replace('_', ' ')} by entry {na.get('resolved_by')}"
    elif snap.read_only_fault is not None:
        why = f"the workspace is read-only ({snap.read_only_fault})"
    elif actor_id != author:
        holding = next((h for h in snap.holdings if h.principal.principal_id == author), None)
        where = (
            "act as them to redo or withdraw it"
            if holding is not None and holding.here
            else "their key is held elsewhere"
        )
        why = f"only its author {author} can redo or withdraw it; {where}"
    elif unable is not None:
        why = f"{author} cannot sign here: {unable}"
    elif not redoable:
        article = "an" if what[:1] in "aeiou" else "a"
        why = f"{article} {what} cannot be redone in one step: withdraw it and take the step again"
    else:
        why = ""
    offered = status == "not_applied" and snap.read_only_fault is None
    offered = offered and actor_id == author and unable is None
    at = str(na.get("at") or "")
    return NotAppliedView(
        entry_hash=str(na.get("entry_hash") or ""),
        author=author,
        role=str(na.get("role") or ""),
        what=what,
        dossier_id=str(na.get("dossier_id") or ""),
        revision=na.get("revision"),
        when=at.replace("T", " ").removesuffix("Z"),
        key=key_fingerprint(na.get("public_key")),
        status=status,
        can_redo=offered and redoable,
        can_withdraw=offered,
        why_not=why,
    )


@dataclass(frozen=True)
class PanelState:
    """The sign-off view for one acting principal; frozen, made by :func:`panel_state`.

    Attributes
    ----------
    snapshot : Snapshot
    actor_id : str
        "" when nobody is chosen (every step is then disabled).
    actor : Principal or None
    headline : str
        ``dos-x revision 1: deferred — 2 of 11 gates unmet``.
    gates : tuple of GateRow
        Unmet gates first, then G1..G11 order.
    unmet : tuple of GateRow
    dossier_reasons : tuple of ReasonText
        Dossier-level reasons (section 4): expiring or blocking.
    stale : bool
        A freshness rule fires: the next step expires the revision.
    steps : dict
        Panel step -> StepView (the edit under ``Action.EDIT``).
    next_step : str
        ``Next: an independent check by …: p-eval-cy or p-eval-dee.``
    metrics : tuple of str
    timeline : tuple of TimelineEntry
        The dossier's journal entries, oldest first.
    denials : tuple of TimelineEntry
        Deferred operations requested against this dossier.
    may_project : ProjectView
    may_revise : ProjectView
        Whether the acting principal may start a new revision from this expired one
        (spec 7.3; :meth:`Workspace.revise`).
    not_applied : tuple of NotAppliedView
        The workspace's not-applied actions, each with what this principal may do.
    arrived : str
        ``3 entries arrived: bound by p-lead-ada, checked by p-eval-cy`` ("" when none).
    """

    snapshot: Snapshot
    actor_id: str
    actor: Principal | None
    headline: str
    gates: tuple[GateRow, ...]
    unmet: tuple[GateRow, ...]
    dossier_reasons: tuple[ReasonText, ...]
    stale: bool
    expired_by: str
    steps: dict[Step, StepView]
    next_step: str
    metrics: tuple[str, ...]
    timeline: tuple[TimelineEntry, ...]
    denials: tuple[TimelineEntry, ...]
    may_project: ProjectView
    may_revise: ProjectView = ProjectView(False, "", "")
    not_applied: tuple[NotAppliedView, ...] = ()
    arrived: str = ""

    @property
    def private(self) -> bool:
        """The acting principal may see private detail (the independent evaluator)."""
        return self.actor is not None and self.actor.role is Role.INDEPENDENT_EVALUATOR

    @property
    def state(self) -> DossierState:
        return self.snapshot.state


def panel_state(snap: Snapshot, actor_id: str | None) -> PanelState:
    """Word ``snap`` for ``actor_id`` (None or "": nobody chosen). Pure: no I/O."""
    actor_id = actor_id or ""
    actor = snap.principals.get(actor_id) if actor_id else None
    private = actor is not None and actor.role is Role.INDEPENDENT_EVALUATOR
    gates = tuple(_gate_row(snap.record, gid, private) for gid in GATE_IDS)
    ordered = tuple(sorted(gates, key=lambda g: (not g.unmet, GATE_IDS.index(g.gate_id))))
    unmet = tuple(g for g in ordered if g.unmet)
    fresh = snap.freshness
    reasons = tuple(explain(c) for c in (*fresh.expiring, *fresh.blocking))
    state = snap.state
    head = f"{snap.dossier_id} revision {snap.revision}: {state.value}"
    if snap.standing.superseded:
        head += f" (superseded by revision {snap.revisions[-1]})"
    if state is DossierState.EXPIRED:
        head += " — final"
    elif unmet or reasons:
        head += f" — {_unmet_words(unmet)}" if unmet else ""
        head += (
            (
                f"{',' if unmet else ' —'} {len(reasons)} dossier-level "
                f"reason{'s' if len(reasons) != 1 else ''}"
            )
            if reasons
            else ""
        )
    else:
        head += " — all eleven gates pass"
    steps = {step: _step_view(snap, step, actor, actor_id) for step in PANEL_STEPS}
    lines = list(metrics_lines(snap.record, private))
    timeline = snap.journal.for_dossier(snap.dossier_id)
    return PanelState(
        snapshot=snap,
        actor_id=actor_id,
        actor=actor,
        headline=head,
        gates=ordered,
        unmet=unmet,
        dossier_reasons=reasons,
        stale=fresh.expires,
        expired_by=_expired_by(snap),
        steps=steps,
        next_step=_next_step(snap, unmet, steps, actor_id),
        metrics=tuple(lines),
        timeline=timeline,
        denials=snap.journal.denials(snap.dossier_id),
        may_project=_project_view(snap, actor, actor_id),
        may_revise=_revise_view(snap, actor, actor_id),
        not_applied=tuple(_not_applied_view(snap, na, actor_id) for na in snap.not_applied),
        arrived=arrived_summary(snap.arrived),
    )


def _revise_view(snap: Snapshot, actor: Principal | None, actor_id: str) -> ProjectView:
    """Whether ``actor_id`` may start revision n+1 from this expired one (spec 7.3)."""
    note = (
        f"Start revision {snap.revisions[-1] + 1} in draft from this one: its evidence is "
        "copied and nothing is bound, checked or decided; this revision stays expired."
    )
    why = ""
    if snap.state is not DossierState.EXPIRED:
        why = f"Only an expired revision is revised; this one is {snap.state.value}."
    elif snap.standing.superseded:
        why = f"Revision {snap.revisions[-1]} already supersedes this one."
    elif snap.read_only_fault is not None:
        why = f"The workspace is read-only ({snap.read_only_fault})."
    elif not actor_id or actor is None:
        why = "Choose who you act as first."
    elif actor.role is not Role.TRAINING_RESEARCH_LEAD:
        why = f"A new revision is a training research lead's; {actor_id} is {actor.role.value}."
    elif snap.signable.get(actor_id) is not None:
        why = f"{actor_id}'s private key is not on this machine: it cannot sign here."
    return ProjectView(not why, why, note)


def _unmet_words(unmet: tuple[GateRow, ...]) -> str:
    """``2 of 11 gates unmet (1 fail, 1 unknown)``; gates no rule ran for counted apart."""
    evaluated = [g for g in unmet if g.evaluated]
    skipped = len(unmet) - len(evaluated)
    fails = sum(1 for g in evaluated if g.status is GateStatus.FAIL)
    parts = [f"{fails} fail" if fails else "", f"{len(evaluated) - fails} unknown"]
    detail = ", ".join(p for p in parts if p and not p.startswith("0 "))
    text = f"{len(evaluated)} of {len(GATE_IDS)} gates unmet" + (f" ({detail})" if detail else "")
    if skipped:
        text += f", {skipped} not evaluated" if evaluated else ""
        if not evaluated:
            text = f"{skipped} of {len(GATE_IDS)} gates not evaluated"
    return text


def _gate_row(record: CheckRecord, gid: str, private: bool) -> GateRow:
    g = record.gates[gid]
    reasons = tuple(explain(c, g.detail if private else None) for c in g.reason_codes)
    metrics = "; ".join(f"{k}: {metric_text(v)}" for k, v in g.metrics.items())
    sentence = gate_sentence(reasons) if g.status is not GateStatus.PASS and reasons else ""
    return GateRow(gid, GATE_TITLES.get(gid, ""), g.status, reasons, sentence, metrics)


def _effective(snap: Snapshot, step: Step) -> Step:
    return Action.EDIT_DRAFT if step is Action.EDIT and snap.state is DossierState.DRAFT else step


def _could(snap: Snapshot, step: Step) -> tuple[str, ...]:
    return tuple(
        p.principal_id
        for p in snap.principals
        if snap.admissions.get((step, p.principal_id)) is None
        and snap.signable.get(p.principal_id) is None
    )


def _could_elsewhere(snap: Snapshot, step: Step) -> tuple[str, ...]:
    """Who could take ``step`` but holds their key on another machine."""
    away = {h.principal.principal_id for h in snap.holdings if not h.here}
    return tuple(
        p.principal_id
        for p in snap.principals
        if p.principal_id in away
        and admission(step, snap.standing, p, read_only=False, unable=None) is None
    )


def _step_view(
    snap: Snapshot, panel_step: Step, actor: Principal | None, actor_id: str
) -> StepView:
    step = _effective(snap, panel_step)
    words = STEPS[step]
    could = _could(snap, step)
    if not actor_id:
        refusal: Refusal | None = Refusal.ACTOR_ROLE_NOT_PERMITTED
    else:
        refusal = snap.admissions.get((step, actor_id), Refusal.ACTOR_ROLE_NOT_PERMITTED)
    if (
        refusal is None
        and step is Action.DECIDE_ELIGIBLE
        and not eligible_precondition(snap.parsed, snap.freshness)
    ):
        refusal = Refusal.PRECONDITION_UNMET
    note = f"{words.label.rstrip('…')}: {words.table}; needs {needs_words(step)}."
    if step in _EXPIRING_STEPS and snap.freshness.expires:
        note += (
            " A freshness rule fires, so taking it now expires this revision instead: "
            + "; ".join(explain(c).sentence for c in snap.freshness.expiring)
        )
    why = (
        ""
        if refusal is None
        else refusal_text(
            step, refusal, actor, actor_id, snap.standing, could, snap.read_only_fault
        )
    )
    journals = (
        refusal is not None
        and bool(actor_id)
        and actor is not None
        and snap.signable.get(actor_id) is None
        and refusal not in (Refusal.WORKSPACE_READ_ONLY, Refusal.ACTOR_KEY_UNAVAILABLE)
    )
    return StepView(step, words.label, refusal is None, refusal, why, note, could, journals)


def _project_view(snap: Snapshot, actor: Principal | None, actor_id: str) -> ProjectView:
    state = snap.state
    note = "Preview exactly what leaves (allowlisted fields only), then export it (journaled)."
    why = ""
    if snap.read_only_fault is not None:
        why = f"The workspace is read-only ({snap.read_only_fault})."
    elif state not in _FINAL:
        why = (
            f"A public projection is made only of an eligible, deferred or expired "
            f"revision; this one is {state.value}."
        )
    elif not actor_id or actor is None:
        why = "Choose who you act as first."
    elif actor_id in snap.standing.training_side:
        why = f"{actor_id} is a training-side identity of the plan and never publishes (7.4)."
    elif snap.signable.get(actor_id) is not None:
        why = f"{actor_id}'s private key is not on this machine: it cannot sign here."
    return ProjectView(not why, why, note)


def _expired_by(snap: Snapshot) -> str:
    if snap.state is not DossierState.EXPIRED:
        return ""
    for e in reversed(snap.journal.entries):
        if (
            e.dossier_id == snap.dossier_id
            and e.revision == snap.revision
            and e.change.endswith("→ expired")
        ):
            codes = e.payload.get("reasons") or []
            return "; ".join(explain(str(c)).sentence for c in codes)
    codes = snap.record.dossier_reason_codes
    return "; ".join(explain(c).sentence for c in codes)


def _next_step(
    snap: Snapshot, unmet: tuple[GateRow, ...], steps: dict[Step, StepView], actor_id: str
) -> str:
    state, standing = snap.state, snap.standing
    if standing.superseded:
        return f"Next: work on revision {snap.revisions[-1]}; this one is superseded."
    if state is DossierState.EXPIRED:
        who = ", ".join(
            p.principal_id
            for p in snap.principals
            if p.role is Role.TRAINING_RESEARCH_LEAD and snap.signable.get(p.principal_id) is None
        )
        return (
            "This revision is expired, which is final. Next: a new revision from this one "
            "(its evidence copied into a draft) by a training research lead"
            + (f": {who}." if who else "; none can sign here.")
        )
    if state is DossierState.ELIGIBLE:
        return (
            "Eligible: someone may now propose the activation amendment for human "
            "review. Eligible grants nothing else; every deferred operation stays denied."
        )

    def offer(step: Step, noun: str, extra: str = "") -> str:
        who = _could(snap, step)
        cond = conditions_text(step, standing)
        needs = needs_words(step)
        by = f"by a principal with {needs}" if needs.startswith("role") else f"by {needs}"
        you = " (you can take it)" if actor_id and actor_id in who else ""
        whom = who_text(who)
        if not who:  # a shared workspace: say who could, on their own machine (spec 10.6)
            away = _could_elsewhere(snap, step)
            if away:
                whom = f"nobody with a key on this machine; held elsewhere: {who_text(away)}"
        return f"Next: {noun} {by}{' ' + cond if cond else ''}: {whom}{you}.{extra}"

    expires = (
        " Taking it now expires this revision instead (a freshness rule fires)."
        if snap.freshness.expires
        else ""
    )
    names = ", ".join(g.gate_id for g in unmet)
    would_defer = f" As it stands, {names} would not pass and the check would defer it."
    only_g8 = [g.gate_id for g in unmet] == ["G8"]
    if state in (DossierState.DRAFT, DossierState.EVIDENCE_BOUND) and only_g8:
        # The authorization is a maintainer's sign-off, not an edit (spec 2.4, G8).
        return offer(
            AUTHORIZE,
            "an authorization of the amendment proposal for this evidence",
            " Without it, G8 would not pass and the check would defer it.",
        )
    if state is DossierState.DRAFT:
        if unmet:
            return offer(Action.EDIT_DRAFT, "an edit of the draft", would_defer)
        return offer(Action.BIND, "binding the evidence", expires)
    if state is DossierState.EVIDENCE_BOUND:
        return offer(
            Action.CHECK, "an independent check", expires or (would_defer if unmet else "")
        )
    if state is DossierState.INDEPENDENTLY_CHECKED:
        if steps[Action.DECIDE_ELIGIBLE].refusal is Refusal.PRECONDITION_UNMET:
            return offer(
                Action.DEFER,
                "a decision to defer",
                " Eligibility is blocked: the check no longer stands for this evidence.",
            )
        return offer(Action.DECIDE_ELIGIBLE, "a decision (eligible or deferred)", expires)
    # deferred
    return offer(
        Action.EDIT,
        "an edit of the evidence",
        f" It creates revision {snap.revisions[-1] + 1} in draft, and this revision expires.",
    )
