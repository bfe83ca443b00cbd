"""G2 — source-corpus and dataset-feasibility reports, human review, decisions (spec 5)."""

from __future__ import annotations

from typing import Any

from aa_review.core.dossier._canonical import json_digest
from aa_review.core.dossier._gates_common import GateBuilder, GateContext, GateResult

__all__ = ["FEASIBILITY_TOPICS", "gate_g2", "reviewed_digest"]

FEASIBILITY_TOPICS: tuple[str, ...] = (
    "prospective_completeness",
    "independence",
    "contamination_controls",
    "licensing",
    "consent",
    "privacy",
    "statistical_power",
)


def reviewed_digest(feasibility_raw: dict[str, Any]) -> str:
    """Digest of ``{"source_corpus_report": …, "dataset_feasibility_report": …}`` as parsed."""
    return json_digest(
        {
            "source_corpus_report": feasibility_raw.get("source_corpus_report"),
            "dataset_feasibility_report": feasibility_raw.get("dataset_feasibility_report"),
        }
    )


def gate_g2(ctx: GateContext) -> GateResult:
    """Both reports cover all seven topics, a human maintainer approved them, no dataset exists."""
    b = GateBuilder()
    f = ctx.ev.feasibility
    raw = ctx.parsed.evidence_raw.get("feasibility")
    reports = (f.source_corpus_report, f.dataset_feasibility_report) if f else (None, None)
    if f is None or None in reports or f.materialized_dataset is None:
        b.unknown("G2_REPORT_MISSING")
    present = [r for r in reports if r is not None]
    if present:
        for topic in FEASIBILITY_TOPICS:
            entries = [r.topics[topic] for r in present if r.topics and topic in r.topics]
            if not entries:
                b.unknown("G2_TOPIC_MISSING")
                b.note("topics_missing", [topic])
            elif not any(e.covered is True for e in entries):
                b.fail("G2_TOPIC_NOT_COVERED")
                b.note("topics_not_covered", [topic])
    review = f.human_review if f else None
    if review is None or None in (review.reviewer, review.decision, review.reviewed_digest):
        b.unknown("G2_REVIEW_MISSING")  # 1.1/15: a review missing a field is not yet a review
    if review is not None:
        if review.reviewer is not None and not ctx.principals.is_human_maintainer(review.reviewer):
            b.fail("G2_REVIEWER_NOT_HUMAN_MAINTAINER")
        if review.decision is not None and review.decision != "approved":
            b.fail("G2_REVIEW_NOT_APPROVED")
        if (
            review.reviewed_digest is not None
            and isinstance(raw, dict)
            and review.reviewed_digest != reviewed_digest(raw)
        ):
            b.fail("G2_REVIEW_DIGEST_MISMATCH")
    if f is not None:
        if f.materialized_dataset is not None and f.materialized_dataset is not False:
            b.fail("G2_DATASET_MATERIALIZED")
        if f.dataset_manifest_refs:
            b.fail("G2_DATASET_MATERIALIZED")
    d = ctx.ev.decisions
    consent = d.consent if d else None
    privacy = d.privacy if d else None
    if consent is None or consent.status is None or privacy is None or privacy.status is None:
        b.unknown("G2_DECISION_MISSING")
    if consent is not None and consent.status is not None and consent.status != "supported":
        b.fail("G2_CONSENT_UNSUPPORTED")
    if privacy is not None and privacy.status is not None and privacy.status != "eligible":
        b.fail("G2_PRIVACY_INELIGIBLE")
    for decision in (consent, privacy):
        if decision is None:
            continue
        if decision.decided_by is None:
            b.unknown("G2_DECISION_MISSING")  # 1.1/15: nobody decided yet; presumes no one
        elif not ctx.principals.is_human_maintainer(decision.decided_by):
            b.fail("G2_DECIDER_NOT_HUMAN_MAINTAINER")
    return b.result()
