"""Evidence sections about feasibility, plans, license, identities, budgets and costs (spec 2.2)."""

from __future__ import annotations

from typing import Annotated

from aa_review.core.dossier._models_strict import NON_EMPTY, Strict, Timestamp

__all__ = [
    "Budget",
    "Budgets",
    "CostDimension",
    "CostEnvelope",
    "Cutoff",
    "DatasetPlan",
    "Decision",
    "Decisions",
    "Expiry",
    "Feasibility",
    "FinalEvaluation",
    "HumanReview",
    "IndependencePlan",
    "IntendedUse",
    "LeakageControls",
    "License",
    "PrivateFeedback",
    "Report",
    "ReportTopic",
    "Reward",
    "RewardComponent",
    "RewardPlan",
    "RollbackRequirements",
    "SourcePackage",
]


class ReportTopic(Strict):
    """Whether a report covers one of the seven topics."""

    covered: bool | None = None
    finding_ref: str | None = None


class Report(Strict):
    """A source-corpus or dataset-feasibility report."""

    report_id: str | None = None
    topics: dict[str, ReportTopic] | None = None


class HumanReview(Strict):
    """The human maintainer's review of the two reports."""

    reviewer: str | None = None
    decision: str | None = None
    reviewed_digest: str | None = None
    reviewed_at: Timestamp | None = None


class Feasibility(Strict):
    """Feasibility reports; the dossier states that no dataset exists."""

    source_corpus_report: Report | None = None
    dataset_feasibility_report: Report | None = None
    human_review: HumanReview | None = None
    materialized_dataset: bool | None = None
    dataset_manifest_refs: list[str] | None = None


class Decision(Strict):
    """A consent or privacy decision."""

    status: str | None = None
    decided_by: str | None = None
    decided_at: Timestamp | None = None


class Decisions(Strict):
    """Consent and privacy decisions."""

    consent: Decision | None = None
    privacy: Decision | None = None


class Cutoff(Strict):
    """Dataset cutoff of the prospective plan."""

    kind: str | None = None
    at: Timestamp | None = None


class LeakageControls(Strict):
    """How the plan would keep training and evaluation apart."""

    split_unit: str | None = None
    exclude_hidden_splits: bool | None = None
    exclude_exploit_traces: bool | None = None


class PrivateFeedback(Strict):
    """Terms for using private feedback atoms."""

    use_scope: str | None = None
    atom_ids: list[str] | None = None
    authorization_ref: str | None = None
    license: str | None = None
    retention_days: int | None = None


class DatasetPlan(Strict):
    """A prospective dataset plan; it creates nothing."""

    cutoff: Cutoff | None = None
    grouping_rules: Annotated[list[str] | None, NON_EMPTY] = None
    leakage_controls: LeakageControls | None = None
    training_source_items: Annotated[list[str] | None, NON_EMPTY] = None
    private_feedback: PrivateFeedback | None = None
    creates_dataset: bool | None = None


class RewardComponent(Strict):
    """One component of a reward (kind decides which fields matter)."""

    kind: str | None = None
    evidence_ref: str | None = None
    calibration_ref: str | None = None
    calibrated: bool | None = None


class Reward(Strict):
    """A reward and its components."""

    reward_id: str | None = None
    components: Annotated[list[RewardComponent] | None, NON_EMPTY] = None


class RewardPlan(Strict):
    """Rewards and hard integrity constraints."""

    rewards: Annotated[list[Reward] | None, NON_EMPTY] = None
    hard_integrity_constraints: list[str] | None = None


class IntendedUse(Strict):
    """What the base model would be used for."""

    training: bool | None = None
    redistribution: bool | None = None


class License(Strict):
    """The base model and its license."""

    base_model_id: str | None = None
    license_id: str | None = None
    intended_use: IntendedUse | None = None


class FinalEvaluation(Strict):
    """The untouched epoch and the inputs of the final evaluator."""

    epoch_id: str | None = None
    evaluator_inputs: list[str] | None = None


class IndependencePlan(Strict):
    """The five identities that must be pairwise distinct."""

    training_identity: str | None = None
    provider_identity: str | None = None
    candidate_author_identity: str | None = None
    search_controller_identity: str | None = None
    final_evaluator_identity: str | None = None
    final_evaluation: FinalEvaluation | None = None

    def training_side(self) -> set[str]:
        """The training, provider, candidate-author and search-controller identities given."""
        ids = (
            self.training_identity,
            self.provider_identity,
            self.candidate_author_identity,
            self.search_controller_identity,
        )
        return {i for i in ids if i}


class Budget(Strict):
    """One budget and its approval."""

    amount: float | None = None
    unit: str | None = None
    approved: bool | None = None
    approved_by: str | None = None
    approved_at: Timestamp | None = None


class Budgets(Strict):
    """The five budgets."""

    compute: Budget | None = None
    provider: Budget | None = None
    privacy: Budget | None = None
    checkpoint: Budget | None = None
    rollback: Budget | None = None


class RollbackRequirements(Strict):
    """Rollback readiness flags."""

    prior_model_pinned: bool | None = None
    checkpoints_immutable: bool | None = None
    base_never_overwritten: bool | None = None
    event_replayable_rollback: bool | None = None
    canary_required: bool | None = None


class CostDimension(Strict):
    """Worst case and ceiling of one cost dimension."""

    worst_case: float | None = None
    ceiling: float | None = None
    unit: str | None = None


class CostEnvelope(Strict):
    """A non-spendable dry run of capacity and cost."""

    mode: str | None = None
    dimensions: dict[str, CostDimension] | None = None
    work_orders_created: list[str] | None = None
    reservations_created: list[str] | None = None
    spend_committed_micros: int | None = None


class Expiry(Strict):
    """When the revision stops being usable."""

    expires_at: Timestamp | None = None


class SourcePackage(Strict):
    """A compiled package the evidence rests on, bound by its package digest."""

    package_id: str | None = None
    package_digest: str | None = None
