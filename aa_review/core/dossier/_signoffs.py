"""Human sign-offs embedded in a dossier file, listed for the ``imported`` journal entry."""

from __future__ import annotations

from typing import Any

from aa_review.core.dossier._canonical import json_digest

__all__ = ["SIGNOFF_SUBJECTS", "embedded_signoffs"]

SIGNOFF_SUBJECTS = frozenset(
    {
        "feasibility_review",
        "decision_consent",
        "decision_privacy",
        "budget_approval",
        "record_acceptance",
        "not_applicable_acceptance",
        "amendment_authorization",
    }
)


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def embedded_signoffs(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """``[{subject, by, at, subject_digest}]`` for every approval the file carries.

    These were not made in the app; the journal records that they arrived with
    an imported file, and by whom they claim to be.
    """
    ev = _obj(raw.get("evidence"))
    out: list[dict[str, Any]] = []

    def add(subject: str, by: Any, at: Any, subject_value: Any) -> None:
        if by is not None:
            out.append(
                {
                    "subject": subject,
                    "by": by,
                    "at": at,
                    "subject_digest": json_digest(subject_value),
                }
            )

    feas = _obj(ev.get("feasibility"))
    review = _obj(feas.get("human_review"))
    add("feasibility_review", review.get("reviewer"), review.get("reviewed_at"), review)
    decisions = _obj(ev.get("decisions"))
    for name in ("consent", "privacy"):
        d = _obj(decisions.get(name))
        add(f"decision_{name}", d.get("decided_by"), d.get("decided_at"), d)
    for name, budget in sorted(_obj(ev.get("budgets")).items()):
        b = _obj(budget)
        if b.get("approved") is True:
            add("budget_approval", b.get("approved_by"), b.get("approved_at"), {name: b})
    rungs = _obj(ev.get("lower_rungs")).get("rungs")
    for entry in rungs if isinstance(rungs, list) else []:
        e = _obj(entry)
        rec, na = _obj(e.get("record")), _obj(e.get("not_applicable"))
        add("record_acceptance", rec.get("accepted_by"), rec.get("accepted_at"), rec)
        add("not_applicable_acceptance", na.get("accepted_by"), na.get("accepted_at"), na)
    auth = _obj(raw.get("authorization"))
    add("amendment_authorization", auth.get("principal_id"), auth.get("issued_at"), auth)
    return out
