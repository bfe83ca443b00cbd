"""G1 power checks: sealed plan, digest binding, re-executed reference model (spec 6.2-6.5)."""

from __future__ import annotations

from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._gates_common import GateBuilder, GateContext
from aa_review.core.dossier._models_evidence import PowerParameters
from aa_review.core.stats import (
    METHOD_ID,
    POWER_THRESHOLD,
    EffectiveSample,
    PowerDesign,
    PowerEstimate,
    adjusted_alpha,
    claim_reproduced,
    range_contains_base,
    simulate_power,
    simulation_binding,
)

__all__ = ["MAX_SIMULATED_CLUSTERS", "check_power"]

_DECISION_RULE = "reject_if_p_le_adjusted_alpha"
_EFFECT_SCALE = "standardized_total_sd"
_MIN_NSIM = 2000
# Validator limit on n_sim * 2k (about a hundred seconds of simulation per point on one
# core); beyond it: unknown. High enough for any plan a person would seal (n_sim = 10^6 at
# 500 clusters per arm), low enough that a hostile dossier cannot keep a check running.
MAX_SIMULATED_CLUSTERS = 1_000_000_000
_KEYS = tuple(PowerParameters.model_fields)


def check_power(ctx: GateContext, b: GateBuilder, sample: EffectiveSample | None) -> None:
    """Add the power findings of G1 to ``b`` (and its power metrics)."""
    pa = ctx.ev.power_analysis
    if pa is None:
        b.unknown("G1_POWER_MISSING")
        return
    p = pa.parameters
    tb = ctx.ev.target_behavior
    prereg_effect = tb.preregistered_minimum_useful_effect if tb else None
    supported = _supported(pa.method_id, p, b)
    complete = _complete(p, prereg_effect, b)
    if pa.claimed is None or pa.claimed.power_base is None or pa.claimed.power_worst_case is None:
        b.unknown("G1_POWER_CLAIM_MISSING")
    if pa.sealed is not True:
        b.fail("G1_POWER_NOT_SEALED")
    valid = p is not None and _valid(p, b)
    ranges_ok = p is not None and _ranges(p, b)
    _binding(ctx, pa, b)
    if p is None:
        return
    if (
        p.minimum_useful_effect is not None
        and prereg_effect is not None
        and p.minimum_useful_effect != prereg_effect
    ):
        b.fail("G1_POWER_EFFECT_NOT_PREREGISTERED")
    if p.n_sim is not None and p.n_sim < _MIN_NSIM:
        b.fail("G1_POWER_NSIM_TOO_SMALL")
    es = ctx.ev.effective_sample
    if p.icc is not None and es is not None and es.icc is not None and p.icc < es.icc:
        b.fail("G1_POWER_ICC_BELOW_ESTIMATE")
    if sample is not None and p.clusters_per_arm is not None and p.cluster_size is not None:
        k2 = 2 * p.clusters_per_arm
        if k2 > sample.independent_groups or k2 * p.cluster_size > sample.observation_units:
            b.fail("G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE")
    if not (supported and complete and valid):
        return  # numbers only for a complete, valid plan of the supported method
    assert p.n_sim is not None and p.clusters_per_arm is not None
    if p.n_sim * 2 * p.clusters_per_arm > MAX_SIMULATED_CLUSTERS:
        b.unknown("G1_POWER_BEYOND_VALIDATOR_LIMIT")
        return
    _simulate(p, prereg_effect, ranges_ok, pa.claimed, b)


def _supported(method_id: object, p: PowerParameters | None, b: GateBuilder) -> bool:
    ok = method_id == METHOD_ID
    if p is not None:
        for value, want in ((p.decision_rule, _DECISION_RULE), (p.effect_scale, _EFFECT_SCALE)):
            if value is not None and value != want:
                ok = False
        # Spec 15: an absent mechanism is "not the supported value" (MISSING is reported too).
        if (p.missingness.mechanism if p.missingness else None) != "MCAR":
            ok = False
    if not ok:
        b.unknown("G1_POWER_METHOD_UNSUPPORTED")
    return ok


def _complete(p: PowerParameters | None, prereg_effect: float | None, b: GateBuilder) -> bool:
    missing: list[str] = [] if p is not None else ["parameters"]
    if p is not None:
        missing += [k for k in _KEYS if getattr(p, k) is None]
        if p.comparison_family is not None and not p.comparison_family.hypotheses:
            # Spec 15: absent hypotheses are missing (K cannot be counted), and so is the
            # empty list, which _valid also reports as K = 0 (G1's "or K = 0").
            missing.append("comparison_family.hypotheses")
        if p.missingness is not None:
            missing += [
                f"missingness.{k}"
                for k in ("mechanism", "rate")
                if getattr(p.missingness, k) is None
            ]
        if p.sensitivity_range is not None:
            missing += [
                f"sensitivity_range.{k}"
                for k in ("icc", "cluster_attrition", "missing_rate")
                if getattr(p.sensitivity_range, k) is None
            ]
    if prereg_effect is None:
        missing.append("target_behavior.preregistered_minimum_useful_effect")
    if missing:
        b.unknown("G1_POWER_PARAMETER_MISSING")
        b.note("power_parameters_missing", missing)
    return not missing


def _valid(p: PowerParameters, b: GateBuilder) -> bool:
    bad: list[str] = []
    hypotheses = p.comparison_family.hypotheses if p.comparison_family else None
    k_hyp = len(hypotheses) if hypotheses is not None else None  # absent: MISSING alone
    checks: list[tuple[str, Any, bool]] = [
        ("alpha", p.alpha, p.alpha is not None and 0.0 < p.alpha < 1.0),
        ("alternative", p.alternative, p.alternative in ("greater", "two-sided")),
        (
            "multiplicity_method",
            p.multiplicity_method,
            p.multiplicity_method in ("holm", "bonferroni", "none"),
        ),
        (
            "minimum_useful_effect",
            p.minimum_useful_effect,
            p.minimum_useful_effect is not None and p.minimum_useful_effect > 0,
        ),
        (
            "clusters_per_arm",
            p.clusters_per_arm,
            p.clusters_per_arm is not None and p.clusters_per_arm >= 2,
        ),
        ("cluster_size", p.cluster_size, p.cluster_size is not None and p.cluster_size >= 1),
        ("icc", p.icc, p.icc is not None and 0.0 <= p.icc < 1.0),
        (
            "cluster_attrition",
            p.cluster_attrition,
            p.cluster_attrition is not None and 0.0 <= p.cluster_attrition < 1.0,
        ),
        ("n_sim", p.n_sim, p.n_sim is not None and p.n_sim >= 1),
    ]
    rate = p.missingness.rate if p.missingness else None
    checks.append(("missingness.rate", rate, rate is not None and 0.0 <= rate < 1.0))
    checks.append(("comparison_family.hypotheses", k_hyp, k_hyp is not None and k_hyp >= 1))
    if p.multiplicity_method == "none" and k_hyp is not None and k_hyp != 1:
        checks.append(("multiplicity_method", "none", False))
    for name, value, ok in checks:
        if value is not None and not ok:
            bad.append(name)
    if bad:
        b.fail("G1_POWER_PARAMETER_INVALID")
        b.note("power_parameters_invalid", bad)
    return not bad


def _ranges(p: PowerParameters, b: GateBuilder) -> bool:
    box = p.sensitivity_range
    if box is None:
        return False
    rate = p.missingness.rate if p.missingness else None
    ok = True
    for name, rng, base in (
        ("icc", box.icc, p.icc),
        ("cluster_attrition", box.cluster_attrition, p.cluster_attrition),
        ("missing_rate", box.missing_rate, rate),
    ):
        if rng is None or base is None:
            ok = False
        elif not range_contains_base(rng, base):
            b.fail("G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE")
            b.note("sensitivity_ranges_excluding_base", [name])
            ok = False
    return ok


def _binding(ctx: GateContext, pa: Any, b: GateBuilder) -> None:
    """Spec 6.3. An absent ``simulation`` or ``preregistration`` (``{}`` too: the typed model
    holds ``None``, spec 15 "Empty means absent") is G1_POWER_MISSING, and only the
    comparisons that need no value of it are made. An absent digest inside a present
    object differs from ``digest(parameters)`` and is not well-formed: the spec defines no
    unknown code for it, so it fails like a wrong one (docs/decisions.md)."""
    raw_pa = ctx.parsed.evidence_raw.get("power_analysis")
    raw_params = raw_pa.get("parameters") if isinstance(raw_pa, dict) else None
    if pa.parameters is None:  # absent (spec 15: {} too): G1_POWER_PARAMETER_MISSING alone
        raw_params = None
    sim, pre = pa.simulation, pa.preregistration
    absent = [n for n, part in (("simulation", sim), ("preregistration", pre)) if part is None]
    if absent:
        b.unknown("G1_POWER_MISSING")
        b.note("power_sections_missing", absent)
    binding = simulation_binding(
        json_digest(raw_params),
        sim.inputs_digest if sim else None,
        pre.sealed_inputs_digest if pre else None,
        sim.code_digest if sim else None,
        pre.sealed_code_digest if pre else None,
        sealed=pa.sealed,
        simulated=sim is not None,
        preregistered=pre is not None,
    )
    if raw_params is not None and not binding.inputs_bound:  # absent: PARAMETER_MISSING
        b.fail("G1_POWER_INPUTS_DIGEST_MISMATCH")
    if not binding.code_bound:
        b.fail("G1_POWER_CODE_DIGEST_MISMATCH")


def _simulate(
    p: PowerParameters, effect: float | None, ranges_ok: bool, claimed: Any, b: GateBuilder
) -> None:
    assert p.comparison_family is not None and p.comparison_family.hypotheses is not None
    assert p.missingness is not None and p.missingness.rate is not None
    alpha = adjusted_alpha(
        p.alpha or 0.0,
        len(p.comparison_family.hypotheses),
        p.multiplicity_method,  # type: ignore[arg-type]  # one of the methods: checked above
    )
    b.metrics["adjusted_alpha"] = alpha
    delta = effect if effect is not None else p.minimum_useful_effect

    def run(icc: float, attrition: float, missing: float, seed: int) -> PowerEstimate:
        design = PowerDesign(
            delta or 0.0,
            p.clusters_per_arm or 0,
            p.cluster_size or 0,
            icc,
            attrition,
            missing,
            alpha,
            p.alternative,  # type: ignore[arg-type]  # one of the alternatives: checked above
        )
        return simulate_power(design, p.n_sim or 0, seed)

    seed = p.seed or 0
    base = run(p.icc or 0.0, p.cluster_attrition or 0.0, p.missingness.rate, seed)
    b.metrics["power_base"] = base.power
    b.note("power_base_ci95", [base.ci_low, base.ci_high])
    _compare(claimed.power_base if claimed else None, base, b)
    if base.power < POWER_THRESHOLD:
        b.fail("G1_POWER_BELOW_THRESHOLD")
    if not ranges_ok:
        return
    box = p.sensitivity_range
    assert box is not None and box.icc and box.cluster_attrition and box.missing_rate
    worst = run(box.icc[1], box.cluster_attrition[1], box.missing_rate[1], seed + 1)
    b.metrics["power_worst_case"] = worst.power
    b.note("power_worst_case_ci95", [worst.ci_low, worst.ci_high])
    _compare(claimed.power_worst_case if claimed else None, worst, b)
    if worst.power < POWER_THRESHOLD:
        b.fail("G1_POWER_SENSITIVITY_BELOW_THRESHOLD")


def _compare(claim: float | None, est: PowerEstimate, b: GateBuilder) -> None:
    if claim is not None and not claim_reproduced(claim, est.power, est.n_sim):
        b.fail("G1_POWER_CLAIM_NOT_REPRODUCED")
