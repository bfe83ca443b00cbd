"""The findings column of the rows and evidence tables follows the session's findings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aa_review.core.session import FindingsState, ReviewSession

if TYPE_CHECKING:
    from aa_review.qt.views._turns import Gate

__all__ = ["follow_marks"]


def follow_marks(session: ReviewSession, model: Any, kind: str, gate: Gate) -> None:
    """Keep ``model``'s findings column (``set_finding_marks``) on the findings shown now:
    the loading problems, then the audit's. ``kind`` is "rows" or "evidence"; ``gate``:
    the table's panel's (the marks wait for the table's fill)."""

    def show(state: FindingsState | None) -> None:
        if state is not None and state.version != session.version:
            return
        marks = state.prepared.marks if state is not None else None
        if marks is None:
            model.set_finding_marks(None, None)
        elif kind == "rows":
            model.set_finding_marks(marks.row_count, marks.row_worst)
        else:
            model.set_finding_marks(marks.evidence_count, marks.evidence_worst)

    session.events.findings_changed.connect(lambda state: gate.call(show, state))
