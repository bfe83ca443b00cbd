"""Evidence sections about behaviour, coverage, sample, power and rungs (spec 2.2)."""

from __future__ import annotations

from typing import Annotated

from aa_review.core.dossier._models_strict import NON_EMPTY, Strict, Timestamp

__all__ = [
    "Claimed",
    "ComparisonFamily",
    "Coverage",
    "CoverageStage",
    "EffectiveSampleSection",
    "EpochRef",
    "Epochs",
    "LowerRungs",
    "Missingness",
    "NotApplicable",
    "PoolGroup",
    "PowerAnalysis",
    "PowerParameters",
    "Preregistration",
    "Recurrence",
    "RungEntry",
    "RungExperiment",
    "RungRecord",
    "SensitivityBox",
    "Simulation",
    "Stage6",
    "TargetBehavior",
]


class TargetBehavior(Strict):
    """The behaviour a future training run would target."""

    behavior_id: str | None = None
    mechanism_id: str | None = None
    description_ref: str | None = None
    preregistered_minimum_useful_effect: float | None = None
    effect_scale: str | None = None


class EpochRef(Strict):
    """A sealed evaluation epoch with the manifest digest seen at binding time."""

    epoch_id: str | None = None
    manifest_digest: str | None = None


class Epochs(Strict):
    """The evaluation epochs the dossier relies on."""

    archive_snapshot_id: str | None = None
    evaluation_epochs: Annotated[list[EpochRef] | None, NON_EMPTY] = None


class CoverageStage(Strict):
    """One SPEC-016 coverage stage (0..5) and its decision."""

    stage: int | None = None
    decision: str | None = None
    report_ref: str | None = None
    report_digest: str | None = None


class Stage6(Strict):
    """Stage 6: can the evaluation machinery evaluate a training search."""

    can_evaluate_training_search: bool | None = None
    report_ref: str | None = None
    report_digest: str | None = None


class Coverage(Strict):
    """Evaluation coverage by stage."""

    target_behavior_id: str | None = None
    stages: Annotated[list[CoverageStage] | None, NON_EMPTY] = None
    stage6: Stage6 | None = None


class Recurrence(Strict):
    """The failure observations a recurrence claim rests on."""

    mechanism_id: str | None = None
    observation_ids: Annotated[list[str] | None, NON_EMPTY] = None


class PoolGroup(Strict):
    """An archive group of the confirmatory pool and its unit count."""

    group_id: str | None = None
    n_units: int | None = None


class EffectiveSampleSection(Strict):
    """Claimed effective sample of the confirmatory pool (evaluator-private)."""

    pool_epoch_id: str | None = None
    analysis_unit: str | None = None
    observation_unit: str | None = None
    groups: Annotated[list[PoolGroup] | None, NON_EMPTY] = None
    icc: float | None = None
    icc_source_ref: str | None = None
    claimed_independent_groups: int | None = None
    claimed_design_effect: float | None = None
    claimed_effective_sample_size: float | None = None


class ComparisonFamily(Strict):
    """The hypotheses sharing the family-wise alpha."""

    family_id: str | None = None
    hypotheses: list[str] | None = None  # [] is K = 0: see the G1 gate


class Missingness(Strict):
    """Unit-level missing-outcome model."""

    mechanism: str | None = None
    rate: float | None = None


class SensitivityBox(Strict):
    """``[lo, hi]`` ranges of the nuisance parameters."""

    icc: Annotated[list[float] | None, NON_EMPTY] = None
    cluster_attrition: Annotated[list[float] | None, NON_EMPTY] = None
    missing_rate: Annotated[list[float] | None, NON_EMPTY] = None


class PowerParameters(Strict):
    """Inputs of the reference power model; ``inputs_digest`` covers the whole object."""

    alpha: float | None = None
    alternative: str | None = None
    comparison_family: ComparisonFamily | None = None
    multiplicity_method: str | None = None
    minimum_useful_effect: float | None = None
    effect_scale: str | None = None
    clusters_per_arm: int | None = None
    cluster_size: int | None = None
    icc: float | None = None
    cluster_attrition: float | None = None
    missingness: Missingness | None = None
    decision_rule: str | None = None
    sensitivity_range: SensitivityBox | None = None
    seed: int | None = None
    n_sim: int | None = None


class Simulation(Strict):
    """The code and inputs the claimed power came from."""

    code_ref: str | None = None
    code_digest: str | None = None
    inputs_digest: str | None = None


class Preregistration(Strict):
    """What was sealed before the power claim."""

    prereg_id: str | None = None
    sealed_code_digest: str | None = None
    sealed_inputs_digest: str | None = None


class Claimed(Strict):
    """The author's claimed power figures."""

    power_base: float | None = None
    power_worst_case: float | None = None


class PowerAnalysis(Strict):
    """Sealed power analysis of the future confirmatory comparison."""

    method_id: str | None = None
    sealed: bool | None = None
    sealed_at: Timestamp | None = None
    parameters: PowerParameters | None = None
    simulation: Simulation | None = None
    preregistration: Preregistration | None = None
    claimed: Claimed | None = None


class RungExperiment(Strict):
    """Reference to an archive experiment and the claimed upper bound."""

    experiment_id: str | None = None
    claimed_upper_bound: float | None = None


class RungRecord(Strict):
    """An infeasibility or cost-ceiling record."""

    record_id: str | None = None
    kind: str | None = None
    status: str | None = None
    accepted_by: str | None = None
    accepted_at: Timestamp | None = None
    reason_ref: str | None = None
    projected_cost: float | None = None
    cost_ceiling: float | None = None
    unit: str | None = None


class NotApplicable(Strict):
    """Why a rung does not apply, and who accepted that."""

    reason_ref: str | None = None
    accepted_by: str | None = None
    accepted_at: Timestamp | None = None


class RungEntry(Strict):
    """One rung of the editable-surface ladder below model weights."""

    rung: int | None = None
    applicable: bool | None = None
    basis: str | None = None
    experiment: RungExperiment | None = None
    record: RungRecord | None = None
    not_applicable: NotApplicable | None = None


class LowerRungs(Strict):
    """Plateau evidence for rungs 0..6."""

    family_id: str | None = None
    family_alpha: float | None = None
    family_size: int | None = None
    multiplicity_method: str | None = None
    useful_effect: float | None = None
    effect_scale: str | None = None
    rungs: Annotated[list[RungEntry] | None, NON_EMPTY] = None
