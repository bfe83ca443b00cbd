"""Numbers behind the dossier plots: the power curve and lower-rung bounds (no plotting)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from aa_review.core.stats import PowerDesign, adjusted_alpha, simulate_power

if TYPE_CHECKING:
    from aa_review.core.dossier._models_dossier import ParsedDossier
    from aa_review.core.dossier._validator import CheckRecord

__all__ = ["PowerCurve", "power_curve", "lower_rung_bounds"]


@dataclass(frozen=True)
class PowerCurve:
    clusters: np.ndarray
    base: np.ndarray
    worst: np.ndarray | None
    planned_clusters: int
    threshold: float = 0.80


def power_curve(parsed: ParsedDossier, n_sim: int = 2000, points: int = 16) -> PowerCurve | None:
    """Simulated power against clusters per arm at the base and worst-case corner.

    Uses the dossier's own parameters and seed (fewer simulations than the gate,
    for drawing); None when the parameters needed are missing.
    """
    pa = parsed.model.evidence.power_analysis if parsed.model.evidence else None
    p = pa.parameters if pa else None
    if p is None or not p.clusters_per_arm or not p.cluster_size or p.missingness is None:
        return None
    hyps = len(p.comparison_family.hypotheses or []) if p.comparison_family else 1
    alpha = adjusted_alpha(
        p.alpha or 0.05,
        max(hyps, 1),
        p.multiplicity_method,  # type: ignore[arg-type]  # one of the methods: G1 checked it
    )
    delta = p.minimum_useful_effect or 0.0
    k_plan = int(p.clusters_per_arm)
    ks = np.unique(np.linspace(2, max(4, 2 * k_plan), points).round().astype(int))

    def curve(icc: float, attr: float, miss: float, seed: int) -> np.ndarray:
        return np.array(
            [
                simulate_power(
                    PowerDesign(
                        delta,
                        int(k),
                        p.cluster_size or 0,
                        icc,
                        attr,
                        miss,
                        alpha,
                        p.alternative,  # type: ignore[arg-type]  # G1 checked it
                    ),
                    n_sim,
                    seed,
                ).power
                for k in ks
            ]
        )

    seed = p.seed or 0
    base = curve(p.icc or 0.0, p.cluster_attrition or 0.0, p.missingness.rate or 0.0, seed)
    box = p.sensitivity_range
    worst = None
    if box is not None and box.icc and box.cluster_attrition and box.missing_rate:
        worst = curve(box.icc[1], box.cluster_attrition[1], box.missing_rate[1], seed + 1)
    return PowerCurve(ks, base, worst, k_plan)


def lower_rung_bounds(
    record: CheckRecord, parsed: ParsedDossier
) -> tuple[list[str], list[float], float | None]:
    """Rungs, their one-sided upper bounds (from the check) and the useful effect."""
    bounds = record.gates["G4"].metrics.get("upper_bounds") or {}
    lr = parsed.model.evidence.lower_rungs if parsed.model.evidence else None
    useful = lr.useful_effect if lr is not None else None
    rungs = sorted(bounds, key=lambda r: (len(r), r))
    return rungs, [float(bounds[r]) for r in rungs], useful
