"""Reason codes in plain words: what is missing or wrong, where, and what would satisfy it.

Every gate and dossier-level code the validator emits has one entry. A gate's
sentence joins its reasons by field. Private detail (which item, which group:
spec 2.5 and G9) is added only when the reader may see it, the independent
evaluator; everyone else reads the field and the rule, never the members.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ReasonText", "explain", "gate_sentence", "spec_section"]

_EV = "evidence"
_PLAN = f"{_EV}.dataset_plan"
_POWER = f"{_EV}.power_analysis"
_PARAMS = f"{_POWER}.parameters"
_ESS = f"{_EV}.effective_sample"
_COV = f"{_EV}.coverage"
_RUNGS = f"{_EV}.lower_rungs"
_FEAS = f"{_EV}.feasibility"
_IND = f"{_EV}.independence_plan"
_ENV = f"{_EV}.cost_envelope"

# code -> (field or archive item, what is missing or wrong, what would satisfy it)
_TEXT: dict[str, tuple[str, str, str]] = {
    # -- G1 coverage
    "G1_COVERAGE_MISSING": (
        _COV,
        "lacks a stage 0-5 entry with a well-formed report digest "
        "and a decision, stage 6, or a behavior id",
        "give all seven stages with report digests and decisions",
    ),
    "G1_COVERAGE_STAGE_INSUFFICIENT": (
        f"{_COV}.stages",
        "has a stage decided insufficient",
        "every stage 0-5 must be decided sufficient",
    ),
    "G1_COVERAGE_TARGET_MISMATCH": (
        f"{_COV}.target_behavior_id",
        "differs from target_behavior.behavior_id",
        "cover the behavior the dossier targets",
    ),
    "G1_STAGE6_CANNOT_EVALUATE_TRAINING_SEARCH": (
        f"{_COV}.stage6.can_evaluate_training_search",
        "is false",
        "stage 6 must show the harness can evaluate a training search",
    ),
    # -- G1 effective sample
    "G1_ESS_MISSING": (
        _ESS,
        "lacks groups, icc, analysis_unit or a claimed_* figure",
        "state the pool, its ICC and the three claims",
    ),
    "G1_ESS_PSEUDOREPLICATION": (
        f"{_ESS}.analysis_unit",
        "is not independent_group (attempts, seeds or tasks are not independent)",
        "analyse by independent group",
    ),
    "G1_ESS_GROUP_UNRESOLVED": (
        f"{_ESS}.groups",
        "names a group the archive does not hold",
        "list only archive groups",
    ),
    "G1_ESS_INVALID": (
        f"{_ESS}.icc",
        "is outside [0, 1) or the group sizes are invalid",
        "give an ICC in [0, 1) and positive n_units",
    ),
    "G1_ESS_GROUPS_OVERCLAIMED": (
        f"{_ESS}.claimed_independent_groups",
        "exceeds the independent groups the archive's graph yields",
        "claim at most the recomputed count",
    ),
    "G1_ESS_DESIGN_EFFECT_UNDERSTATED": (
        f"{_ESS}.claimed_design_effect",
        "is below the recomputed design effect",
        "claim at least the recomputed DEFF",
    ),
    "G1_ESS_OVERCLAIMED": (
        f"{_ESS}.claimed_effective_sample_size",
        "exceeds the recomputed effective sample size",
        "claim at most the recomputed ESS",
    ),
    # -- G1 power
    "G1_POWER_MISSING": (
        _POWER,
        "is absent, or lacks its simulation or preregistration",
        "add the sealed power analysis with its simulation and preregistration",
    ),
    "G1_POWER_METHOD_UNSUPPORTED": (
        _POWER,
        "uses a method, decision rule, missingness "
        "mechanism or effect scale this validator cannot verify",
        "use cluster_two_arm_mean_ttest/v1, MCAR and standardized_total_sd",
    ),
    "G1_POWER_PARAMETER_MISSING": (
        _PARAMS,
        "lacks a parameter (or a sensitivity range, the "
        "missingness rate, or the preregistered effect)",
        "give every PowerParameters key",
    ),
    "G1_POWER_CLAIM_MISSING": (
        f"{_POWER}.claimed",
        "lacks power_base or power_worst_case",
        "state both claimed powers",
    ),
    "G1_POWER_NOT_SEALED": (f"{_POWER}.sealed", "is not true", "seal the analysis"),
    "G1_POWER_PARAMETER_INVALID": (
        _PARAMS,
        "has a value outside its domain",
        "bring every parameter into its domain (spec 2.2)",
    ),
    "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE": (
        f"{_PARAMS}.sensitivity_range",
        "has a range that excludes its base value",
        "make each range contain the base point",
    ),
    "G1_POWER_INPUTS_DIGEST_MISMATCH": (
        f"{_POWER}.simulation.inputs_digest",
        "does not match the digest of the parameters or the preregistration",
        "re-seal the parameters",
    ),
    "G1_POWER_CODE_DIGEST_MISMATCH": (
        f"{_POWER}.simulation.code_digest",
        "is malformed or differs from the preregistered code",
        "simulate with the preregistered code",
    ),
    "G1_POWER_EFFECT_NOT_PREREGISTERED": (
        f"{_PARAMS}.minimum_useful_effect",
        "differs from the preregistered minimum useful effect",
        "power for the preregistered effect",
    ),
    "G1_POWER_NSIM_TOO_SMALL": (
        f"{_PARAMS}.n_sim",
        "is below 2000",
        "simulate at least 2000 experiments per point",
    ),
    "G1_POWER_ICC_BELOW_ESTIMATE": (
        f"{_PARAMS}.icc",
        "is below the effective-sample ICC",
        "power at an ICC no lower than the estimate",
    ),
    "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE": (
        f"{_PARAMS}.clusters_per_arm",
        "needs more groups or units than the pool has",
        "design within the pool's groups and units",
    ),
    "G1_POWER_BEYOND_VALIDATOR_LIMIT": (
        _PARAMS,
        "asks for more simulation than this validator runs",
        "reduce n_sim or the design size",
    ),
    "G1_POWER_CLAIM_NOT_REPRODUCED": (
        f"{_POWER}.claimed",
        "is not reproduced by the validator's simulation",
        "claim the recomputed powers",
    ),
    "G1_POWER_BELOW_THRESHOLD": (
        _PARAMS,
        "give a recomputed power below 0.80 at the base point",
        "enlarge the design until power reaches 0.80",
    ),
    "G1_POWER_SENSITIVITY_BELOW_THRESHOLD": (
        f"{_PARAMS}.sensitivity_range",
        "gives power below 0.80 at the worst-case corner",
        "power must reach 0.80 across the whole range",
    ),
    # -- G2
    "G2_REPORT_MISSING": (
        _FEAS,
        "lacks a report or materialized_dataset",
        "give both reports and materialized_dataset: false",
    ),
    "G2_TOPIC_MISSING": (
        f"{_FEAS} reports",
        "do not mention one of the seven topics",
        "cover every topic in at least one report",
    ),
    "G2_TOPIC_NOT_COVERED": (
        f"{_FEAS} reports",
        "mark a topic as not covered in both",
        "one report must cover each topic",
    ),
    "G2_REVIEW_MISSING": (
        f"{_FEAS}.human_review",
        "is absent",
        "a human maintainer reviews both reports",
    ),
    "G2_REVIEWER_NOT_HUMAN_MAINTAINER": (
        f"{_FEAS}.human_review.reviewer",
        "is not a human maintainer",
        "the review must be a human maintainer's",
    ),
    "G2_REVIEW_NOT_APPROVED": (
        f"{_FEAS}.human_review.decision",
        "is not approved",
        "the reviewer must approve",
    ),
    "G2_REVIEW_DIGEST_MISMATCH": (
        f"{_FEAS}.human_review.reviewed_digest",
        "is not the digest of the two reports",
        "review the reports as they are now",
    ),
    "G2_DATASET_MATERIALIZED": (
        f"{_FEAS}.materialized_dataset",
        "is not false, or dataset manifests are listed",
        "no dataset may exist",
    ),
    "G2_DECISION_MISSING": (
        f"{_EV}.decisions",
        "lacks the consent or privacy decision",
        "record both decisions",
    ),
    "G2_CONSENT_UNSUPPORTED": (
        f"{_EV}.decisions.consent.status",
        "is not supported",
        "consent must be supported",
    ),
    "G2_PRIVACY_INELIGIBLE": (
        f"{_EV}.decisions.privacy.status",
        "is not eligible",
        "privacy must be eligible",
    ),
    "G2_DECIDER_NOT_HUMAN_MAINTAINER": (
        f"{_EV}.decisions",
        "has a decision not made by a human maintainer",
        "a human maintainer decides",
    ),
    # -- G3
    "G3_RECURRENCE_MISSING": (
        f"{_EV}.recurrence",
        "lacks the mechanism or observation ids",
        "name the mechanism and the archive observations",
    ),
    "G3_MECHANISM_MISMATCH": (
        f"{_EV}.recurrence.mechanism_id",
        "differs from target_behavior.mechanism_id",
        "the recurrence must be of the targeted mechanism",
    ),
    "G3_OBSERVATION_UNRESOLVED": (
        f"{_EV}.recurrence.observation_ids",
        "names an observation the archive does not hold",
        "list only archive observations",
    ),
    "G3_FAMILIES_LT_3": (
        "archive observations",
        "span fewer than three task families",
        "the mechanism must recur in three families",
    ),
    "G3_EPOCHS_LT_2": (
        "archive observations",
        "span fewer than two epochs",
        "it must recur in two epochs",
    ),
    "G3_CONFIGURATIONS_LT_2": (
        "archive observations",
        "span fewer than two configurations",
        "it must recur under two configuration classes",
    ),
    # -- G4
    "G4_PLATEAU_MISSING": (
        _RUNGS,
        "lacks rungs, family_alpha, family_size, the multiplicity method or useful_effect",
        "complete the plateau section",
    ),
    "G4_RUNGS_MISSING": (
        f"{_RUNGS}.rungs",
        "are not exactly rungs 0-6 once each, each with applicable and basis",
        "give one entry per rung",
    ),
    "G4_RESULT_MISSING": (
        f"{_RUNGS}.rungs",
        "have an experiment without estimate, SE, df or claimed bound",
        "complete each experiment's result",
    ),
    "G4_RECORD_MISSING": (
        f"{_RUNGS}.rungs",
        "have a record without status, acceptor, reason or cost figures",
        "complete each record",
    ),
    "G4_MULTIPLICITY_INVALID": (
        f"{_RUNGS}.multiplicity_method",
        "does not fit the family",
        "use holm or bonferroni (none only for one hypothesis)",
    ),
    "G4_FAMILY_SIZE_UNDERSTATED": (
        f"{_RUNGS}.family_size",
        "is smaller than the experiments cited",
        "count every experiment of the family",
    ),
    "G4_EXPERIMENT_UNRESOLVED": (
        f"{_RUNGS}.rungs",
        "cite an experiment the archive does not hold at that rung",
        "cite archive experiments",
    ),
    "G4_EXPLORATORY_NOT_PLATEAU": (
        f"{_RUNGS}.rungs",
        "rest on an exploratory search",
        "a confirmatory experiment or an accepted record is needed",
    ),
    "G4_NOT_PREREGISTERED": (
        f"{_RUNGS}.rungs",
        "cite an experiment that was not preregistered",
        "cite preregistered experiments",
    ),
    "G4_USEFUL_EFFECT_MISMATCH": (
        f"{_RUNGS}.useful_effect",
        "differs from the preregistered minimum useful effect",
        "use the preregistered effect",
    ),
    "G4_UCB_MISMATCH": (
        f"{_RUNGS}.rungs",
        "claim an upper bound the validator does not recompute",
        "claim the recomputed bound",
    ),
    "G4_UCB_NOT_BELOW_USEFUL_EFFECT": (
        f"{_RUNGS}.rungs",
        "have an upper bound not below the useful effect",
        "a lower rung must plateau below it",
    ),
    "G4_RECORD_NOT_ACCEPTED": (
        f"{_RUNGS}.rungs",
        "have a record not accepted by a human maintainer other than the author",
        "a maintainer accepts it",
    ),
    "G4_COST_CEILING_NOT_EXCEEDED": (
        f"{_RUNGS}.rungs",
        "have a cost-ceiling record whose projected cost does not exceed the ceiling",
        "only a cost over the ceiling justifies skipping a rung",
    ),
    "G4_NOT_APPLICABLE_UNACCEPTED": (
        f"{_RUNGS}.rungs",
        "mark a rung not applicable without a maintainer's acceptance",
        "have it accepted",
    ),
    "G4_BASIS_INVALID": (
        f"{_RUNGS}.rungs",
        "have a basis that does not fit the entry",
        "use one of the five bases, with its fields",
    ),
    # -- G5 .. G8
    "G5_REWARD_PLAN_MISSING": (
        f"{_EV}.reward_plan",
        "has no rewards or a reward without components",
        "give every reward its components",
    ),
    "G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL": (
        f"{_EV}.reward_plan",
        "has no verifiable outcome or calibrated preference",
        "anchor the plan on a verifiable or calibrated signal",
    ),
    "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE": (
        f"{_EV}.reward_plan.rewards",
        "include a reward resting on an uncalibrated model judge",
        "calibrate the judge or add an anchor",
    ),
    "G6_LICENSE_MISSING": (
        f"{_EV}.license",
        "lacks license_id or base_model_id",
        "name the base model and its license",
    ),
    "G6_INTENDED_USE_MISSING": (
        f"{_EV}.license.intended_use",
        "lacks training or redistribution",
        "state both intended uses",
    ),
    "G6_LICENSE_UNSUPPORTED": (
        f"{_EV}.license.license_id",
        "is not in the shipped license policy",
        "use a license the policy lists",
    ),
    "G6_TRAINING_NOT_PERMITTED": (
        f"{_EV}.license",
        "does not permit training",
        "choose a base model whose license permits it",
    ),
    "G6_REDISTRIBUTION_NOT_PERMITTED": (
        f"{_EV}.license",
        "does not permit redistribution",
        "do not intend redistribution, or change the model",
    ),
    "G7_BUDGET_MISSING": (
        f"{_EV}.budgets",
        "lack a budget or its approved flag",
        "give all five budgets",
    ),
    "G7_BUDGET_NOT_APPROVED": (
        f"{_EV}.budgets",
        "include a budget not approved",
        "every budget must be approved",
    ),
    "G7_APPROVER_NOT_HUMAN_MAINTAINER": (
        f"{_EV}.budgets",
        "include a budget approved by someone who is not a human maintainer",
        "a human maintainer approves it",
    ),
    "G7_ROLLBACK_REQUIREMENTS_MISSING": (
        f"{_EV}.rollback_requirements",
        "lack a flag",
        "state all five flags",
    ),
    "G7_ROLLBACK_REQUIREMENT_UNMET": (
        f"{_EV}.rollback_requirements",
        "have a flag not true",
        "every rollback requirement must hold",
    ),
    "G8_AUTHORIZATION_MISSING": (
        "authorization",
        "is absent or lacks its digests",
        "a human maintainer authorizes proposing the amendment (Authorize amendment proposal…)",
    ),
    "G8_AUTHORIZER_NOT_HUMAN_MAINTAINER": (
        "authorization.principal_id",
        "is not a human maintainer",
        "a human maintainer must sign it",
    ),
    "G8_AUTHORIZATION_SCOPE_INVALID": (
        "authorization",
        "grants more than proposing the amendment",
        "it may only propose; grants must be empty",
    ),
    "G8_AUTHORIZATION_NOT_DIGEST_LINKED": (
        "authorization.evidence_digest",
        "does not name this revision's evidence (it was signed for other evidence)",
        "a human maintainer authorizes again for this evidence",
    ),
    # -- G9
    "G9_PLAN_MISSING": (
        _PLAN,
        "lacks the cutoff, grouping rules, creates_dataset, or the evidence cutoff",
        "complete the plan",
    ),
    "G9_CUTOFF_NOT_FIXED_FUTURE": (
        f"{_PLAN}.cutoff",
        "is not fixed, or not after the evidence cutoff",
        "fix a cutoff after the evidence cutoff",
    ),
    "G9_GROUPING_INCOMPLETE": (
        f"{_PLAN}.grouping_rules",
        "lack group, source or template",
        "group by all three",
    ),
    "G9_LEAKAGE_CONTROLS_MISSING": (
        f"{_PLAN}.leakage_controls",
        "are absent",
        "state the leakage controls",
    ),
    "G9_TRAINING_SOURCES_MISSING": (
        f"{_PLAN}.training_source_items",
        "is empty",
        "list the training source items",
    ),
    "G9_TRAINING_ITEM_UNRESOLVED": (
        f"{_PLAN}.training_source_items",
        "lists an item the archive does not hold",
        "list only archive items",
    ),
    "G9_CONTAMINATION_HIDDEN_ITEM": (
        f"{_PLAN}.training_source_items",
        "lists an item of a hidden evaluation group",
        "remove evaluation data from the training sources",
    ),
    "G9_CONTAMINATION_EXPLOIT_TRACE": (
        f"{_PLAN}.training_source_items",
        "lists an item named by an exploit trace",
        "remove exploit-trace items",
    ),
    "G9_GROUPED_SPLIT_LEAKAGE": (
        f"{_PLAN}.training_source_items",
        "lists an item whose task family is also evaluated",
        "keep each task family on one side of the split",
    ),
    "G9_PRIVATE_FEEDBACK_TERMS_MISSING": (
        f"{_PLAN}.private_feedback",
        "lacks an authorization, a license, a positive retention or a use scope",
        "state the feedback terms",
    ),
    "G9_FEEDBACK_ATOM_UNRESOLVED": (
        f"{_PLAN}.private_feedback.atom_ids",
        "names an atom the archive does not hold",
        "list only archive atoms",
    ),
    "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION": (
        f"{_PLAN}.private_feedback.use_scope",
        "is broader than an atom's confirmed scope",
        "narrow the scope; broader use needs a new confirmation in the archive",
    ),
    "G9_DATASET_CREATED": (
        f"{_PLAN}.creates_dataset",
        "is not false",
        "the plan may create nothing",
    ),
    "G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE": (
        f"{_EV}.source_packages",
        "bind a package whose rows cite hidden evidence",
        "recompile without hidden evidence (select G9 to see the rows)",
    ),
    "G9_PACKAGE_CONTAMINATION_UNVERIFIED": (
        f"{_EV}.source_packages",
        "bind a package that could not be audited here",
        "open the package here so it can be audited",
    ),
    # -- G10, G11
    "G10_IDENTITIES_MISSING": (_IND, "lacks one of the five identities", "name all five"),
    "G10_IDENTITY_CONFLICT": (
        _IND,
        "names one principal in two roles",
        "the five identities must be distinct",
    ),
    "G10_FINAL_EVALUATION_MISSING": (
        f"{_IND}.final_evaluation",
        "lacks the epoch or the evaluator inputs",
        "name both",
    ),
    "G10_EVALUATION_EPOCH_UNRESOLVED": (
        f"{_IND}.final_evaluation.epoch_id",
        "is not an archive epoch",
        "name an archive epoch",
    ),
    "G10_EVALUATION_EPOCH_NOT_SEALED": (
        "archive epoch of the final evaluation",
        "is not sealed and active",
        "evaluate on a sealed, active epoch",
    ),
    "G10_EXPOSURE_UNKNOWN": (
        "archive exposure ledger",
        "has no row for the evaluation epoch",
        "the evaluation side records its exposure",
    ),
    "G10_EVALUATION_EPOCH_TOUCHED": (
        "archive evaluation epoch",
        "has been looked at, or hosts evidence this dossier cites",
        "use an untouched epoch",
    ),
    "G10_EVALUATOR_RECEIVES_TRAINER_RATIONALE": (
        f"{_IND}.final_evaluation.evaluator_inputs",
        "include trainer rationale or similar",
        "the evaluator must not see the trainer's case",
    ),
    "G11_DRY_RUN_MISSING": (_ENV, "lacks the mode or a side-effect field", "give the full dry run"),
    "G11_NOT_NON_SPENDABLE": (
        f"{_ENV}.mode",
        "is not non_spendable_dry_run",
        "the envelope must be a non-spendable dry run",
    ),
    "G11_DIMENSION_MISSING": (
        f"{_ENV}.dimensions",
        "lack a dimension or its figures",
        "give all six with worst case and ceiling",
    ),
    "G11_CEILING_EXCEEDED": (
        f"{_ENV}.dimensions",
        "have a worst case over its ceiling",
        "bring every worst case under its ceiling",
    ),
    "G11_SIDE_EFFECTS_CREATED": (
        _ENV,
        "lists work orders, reservations or committed spend",
        "a dry run creates nothing",
    ),
    # -- dossier level (section 4, and the bound-package extension of docs/decisions.md)
    "GATE_NOT_EVALUATED_DOSSIER_EXPIRED": (
        "the revision",
        "expired (or expires at its next step), so no gate was evaluated",
        "edit the evidence into a new revision",
    ),
    "DOSSIER_EXPIRY_MISSING": (
        f"{_EV}.expiry.expires_at",
        "is absent",
        "set an expiry (without one it can never be eligible)",
    ),
    "DOSSIER_EXPIRED_BY_TIME": (
        f"{_EV}.expiry.expires_at",
        "has passed",
        "a new revision with a later expiry",
    ),
    "DOSSIER_EVIDENCE_DIGEST_MISMATCH": (
        "the evidence",
        "no longer matches its binding",
        "bind a new revision",
    ),
    "DOSSIER_EVIDENCE_CHANGED": (
        "the evidence",
        "was edited into a later revision",
        "continue on the latest revision",
    ),
    "DOSSIER_EPOCH_CHANGED": (
        f"{_EV}.epochs.evaluation_epochs",
        "name an epoch whose archive manifest changed or vanished",
        "re-bind against the current manifests",
    ),
    "DOSSIER_EPOCHS_MISSING": (
        f"{_EV}.epochs.evaluation_epochs",
        "is empty",
        "name the sealed evaluation epochs",
    ),
    "DOSSIER_PACKAGE_CHANGED": (
        f"{_EV}.source_packages",
        "bind a package whose files changed since it was bound",
        "bind the package as it is now in a new revision",
    ),
    "DOSSIER_PACKAGE_UNRESOLVED": (
        f"{_EV}.source_packages",
        "bind a package this machine cannot find",
        "open the bound package in this window",
    ),
    "DOSSIER_PACKAGE_UNVERIFIABLE": (
        f"{_EV}.source_packages",
        "bind a package that cannot be verified here",
        "open the bound package in this window",
    ),
    "WORKSPACE_ARCHIVE_UNREADABLE": (
        "archive.json",
        "could not be used, so the workspace is read-only and this was not evaluated",
        "restore a readable archive.json and open the workspace again",
    ),
    "DOSSIER_PACKAGE_BINDING_INVALID": (
        f"{_EV}.source_packages",
        "has an entry without an id or with a malformed digest",
        "bind each package by id and sha256 digest",
    ),
}

# code -> the detail key naming what it concerns (shown to the independent evaluator only)
_DETAIL = {
    "G1_COVERAGE_MISSING": ("coverage_stages_missing", "coverage_stages_unverifiable"),
    "G1_COVERAGE_STAGE_INSUFFICIENT": ("coverage_stages_insufficient",),
    "G1_ESS_GROUP_UNRESOLVED": ("unresolved_groups",),
    "G1_POWER_MISSING": ("power_sections_missing",),
    "G1_POWER_PARAMETER_MISSING": ("power_parameters_missing",),
    "G1_POWER_PARAMETER_INVALID": ("power_parameters_invalid",),
    "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE": ("sensitivity_ranges_excluding_base",),
    "G2_TOPIC_MISSING": ("topics_missing",),
    "G2_TOPIC_NOT_COVERED": ("topics_not_covered",),
    "G3_OBSERVATION_UNRESOLVED": ("unresolved_observations",),
    "G4_BASIS_INVALID": ("invalid_basis_rungs",),
    "G4_NOT_APPLICABLE_UNACCEPTED": ("unaccepted_not_applicable_rungs",),
    "G4_EXPERIMENT_UNRESOLVED": ("unresolved_experiments",),
    "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE": ("rewards_on_uncalibrated_judges",),
    "G7_BUDGET_MISSING": ("budgets_missing",),
    "G7_BUDGET_NOT_APPROVED": ("budgets_not_approved",),
    "G7_APPROVER_NOT_HUMAN_MAINTAINER": ("budgets_not_approved_by_human_maintainer",),
    "G7_ROLLBACK_REQUIREMENT_UNMET": ("rollback_requirements_unmet",),
    "G9_TRAINING_ITEM_UNRESOLVED": ("unresolved_items",),
    "G9_CONTAMINATION_HIDDEN_ITEM": ("hidden_items",),
    "G9_CONTAMINATION_EXPLOIT_TRACE": ("exploit_trace_items",),
    "G9_GROUPED_SPLIT_LEAKAGE": ("evaluation_family_items",),
    "G9_FEEDBACK_ATOM_UNRESOLVED": ("unresolved_atoms",),
    "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION": ("atoms_used_beyond_confirmed_scope",),
    "G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE": ("package_rows_citing_hidden_evidence",),
    "G9_PACKAGE_CONTAMINATION_UNVERIFIED": ("packages_not_audited",),
    "G11_DIMENSION_MISSING": ("dimensions_missing",),
    "G11_CEILING_EXCEEDED": ("dimensions_over_ceiling",),
}


# Dossier-level codes of the bound-package extension (docs/decisions.md).
_PACKAGE_CODES = frozenset(
    {
        "DOSSIER_PACKAGE_CHANGED",
        "DOSSIER_PACKAGE_UNRESOLVED",
        "DOSSIER_PACKAGE_UNVERIFIABLE",
        "DOSSIER_PACKAGE_BINDING_INVALID",
    }
)


# Codes the amendments added outside section 5 (spec 15: "New codes added by amendments
# 2 and 3"), with the section that gives each its rule.
_AMENDED_CODES = {"G1_POWER_BEYOND_VALIDATOR_LIMIT": "spec 15", "JOURNAL_FORKED": "spec 10.6"}


def spec_section(code: str) -> str:
    """Where the rule is written: ``5 G9``, ``4``, ``15``, or ``decisions.md`` for this
    project's own."""
    if code in _PACKAGE_CODES or code == "WORKSPACE_ARCHIVE_UNREADABLE":
        return "docs/decisions.md"
    if code in _AMENDED_CODES:
        return _AMENDED_CODES[code]
    head = code.split("_", 1)[0]
    if head.startswith("G") and head[1:].isdigit():
        return f"spec 5, {head}"
    if code == "DOSSIER_EVIDENCE_CHANGED":
        return "spec 7.3"
    return "spec 4"


@dataclass(frozen=True)
class ReasonText:
    """One reason code in words.

    Attributes
    ----------
    code : str
        The exact code (a dossier-level package code keeps its ``:package`` suffix).
    field : str
        The field or archive item concerned.
    problem : str
        What is missing or wrong (a predicate of ``field``).
    remedy : str
        What would satisfy the rule.
    section : str
        Where the rule is written.
    particulars : tuple of str
        Which items it concerns, from the private detail; empty unless the reader may see it.
    """

    code: str
    field: str
    problem: str
    remedy: str
    section: str
    particulars: tuple[str, ...] = ()

    @property
    def sentence(self) -> str:
        """``field problem (particulars): remedy (section).``"""
        which = f" ({', '.join(self.particulars)})" if self.particulars else ""
        return f"{self.field} {self.problem}{which}: {self.remedy} ({self.section})."


def explain(code: str, detail: Mapping[str, Any] | None = None) -> ReasonText:
    """The words for ``code``; ``detail`` (private) names the items, for evaluators only.

    An unknown code is still explained, by its own words, never dropped.
    """
    base, _, suffix = code.partition(":")
    field, problem, remedy = _TEXT.get(base, ("", base.replace("_", " ").lower(), "see the spec"))
    if suffix and base in _PACKAGE_CODES:
        field = f"{field} ({suffix})"
    particulars: list[str] = []
    for key in _DETAIL.get(base, ()):
        particulars.extend(_names((detail or {}).get(key)))
    return ReasonText(
        code, field or "the revision", problem, remedy, spec_section(base), tuple(particulars)
    )


def gate_sentence(reasons: Sequence[ReasonText]) -> str:
    """One sentence for a gate: its reasons joined by field, then what would satisfy them."""
    by_field: dict[str, list[str]] = {}
    remedies: list[str] = []
    sections: list[str] = []
    for r in reasons:
        which = f" ({', '.join(r.particulars)})" if r.particulars else ""
        by_field.setdefault(r.field, []).append(r.problem + which)
        if r.remedy not in remedies:
            remedies.append(r.remedy)
        if r.section not in sections:
            sections.append(r.section)
    wrong = "; ".join(f"{field} {_and(problems)}" for field, problems in by_field.items())
    return f"{wrong}. To pass: {'; '.join(remedies)} ({', '.join(sections)})."


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            n = len(v) if isinstance(v, (list, tuple)) else None
            out.append(f"{k}: {n} rows" if n is not None else str(k))
        return out
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]
