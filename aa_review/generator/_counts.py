"""Row counts per type and round, worked out from the plan alone (no rows are built)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._plan import TracePlan
from ._rows_common import FIXED_TYPES, ROW_TYPES, SURFACE_TYPES, file_of
from ._scenario import Scenario
from ._steps import KINDS

__all__ = ["Counts", "count_rows"]


@dataclass
class Counts:
    """What one compiler round generates, rejects and keeps.

    ``final`` is in first-seen order (format 7.7); ``generated`` and ``validated``
    are per round, before de-duplication; ``dup_steps`` lists the baseline steps
    whose second multimodal row is rejected as a duplicate id in every round.
    """

    generated: dict[str, int] = field(default_factory=dict)
    validated: dict[str, int] = field(default_factory=dict)
    final: dict[str, int] = field(default_factory=dict)
    dup_steps: list[int] = field(default_factory=list)

    @property
    def by_file(self) -> dict[str, int]:
        """The 23 row files, sorted, with their row counts."""
        return {f: self.final.get(t, 0) for f, t in sorted((file_of(t), t) for t in ROW_TYPES)}

    @property
    def rows_by_type(self) -> dict[str, int]:
        """``rows_by_type``: present types first-seen, then 0 for absent surface types."""
        out = {t: n for t, n in self.final.items() if n}
        for t in SURFACE_TYPES:
            out.setdefault(t, 0)
        return out

    @property
    def total(self) -> int:
        return sum(self.final.values())


def _inc(d: dict[str, int], t: str, n: int = 1) -> None:
    d[t] = d.get(t, 0) + n


def count_rows(sc: Scenario, plan: TracePlan) -> Counts:
    """Count rows by walking the plan as the compiler walks the traces."""
    c = Counts()
    k = len(sc.criteria)
    fixed = {
        "training_example": 1,
        "evaluation_example": k,
        "verifier_example": 2 if sc.with_verifier else 0,
        "reward_model_row": 2,
        "preference_pair": 1,
        "failure_case": len(sc.baseline_failed) + len(sc.revised_failed),
        "task_variant": 1,
    }
    for t in FIXED_TYPES:
        if fixed[t]:
            _inc(c.generated, t, fixed[t])
            _inc(c.final, t, fixed[t])
    base = plan.baseline
    for kinds in (plan.baseline, plan.revised):
        if kinds:
            _inc(c.generated, "environment_response_pair", len(kinds))
    env = len(base) + sum(1 for i in range(len(plan.revised)) if i >= len(base))
    if env:
        _inc(c.final, "environment_response_pair", env)
    for which, kinds in (("baseline", plan.baseline), ("revised", plan.revised)):
        for i, ki in enumerate(kinds):
            kind = KINDS[ki]
            btypes = KINDS[base[i]].row_types if which == "revised" and i < len(base) else ()
            for t in kind.row_types:
                n = 2 if kind.name == "pdf2" and t == "multimodal_artifact" else 1
                _inc(c.generated, t, n)
                if n == 2:
                    c.dup_steps.append(i + 2)
                if t not in btypes:
                    _inc(c.final, t)
    c.validated = dict(c.generated)
    if c.dup_steps:
        c.validated["multimodal_artifact"] -= len(c.dup_steps)
    return c
