"""Result values of the service API: a transition's outcome and a revision reference."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from aa_review.core.dossier._states import DossierState, Outcome
from aa_review.core.dossier._validator import CheckRecord

__all__ = ["DossierRef", "TransitionResult"]


@dataclass(frozen=True)
class DossierRef:
    """A revision held by a workspace.

    Attributes
    ----------
    dossier_id : str
    revision : int
    state : DossierState
        The state it was imported (or created) in.
    """

    dossier_id: str
    revision: int
    state: DossierState


class TransitionResult(BaseModel):
    """What happened to an attempted transition; refusals are values, not exceptions.

    Attributes
    ----------
    outcome : Outcome
        ``applied``, ``refused``, ``expired`` or ``applied_as_new_revision``.
    reason : str or None
        The refusal reason (``TRANSITION_ILLEGAL`` …) or the first expiry reason.
    state_after : dict of str to str
        ``{"<revision>": state}`` of every revision the attempt touched (an
        automatic deferral after a check is already included).
    check_record : CheckRecord or None
        The record a check (or an expiry) wrote.
    new_revision : int or None
        The revision an edit created.
    """

    model_config = ConfigDict(frozen=True)

    outcome: Outcome
    reason: str | None = None
    state_after: dict[str, str]
    check_record: CheckRecord | None = None
    new_revision: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{outcome, reason, state_after}``, plus ``check_record``/``new_revision`` when set."""
        out: dict[str, Any] = {
            "outcome": self.outcome.value,
            "reason": self.reason,
            "state_after": dict(self.state_after),
        }
        if self.check_record is not None:
            out["check_record"] = self.check_record.to_json()
        if self.new_revision is not None:
            out["new_revision"] = self.new_revision
        return out

    def __getitem__(self, key: str) -> Any:
        """Dict-style access to :meth:`to_dict` keys (``result["outcome"]``)."""
        return self.to_dict()[key]

    @classmethod
    def of(
        cls,
        outcome: Outcome,
        states: dict[int, DossierState],
        reason: str | None = None,
        **extra: Any,
    ) -> TransitionResult:
        """Build from ``{revision: state}``."""
        return cls(
            outcome=outcome,
            reason=reason,
            state_after={str(r): s.value for r, s in states.items()},
            **extra,
        )
