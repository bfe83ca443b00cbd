"""Defect catalogue (placeholder until the injectors land)."""

from __future__ import annotations

from ._counts import Counts
from ._ctx import Ctx
from ._hooks import Hooks

__all__ = ["plan_defects", "DEFECTS"]

DEFECTS: tuple[tuple[str, str], ...] = ()
DEFECT_NAMES: tuple[str, ...] = ()


def plan_defects(names: list[str], ctx: Ctx, counts: Counts) -> Hooks:
    if names:
        raise ValueError("defects are not available yet")
    return Hooks()
