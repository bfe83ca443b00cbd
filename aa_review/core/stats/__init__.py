"""Statistics of the readiness dossier: effective sample, reference power model, bounds.

Numbers only, no plotting and no Qt. Everything here is a pure function of its
arguments (the power model is seeded), so the validator and the UI agree.
"""

from __future__ import annotations

from aa_review.core.stats._binding import (
    DIGEST_PATTERN,
    SimulationBinding,
    is_digest,
    simulation_binding,
)
from aa_review.core.stats._design import (
    EffectiveSample,
    design_effect,
    effective_sample,
    kish_design_effect,
)
from aa_review.core.stats._intervals import (
    POWER_THRESHOLD,
    MultiplicityMethod,
    adjust_pvalues,
    adjusted_alpha,
    claim_reproduced,
    clopper_pearson,
    mc_tolerance,
)
from aa_review.core.stats._plateau import (
    UCB_TOLERANCE,
    family_k_star,
    is_plateau,
    one_sided_upper_bound,
)
from aa_review.core.stats._power import (
    METHOD_ID,
    Alternative,
    PowerDesign,
    PowerEstimate,
    analytic_power,
    simulate_power,
    solve_clusters_per_arm,
)
from aa_review.core.stats._recurrence import (
    MIN_CONFIGURATION_CLASSES,
    MIN_EPOCHS,
    MIN_FAMILIES,
    RecurrenceScope,
    recurrence_scope,
)
from aa_review.core.stats._sensitivity import (
    SensitivityRange,
    range_contains_base,
    worst_case_corner,
)

__all__ = [
    "DIGEST_PATTERN",
    "METHOD_ID",
    "MIN_CONFIGURATION_CLASSES",
    "MIN_EPOCHS",
    "MIN_FAMILIES",
    "POWER_THRESHOLD",
    "UCB_TOLERANCE",
    "Alternative",
    "EffectiveSample",
    "MultiplicityMethod",
    "PowerDesign",
    "PowerEstimate",
    "RecurrenceScope",
    "SensitivityRange",
    "SimulationBinding",
    "adjust_pvalues",
    "adjusted_alpha",
    "analytic_power",
    "claim_reproduced",
    "clopper_pearson",
    "design_effect",
    "effective_sample",
    "family_k_star",
    "is_digest",
    "is_plateau",
    "kish_design_effect",
    "mc_tolerance",
    "one_sided_upper_bound",
    "range_contains_base",
    "recurrence_scope",
    "simulate_power",
    "simulation_binding",
    "solve_clusters_per_arm",
    "worst_case_corner",
]
