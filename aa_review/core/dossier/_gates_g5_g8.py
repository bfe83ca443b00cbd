"""G5 rewards, G6 license, G7 budgets and rollback, G8 amendment authorization (spec 5)."""

from __future__ import annotations

from aa_review.core.dossier._canonical import is_digest
from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult
from aa_review.core.dossier._models_plans import RewardComponent

__all__ = ["LICENSE_POLICY", "gate_g5", "gate_g6", "gate_g7", "gate_g8"]

# Shipped deny-by-default policy (spec 2.7): license id -> (training, redistribution).
# Extending it is a reviewed policy change, never a dossier field.
LICENSE_POLICY: dict[str, tuple[bool, bool]] = {
    "Apache-2.0": (True, True),
    "MIT": (True, True),
    "SYN-OPEN-WEIGHTS-1.0": (True, True),
    "SYN-NO-REDISTRIBUTION-1.0": (True, False),
    "SYN-EVAL-ONLY-1.0": (False, False),
}
BUDGET_NAMES = ("compute", "provider", "privacy", "checkpoint", "rollback")
ROLLBACK_FLAGS = (
    "prior_model_pinned",
    "checkpoints_immutable",
    "base_never_overwritten",
    "event_replayable_rollback",
    "canary_required",
)


def _is_anchor(c: RewardComponent) -> bool:
    if c.kind == "verifiable_outcome":
        return bool(c.evidence_ref)
    return c.kind == "calibrated_human_preference" and bool(c.calibration_ref)


def _is_uncalibrated_judge(c: RewardComponent) -> bool:
    return c.kind == "model_judge" and not (c.calibrated is True and bool(c.calibration_ref))


def gate_g5(ctx: GateContext) -> GateResult:
    """Rewards rest on verifiable outcomes or calibrated preferences, never on raw judges."""
    b = GateBuilder()
    plan = ctx.ev.reward_plan
    rewards = plan.rewards if plan else None
    if not rewards or any(not r.components for r in rewards):
        b.unknown("G5_REWARD_PLAN_MISSING")
    if not rewards:
        return b.result()
    components = [c for r in rewards for c in r.components or ()]
    if components and not any(_is_anchor(c) for c in components):
        b.fail("G5_NO_VERIFIABLE_OR_CALIBRATED_SIGNAL")
    for r in rewards:
        comps = r.components or []
        if not any(_is_anchor(c) for c in comps) and any(_is_uncalibrated_judge(c) for c in comps):
            b.fail("G5_REWARD_SOLELY_UNCALIBRATED_JUDGE")
            b.note("rewards_on_uncalibrated_judges", [r.reward_id])
    return b.result()


def gate_g6(ctx: GateContext) -> GateResult:
    """The base model's license permits the intended training and redistribution."""
    b = GateBuilder()
    lic = ctx.ev.license
    if lic is None or not lic.license_id or not lic.base_model_id:
        b.unknown("G6_LICENSE_MISSING")
    use = lic.intended_use if lic else None
    if use is None or use.training is None or use.redistribution is None:
        b.unknown("G6_INTENDED_USE_MISSING")
    if lic is None or not lic.license_id:
        return b.result()
    policy = LICENSE_POLICY.get(lic.license_id)
    if policy is None:
        b.fail("G6_LICENSE_UNSUPPORTED")
        return b.result()
    if use is not None and use.training is True and not policy[0]:
        b.fail("G6_TRAINING_NOT_PERMITTED")
    if use is not None and use.redistribution is True and not policy[1]:
        b.fail("G6_REDISTRIBUTION_NOT_PERMITTED")
    return b.result()


def gate_g7(ctx: GateContext) -> GateResult:
    """All five budgets approved by a human maintainer; every rollback requirement met."""
    b = GateBuilder()
    budgets = ctx.ev.budgets
    for name in BUDGET_NAMES:
        budget = getattr(budgets, name) if budgets else None
        if budget is None or budget.approved is None:
            b.unknown("G7_BUDGET_MISSING")
            b.note("budgets_missing", [name])
        elif budget.approved is not True:
            b.fail("G7_BUDGET_NOT_APPROVED")
            b.note("budgets_not_approved", [name])
        elif budget.approved_by is None:  # 1.1/15: nobody named; presumes no approver
            b.unknown("G7_BUDGET_MISSING")
            b.note("budgets_missing", [name])
        elif not ctx.principals.is_human_maintainer(budget.approved_by):
            b.fail("G7_APPROVER_NOT_HUMAN_MAINTAINER")
            b.note("budgets_not_approved_by_human_maintainer", [name])
    rb = ctx.ev.rollback_requirements
    for flag in ROLLBACK_FLAGS:
        value = getattr(rb, flag) if rb else None
        if value is None:
            b.unknown("G7_ROLLBACK_REQUIREMENTS_MISSING")
        elif value is not True:
            b.fail("G7_ROLLBACK_REQUIREMENT_UNMET")
            b.note("rollback_requirements_unmet", [flag])
    return b.result()


def gate_g8(ctx: GateContext) -> GateResult:
    """A human maintainer authorized only *proposing* an amendment, linked to this evidence."""
    b = GateBuilder()
    auth = ctx.parsed.model.authorization
    if auth is None or auth.amendment_digest is None or auth.evidence_digest is None:
        b.unknown("G8_AUTHORIZATION_MISSING")
    if auth is None:
        return b.result()
    # Spec 1.1/15: an absent field is missing, never a fail that presumes its value.
    if auth.principal_id is None or auth.action is None or auth.grants is None:
        b.unknown("G8_AUTHORIZATION_MISSING")  # 15: "grants absent is G8_AUTHORIZATION_MISSING"
    if auth.principal_id is not None and not ctx.principals.is_human_maintainer(auth.principal_id):
        b.fail("G8_AUTHORIZER_NOT_HUMAN_MAINTAINER")
    if (auth.action is not None and auth.action != "propose_activation_amendment") or auth.grants:
        b.fail("G8_AUTHORIZATION_SCOPE_INVALID")
    if auth.amendment_digest is not None and not is_digest(auth.amendment_digest):
        b.fail("G8_AUTHORIZATION_NOT_DIGEST_LINKED")
    if auth.evidence_digest is not None and auth.evidence_digest != ctx.parsed.evidence_digest:
        b.fail("G8_AUTHORIZATION_NOT_DIGEST_LINKED")
    return b.result()
