"""How many trace steps of which kind each attempt gets, so the package holds ``rows`` rows.

The fixed row types (training, evaluation, verifier, ...) come from the task;
every other row comes from a trace step: one ``environment_response_pair`` per
non-user step plus its surface rows. The compiler drops a revised-attempt row
whose type and step number repeat a baseline row (format 12.9), and rejects the
second multimodal row of a two-ref step (12.10); the planner counts with both.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ._steps import KIND_INDEX, KINDS, make_step, mix, user_step

__all__ = ["TracePlan", "plan_traces", "step_rows", "iter_steps", "ATTEMPTS"]

ATTEMPTS = ("baseline", "revised")
_OPEN_B = ("cli", "pdf2", "api", "file")
_OPEN_R = (
    "database",
    "browser",
    "planner",
    "mcp",
    "device",
    "search",
    "mixed",
    "pdf",
    "cli",
    "cli",
    "api",
    "messaging",
    "codebase",
    "table",
    "api",
    "subagent",
    "planner",
    "saas",
    "spreadsheet",
    "planner",
)
_POOL = (
    ("cli",) * 3
    + ("api",) * 3
    + ("database", "codebase", "planner") * 2
    + (
        "pdf",
        "file",
        "browser",
        "mcp",
        "device",
        "search",
        "mixed",
        "messaging",
        "table",
        "subagent",
        "saas",
        "spreadsheet",
        "async",
    )
)
_PLANNER = KIND_INDEX["planner"]


@dataclass
class TracePlan:
    """Kinds of the non-user steps (step n at index n - 2) of both attempts."""

    baseline: bytearray
    revised: bytearray

    def kinds(self, attempt: str) -> bytearray:
        return self.baseline if attempt == "baseline" else self.revised

    def total_turns(self, attempt: str) -> int:
        return len(self.kinds(attempt)) + 1


def step_rows(kind_idx: int, base_kind: int | None) -> int:
    """Accepted rows a step yields; ``base_kind`` is the baseline kind at the same step number."""
    kind = KINDS[kind_idx]
    if base_kind is None:
        return 1 + len(kind.row_types)
    base = set(KINDS[base_kind].row_types)
    return sum(1 for t in kind.row_types if t not in base)


def plan_traces(step_row_budget: int, seed: int) -> TracePlan:
    """Plan both traces so their step rows add up to exactly ``step_row_budget``."""
    rnd = random.Random(f"plan:{seed}")
    budget = max(0, step_row_budget)
    cap_b = budget if budget < 12 else max(9, budget // 5)
    base = bytearray()
    used = 0
    i = 0
    while True:
        name = _OPEN_B[i] if i < len(_OPEN_B) else rnd.choice(_POOL)
        y = step_rows(KIND_INDEX[name], None)
        if used + y > cap_b:
            break
        base.append(KIND_INDEX[name])
        used += y
        i += 1
    opening = list(_OPEN_R)
    if seed != 0:
        rnd.shuffle(opening)
    rev = bytearray()
    left = budget - used
    i = 0
    while left > 0:
        n = i + 2
        name = opening[i] if i < len(opening) else rnd.choice(_POOL)
        k = KIND_INDEX[name]
        bk = base[n - 2] if n - 2 < len(base) else None
        y = step_rows(k, bk)
        if y > left:
            k = _PLANNER
            y = step_rows(k, bk)
        rev.append(k)
        left -= y
        i += 1
    return TracePlan(base, rev)


def iter_steps(
    plan: TracePlan, attempt: str, instruction: str, vendors: list[str], seed: int
) -> Iterator[dict[str, Any]]:
    """Every step of one trace, user step first, rebuilt deterministically on each call."""
    yield user_step(instruction)
    salt = 1 if attempt == "baseline" else 2
    for i, k in enumerate(plan.kinds(attempt)):
        n = i + 2
        yield make_step(KINDS[k], n, attempt, vendors, mix(seed, salt, n))
