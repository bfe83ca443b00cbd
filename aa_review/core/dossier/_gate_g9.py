"""G9 — the prospective dataset plan, validated against the archive (spec 5, section 3)."""

from __future__ import annotations

import logging

from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult
from aa_review.core.dossier._models_plans import DatasetPlan
from aa_review.core.dossier._packages import PackageState
from aa_review.core.dossier._timestamps import parse_timestamp

__all__ = ["FEEDBACK_SCOPES", "gate_g9"]

log = logging.getLogger(__name__)

# Broadening order of feedback use; "none" uses no atom at all.
FEEDBACK_SCOPES: tuple[str, ...] = (
    "artifact",
    "source_family",
    "skill",
    "workflow",
    "organization",
)
_USE_SCOPES = frozenset({"none", *FEEDBACK_SCOPES})
_GROUPING = ("group", "source", "template")


def gate_g9(ctx: GateContext) -> GateResult:
    """Future cutoff, grouped splits, no hidden/exploit/evaluation-family items, bounded feedback.

    Which item or group is hidden goes to the private detail only: telling a
    training-side identity which of its items is hidden would leak membership.
    """
    b = GateBuilder()
    plan = ctx.ev.dataset_plan
    cutoff = plan.cutoff if plan else None
    at = parse_timestamp(cutoff.at) if cutoff else None
    evidence_cutoff = parse_timestamp(ctx.ev.evidence_cutoff)
    if (
        plan is None
        or cutoff is None
        or cutoff.kind is None
        or at is None
        or evidence_cutoff is None
        or plan.grouping_rules is None
        or plan.creates_dataset is None
    ):
        b.unknown("G9_PLAN_MISSING")
    if plan is not None:
        if cutoff is not None and cutoff.kind is not None and cutoff.kind != "fixed":
            b.fail("G9_CUTOFF_NOT_FIXED_FUTURE")
        if at is not None and evidence_cutoff is not None and at <= evidence_cutoff:
            b.fail("G9_CUTOFF_NOT_FIXED_FUTURE")
        if plan.grouping_rules is not None and not set(_GROUPING) <= set(plan.grouping_rules):
            b.fail("G9_GROUPING_INCOMPLETE")
        _leakage(plan, b)
        _items(plan, ctx, b)
        _feedback(plan, ctx, b)
        if plan.creates_dataset is not None and plan.creates_dataset is not False:
            b.fail("G9_DATASET_CREATED")
    _packages(ctx, b)
    return b.result()


def _leakage(plan: DatasetPlan, b: GateBuilder) -> None:
    """Absent or empty controls are unknown; stated controls are never judged (spec G9).

    Leakage is judged on the actual training items against the graph (:func:`_items`).
    Empty: none of the three contract fields is given (extra keys are ignored, 2.2).
    """
    lc = plan.leakage_controls
    if lc is None or all(
        v is None for v in (lc.split_unit, lc.exclude_hidden_splits, lc.exclude_exploit_traces)
    ):
        b.unknown("G9_LEAKAGE_CONTROLS_MISSING")


def _items(plan: DatasetPlan, ctx: GateContext, b: GateBuilder) -> None:
    if not plan.training_source_items:
        b.unknown("G9_TRAINING_SOURCES_MISSING")
        return
    a = ctx.archive
    es = ctx.ev.effective_sample
    pool = [g.group_id for g in (es.groups or []) if g.group_id] if es else []
    evaluation = a.graph.evaluation_components(pool)
    exploited = {i for t in a.traces for i in t.item_ids or ()}
    for item_id in plan.training_source_items:
        item = a.items.get(item_id)
        group = a.groups.get(item.group_id or "") if item else None
        if group is None or group.group_id is None:
            b.fail("G9_TRAINING_ITEM_UNRESOLVED")
            b.note("unresolved_items", [item_id])
            continue
        if group.group_id in a.graph.hidden_groups:
            b.fail("G9_CONTAMINATION_HIDDEN_ITEM")
            b.note("hidden_items", [item_id])
        if item_id in exploited:
            b.fail("G9_CONTAMINATION_EXPLOIT_TRACE")
            b.note("exploit_trace_items", [item_id])
        if a.graph.component_of[group.group_id] in evaluation:
            b.fail("G9_GROUPED_SPLIT_LEAKAGE")
            b.note("evaluation_family_items", [item_id])


def _feedback(plan: DatasetPlan, ctx: GateContext, b: GateBuilder) -> None:
    pf = plan.private_feedback
    if (
        pf is None
        or not pf.authorization_ref
        or not pf.license
        or pf.retention_days is None
        or pf.retention_days <= 0
        or pf.use_scope not in _USE_SCOPES
    ):
        b.unknown("G9_PRIVATE_FEEDBACK_TERMS_MISSING")
    if pf is None:
        return
    atoms = pf.atom_ids or []
    if atoms and pf.use_scope == "none":
        b.fail("G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION")
    for atom_id in atoms:
        atom = ctx.archive.atoms.get(atom_id)
        if atom is None:
            b.fail("G9_FEEDBACK_ATOM_UNRESOLVED")
            b.note("unresolved_atoms", [atom_id])
            continue
        if pf.use_scope not in FEEDBACK_SCOPES:
            continue
        confirmed = atom.confirmed_effect_scope
        if confirmed not in FEEDBACK_SCOPES or FEEDBACK_SCOPES.index(
            pf.use_scope
        ) > FEEDBACK_SCOPES.index(confirmed):
            b.fail("G9_PRIVATE_FEEDBACK_SCOPE_EXPANSION")
            b.note("atoms_used_beyond_confirmed_scope", [atom_id])


def _packages(ctx: GateContext, b: GateBuilder) -> None:
    """Bound compiled packages must not cite hidden evidence (the audit engine's hook)."""
    for pkg in ctx.packages:
        readable = pkg.state in (PackageState.UNCHANGED, PackageState.CHANGED)
        if readable and pkg.hidden_rows is not None:  # the caller's audit already answered
            rows = list(pkg.hidden_rows)
            if rows:
                b.fail("G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE")
                b.note("package_rows_citing_hidden_evidence", {pkg.package_id: sorted(rows)})
            continue
        if ctx.contamination_hook is None or not readable or pkg.root is None:
            b.unknown("G9_PACKAGE_CONTAMINATION_UNVERIFIED")
            b.note("packages_not_audited", [pkg.package_id])
            continue
        try:
            rows = list(ctx.contamination_hook(pkg.root))
        except Exception as exc:  # noqa: BLE001 - a failing audit must not pass the gate, whatever it raised
            log.warning("contamination audit of %s failed: %s", pkg.package_id, exc)
            b.unknown("G9_PACKAGE_CONTAMINATION_UNVERIFIED")
            b.note("packages_not_audited", [pkg.package_id])
            continue
        if rows:
            b.fail("G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE")
            b.note("package_rows_citing_hidden_evidence", {pkg.package_id: sorted(rows)})
