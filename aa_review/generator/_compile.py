"""The compiler's rounds: every round builds all candidates; the last round's rows are kept.

Earlier rounds' rows go to ``rejected_rows.jsonl`` as superseded (format 4.5),
written by a second process when the package is large. The last round writes
the 23 row files, the evidence-map links, process-supervision and rollout rows.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ._ctx import Ctx
from ._evidence import Evidence
from ._final import FinalSink
from ._grading import VERIFIER_NOTES
from ._hooks import Hooks
from ._plan import ATTEMPTS, iter_steps
from ._rows_common import RowContext
from ._rows_fixed import fixed_rows
from ._rows_steps import step_candidates
from ._sink import LineSink, concat
from ._step_render import StepRenderer, generic_line
from ._steps import KINDS

__all__ = ["ROUNDS", "run_rounds", "StepRow"]

ROUNDS = 3
_PARALLEL_MIN_ROWS = 20_000
StepRow = tuple[
    str, str, dict[str, Any], str | None, str
]  # (type, attempt, values, dup rejection, kind)


def _feedback(ctx: Ctx) -> str:
    return VERIFIER_NOTES["baseline"] if ctx.sc.with_verifier else ""


def step_rows(ctx: Ctx, sr: StepRenderer) -> Iterator[tuple[str, StepRow]]:
    """Step candidates of one round in trace order, tagged ``env`` or ``surface``.

    Revised rows repeating a baseline (type, step) are dropped (format 12.9); the
    second multimodal row of a two-ref step carries its duplicate-id rejection.
    """
    base = ctx.plan.baseline
    sc = ctx.sc
    for attempt in ATTEMPTS:
        turns = ctx.plan.total_turns(attempt)
        kinds = ctx.plan.kinds(attempt)
        prev = ""
        for step in iter_steps(ctx.plan, attempt, sc.instruction, sc.vendors, ctx.seed):
            n = step["step"]
            if n == 1:
                prev = step["state_change"]
                continue
            overlap = attempt == "revised" and n - 2 < len(base)
            btypes = KINDS[base[n - 2]].row_types if overlap else ()
            kind = KINDS[kinds[n - 2]].name
            if not overlap:
                yield (
                    "env",
                    (
                        "environment_response_pair",
                        attempt,
                        sr.values("environment_response_pair", attempt, step, prev, turns, None),
                        None,
                        kind,
                    ),
                )
            seen_mm = False
            for t, ref in step_candidates(kinds[n - 2], step):
                if t in btypes:
                    continue
                vals = sr.values(t, attempt, step, prev, turns, ref)
                dup = None
                if t == "multimodal_artifact":
                    if seen_mm:
                        dup = "duplicate_row_id:" + vals["row_id"]
                    seen_mm = True
                yield "surface", (t, attempt, vals, dup, kind)
            prev = step["state_change"]


def _superseded_round(ctx: Ctx, ev: Evidence, r: int, tmp: Path) -> list[Path]:
    """Write round ``r``'s rejected rows as four parts: genuine, fixed, env pairs, surface rows."""
    rc = RowContext(ctx, ev, r, ROUNDS)
    sr = StepRenderer(rc, _feedback(ctx))
    names = ["genuine", "fixed", "env", "surface"]
    sinks = {n: LineSink(tmp / f"rejected_{r}_{n}.jsonl") for n in names}
    for row in fixed_rows(rc):
        sinks["fixed"].write(generic_line(row))
    for tag, (t, attempt, vals, dup, kind) in step_rows(ctx, sr):
        if dup is not None:
            sinks["genuine"].write(generic_line(sr.full(t, vals, dup)))
        else:
            sinks[tag].write(sr.line(t, attempt, vals, kind))
    for s in sinks.values():
        s.close()
    return [sinks[n].path for n in names]


def _worker(ctx: Ctx, ev: Evidence, rounds: list[int], tmp: Path) -> None:
    for r in rounds:
        _superseded_round(ctx, ev, r, tmp)


def run_rounds(
    ctx: Ctx, ev: Evidence, hooks: Hooks, tmp: Path, total_rows: int, lean: bool = False
) -> FinalSink:
    """Run all rounds; returns the final round's sink (counts, links, coverage).

    ``lean`` runs the last round only, without its derived rows, and writes no rejected rows.
    """
    if lean:
        return _final_round(ctx, ev, hooks, tmp, lean=True)
    early = list(range(1, ROUNDS))
    proc = None
    if total_rows >= _PARALLEL_MIN_ROWS and os.cpu_count() != 1 and hasattr(os, "fork"):
        proc = multiprocessing.get_context("fork").Process(
            target=_worker, args=(ctx, ev, early, tmp)
        )
        proc.start()
    else:
        _worker(ctx, ev, early, tmp)
    try:
        final = _final_round(ctx, ev, hooks, tmp)
    except BaseException:
        if proc is not None:  # do not leave our worker writing into a folder being removed
            proc.terminate()
            proc.join()
        raise
    if proc is not None:
        proc.join()
        if proc.exitcode != 0:
            raise RuntimeError(f"generator worker failed with exit code {proc.exitcode}")
    parts = [
        tmp / f"rejected_{r}_{n}.jsonl"
        for r in early
        for n in ("genuine", "fixed", "env", "surface")
    ]
    genuine = tmp / f"rejected_{ROUNDS}_genuine.jsonl"
    concat(ctx.path("experience_compiler/reports/rejected_rows.jsonl"), [*parts, genuine])
    for p in [*parts, genuine]:
        p.unlink()
    return final


def _final_round(ctx: Ctx, ev: Evidence, hooks: Hooks, tmp: Path, lean: bool = False) -> FinalSink:
    """The last round: its rows go to the row files; its genuine rejects to a part file."""
    rc = RowContext(ctx, ev, ROUNDS, ROUNDS)
    sr = StepRenderer(rc, _feedback(ctx))
    final = FinalSink(ctx, ev, rc, sr, hooks, tmp, lean=lean)
    genuine = LineSink(tmp / f"rejected_{ROUNDS}_genuine.jsonl")
    for row in fixed_rows(rc):
        final.fixed(row)
    for _tag, (t, attempt, vals, dup, kind) in step_rows(ctx, sr):
        if dup is not None:
            genuine.write(generic_line(sr.full(t, vals, dup)))
        else:
            final.step(t, attempt, vals, kind)
    genuine.close()
    final.close()
    return final
