"""G1 — evaluation coverage, effective sample and statistical power (spec 5, 6.1)."""

from __future__ import annotations

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._gate_g1_power import check_power
from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult
from aa_review.core.stats import EffectiveSample, effective_sample

__all__ = ["gate_g1"]

_DECISIONS = frozenset({"sufficient", "insufficient"})
_REL = 1e-6  # relative slack when comparing claimed ESS figures


def gate_g1(ctx: GateContext) -> GateResult:
    """Coverage of stages 0..6, effective sample of the pool, and the sealed power plan."""
    b = GateBuilder()
    for key in (
        "independent_groups",
        "observation_units",
        "design_effect",
        "effective_sample_size",
        "power_base",
        "power_worst_case",
        "adjusted_alpha",
    ):
        b.metrics[key] = None
    _coverage(ctx, b)
    sample = _effective_sample(ctx, b)
    check_power(ctx, b, sample)
    return b.result()


def _coverage(ctx: GateContext, b: GateBuilder) -> None:
    cov, tb = ctx.ev.coverage, ctx.ev.target_behavior
    if cov is None:
        b.unknown("G1_COVERAGE_MISSING")
        return
    stages = cov.stages or []
    for n in range(6):
        entries = [s for s in stages if s.stage == n]
        if not entries:
            b.unknown("G1_COVERAGE_MISSING")
            b.note("coverage_stages_missing", [n])
        for s in entries:  # both checks: an insufficient stage fails whatever its digest
            if not is_digest(s.report_digest) or s.decision not in _DECISIONS:
                b.unknown("G1_COVERAGE_MISSING")
                b.note("coverage_stages_unverifiable", [n])
            if s.decision == "insufficient":
                b.fail("G1_COVERAGE_STAGE_INSUFFICIENT")
                b.note("coverage_stages_insufficient", [n])
    s6 = cov.stage6
    if s6 is None or s6.can_evaluate_training_search is None:
        b.unknown("G1_COVERAGE_MISSING")
    elif s6.can_evaluate_training_search is not True:
        b.fail("G1_STAGE6_CANNOT_EVALUATE_TRAINING_SEARCH")
    behavior = tb.behavior_id if tb else None
    if not cov.target_behavior_id or not behavior:
        b.unknown("G1_COVERAGE_MISSING")
    elif cov.target_behavior_id != behavior:
        b.fail("G1_COVERAGE_TARGET_MISMATCH")


def _effective_sample(ctx: GateContext, b: GateBuilder) -> EffectiveSample | None:
    es = ctx.ev.effective_sample
    if es is None:
        b.unknown("G1_ESS_MISSING")
        return None
    claims = (
        es.claimed_independent_groups,
        es.claimed_design_effect,
        es.claimed_effective_sample_size,
    )
    if not es.groups or es.icc is None or es.analysis_unit is None or None in claims:
        b.unknown("G1_ESS_MISSING")
    if es.analysis_unit is not None and es.analysis_unit != "independent_group":
        b.fail("G1_ESS_PSEUDOREPLICATION")
    icc_ok = es.icc is not None and 0.0 <= es.icc < 1.0
    if es.icc is not None and not icc_ok:
        b.fail("G1_ESS_INVALID")
    sizes: dict[str, int] = {}
    complete = bool(es.groups)
    for g in es.groups or ():  # spec 6.1 sums n_units per component, a repeated group too
        if g.group_id is None or g.n_units is None:
            b.unknown("G1_ESS_MISSING")
            complete = False
            continue
        # Spec 15: a group of 0 units counts for nothing, so the claims are judged against
        # the smaller G and ESS of 6.1 (G1_ESS_INVALID is the ICC's alone).
        comp = ctx.archive.graph.component(g.group_id)
        if comp is None:
            b.fail("G1_ESS_GROUP_UNRESOLVED")
            b.note("unresolved_groups", [g.group_id])
            complete = False
            continue
        sizes[comp] = sizes.get(comp, 0) + max(g.n_units, 0)
    if not (complete and icc_ok and sizes):
        return None
    g_claim, deff_claim, ess_claim = claims
    if not any(sizes.values()):  # no component carries a unit: G = N = ESS = 0 (6.1)
        b.metrics.update(independent_groups=0, observation_units=0, effective_sample_size=0.0)
        if g_claim is not None and g_claim > 0:
            b.fail("G1_ESS_GROUPS_OVERCLAIMED")
        if ess_claim is not None and ess_claim > 0:
            b.fail("G1_ESS_OVERCLAIMED")
        return None
    sample = effective_sample(sizes.values(), es.icc or 0.0)
    b.metrics.update(
        independent_groups=sample.independent_groups,
        observation_units=sample.observation_units,
        design_effect=sample.design_effect,
        effective_sample_size=sample.effective_sample_size,
    )
    b.note("pool_component_sizes", dict(sorted(sizes.items())))
    if g_claim is not None and g_claim > sample.independent_groups:
        b.fail("G1_ESS_GROUPS_OVERCLAIMED")
    if deff_claim is not None and deff_claim < sample.design_effect * (1 - _REL):
        b.fail("G1_ESS_DESIGN_EFFECT_UNDERSTATED")
    if ess_claim is not None and ess_claim > sample.effective_sample_size * (1 + _REL):
        b.fail("G1_ESS_OVERCLAIMED")
    return sample
