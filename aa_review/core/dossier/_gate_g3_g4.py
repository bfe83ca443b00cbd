"""G3 — recurrence of the residual mechanism (6.7); G4 — lower-rung plateau (6.6)."""

from __future__ import annotations

import math

from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult
from aa_review.core.dossier._models_evidence import LowerRungs, RungEntry
from aa_review.core.stats import (
    UCB_TOLERANCE,
    family_k_star,
    is_plateau,
    one_sided_upper_bound,
    recurrence_scope,
)

__all__ = ["gate_g3", "gate_g4"]

_RUNGS = frozenset(range(7))
_RECORD_BASES = frozenset({"infeasibility_record", "cost_ceiling_record"})


def gate_g3(ctx: GateContext) -> GateResult:
    """The same mechanism recurs in >= 3 families, >= 2 epochs, >= 2 configuration classes."""
    b = GateBuilder()
    b.metrics.update(families=None, epochs=None, configuration_classes=None)
    rec, tb = ctx.ev.recurrence, ctx.ev.target_behavior
    if rec is None or not rec.observation_ids:
        b.unknown("G3_RECURRENCE_MISSING")
        return b.result()
    a = ctx.archive
    unresolved = [o for o in dict.fromkeys(rec.observation_ids) if o not in a.observations]
    if unresolved:
        b.fail("G3_OBSERVATION_UNRESOLVED")
        b.note("unresolved_observations", unresolved)
    if tb is None or not tb.mechanism_id:
        b.unknown("G3_RECURRENCE_MISSING")
    elif rec.mechanism_id and rec.mechanism_id != tb.mechanism_id:
        b.fail("G3_MECHANISM_MISMATCH")
    if not rec.mechanism_id:  # nothing can qualify: unknown, not three failed counts
        b.unknown("G3_RECURRENCE_MISSING")
        return b.result()
    scope = recurrence_scope(
        rec.observation_ids,
        rec.mechanism_id,
        {k: v.model_dump() for k, v in a.observations.items()},
        {k: v.model_dump() for k, v in a.epochs.items()},
        {k: v.model_dump() for k, v in a.configurations.items()},
        a.graph.component_of,
    )
    b.metrics.update(
        families=scope.families,
        epochs=scope.epochs,
        configuration_classes=scope.configuration_classes,
    )
    b.note("qualifying_observations", list(scope.qualifying))
    b.note("ignored_observations", list(scope.ignored))
    if scope.families < 3:
        b.fail("G3_FAMILIES_LT_3")
    if scope.epochs < 2:
        b.fail("G3_EPOCHS_LT_2")
    if scope.configuration_classes < 2:
        b.fail("G3_CONFIGURATIONS_LT_2")
    return b.result()


def gate_g4(ctx: GateContext) -> GateResult:
    """Every rung 0..6 has plateaued, is infeasible/too costly, or does not apply."""
    b = GateBuilder()
    b.metrics["upper_bounds"] = {}
    lr = ctx.ev.lower_rungs
    if lr is None or lr.rungs is None:
        b.unknown("G4_PLATEAU_MISSING")
        if lr is not None:  # spec 15: absent rungs (``[]`` too) are not {0..6} either
            b.unknown("G4_RUNGS_MISSING")
        return b.result()
    if None in (lr.family_alpha, lr.family_size, lr.multiplicity_method, lr.useful_effect):
        b.unknown("G4_PLATEAU_MISSING")
    numbers = [r.rung for r in lr.rungs]
    if sorted(n for n in numbers if n is not None) != sorted(_RUNGS) or None in numbers:
        b.unknown("G4_RUNGS_MISSING")
    confirmatory = [r for r in lr.rungs if r.basis == "confirmatory_experiment"]
    family_ok = _family(lr, len(confirmatory), b)
    k_star = family_k_star(lr.family_size or 0, len(confirmatory))
    for entry in lr.rungs:
        if entry.applicable is None or entry.basis is None:
            b.unknown("G4_RUNGS_MISSING")
            continue
        if entry.applicable is False:
            _not_applicable(entry, ctx, b)
        elif entry.basis == "exploratory_search":
            b.fail("G4_EXPLORATORY_NOT_PLATEAU")
        elif entry.basis == "confirmatory_experiment":
            _experiment(entry, lr, k_star if family_ok else None, ctx, b)
        elif entry.basis in _RECORD_BASES:
            _record(entry, ctx, b)
        else:
            b.fail("G4_BASIS_INVALID")
            b.note("invalid_basis_rungs", [entry.rung])
    return b.result()


def _family(lr: LowerRungs, n_confirmatory: int, b: GateBuilder) -> bool:
    ok = True
    method, size = lr.multiplicity_method, lr.family_size
    # 2.2 lists "none" among the family's methods with no condition, and 6.6 computes
    # every bound at K* whatever the method: "none" is judged by its bounds.
    if method is not None and method not in ("holm", "bonferroni", "none"):
        b.fail("G4_MULTIPLICITY_INVALID")
        ok = False
    if lr.family_alpha is not None and not 0.0 < lr.family_alpha < 1.0:
        b.fail("G4_MULTIPLICITY_INVALID")
        ok = False
    if size is not None and size < n_confirmatory:
        b.fail("G4_FAMILY_SIZE_UNDERSTATED")
    # lower_rungs.useful_effect is compared with each archive experiment's (6.6), never
    # with target_behavior: the rungs have their own effect_scale, G1 its total-SD scale.
    return ok and lr.family_alpha is not None


def _not_applicable(entry: RungEntry, ctx: GateContext, b: GateBuilder) -> None:
    na = entry.not_applicable
    if (
        entry.basis != "not_applicable"
        or na is None
        or not na.reason_ref
        or not ctx.principals.is_human_maintainer(na.accepted_by)
    ):
        b.fail("G4_NOT_APPLICABLE_UNACCEPTED")
        b.note("unaccepted_not_applicable_rungs", [entry.rung])


def _experiment(
    entry: RungEntry, lr: LowerRungs, k_star: int | None, ctx: GateContext, b: GateBuilder
) -> None:
    ref = entry.experiment
    if ref is None or not ref.experiment_id:
        b.unknown("G4_RESULT_MISSING")
        return
    exp = ctx.archive.experiments.get(ref.experiment_id)
    # An entry without its rung number is G4_RUNGS_MISSING; its experiment's rung is not
    # compared with nothing (1.1/15: an absent input presumes no value).
    if exp is None or (entry.rung is not None and exp.rung != entry.rung):
        b.fail("G4_EXPERIMENT_UNRESOLVED")
        b.note("unresolved_experiments", [ref.experiment_id])
        return
    if exp.kind != "confirmatory":
        b.fail("G4_EXPLORATORY_NOT_PLATEAU")
    if exp.preregistered is not True or exp.sealed is not True:
        b.fail("G4_NOT_PREREGISTERED")
    if lr.useful_effect is not None and exp.useful_effect != lr.useful_effect:
        b.fail("G4_USEFUL_EFFECT_MISMATCH")  # lr.useful_effect absent: G4_PLATEAU_MISSING
    if ref.claimed_upper_bound is None:
        b.unknown("G4_RESULT_MISSING")
    if exp.estimate is None or exp.standard_error is None or exp.df is None:
        b.unknown("G4_RESULT_MISSING")
        return
    if (
        exp.standard_error < 0
        or not math.isfinite(exp.standard_error)
        or (exp.df != "inf" and exp.df <= 0)
    ):
        b.unknown("G4_RESULT_MISSING")  # a result this validator cannot turn into a bound
        return
    if k_star is None or lr.family_alpha is None:
        return
    ucb = one_sided_upper_bound(exp.estimate, exp.standard_error, exp.df, lr.family_alpha, k_star)
    b.metrics["upper_bounds"][str(entry.rung)] = ucb
    if ref.claimed_upper_bound is not None and abs(ref.claimed_upper_bound - ucb) > UCB_TOLERANCE:
        b.fail("G4_UCB_MISMATCH")
    if lr.useful_effect is not None and not is_plateau(ucb, lr.useful_effect):
        b.fail("G4_UCB_NOT_BELOW_USEFUL_EFFECT")


def _record(entry: RungEntry, ctx: GateContext, b: GateBuilder) -> None:
    rec = entry.record
    cost = entry.basis == "cost_ceiling_record"
    if (
        rec is None
        or not rec.status
        or not rec.accepted_by
        or not rec.reason_ref
        or (cost and (rec.projected_cost is None or rec.cost_ceiling is None))
    ):
        b.unknown("G4_RECORD_MISSING")
        if rec is None or not rec.status or not rec.accepted_by:
            return
    assert rec is not None
    if (
        rec.status != "accepted"
        or not ctx.principals.is_human_maintainer(rec.accepted_by)
        or rec.accepted_by == ctx.author
    ):
        b.fail("G4_RECORD_NOT_ACCEPTED")
    if cost and rec.projected_cost is not None and rec.cost_ceiling is not None:
        if not rec.projected_cost > rec.cost_ceiling:
            b.fail("G4_COST_CEILING_NOT_EXCEEDED")
    costs = b.detail.setdefault("record_costs", {})
    costs[str(entry.rung)] = {
        "projected_cost": rec.projected_cost,
        "cost_ceiling": rec.cost_ceiling,
        "unit": rec.unit,
    }
