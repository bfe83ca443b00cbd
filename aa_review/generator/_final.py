"""The last round's writer: row files, links, process-supervision and rollout rows, coverage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._ctx import Ctx
from ._evidence import Evidence
from ._hooks import Hooks
from ._jsonfast import dumps_line
from ._linked import Companions
from ._rows_common import FIXED_TYPES, ROW_TYPES, RowContext, file_of
from ._sink import LineSink
from ._step_render import StepRenderer, generic_line
from ._variation import VARIED_KEYS, RowVariety

__all__ = ["FinalSink", "primary_path", "ROW_FILES"]

ROW_FILES = sorted(file_of(t) for t in ROW_TYPES)
_FIXED_FILES = {file_of(t) for t in FIXED_TYPES}


def primary_path(file: str) -> str:
    """Where a row file lives in ``experience_compiler/`` (format 5)."""
    folder = "training_time_package" if file in _FIXED_FILES else "environment"
    return f"experience_compiler/{folder}/{file}"


class FinalSink:
    """Receives the final round's rows in candidate order and writes everything they feed."""

    def __init__(
        self,
        ctx: Ctx,
        ev: Evidence,
        rc: RowContext,
        sr: StepRenderer,
        hooks: Hooks,
        tmp: Path,
        lean: bool = False,
    ) -> None:
        self.ctx, self.ev, self.rc, self.sr, self.hooks, self.tmp = ctx, ev, rc, sr, hooks, tmp
        self.comp = Companions(rc, ev, sr.group)
        self.files = {f: LineSink(ctx.path(primary_path(f))) for f in ROW_FILES}
        self.with_links = ctx.v02
        self.links = {f: LineSink(tmp / f"links_{f}", prefix=",\n    ", end="") for f in ROW_FILES}
        # a lean package has no derived files: no process-supervision or rollout rows
        self.ps = (
            {}
            if lean
            else {f: LineSink(tmp / f"ps_{f}") for f in ROW_FILES if f not in _FIXED_FILES}
        )
        self.rl = (
            None
            if lean
            else LineSink(
                ctx.path("experience_compiler/training_time_package/agentic_rollouts.jsonl")
            )
        )
        self.rl_ids: list[str] = []
        self.catalog_ids = {e["evidence_id"] for e in ev.catalog}
        self.n_links = 0
        self.n_with_ids = 0
        self.orphans: dict[str, None] = {}
        self.variety: RowVariety | None = None
        if ctx.variation is not None:
            plan = ctx.plan
            self._base_steps = len(plan.baseline)
            self.variety = RowVariety(
                ctx.variation, ev, len(plan.baseline) + len(plan.revised), ctx.seed
            )
            sr.varied = VARIED_KEYS
        self._n_fixed = 0

    def fixed(self, row: dict[str, Any]) -> None:
        if self.variety is not None:  # fixed rows cite the compiler's refs; scores spread
            row.update(self.variety.scores(f"fixed:{self._n_fixed}:{row['data_type']}"))
        self._n_fixed += 1
        self._emit(file_of(row["data_type"]), None, row)

    def step(self, t: str, attempt: str, vals: dict[str, Any], kind: str) -> None:
        if self.variety is not None:
            n = vals["source_step_ids"][0]
            pos = n - 2 + (self._base_steps if attempt != "baseline" else 0)
            vals.update(self.variety.step_fields(pos))
            vals.update(self.variety.scores(f"{attempt}:{n}:{t}:{vals['row_id']}"))
        self._emit(file_of(t), (t, attempt, kind), vals)

    def _emit(self, file: str, step: tuple[str, str, str] | None, data: dict[str, Any]) -> None:
        sink = self.files[file]
        key = (file, sink.count)
        hook = self.hooks.row.get(key)
        if step is not None and hook is None and key not in self.hooks.link:
            self._write(file, key, self.sr.line(step[0], step[1], data, step[2]))
            self._companions(file, data, standard=True, view=data)
            return
        row = self.sr.full(step[0], data) if step is not None else data
        rows = hook(row) if hook is not None else [row]
        for r in rows:
            k = (file, self.files[file].count)
            self._write(file, k, generic_line(r))
            # the link follows the row as written; derived rows come from the row as compiled
            self._companions(
                file,
                r,
                standard=hook is None and k not in self.hooks.link,
                view=data if step is not None else r,
            )

    def _write(self, file: str, key: tuple[str, int], line: str) -> None:
        lh = self.hooks.line.get(key)
        if lh is None:
            self.files[file].write(line)
        else:
            self.files[file].write_bytes(lh(line))

    def _companions(
        self, file: str, row: dict[str, Any], standard: bool, view: dict[str, Any]
    ) -> None:
        t = row["data_type"]
        if self.with_links:
            key = (file, self.links[file].count)
            if standard:
                self.links[file].write(self.comp.link(file, row, True))
                self.n_links += 1
                self.n_with_ids += 1 if self.ev.evidence_ids else 0
            else:
                link = self.comp.link_dict(file, row)
                lh = self.hooks.link.get(key)
                if lh is not None:
                    link = lh(link)
                self.links[file].write(dumps_line(link))
                self.n_links += 1
                self.n_with_ids += 1 if link["evidence_ref_ids"] else 0
                for i in link["evidence_ref_ids"]:
                    if i not in self.catalog_ids:
                        self.orphans.setdefault(i, None)
        if file in self.ps:
            self.ps[file].write(self.comp.ps(view))
        if t == "environment_response_pair" and self.rl is not None:
            self.rl.write(self.comp.rl(view))
            self.rl_ids.append("rl_" + view["row_id"])

    def close(self) -> None:
        for group in (self.files, self.links, self.ps):
            for s in group.values():
                s.close()
        if self.rl is not None:
            self.rl.close()

    @property
    def counts_by_file(self) -> dict[str, int]:
        return {f: s.count for f, s in self.files.items()}
