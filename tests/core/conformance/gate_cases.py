"""The cases of section 5: for each reason code and clause, where to change the spec dossier.

A case names the code, its status (the spec's F or U mark), the edits that provoke
it (``spec_fixture`` edit places), the companions the spec itself implies, and the
neighbour: the failing dossier with its last edit undone, or with ``near`` applied on
top. ``test_conformance_gates.py`` runs them; ``docs/conformance.md`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec_fixture import AGENT_MAINT, DECIDER, DELETE, LEAD, TRAINING, Edit, label_digest

__all__ = ["CASES", "CASE_IDS", "Case"]


@dataclass(frozen=True)
class Case:
    """One sentence of section 5: the code, its gate and status, and how to provoke it."""

    code: str
    status: str  # "fail" or "unknown"
    fail: tuple[Edit, ...]
    clause: str = "main"
    near: Edit | None = None  # applied on top of ``fail``; default: undo its last edit
    also: frozenset[str] = field(default_factory=frozenset)  # companions the spec implies

    @property
    def gate(self) -> str:
        return self.code.split("_", 1)[0]

    @property
    def id(self) -> str:
        return f"{self.code}/{self.clause}"

    def near_edits(self) -> tuple[Edit, ...]:
        return (*self.fail, self.near) if self.near is not None else self.fail[:-1]


def C(
    code: str,
    status: str,
    *fail: Edit,
    clause: str = "main",
    near: Edit | None = None,
    also: tuple[str, ...] = (),
) -> Case:
    return Case(code, status, tuple(fail), clause, near, frozenset(also))


F, U = "fail", "unknown"
PA = "power_analysis."
P = PA + "parameters."
LR = "lower_rungs."
DP = "dataset_plan."
FB = DP + "private_feedback."
IP = "independence_plan."
FE = IP + "final_evaluation."
CE = "cost_envelope."
RATIONALE = (
    "trainer_rationale",
    "claimed_gains",
    "candidate_author_identity",
    "search_rank",
    "persuasive_summary",
)

CASES: list[Case] = [
    # -- G1 coverage ---------------------------------------------------------------------
    C("G1_COVERAGE_MISSING", U, ("ev", "coverage", DELETE), clause="section-absent"),
    C("G1_COVERAGE_MISSING", U, ("ev", "coverage.stages[3]", DELETE), clause="stage-absent"),
    C(
        "G1_COVERAGE_MISSING",
        U,
        ("ev", "coverage.stages[0].report_digest", "sha256:12ab"),
        clause="digest-malformed",
    ),
    C(
        "G1_COVERAGE_MISSING",
        U,
        ("ev", "coverage.stages[5].decision", "mostly"),
        clause="decision-other",
    ),
    C("G1_COVERAGE_MISSING", U, ("ev", "coverage.stage6", DELETE), clause="stage6-absent"),
    C(
        "G1_COVERAGE_MISSING",
        U,
        ("ev", "coverage.target_behavior_id", DELETE),
        clause="behavior-id-absent",
    ),
    C("G1_COVERAGE_STAGE_INSUFFICIENT", F, ("ev", "coverage.stages[4].decision", "insufficient")),
    C("G1_COVERAGE_TARGET_MISMATCH", F, ("ev", "coverage.target_behavior_id", "beh-other")),
    C(
        "G1_STAGE6_CANNOT_EVALUATE_TRAINING_SEARCH",
        F,
        ("ev", "coverage.stage6.can_evaluate_training_search", False),
    ),
    # -- G1 effective sample -----------------------------------------------------------------
    C("G1_ESS_MISSING", U, ("ev", "effective_sample", DELETE), clause="section-absent"),
    C("G1_ESS_MISSING", U, ("ev", "effective_sample.groups", []), clause="no-groups"),
    C("G1_ESS_MISSING", U, ("ev", "effective_sample.icc", DELETE), clause="icc-absent"),
    C(
        "G1_ESS_MISSING",
        U,
        ("ev", "effective_sample.analysis_unit", DELETE),
        clause="analysis-unit-absent",
    ),
    C(
        "G1_ESS_MISSING",
        U,
        ("ev", "effective_sample.claimed_design_effect", DELETE),
        clause="claim-absent",
    ),
    C("G1_ESS_PSEUDOREPLICATION", F, ("ev", "effective_sample.analysis_unit", "attempt")),
    C(
        "G1_ESS_PSEUDOREPLICATION",
        F,
        ("ev", "effective_sample.analysis_unit", "model_call"),
        clause="model-call",
    ),
    C("G1_ESS_GROUP_UNRESOLVED", F, ("ev", "effective_sample.groups[pool-20].group_id", "pool-99")),
    C("G1_ESS_INVALID", F, ("ev", "effective_sample.icc", -0.1)),
    # The plan's icc (0.05) is then below the estimate as well.
    C(
        "G1_ESS_INVALID",
        F,
        ("ev", "effective_sample.icc", 1.0),
        clause="icc-one",
        also=("G1_POWER_ICC_BELOW_ESTIMATE",),
    ),
    C("G1_ESS_GROUPS_OVERCLAIMED", F, ("ev", "effective_sample.claimed_independent_groups", 20)),
    C(
        "G1_ESS_DESIGN_EFFECT_UNDERSTATED",
        F,
        ("ev", "effective_sample.claimed_design_effect", 1.49),
    ),
    C(
        "G1_ESS_OVERCLAIMED",
        F,
        ("ev", "effective_sample.claimed_effective_sample_size", 133.4),
        near=("ev", "effective_sample.claimed_effective_sample_size", 133.3334),
    ),
    # -- G1 power ---------------------------------------------------------------------------
    C("G1_POWER_MISSING", U, ("ev", "power_analysis", DELETE)),
    C("G1_POWER_METHOD_UNSUPPORTED", U, ("ev", PA + "method_id", "cluster_two_arm_mean_ttest/v2")),
    C(
        "G1_POWER_METHOD_UNSUPPORTED",
        U,
        ("ev", P + "decision_rule", "reject_if_bf_gt_3"),
        clause="decision-rule",
    ),
    C(
        "G1_POWER_METHOD_UNSUPPORTED",
        U,
        ("ev", P + "missingness.mechanism", "MAR"),
        clause="missingness-mechanism",
    ),
    C(
        "G1_POWER_METHOD_UNSUPPORTED",
        U,
        ("ev", P + "effect_scale", "raw_points"),
        clause="effect-scale",
    ),
    C("G1_POWER_PARAMETER_MISSING", U, ("ev", P + "seed", DELETE)),
    C(
        "G1_POWER_PARAMETER_MISSING",
        U,
        ("ev", P + "sensitivity_range.missing_rate", DELETE),
        clause="sensitivity-subrange",
    ),
    C(
        "G1_POWER_PARAMETER_MISSING",
        U,
        ("ev", P + "missingness.rate", DELETE),
        clause="missingness-rate",
    ),
    C(
        "G1_POWER_PARAMETER_MISSING",
        U,
        ("ev", "target_behavior.preregistered_minimum_useful_effect", DELETE),
        clause="preregistered-effect",
    ),
    C("G1_POWER_CLAIM_MISSING", U, ("ev", PA + "claimed.power_worst_case", DELETE)),
    C("G1_POWER_NOT_SEALED", F, ("ev", PA + "sealed", False)),
    C("G1_POWER_PARAMETER_INVALID", F, ("ev", P + "alpha", 1.5)),
    C(
        "G1_POWER_PARAMETER_INVALID",
        F,
        ("ev", P + "multiplicity_method", "none"),
        clause="none-with-two-hypotheses",
    ),
    C(
        "G1_POWER_PARAMETER_INVALID",
        F,
        ("ev", P + "comparison_family.hypotheses", []),
        clause="k-zero",
        also=("G1_POWER_PARAMETER_MISSING",),  # 15: an empty list where one is required
    ),
    C(
        "G1_POWER_BEYOND_VALIDATOR_LIMIT",
        U,
        ("ev", P + "n_sim", 10**8),  # 15: n_sim x 2k = 6 x 10^9 > 10^9
        clause="n-sim-times-2k",
    ),
    C("G1_POWER_PARAMETER_INVALID", F, ("ev", P + "clusters_per_arm", 1), clause="k-below-2"),
    C(
        "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE",
        F,
        ("ev", P + "sensitivity_range.icc", [0.06, 0.1]),
        near=("ev", P + "sensitivity_range.icc", [0.05, 0.1]),
    ),
    C(
        "G1_POWER_SENSITIVITY_RANGE_EXCLUDES_BASE",
        F,
        ("ev", P + "sensitivity_range.missing_rate", [0.0, 1.0]),
        clause="hi-reaches-one",
    ),
    C(
        "G1_POWER_INPUTS_DIGEST_MISMATCH",
        F,
        ("ev!", PA + "preregistration.sealed_inputs_digest", label_digest("other inputs")),
    ),
    C("G1_POWER_INPUTS_DIGEST_MISMATCH", F, ("ev!", P + "seed", 7), clause="changed-after-seal"),
    C(
        "G1_POWER_INPUTS_DIGEST_MISMATCH",
        F,
        ("ev!", PA + "simulation.inputs_digest", DELETE),
        clause="digest-absent",
    ),
    C("G1_POWER_CODE_DIGEST_MISMATCH", F, ("ev!", PA + "simulation.code_digest", "sha256:XYZ")),
    C(
        "G1_POWER_CODE_DIGEST_MISMATCH",
        F,
        ("ev!", PA + "preregistration.sealed_code_digest", label_digest("other code")),
        clause="differs",
    ),
    C("G1_POWER_EFFECT_NOT_PREREGISTERED", F, ("ev", P + "minimum_useful_effect", 0.75)),
    C("G1_POWER_NSIM_TOO_SMALL", F, ("ev", P + "n_sim", 1999), near=("ev", P + "n_sim", 2000)),
    C("G1_POWER_ICC_BELOW_ESTIMATE", F, ("ev", P + "icc", 0.04)),
    C(
        "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE",
        F,
        ("ev", P + "clusters_per_arm", 10),
        near=("ev", P + "clusters_per_arm", 9),
    ),  # 2k = 20 > G = 19; 18 <= 19
    C(
        "G1_POWER_DESIGN_EXCEEDS_EFFECTIVE_SAMPLE",
        F,
        ("ev", P + "cluster_size", 13),
        clause="units",
        near=("ev", P + "cluster_size", 12),
    ),  # 2km = 208 > N = 200; 192
    C("G1_POWER_CLAIM_NOT_REPRODUCED", F, ("ev!", PA + "claimed.power_base", 0.99)),
    # 6.4: power is monotone in ICC, attrition and missingness, so a base point below
    # 0.80 puts the worst-case corner below it too.
    C(
        "G1_POWER_BELOW_THRESHOLD",
        F,
        ("ev", P + "clusters_per_arm", 4),
        also=("G1_POWER_SENSITIVITY_BELOW_THRESHOLD",),
    ),
    C(
        "G1_POWER_SENSITIVITY_BELOW_THRESHOLD",
        F,
        ("ev", P + "sensitivity_range.icc", [0.0, 0.3]),
        near=("ev", P + "sensitivity_range.icc", [0.0, 0.1]),
    ),
    # -- G2 -------------------------------------------------------------------------------
    C("G2_REPORT_MISSING", U, ("ev", "feasibility.materialized_dataset", DELETE)),
    C(
        "G2_REPORT_MISSING",
        U,
        ("ev", "feasibility.source_corpus_report", DELETE),
        clause="report-absent",
    ),
    # Neighbour: one report covering a topic is enough.
    C(
        "G2_TOPIC_MISSING",
        U,
        ("ev", "feasibility.dataset_feasibility_report.topics.privacy", DELETE),
        ("ev", "feasibility.source_corpus_report.topics.privacy", DELETE),
    ),
    C(
        "G2_TOPIC_NOT_COVERED",
        F,
        ("ev", "feasibility.dataset_feasibility_report.topics.licensing.covered", False),
        ("ev", "feasibility.source_corpus_report.topics.licensing.covered", False),
    ),
    C("G2_REVIEW_MISSING", U, ("ev", "feasibility.human_review", DELETE)),
    C(
        "G2_REVIEWER_NOT_HUMAN_MAINTAINER",
        F,
        ("ev", "feasibility.human_review.reviewer", AGENT_MAINT),
        near=("ev", "feasibility.human_review.reviewer", DECIDER),
    ),
    C(
        "G2_REVIEW_NOT_APPROVED",
        F,
        ("ev", "feasibility.human_review.decision", "changes_requested"),
    ),
    C(
        "G2_REVIEW_DIGEST_MISMATCH",
        F,
        ("ev!", "feasibility.human_review.reviewed_digest", label_digest("an older review")),
    ),
    C(
        "G2_REVIEW_DIGEST_MISMATCH",
        F,
        ("ev!", "feasibility.source_corpus_report.report_id", "rep-source-v2"),
        clause="report-changed-after-review",
    ),
    C("G2_DATASET_MATERIALIZED", F, ("ev", "feasibility.materialized_dataset", True)),
    C(
        "G2_DATASET_MATERIALIZED",
        F,
        ("ev", "feasibility.dataset_manifest_refs", ["manifests/train.json"]),
        clause="manifest-refs",
    ),
    C("G2_DECISION_MISSING", U, ("ev", "decisions.privacy", DELETE)),
    C("G2_DECISION_MISSING", U, ("ev", "decisions.consent.status", DELETE), clause="status-absent"),
    C("G2_CONSENT_UNSUPPORTED", F, ("ev", "decisions.consent.status", "unsupported")),
    C("G2_PRIVACY_INELIGIBLE", F, ("ev", "decisions.privacy.status", "ineligible")),
    C("G2_DECIDER_NOT_HUMAN_MAINTAINER", F, ("ev", "decisions.privacy.decided_by", LEAD)),
    # -- G3 -------------------------------------------------------------------------------
    C("G3_RECURRENCE_MISSING", U, ("ev", "recurrence.observation_ids", [])),
    C("G3_RECURRENCE_MISSING", U, ("ev", "recurrence", DELETE), clause="section-absent"),
    C(
        "G3_RECURRENCE_MISSING",
        U,
        ("ev", "recurrence.mechanism_id", DELETE),
        clause="mechanism-absent",
    ),
    C("G3_MECHANISM_MISMATCH", F, ("ev", "target_behavior.mechanism_id", "mech-other")),
    C(
        "G3_OBSERVATION_UNRESOLVED",
        F,
        ("ev", "recurrence.observation_ids", ["o1", "o2", "o3", "o-404"]),
    ),
    C(
        "G3_FAMILIES_LT_3",
        F,
        ("ev", "recurrence.observation_ids", ["o1", "o2", "o4"]),
        near=("ev", "recurrence.observation_ids", ["o1", "o2", "o7"]),
    ),
    # D3 and D3b carry different family labels but share a source: one family.
    C(
        "G3_FAMILIES_LT_3",
        F,
        ("ev", "recurrence.observation_ids", ["o1", "o3", "o7"]),
        clause="labels-ignored",
        near=("ev", "recurrence.observation_ids", ["o1", "o2", "o7"]),
    ),
    C("G3_EPOCHS_LT_2", F, ("ev", "recurrence.observation_ids", ["o1", "o2", "o5"])),
    # cfg-1b differs from cfg-1 only in settings: the same configuration class.
    C("G3_CONFIGURATIONS_LT_2", F, ("ev", "recurrence.observation_ids", ["o1", "o6", "o3"])),
    # -- G4 -------------------------------------------------------------------------------
    C("G4_PLATEAU_MISSING", U, ("ev", LR + "family_alpha", DELETE)),
    C("G4_PLATEAU_MISSING", U, ("ev", LR + "useful_effect", DELETE), clause="useful-effect"),
    C("G4_PLATEAU_MISSING", U, ("ev", "lower_rungs", DELETE), clause="section-absent"),
    C("G4_RUNGS_MISSING", U, ("ev", LR + "rungs[5]", DELETE)),
    C(
        "G4_RUNGS_MISSING",
        U,
        ("ev", LR + "rungs[4].applicable", DELETE),
        clause="applicable-absent",
    ),
    C("G4_RESULT_MISSING", U, ("ev", LR + "rungs[0].experiment.claimed_upper_bound", DELETE)),
    C(
        "G4_RESULT_MISSING",
        U,
        ("arc", "experiments[exp-r1].standard_error", DELETE),
        clause="archive-result-absent",
    ),
    C("G4_RECORD_MISSING", U, ("ev", LR + "rungs[3].record.reason_ref", DELETE)),
    C(
        "G4_RECORD_MISSING",
        U,
        ("ev", LR + "rungs[4].record.projected_cost", DELETE),
        clause="cost-figure",
    ),
    C("G4_MULTIPLICITY_INVALID", F, ("ev", LR + "multiplicity_method", "sidak")),
    C("G4_FAMILY_SIZE_UNDERSTATED", F, ("ev", LR + "family_size", 3)),
    C("G4_EXPERIMENT_UNRESOLVED", F, ("ev", LR + "rungs[0].experiment.experiment_id", "exp-404")),
    C(
        "G4_EXPERIMENT_UNRESOLVED",
        F,
        ("ev", LR + "rungs[1].experiment.experiment_id", "exp-r0"),
        clause="archive-rung-differs",
    ),
    C(
        "G4_EXPLORATORY_NOT_PLATEAU",
        F,
        ("ev", LR + "rungs[2]", {"rung": 2, "applicable": True, "basis": "exploratory_search"}),
    ),
    C(
        "G4_EXPLORATORY_NOT_PLATEAU",
        F,
        ("ev", LR + "rungs[2].experiment.experiment_id", "exp-r2-explore"),
        clause="archive-kind-exploratory",
    ),
    C("G4_NOT_PREREGISTERED", F, ("arc", "experiments[exp-r0].preregistered", False)),
    C("G4_NOT_PREREGISTERED", F, ("arc", "experiments[exp-r6].sealed", False), clause="sealed"),
    C("G4_USEFUL_EFFECT_MISMATCH", F, ("arc", "experiments[exp-r1].useful_effect", 0.08)),
    C("G4_USEFUL_EFFECT_MISMATCH", F, ("ev", LR + "useful_effect", 0.06), clause="dossier-side"),
    C(
        "G4_UCB_MISMATCH",
        F,  # UCB of rung 0 is 0.037947 (6.6); 0.001 is the tolerance
        ("ev!", LR + "rungs[0].experiment.claimed_upper_bound", 0.03900),
        near=("ev!", LR + "rungs[0].experiment.claimed_upper_bound", 0.03890),
    ),
    C(
        "G4_UCB_NOT_BELOW_USEFUL_EFFECT",
        F,
        ("arc", "experiments[exp-r0].estimate", 0.03),
        near=("arc", "experiments[exp-r0].estimate", 0.02),
    ),  # UCB 0.0579 vs 0.0479
    C("G4_RECORD_NOT_ACCEPTED", F, ("ev", LR + "rungs[3].record.status", "proposed")),
    C(
        "G4_RECORD_NOT_ACCEPTED",
        F,
        ("ev", LR + "rungs[4].record.accepted_by", AGENT_MAINT),
        clause="agent-acceptor",
        near=("ev", LR + "rungs[4].record.accepted_by", DECIDER),
    ),
    C(
        "G4_COST_CEILING_NOT_EXCEEDED",
        F,
        ("ev", LR + "rungs[4].record.projected_cost", 2000.0),
        near=("ev", LR + "rungs[4].record.projected_cost", 2000.01),
    ),
    C("G4_NOT_APPLICABLE_UNACCEPTED", F, ("ev", LR + "rungs[5].not_applicable.accepted_by", LEAD)),
    C(
        "G4_NOT_APPLICABLE_UNACCEPTED",
        F,
        ("ev", LR + "rungs[5].not_applicable.reason_ref", ""),
        clause="empty-reason",
    ),
    C("G4_BASIS_INVALID", F, ("ev", LR + "rungs[3].basis", "hunch")),
    # -- G5 -------------------------------------------------------------------------------
    C("G5_REWARD_PLAN_MISSING", U, ("ev", "reward_plan.rewards", [])),
    C(
        "G5_REWARD_PLAN_MISSING",
        U,
        ("ev", "reward_plan.rewards[rw-outcome].components", []),
        clause="reward-without-components",
    ),
    C(
        "G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL",
        F,
        (
            "ev",
            "reward_plan.rewards",
            [{"reward_id": "rw", "components": [{"kind": "human_preference"}]}],
        ),
        near=(
            "ev",
            "reward_plan.rewards",
            [
                {
                    "reward_id": "rw",
                    "components": [
                        {"kind": "verifiable_outcome", "evidence_ref": "checks/outcome.md"}
                    ],
                }
            ],
        ),
    ),
    C(
        "G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL",
        F,
        (
            "ev",
            "reward_plan.rewards",
            [
                {
                    "reward_id": "rw",
                    "components": [{"kind": "verifiable_outcome", "evidence_ref": ""}],
                }
            ],
        ),
        clause="empty-evidence-ref",
        near=(
            "ev",
            "reward_plan.rewards",
            [
                {
                    "reward_id": "rw",
                    "components": [
                        {"kind": "calibrated_human_preference", "calibration_ref": "cal/pref.md"}
                    ],
                }
            ],
        ),
    ),
    C(
        "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE",
        F,
        (
            "ev",
            "reward_plan.rewards[rw-preference].components",
            [{"kind": "model_judge", "calibrated": False, "calibration_ref": None}],
        ),
        near=(
            "ev",
            "reward_plan.rewards[rw-preference].components",
            [{"kind": "model_judge", "calibrated": True, "calibration_ref": "cal/judge.md"}],
        ),
    ),
    C(
        "G5_REWARD_SOLELY_UNCALIBRATED_JUDGE",
        F,
        (
            "ev",
            "reward_plan.rewards[rw-preference].components",
            [{"kind": "model_judge", "calibrated": True, "calibration_ref": ""}],
        ),
        clause="calibrated-without-ref",
    ),
    # -- G6 -------------------------------------------------------------------------------
    C("G6_LICENSE_MISSING", U, ("ev", "license.license_id", DELETE)),
    C("G6_LICENSE_MISSING", U, ("ev", "license.base_model_id", DELETE), clause="base-model"),
    C("G6_INTENDED_USE_MISSING", U, ("ev", "license.intended_use.redistribution", DELETE)),
    C(
        "G6_LICENSE_UNSUPPORTED",
        F,
        ("ev", "license.license_id", "GPL-3.0"),
        near=("ev", "license.license_id", "MIT"),
    ),
    C(
        "G6_TRAINING_NOT_PERMITTED",
        F,
        ("ev", "license.license_id", "SYN-EVAL-ONLY-1.0"),
        near=("ev", "license.intended_use.training", False),
    ),
    C(
        "G6_REDISTRIBUTION_NOT_PERMITTED",
        F,
        ("ev", "license.license_id", "SYN-NO-REDISTRIBUTION-1.0"),
        ("ev", "license.intended_use.redistribution", True),
    ),
    # -- G7 -------------------------------------------------------------------------------
    C("G7_BUDGET_MISSING", U, ("ev", "budgets.privacy", DELETE)),
    C("G7_BUDGET_MISSING", U, ("ev", "budgets.compute.approved", DELETE), clause="flag-absent"),
    C("G7_BUDGET_NOT_APPROVED", F, ("ev", "budgets.provider.approved", False)),
    C(
        "G7_APPROVER_NOT_HUMAN_MAINTAINER",
        F,
        ("ev", "budgets.checkpoint.approved_by", AGENT_MAINT),
        near=("ev", "budgets.checkpoint.approved_by", DECIDER),
    ),
    C(
        "G7_ROLLBACK_REQUIREMENTS_MISSING",
        U,
        ("ev", "rollback_requirements.canary_required", DELETE),
    ),
    C(
        "G7_ROLLBACK_REQUIREMENT_UNMET",
        F,
        ("ev", "rollback_requirements.checkpoints_immutable", False),
    ),
    # -- G8 -------------------------------------------------------------------------------
    C("G8_AUTHORIZATION_MISSING", U, ("doc", "authorization", None)),
    C(
        "G8_AUTHORIZATION_MISSING",
        U,
        ("doc", "authorization.amendment_digest", DELETE),
        clause="amendment-digest",
    ),
    C(
        "G8_AUTHORIZER_NOT_HUMAN_MAINTAINER",
        F,
        ("doc", "authorization.principal_id", AGENT_MAINT),
        near=("doc", "authorization.principal_id", DECIDER),
    ),
    C("G8_AUTHORIZATION_SCOPE_INVALID", F, ("doc", "authorization.grants", ["start_provider_job"])),
    C(
        "G8_AUTHORIZATION_SCOPE_INVALID",
        F,
        ("doc", "authorization.action", "approve_activation"),
        clause="action",
    ),
    C(
        "G8_AUTHORIZATION_NOT_DIGEST_LINKED",
        F,
        ("doc!", "authorization.evidence_digest", label_digest("older evidence")),
    ),
    C(
        "G8_AUTHORIZATION_NOT_DIGEST_LINKED",
        F,
        ("doc", "authorization.amendment_digest", "sha256:abc"),
        clause="amendment-malformed",
    ),
    C(
        "G8_AUTHORIZATION_NOT_DIGEST_LINKED",
        F,
        ("ev!!", "license.base_model_id", "base-8b"),
        clause="evidence-changed-after",
    ),
    # -- G9 -------------------------------------------------------------------------------
    C("G9_PLAN_MISSING", U, ("ev", DP + "creates_dataset", DELETE)),
    C("G9_PLAN_MISSING", U, ("ev", DP + "cutoff.at", DELETE), clause="cutoff-at"),
    C("G9_PLAN_MISSING", U, ("ev", "evidence_cutoff", DELETE), clause="evidence-cutoff"),
    C("G9_PLAN_MISSING", U, ("ev", DP + "grouping_rules", DELETE), clause="grouping-rules"),
    C("G9_CUTOFF_NOT_FIXED_FUTURE", F, ("ev", DP + "cutoff.kind", "rolling")),
    C(
        "G9_CUTOFF_NOT_FIXED_FUTURE",
        F,
        ("ev", DP + "cutoff.at", "2026-11-30T00:00:00Z"),
        clause="not-after-evidence-cutoff",
        near=("ev", DP + "cutoff.at", "2026-11-30T00:00:01Z"),
    ),
    C("G9_GROUPING_INCOMPLETE", F, ("ev", DP + "grouping_rules", ["group", "source"])),
    # Stated controls are not judged: weaker ones pass (no rule of the spec fails them).
    C(
        "G9_LEAKAGE_CONTROLS_MISSING",
        U,
        ("ev", DP + "leakage_controls", {}),
        near=(
            "ev",
            DP + "leakage_controls",
            {"split_unit": "row", "exclude_hidden_splits": False, "exclude_exploit_traces": False},
        ),
    ),
    C(
        "G9_LEAKAGE_CONTROLS_MISSING",
        U,
        ("ev", DP + "leakage_controls", DELETE),
        clause="absent",
        near=("ev", DP + "leakage_controls", {"split_unit": "graph_component"}),
    ),
    C("G9_TRAINING_SOURCES_MISSING", U, ("ev", DP + "training_source_items", [])),
    C(
        "G9_TRAINING_ITEM_UNRESOLVED",
        F,
        ("ev", DP + "training_source_items", ["it-t1", "it-404"]),
        near=("ev", DP + "training_source_items", ["it-t1", "it-t1b"]),
    ),
    C(
        "G9_TRAINING_ITEM_UNRESOLVED",
        F,
        ("ev", DP + "training_source_items", ["it-t1", "it-orphan"]),
        clause="group-not-in-archive",
    ),
    # Section 3: a hidden group's component is an evaluation component.
    C(
        "G9_CONTAMINATION_HIDDEN_ITEM",
        F,
        ("ev", DP + "training_source_items", ["it-t1", "it-cal"]),
        also=("G9_GROUPED_SPLIT_LEAKAGE",),
    ),
    C(
        "G9_CONTAMINATION_HIDDEN_ITEM",
        F,
        ("ev", DP + "training_source_items", ["it-t1", "it-pool"]),
        clause="pool-item",
        also=("G9_GROUPED_SPLIT_LEAKAGE",),
    ),
    C(
        "G9_CONTAMINATION_EXPLOIT_TRACE",
        F,
        ("ev", DP + "training_source_items", ["it-t1", "it-exploit"]),
    ),
    C("G9_GROUPED_SPLIT_LEAKAGE", F, ("ev", DP + "training_source_items", ["it-t1", "it-leak"])),
    C("G9_PRIVATE_FEEDBACK_TERMS_MISSING", U, ("ev", FB + "retention_days", 0)),
    C(
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
        U,
        ("ev", DP + "private_feedback", DELETE),
        clause="absent",
    ),
    C(
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
        U,
        ("ev", FB + "authorization_ref", ""),
        clause="authorization-ref",
    ),
    C("G9_PRIVATE_FEEDBACK_TERMS_MISSING", U, ("ev", FB + "license", ""), clause="license"),
    C(
        "G9_PRIVATE_FEEDBACK_TERMS_MISSING",
        U,
        ("ev", FB + "use_scope", "everyone"),
        clause="use-scope",
    ),
    C("G9_FEEDBACK_ATOM_UNRESOLVED", F, ("ev", FB + "atom_ids", ["atom-art", "atom-404"])),
    C(
        "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION",
        F,
        ("ev", FB + "use_scope", "skill"),
        near=("ev", FB + "atom_ids", ["atom-skill"]),
    ),
    C(
        "G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION",
        F,
        ("ev", FB + "use_scope", "none"),
        clause="atoms-with-none",
        near=("ev", FB + "atom_ids", []),
    ),
    C("G9_DATASET_CREATED", F, ("ev", DP + "creates_dataset", True)),
    # -- G10 ------------------------------------------------------------------------------
    C("G10_IDENTITIES_MISSING", U, ("ev", IP + "provider_identity", DELETE)),
    C("G10_IDENTITY_CONFLICT", F, ("ev", IP + "search_controller_identity", TRAINING)),
    C("G10_FINAL_EVALUATION_MISSING", U, ("ev", FE + "evaluator_inputs", DELETE)),
    C("G10_FINAL_EVALUATION_MISSING", U, ("ev", FE + "epoch_id", DELETE), clause="epoch-id"),
    C("G10_EVALUATION_EPOCH_UNRESOLVED", F, ("ev", FE + "epoch_id", "ep-404")),
    C("G10_EVALUATION_EPOCH_NOT_SEALED", F, ("arc", "epochs[ep-final].sealed", False)),
    C(
        "G10_EVALUATION_EPOCH_NOT_SEALED",
        F,
        ("arc", "epochs[ep-final].status", "closed"),
        clause="not-active",
    ),
    C("G10_EXPOSURE_UNKNOWN", U, ("arc", "exposure_ledger[ep-final]", DELETE)),
    C("G10_EVALUATION_EPOCH_TOUCHED", F, ("arc", "exposure_ledger[ep-final].disclosure_looks", 1)),
    C(
        "G10_EVALUATION_EPOCH_TOUCHED",
        F,
        ("arc", "exposure_ledger[ep-final].execution_looks", 2),
        clause="execution-looks",
    ),
    C(
        "G10_EVALUATION_EPOCH_TOUCHED",
        F,
        ("ev", "recurrence.observation_ids", ["o1", "o2", "o3", "o-final"]),
        clause="hosts-cited-observation",
    ),
    C(
        "G10_EVALUATION_EPOCH_TOUCHED",
        F,
        ("ev", LR + "rungs[2].experiment.experiment_id", "exp-r2-final"),
        clause="hosts-cited-experiment",
    ),
    *(
        C(
            "G10_EVALUATOR_RECEIVES_TRAINER_RATIONALE",
            F,
            ("ev", FE + "evaluator_inputs", ["candidate_checkpoint_ref", name]),
            clause=name,
        )
        for name in RATIONALE
    ),
    # -- G11 ------------------------------------------------------------------------------
    C("G11_DRY_RUN_MISSING", U, ("ev", CE + "spend_committed_micros", DELETE)),
    C("G11_DRY_RUN_MISSING", U, ("ev", CE + "mode", DELETE), clause="mode"),
    C("G11_DRY_RUN_MISSING", U, ("ev", "cost_envelope", DELETE), clause="section-absent"),
    C("G11_NOT_NON_SPENDABLE", F, ("ev", CE + "mode", "live")),
    C("G11_DIMENSION_MISSING", U, ("ev", CE + "dimensions.egress", DELETE)),
    C(
        "G11_DIMENSION_MISSING",
        U,
        ("ev", CE + "dimensions.retry.ceiling", DELETE),
        clause="ceiling-absent",
    ),
    C(
        "G11_CEILING_EXCEEDED",
        F,
        ("ev", CE + "dimensions.compute.worst_case", 1201),
        near=("ev", CE + "dimensions.compute.worst_case", 1200),
    ),
    C("G11_SIDE_EFFECTS_CREATED", F, ("ev", CE + "work_orders_created", ["wo-1"])),
    C(
        "G11_SIDE_EFFECTS_CREATED",
        F,
        ("ev", CE + "reservations_created", ["res-1"]),
        clause="reservation",
    ),
    C("G11_SIDE_EFFECTS_CREATED", F, ("ev", CE + "spend_committed_micros", 1), clause="spend"),
]
CASE_IDS = [c.id for c in CASES]
