"""Lifecycle transitions of the workspace: bind, check, decide, edit, authorize, expire (spec 7)."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from aa_review.core.dossier._admission import AUTHORIZE, admission, eligible_precondition
from aa_review.core.dossier._canonical import canonical_json, json_digest
from aa_review.core.dossier._edit import DELETE, EditPathError, apply_edit
from aa_review.core.dossier._errors import DossierSchemaError
from aa_review.core.dossier._freshness import Freshness, assess_freshness
from aa_review.core.dossier._gates_common import GATE_IDS
from aa_review.core.dossier._models_dossier import ParsedDossier, parse_dossier, section_digests
from aa_review.core.dossier._packages import bound_folders
from aa_review.core.dossier._principals import REDUCER, Principal, Role
from aa_review.core.dossier._results import TransitionResult
from aa_review.core.dossier._states import (
    TRANSITIONS,
    Action,
    DossierState,
    Outcome,
    Refusal,
)
from aa_review.core.dossier._timestamps import format_timestamp
from aa_review.core.dossier._validator import evaluate, expired_check_record

if TYPE_CHECKING:
    from aa_review.core.dossier._workspace_views import WorkspaceViews
    from aa_review.core.dossier._workspace_write import JournalWriter

__all__ = ["Lifecycle"]

_S = DossierState


class _Admitted(NamedTuple):
    """An attempt that passed legality, role and separation of duties."""

    now: datetime
    parsed: ParsedDossier
    actor: Principal


class Lifecycle:
    """Transitions T1..T7 with refusal precedence, freshness and separation of duties.

    It decides each step from the parts it reads (the revisions held, the registry,
    the bound packages, the views' archive and clock, the journal's fault) and writes
    through the writer only; it holds no state of its own.
    """

    def __init__(
        self,
        views: WorkspaceViews,
        writer: JournalWriter,
    ) -> None:
        self.views = views
        self.writer = writer
        self.records = views.records
        self.registry = views.registry
        self.packages = views.packages
        self.journal = views.journal

    # -- public transitions ----------------------------------------------------------
    def bind(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T1 ``draft -> evidence_bound``: record the evidence and section digests.

        With fingerprint hooks, each bound package found unchanged is fingerprinted
        and kept beside the revision; the binding and the journal entry name each
        fingerprint's digest (``package_fingerprints``), so a later diff can say what
        changed since binding and a swapped fingerprint file is detected.
        """
        adm = self._admit(Action.BIND, dossier_id, revision, actor_id)
        if isinstance(adm, TransitionResult):
            return adm
        now, parsed, actor = adm
        packages = self.packages.statuses(parsed)
        fresh = assess_freshness(parsed, self.views.archive, now, packages)
        if fresh.expires:
            return self._expire(parsed, now, fresh, caused_by=actor)
        raw = copy.deepcopy(parsed.raw)
        raw["state"] = _S.EVIDENCE_BOUND.value
        raw["binding"] = {
            "evidence_digest": parsed.evidence_digest,
            "section_digests": section_digests(parsed.evidence_raw),
            "bound_by": actor.principal_id,
            "bound_at": format_timestamp(now),
        }
        plan = parsed.model.evidence.independence_plan
        payload: dict[str, Any] = {
            "evidence_digest": parsed.evidence_digest,
            "training_side": sorted(plan.training_side()) if plan else [],
        }
        kept = self.packages.keep_fingerprints(dossier_id, packages)
        if kept:
            raw["binding"]["package_fingerprints"] = kept
            payload["package_fingerprints"] = dict(kept)
        folders = bound_folders(packages)
        if folders:  # where the bound content was found: looked up again by its digest
            raw["binding"]["package_folders"] = folders
        return self._apply(now, parsed, parse_dossier(raw), Action.BIND, actor, payload)

    def check(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T2 ``evidence_bound -> independently_checked``, then T3 deferral unless eligible."""
        adm = self._admit(Action.CHECK, dossier_id, revision, actor_id)
        if isinstance(adm, TransitionResult):
            return adm
        now, parsed, actor = adm
        packages = self.packages.statuses(parsed)
        fresh = assess_freshness(parsed, self.views.archive, now, packages)
        if fresh.expires:
            return self._expire(parsed, now, fresh, caused_by=actor)
        record = evaluate(
            parsed,
            self.views.archive,
            self.registry.in_force,
            now,
            actor.principal_id,
            package_contamination=self.packages.hook,
            packages=self.packages.with_hidden_rows(packages),
        )
        raw = copy.deepcopy(parsed.raw)
        raw["state"] = _S.INDEPENDENTLY_CHECKED.value
        raw["check"] = record.to_json()
        entries = [
            self._transition(
                parsed,
                Action.CHECK,
                actor,
                {
                    "evidence_digest": record.evidence_digest,
                    "check_digest": json_digest(raw["check"]),
                    "gates": record.conclusions(),
                    "dossier_reason_codes": list(record.dossier_reason_codes),
                    "eligible_if_decided": record.eligible_if_decided,
                },
            )
        ]
        if not record.eligible_if_decided:
            blocking = [g for g in GATE_IDS if record.gates[g].status.value != "pass"]
            entries.append(
                self._transition(
                    parsed,
                    Action.AUTO_DEFER,
                    REDUCER,
                    {
                        "gates_not_passing": blocking,
                        "dossier_reason_codes": list(record.dossier_reason_codes),
                    },
                    from_state=_S.INDEPENDENTLY_CHECKED,
                    caused_by=actor,
                )
            )
            raw["state"] = _S.DEFERRED.value
        final = parse_dossier(raw)
        fault = self.writer.commit(now, [final], entries)
        if fault is not None:
            return self._write_failed(parsed, fault)
        return TransitionResult.of(
            Outcome.APPLIED, {revision: final.model.state}, check_record=record
        )

    def decide_eligible(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T5 ``independently_checked -> eligible`` by a human maintainer, after re-verifying."""
        adm = self._admit(Action.DECIDE_ELIGIBLE, dossier_id, revision, actor_id)
        if isinstance(adm, TransitionResult):
            return adm
        now, parsed, actor = adm
        fresh = self.views.fresh(parsed, now)  # kept: its blocking reasons forbid eligibility
        if fresh.expires:
            return self._expire(parsed, now, fresh, caused_by=actor)
        if not eligible_precondition(parsed, fresh):
            return self._refuse(
                now, parsed, Action.DECIDE_ELIGIBLE, actor_id, Refusal.PRECONDITION_UNMET
            )
        raw = copy.deepcopy(parsed.raw)
        raw["state"] = _S.ELIGIBLE.value
        payload = {
            "evidence_digest": parsed.evidence_digest,
            "check_digest": json_digest(parsed.raw.get("check")),
        }
        return self._apply(now, parsed, parse_dossier(raw), Action.DECIDE_ELIGIBLE, actor, payload)

    def decide_deferred(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """T4 ``independently_checked -> deferred``: a human maintainer may always defer.

        No freshness precondition (7.2 applies T6 instead only to T1, T2 and T5): a stale
        revision is deferred, and expires later when T6 fires.
        """
        adm = self._admit(Action.DEFER, dossier_id, revision, actor_id)
        if isinstance(adm, TransitionResult):
            return adm
        now, parsed, actor = adm
        raw = copy.deepcopy(parsed.raw)
        raw["state"] = _S.DEFERRED.value
        return self._apply(now, parsed, parse_dossier(raw), Action.DEFER, actor, {})

    def expire_if_stale(
        self, dossier_id: str, revision: int, actor_id: str | None = None
    ) -> TransitionResult:
        """T6 by the reducer when a freshness rule fires; refused (precondition) otherwise.

        ``actor_id`` is whoever asked (recorded as ``caused_by``, spec 10.1); without
        one, the revision's author is taken to have caused it.
        """
        now, parsed = self.views.now(), self.records.get(dossier_id, revision)
        if self.journal.read_only:
            return TransitionResult.of(
                Outcome.REFUSED, {revision: parsed.model.state}, Refusal.WORKSPACE_READ_ONLY.value
            )
        cause = self.registry.get(actor_id if actor_id is not None else parsed.model.created_by)
        unable = self.registry.can_act(cause.principal_id) if cause is not None else "ACTOR_UNKNOWN"
        if unable is not None or cause is None:
            return TransitionResult.of(
                Outcome.REFUSED, {revision: parsed.model.state}, _unable_reason(unable)
            )
        fresh = self.views.fresh(parsed, now)
        if parsed.model.state is _S.EXPIRED or not fresh.expires:
            return TransitionResult.of(
                Outcome.REFUSED, {revision: parsed.model.state}, Refusal.PRECONDITION_UNMET.value
            )
        return self._expire(parsed, now, fresh, caused_by=cause)

    def edit_evidence(
        self, dossier_id: str, revision: int, actor_id: str, path: list[str], value: Any
    ) -> TransitionResult:
        """Edit a draft in place, or (T7) expire a bound revision and create the next one.

        Parameters
        ----------
        path : list of str
            Path inside ``evidence`` (list positions as decimal strings).
        value : Any
            New JSON value; :data:`DELETE` removes the key.
        """
        parsed = self.records.get(dossier_id, revision)
        draft = parsed.model.state is _S.DRAFT
        action = Action.EDIT_DRAFT if draft else Action.EDIT
        adm = self._admit(action, dossier_id, revision, actor_id)
        if isinstance(adm, TransitionResult):
            return adm
        now, parsed, actor = adm
        try:
            evidence = apply_edit(parsed.evidence_raw, path, value)
            value_digest = json_digest(None if value is DELETE else value)
        except EditPathError:
            return self._refuse(now, parsed, action, actor_id, Refusal.EDIT_PATH_INVALID)
        except (TypeError, ValueError):
            return self._refuse(now, parsed, action, actor_id, Refusal.DOSSIER_SCHEMA_INVALID)
        edit = {"path": list(path), "value_digest": value_digest, "deleted": value is DELETE}
        if draft:
            raw = copy.deepcopy(parsed.raw)
            raw["evidence"] = evidence
            new = self._parse_or_none(raw)
            if new is None:
                return self._refuse(now, parsed, action, actor_id, Refusal.DOSSIER_SCHEMA_INVALID)
            return self._apply(now, parsed, new, Action.EDIT_DRAFT, actor, edit)
        return self._new_revision(now, parsed, actor, evidence, edit)

    def revise(self, dossier_id: str, revision: int, actor_id: str) -> TransitionResult:
        """Start a new revision from an expired one (spec 7.3): no dead end after expiry.

        Revision ``n + 1`` is created in ``draft`` (T0, by a ``training_research_lead``)
        with the expired revision's evidence copied, ``supersedes`` naming it, and
        nothing bound, checked or authorized; the expired revision stays as it is. Only
        the latest revision, and only once expired (a bound revision that is not
        expired is edited instead, T7, which expires it).

        Returns
        -------
        TransitionResult
            ``applied_as_new_revision`` with both revisions' states, or ``refused``:
            ``TRANSITION_ILLEGAL`` (not expired, or superseded),
            ``ACTOR_ROLE_NOT_PERMITTED``, ``ACTOR_KEY_UNAVAILABLE``,
            ``WORKSPACE_READ_ONLY``, ``DOSSIER_SCHEMA_INVALID``.
        """
        now, parsed = self.views.now(), self.records.get(dossier_id, revision)
        state = parsed.model.state
        if self.journal.read_only:
            return TransitionResult.of(
                Outcome.REFUSED, {revision: state}, Refusal.WORKSPACE_READ_ONLY.value
            )
        if state is not _S.EXPIRED or self.records.superseded(dossier_id, revision):
            return self._refuse(
                now, parsed, Action.CREATE, actor_id, Refusal.TRANSITION_ILLEGAL, label="revise"
            )
        actor = self.registry.get(actor_id)
        if actor is None or actor.role is not Role.TRAINING_RESEARCH_LEAD:
            return self._refuse(
                now,
                parsed,
                Action.CREATE,
                actor_id,
                Refusal.ACTOR_ROLE_NOT_PERMITTED,
                label="revise",
            )
        unable = self.registry.can_act(actor_id)
        if unable is not None:
            return TransitionResult.of(Outcome.REFUSED, {revision: state}, _unable_reason(unable))
        m = parsed.model
        raw = _next_revision(parsed, actor, now)
        supersedes = raw["supersedes"]
        new = self._parse_or_none(raw)
        if new is None:
            return self._refuse(
                now, parsed, Action.CREATE, actor_id, Refusal.DOSSIER_SCHEMA_INVALID, "revise"
            )
        create = self._transition(
            new,
            Action.CREATE,
            actor,
            {"supersedes": supersedes, "revised_from_expired": True},
            revision=m.revision + 1,
        )
        fault = self.writer.commit(now, [new], [create])
        if fault is not None:
            return self._write_failed(parsed, fault)
        return TransitionResult.of(
            Outcome.APPLIED_AS_NEW_REVISION,
            {m.revision: state, m.revision + 1: _S.DRAFT},
            new_revision=m.revision + 1,
        )

    def authorize_amendment(
        self,
        dossier_id: str,
        revision: int,
        actor_id: str,
        amendment_ref: str,
        amendment_digest: str,
    ) -> TransitionResult:
        """A human maintainer authorizes *proposing* an amendment (spec 2.4), as a sign-off.

        Allowed on the latest ``draft`` or ``evidence_bound`` revision; the
        authorization is outside ``evidence``, so no new revision is created.
        """
        now, parsed = self.views.now(), self.records.get(dossier_id, revision)
        state = parsed.model.state
        if self.journal.read_only:
            return TransitionResult.of(
                Outcome.REFUSED, {revision: state}, Refusal.WORKSPACE_READ_ONLY.value
            )
        actor = self.registry.get(actor_id)
        # spec 7.4: a training-side identity authorizes nothing
        reason = admission(
            AUTHORIZE,
            self.views.standing(dossier_id, revision),
            actor,
            read_only=False,
            unable=None,
        )
        if reason is not None:
            return self._refuse(now, parsed, None, actor_id, reason, label="authorize_amendment")
        assert actor is not None
        auth = {
            "principal_id": actor.principal_id,
            "action": "propose_activation_amendment",
            "grants": [],
            "amendment_ref": amendment_ref,
            "amendment_digest": amendment_digest,
            "evidence_digest": parsed.evidence_digest,
            "issued_at": format_timestamp(now),
        }
        raw = copy.deepcopy(parsed.raw)
        raw["authorization"] = auth
        new = self._parse_or_none(raw)
        if new is None:
            return self._refuse(
                now,
                parsed,
                None,
                actor_id,
                Refusal.DOSSIER_SCHEMA_INVALID,
                label="authorize_amendment",
            )
        entry = {
            "kind": "signoff",
            "dossier_id": dossier_id,
            "revision": revision,
            "actor": actor,
            "from_state": state.value,
            "to_state": state.value,
            "payload": {"subject": "amendment_authorization", "subject_digest": json_digest(auth)},
        }
        fault = self.writer.commit(now, [new], [entry])
        if fault is not None:
            return self._write_failed(parsed, fault)
        return TransitionResult.of(Outcome.APPLIED, {revision: state})

    # -- admission: precedence of refusals ---------------------------------------------
    def _admit(
        self, action: Action, dossier_id: str, revision: int, actor_id: str
    ) -> _Admitted | TransitionResult:
        """Apply refusal precedence: illegal, role, separation of duties (spec 7.2)."""
        # A step hashes the folders recorded at binding again: nobody watches them, so a
        # digest remembered for the previews must not decide a step.
        self.packages.forget_folders()
        now, parsed = self.views.now(), self.records.get(dossier_id, revision)
        actor = self.registry.get(actor_id)
        unable = self.registry.can_act(actor_id) if actor is not None else None
        reason = admission(
            action,
            self.views.standing(dossier_id, revision),
            actor,
            read_only=self.journal.read_only,
            unable=unable,
        )
        if reason in (Refusal.WORKSPACE_READ_ONLY, Refusal.ACTOR_KEY_UNAVAILABLE):
            # Nothing can be journaled: the journal failed, or the actor cannot sign here.
            return TransitionResult.of(
                Outcome.REFUSED, {revision: parsed.model.state}, reason.value
            )
        if reason is not None or actor is None:
            return self._refuse(
                now, parsed, action, actor_id, reason or Refusal.ACTOR_ROLE_NOT_PERMITTED
            )
        return _Admitted(now, parsed, actor)

    def _transition(
        self,
        parsed: ParsedDossier,
        action: Action,
        actor: Principal,
        payload: dict[str, Any],
        *,
        from_state: DossierState | None = None,
        revision: int | None = None,
        caused_by: Principal | None = None,
    ) -> dict[str, Any]:
        t = TRANSITIONS[action]
        src = from_state if from_state is not None else parsed.model.state
        return {
            "kind": "transition",
            "dossier_id": parsed.model.dossier_id,
            "revision": revision if revision is not None else parsed.model.revision,
            "actor": actor,
            "caused_by": caused_by,
            "from_state": None if action is Action.CREATE else src.value,
            "to_state": t.to_state.value if t.to_state else None,
            "payload": {"action": action.value, "actor_kind": actor.kind.value, **payload},
        }

    def _apply(
        self,
        now: datetime,
        parsed: ParsedDossier,
        new: ParsedDossier,
        action: Action,
        actor: Principal,
        payload: dict[str, Any],
    ) -> TransitionResult:
        fault = self.writer.commit(now, [new], [self._transition(parsed, action, actor, payload)])
        if fault is not None:
            return self._write_failed(parsed, fault)
        return TransitionResult.of(Outcome.APPLIED, {new.model.revision: new.model.state})

    def _expire(
        self,
        parsed: ParsedDossier,
        now: datetime,
        fresh: Freshness,
        extra: list[dict[str, Any]] | None = None,
        also: list[ParsedDossier] | None = None,
        *,
        caused_by: Principal,
    ) -> TransitionResult:
        """T6: write the all-unknown check record and move to ``expired``."""
        record = expired_check_record(parsed, REDUCER.principal_id, now, fresh)
        raw = copy.deepcopy(parsed.raw)
        raw["state"] = _S.EXPIRED.value
        raw["check"] = record.to_json()
        expired = parse_dossier(raw)
        entries = [
            self._transition(
                parsed,
                Action.EXPIRE,
                REDUCER,
                {"reasons": list(fresh.reasons)},
                caused_by=caused_by,
            ),
            *(extra or []),
        ]
        fault = self.writer.commit(now, [expired, *(also or [])], entries)
        if fault is not None:
            return self._write_failed(parsed, fault)
        states = {parsed.model.revision: _S.EXPIRED}
        states.update({p.model.revision: p.model.state for p in also or []})
        outcome = Outcome.APPLIED_AS_NEW_REVISION if also else Outcome.EXPIRED
        return TransitionResult.of(
            outcome,
            states,
            fresh.expiring[0],
            check_record=record,
            new_revision=also[0].model.revision if also else None,
        )

    def _new_revision(
        self,
        now: datetime,
        parsed: ParsedDossier,
        actor: Principal,
        evidence: dict[str, Any],
        edit: dict[str, Any],
    ) -> TransitionResult:
        """T7: the edit becomes revision n+1 in draft; revision n expires (evidence changed)."""
        m = parsed.model
        raw = _next_revision(parsed, actor, now, evidence)
        supersedes = raw["supersedes"]
        new = self._parse_or_none(raw)
        if new is None:
            return self._refuse(
                now, parsed, Action.EDIT, actor.principal_id, Refusal.DOSSIER_SCHEMA_INVALID
            )
        fresh = self.views.fresh(parsed, now)
        changed = Freshness(
            ("DOSSIER_EVIDENCE_CHANGED", *fresh.expiring),
            fresh.blocking,
            tuple(
                s
                for s, d in section_digests(evidence).items()
                if d != section_digests(parsed.evidence_raw).get(s)
            ),
        )
        create = self._transition(
            new, Action.CREATE, actor, {"supersedes": supersedes, **edit}, revision=m.revision + 1
        )
        return self._expire(parsed, now, changed, extra=[create], also=[new], caused_by=actor)

    def _refuse(
        self,
        now: datetime,
        parsed: ParsedDossier,
        action: Action | None,
        actor_id: object,
        reason: Refusal,
        label: str | None = None,
    ) -> TransitionResult:
        """Journal a refused attempt (a journal fault is surfaced, the refusal stands).

        An attempt by someone who cannot write here -- not in the registry (10.1), or
        without a usable key (10.2) -- is refused without a journal entry: nobody
        registered made it, and an unsigned entry in an unknown name is a forgery's shape.
        """
        actor = self.registry.get(actor_id)
        t = TRANSITIONS.get(action) if action is not None else None
        state = parsed.model.state
        if actor is None or self.registry.can_act(actor_id) is not None:
            return TransitionResult.of(
                Outcome.REFUSED, {parsed.model.revision: state}, reason.value
            )
        try:
            self.writer.append(
                now,
                "transition_refused",
                dossier_id=parsed.model.dossier_id,
                revision=parsed.model.revision,
                actor=actor,
                from_state=state.value,
                to_state=t.to_state.value if t and t.to_state else None,
                payload={
                    "action": label or (action.value if action else None),
                    "reason": reason.value,
                },
            )
        except Exception as exc:  # noqa: BLE001 - the refusal stands whatever the journal does
            if not str(exc).startswith(("JOURNAL_ENTRY_MALFORMED", "ACTOR_KEY_UNAVAILABLE")):
                self.journal.set_fault(f"JOURNAL_WRITE_FAILED: {exc}")
        return TransitionResult.of(Outcome.REFUSED, {parsed.model.revision: state}, reason.value)

    def _write_failed(self, parsed: ParsedDossier, fault: str) -> TransitionResult:
        return TransitionResult.of(
            Outcome.REFUSED,
            {parsed.model.revision: parsed.model.state},
            Refusal.JOURNAL_WRITE_FAILED.value
            if fault.startswith("JOURNAL")
            else fault.split(":")[0],
        )

    @staticmethod
    def _parse_or_none(raw: dict[str, Any]) -> ParsedDossier | None:
        try:
            canonical_json(raw)
            return parse_dossier(raw)
        except (DossierSchemaError, TypeError, ValueError):
            return None


def _training_side(parsed: ParsedDossier) -> set[str]:
    plan = parsed.model.evidence.independence_plan
    return plan.training_side() if plan else set()


def _unable_reason(unable: str | None) -> str:
    """The refusal code for :meth:`WorkspaceRegistry.can_act`'s answer."""
    if unable is not None and unable.startswith(Refusal.ACTOR_KEY_UNAVAILABLE.value):
        return Refusal.ACTOR_KEY_UNAVAILABLE.value
    return Refusal.ACTOR_ROLE_NOT_PERMITTED.value


def _next_revision(
    parsed: ParsedDossier, actor: Principal, now: datetime, evidence: Any = None
) -> dict[str, Any]:
    """Revision n+1 of ``parsed`` in draft, authored by ``actor`` (spec 7.3): it supersedes
    n by its evidence digest and carries no binding, authorization or check; ``evidence``
    replaces n's when given (T7)."""
    m = parsed.model
    raw = copy.deepcopy(parsed.raw)
    raw.pop("imported_untrusted", None)
    raw.update(
        revision=m.revision + 1,
        state=_S.DRAFT.value,
        supersedes={
            "dossier_id": m.dossier_id,
            "revision": m.revision,
            "evidence_digest": parsed.evidence_digest,
        },
        created_by=actor.principal_id,
        created_at=format_timestamp(now),
        binding=None,
        authorization=None,
        check=None,
    )
    if evidence is not None:
        raw["evidence"] = evidence
    return raw
