"""Seal a synthetic dossier: recompute its claims and re-link its digests to its evidence."""

from __future__ import annotations

from typing import Any

from aa_review.core.dossier._absent import is_absent
from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._gate_g2 import reviewed_digest
from aa_review.core.dossier._models_evidence import Preregistration, Simulation
from aa_review.core.stats import (
    PowerDesign,
    adjusted_alpha,
    family_k_star,
    one_sided_upper_bound,
    simulate_power,
)

__all__ = ["power_claims", "seal"]


def power_claims(tree: dict[str, Any]) -> tuple[float, float]:
    """Base and worst-case power of the dossier's plan, computed as the validator does."""
    p = tree["evidence"]["power_analysis"]["parameters"]
    alpha = adjusted_alpha(
        p["alpha"], len(p["comparison_family"]["hypotheses"]), p["multiplicity_method"]
    )
    box = p["sensitivity_range"]

    def run(icc: float, attrition: float, missing: float, seed: int) -> float:
        design = PowerDesign(
            p["minimum_useful_effect"],
            p["clusters_per_arm"],
            p["cluster_size"],
            icc,
            attrition,
            missing,
            alpha,
            p["alternative"],
        )
        return simulate_power(design, p["n_sim"], seed).power

    base = run(p["icc"], p["cluster_attrition"], p["missingness"]["rate"], p["seed"])
    worst = run(box["icc"][1], box["cluster_attrition"][1], box["missing_rate"][1], p["seed"] + 1)
    return base, worst


def seal(
    tree: dict[str, Any], archive: dict[str, Any] | None = None, reclaim: bool = False
) -> None:
    """Re-link ``tree`` in place so that only deliberate changes break it.

    Parameters
    ----------
    tree : dict
        A dossier JSON tree.
    archive : dict, optional
        When given, the claimed rung bounds are recomputed from its experiments.
    reclaim : bool
        Recompute the claimed power figures (seconds of simulation at most).

    Notes
    -----
    Always re-seals the power inputs digests, the feasibility review digest and
    the amendment authorization's evidence digest (last, over the final evidence).
    """
    ev = tree["evidence"]
    if archive is not None:
        _claim_bounds(ev, archive)
    pa = ev.get("power_analysis")
    if isinstance(pa, dict) and isinstance(pa.get("parameters"), dict):
        d = json_digest(pa["parameters"])
        for key, model, fld in (
            ("simulation", Simulation, "inputs_digest"),
            ("preregistration", Preregistration, "sealed_inputs_digest"),
        ):
            # An absent object ({} too, spec 15) stays absent: sealing adds nothing to it.
            if isinstance(pa.get(key), dict) and not is_absent(pa[key], [model]):
                pa[key][fld] = d
        if reclaim:
            base, worst = power_claims(tree)
            pa["claimed"] = {"power_base": round(base, 4), "power_worst_case": round(worst, 4)}
    f = ev.get("feasibility")
    if isinstance(f, dict) and isinstance(f.get("human_review"), dict):
        f["human_review"]["reviewed_digest"] = reviewed_digest(f)
    if isinstance(tree.get("authorization"), dict):
        tree["authorization"]["evidence_digest"] = json_digest(ev)


def _claim_bounds(ev: dict[str, Any], archive: dict[str, Any]) -> None:
    lr = ev["lower_rungs"]
    experiments = {e["experiment_id"]: e for e in archive["experiments"]}
    entries = [r for r in lr["rungs"] if r.get("basis") == "confirmatory_experiment"]
    k_star = family_k_star(lr["family_size"], len(entries))
    for entry in entries:
        e = experiments[entry["experiment"]["experiment_id"]]
        ucb = one_sided_upper_bound(
            e["estimate"], e["standard_error"], e["df"], lr["family_alpha"], k_star
        )
        entry["experiment"]["claimed_upper_bound"] = round(ucb, 5)
