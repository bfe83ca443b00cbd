"""G10 separation of identities and an untouched epoch; G11 non-spendable dry run (spec 5)."""

from __future__ import annotations

import math

from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult

__all__ = ["COST_DIMENSIONS", "RATIONALE_INPUTS", "gate_g10", "gate_g11"]

RATIONALE_INPUTS = frozenset(
    {
        "trainer_rationale",
        "claimed_gains",
        "candidate_author_identity",
        "search_rank",
        "persuasive_summary",
    }
)
COST_DIMENSIONS = ("compute", "storage", "checkpoint", "evaluation", "egress", "retry")


def gate_g10(ctx: GateContext) -> GateResult:
    """Five distinct identities; the final evaluation epoch is sealed, active and untouched."""
    b = GateBuilder()
    plan = ctx.ev.independence_plan
    ids = (
        [
            plan.training_identity,
            plan.provider_identity,
            plan.candidate_author_identity,
            plan.search_controller_identity,
            plan.final_evaluator_identity,
        ]
        if plan
        else [None]
    )
    if any(not i for i in ids):
        b.unknown("G10_IDENTITIES_MISSING")
    present = [i for i in ids if i]
    if len(set(present)) != len(present):
        b.fail("G10_IDENTITY_CONFLICT")
    final = plan.final_evaluation if plan else None
    if final is None or not final.epoch_id or final.evaluator_inputs is None:
        b.unknown("G10_FINAL_EVALUATION_MISSING")
    if final is None:
        return b.result()
    if final.evaluator_inputs and RATIONALE_INPUTS & set(final.evaluator_inputs):
        b.fail("G10_EVALUATOR_RECEIVES_TRAINER_RATIONALE")
    if not final.epoch_id:
        return b.result()
    epoch = ctx.archive.epochs.get(final.epoch_id)
    if epoch is None:
        b.fail("G10_EVALUATION_EPOCH_UNRESOLVED")
        return b.result()
    if epoch.sealed is not True or epoch.status != "active":
        b.fail("G10_EVALUATION_EPOCH_NOT_SEALED")
    looks = ctx.archive.exposure.get(final.epoch_id)
    if looks is None:
        b.unknown("G10_EXPOSURE_UNKNOWN")
    elif looks[0] > 0 or looks[1] > 0:
        b.fail("G10_EVALUATION_EPOCH_TOUCHED")
    if _cited_epochs(ctx) & {final.epoch_id}:
        b.fail("G10_EVALUATION_EPOCH_TOUCHED")
    return b.result()


def _cited_epochs(ctx: GateContext) -> set[str]:
    """Epochs hosting an observation cited by G3 or an experiment cited by G4."""
    out: set[str] = set()
    rec = ctx.ev.recurrence
    for oid in (rec.observation_ids or []) if rec else []:
        obs = ctx.archive.observations.get(oid)
        if obs is not None and obs.epoch_id:
            out.add(obs.epoch_id)
    lr = ctx.ev.lower_rungs
    for entry in (lr.rungs or []) if lr else []:
        if entry.experiment is not None and entry.experiment.experiment_id:
            exp = ctx.archive.experiments.get(entry.experiment.experiment_id)
            if exp is not None and exp.epoch_id:
                out.add(exp.epoch_id)
    return out


def gate_g11(ctx: GateContext) -> GateResult:
    """A non-spendable dry run within every ceiling that created nothing."""
    b = GateBuilder()
    env = ctx.ev.cost_envelope
    if (
        env is None
        or env.mode is None
        or env.work_orders_created is None
        or env.reservations_created is None
        or env.spend_committed_micros is None
    ):
        b.unknown("G11_DRY_RUN_MISSING")
    if env is None:
        return b.result()
    if env.mode is not None and env.mode != "non_spendable_dry_run":
        b.fail("G11_NOT_NON_SPENDABLE")
    dims = env.dimensions or {}
    for name in COST_DIMENSIONS:
        d = dims.get(name)
        if d is None or not _finite(d.worst_case) or not _finite(d.ceiling):
            b.unknown("G11_DIMENSION_MISSING")
            b.note("dimensions_missing", [name])
        elif d.worst_case > d.ceiling:  # type: ignore[operator]  # _finite(): both are numbers
            b.fail("G11_CEILING_EXCEEDED")
            b.note("dimensions_over_ceiling", [name])
    if env.work_orders_created or env.reservations_created:
        b.fail("G11_SIDE_EFFECTS_CREATED")
    if env.spend_committed_micros is not None and env.spend_committed_micros != 0:
        b.fail("G11_SIDE_EFFECTS_CREATED")
    return b.result()


def _finite(v: float | None) -> bool:
    return v is not None and math.isfinite(v)
