"""generate_package: writes one compiled package folder, clean or with the defects asked for."""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aa_review.core.package import derive

from ._attempts import write_attempts
from ._clock import Clock
from ._compile import ROUNDS, run_rounds
from ._copies import copy_pairs, write_copies
from ._counts import count_rows
from ._ctx import VERSIONS, Ctx
from ._defects import plan_defects
from ._derived import write_derived
from ._environment import write_environment
from ._eval_pkg import write_eval_package
from ._evidence import assemble_evidence
from ._evidence_map import coverage, write_evidence_map
from ._grading import write_grading
from ._index import write_artifacts_index
from ._loop_learning import write_loop_learning
from ._loops import write_loops
from ._plan import plan_traces
from ._reports import write_reports
from ._result import GeneratedPackage
from ._rounds_log import write_round_logs
from ._rows_common import Scores
from ._runtime import write_runtime_package
from ._scenario import make_scenario
from ._skill import write_skill_pack
from ._source import write_task_side
from ._variation import Variation, extra_evidence

__all__ = ["generate_package", "fixed_row_count", "MIN_ROWS"]

log = logging.getLogger(__name__)
MIN_ROWS = 7


class _Phases:
    """Logs how long each stage took (``logging`` at DEBUG level)."""

    def __init__(self, pkg: str) -> None:
        self.pkg = pkg
        self.t = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        log.debug("%s: %s took %.2f s", self.pkg, name, now - self.t)
        self.t = now


def fixed_row_count(rows: int) -> int:
    """Rows of the fixed types a package of ``rows`` rows has (the rest come from trace steps)."""
    sc = make_scenario("pkg", 0, rows, "v0.2")
    k = len(sc.criteria)
    return (
        1
        + k
        + (2 if sc.with_verifier else 0)
        + 2
        + 1
        + len(sc.baseline_failed)
        + len(sc.revised_failed)
        + 1
    )


def _prepare_root(root: Path) -> None:
    outside = root.parent / f"{root.name}.outside"  # left by a symlink_out defect
    if outside.is_dir():
        shutil.rmtree(outside)
    if root.exists():
        generated = (root / "manifest.json").is_file() and (root / "experience_compiler").is_dir()
        if not generated and any(root.iterdir()):
            raise FileExistsError(
                f"{root} exists and is not a generated package; choose another folder"
            )
        shutil.rmtree(root)
    root.mkdir(parents=True)


def generate_package(
    out_dir: Path,
    *,
    rows: int = 60,
    seed: int = 0,
    package_id: str | None = None,
    version: str = "v0.2",
    defects: Sequence[str] = (),
    lean: bool = False,
    defect_rows: Mapping[str, int] | None = None,
    variation: Variation | None = None,
) -> GeneratedPackage:
    """Write a compiled package into ``out_dir/<package_id>/``.

    Parameters
    ----------
    out_dir : Path
        Folder that receives the package root (created if needed).
    rows : int
        Training rows across the 23 row files, hit exactly for a clean package
        (at least ``MIN_ROWS``; ``duplicate_row_id`` adds one). From 40 rows up the
        seven fixed types take 16 (1 training, 6 evaluation, 2 verifier, 2 reward,
        1 preference, 3 failure, 1 variant); smaller packages shrink the rubric and
        drop the verifier results. Every other row comes from a trace step: one
        ``environment_response_pair`` per non-user step plus 0-2 surface rows by the
        step's kind. The baseline trace yields about a fifth of the step rows (at
        least its four opening steps), the revised trace the rest, after the
        compiler's de-duplication of repeated (type, step) rows (format 12.9).
    seed : int
        Same seed and arguments give byte-identical packages.
    package_id : str, optional
        Folder name and package id; default ``pkg_recon_s<seed>_n<rows>``.
    version : {"v0.2", "v0.1"}
        Compiler generation to imitate.
    defects : sequence of str
        Names from ``DEFECTS``; each is injected once, with everything else kept consistent.
    defect_rows : mapping of str to int, optional
        How many rows carry a defect, for those that can go into several (the one-row
        defects but ``huge_line``, and ``hidden_cited``, ``ref_absolute``, ``ref_dotdot``
        and ``ref_unresolved``, which otherwise every row cites): rows no other defect
        uses, across the row files. Each such record lists its rows (``rows``).
    lean : bool
        Write only what opening a package reads, for load benchmarks of packages too
        large to write in full (a full package takes about 70 KB per row, most of it
        copies). A lean package is NOT a faithful package: it has the source package,
        and in ``experience_compiler/`` the compiler manifest and report, the quality
        report, the full evidence map (catalog and one link per row), the 23 primary
        row files and ``runtime_learning_package/`` {output,artifact}_contract.json,
        prefinal_verification_checklist.json and transfer_checklist.json. It has no
        ``tdo/``, no copies, no derived, loop-learning, eval, skill, environment-spec,
        runtime or round-log files, no rejected rows and no artifacts_index.json, so an
        audit reports those files missing. Its rows, catalog and links are the same as
        the full package's of the same arguments. Cannot be combined with ``defects``.
    variation : Variation, optional
        Make the rows differ as the compiler's do not (see :mod:`._variation`): a
        catalog of ``variation.items`` items (extra evidence files, some hidden), each
        trace step's rows citing a subset of it, scores spread per row. None (the
        default) writes what compiler 0.2.1 writes: every row cites every ref, one set
        of scores per round.

    Returns
    -------
    GeneratedPackage
        The root, counts and the defects injected with their locations.
    """
    if version not in VERSIONS:
        raise ValueError(f"version must be one of {sorted(VERSIONS)}, not {version!r}")
    if lean and defects:
        raise ValueError("a lean package cannot carry defects (their files may be left out)")
    rows = max(MIN_ROWS, int(rows))
    pkg = package_id or f"pkg_recon_s{seed}_n{rows}"
    if derive.safe_id(pkg) != pkg:
        raise ValueError(f"package id {pkg!r} must use only letters, digits and underscores")
    root = Path(out_dir) / pkg
    _prepare_root(root)
    sc = make_scenario(pkg, seed, rows, version)
    plan = plan_traces(rows - fixed_row_count(rows), seed)
    ctx = Ctx(
        root=root,
        sc=sc,
        plan=plan,
        clock=Clock(seed),
        seed=seed,
        version=version,
        variation=variation,
    )
    counts = count_rows(sc, plan)
    hooks = plan_defects(list(defects), ctx, counts, dict(defect_rows or {}))
    phase = _Phases(pkg)
    write_task_side(ctx)
    stats = write_attempts(ctx)
    write_grading(ctx)
    write_loops(ctx)
    ctx.state["required_tools"] = sorted(stats.tools)
    phase("source package")
    extras = list(hooks.extras)
    if variation is not None:
        base = assemble_evidence(ctx, extras, hooks.id_override)
        extras += extra_evidence(ctx, variation, len(base.catalog))
    ev = assemble_evidence(ctx, extras, hooks.id_override, frozenset(hooks.hash_any_size))
    avg = round(Scores(ROUNDS).quality, 4)
    with tempfile.TemporaryDirectory(prefix=".aa_gen_", dir=out_dir) as tmp:
        final = run_rounds(ctx, ev, hooks, Path(tmp), counts.total, lean=lean)
        phase("compiler rounds")
        verdict: dict[str, Any] = {}
        if not lean:
            write_copies(ctx)
            write_loop_learning(ctx, ev, avg)
            write_derived(ctx, ev, final, avg)
            write_skill_pack(ctx, ev, avg)
        output_contract = write_runtime_package(ctx, ev, avg, lean=lean)
        if not lean:
            write_eval_package(ctx, ev, avg, output_contract)
            write_environment(ctx, ev, stats, avg)
            verdict = write_round_logs(ctx, counts, ROUNDS)
        cov = hooks.apply("coverage", coverage(ev, final))
        orphans = hooks.apply("orphans", list(final.orphans))
        write_evidence_map(ctx, ev, final, cov, orphans)
        by_file = final.counts_by_file
        write_reports(ctx, ev, counts, by_file, cov, ROUNDS, verdict, hooks.apply, lean=lean)
        phase("copies, derived files and reports")
    for fn in hooks.post:
        fn()
    facts = {
        "counts_by_file": by_file,
        "catalog_refs": [e["ref"] for e in ev.catalog],
        "evidence_ids": list(ev.evidence_ids),
    }
    for fin in hooks.finalize:
        fin(facts)
    if not lean:
        write_artifacts_index(ctx, stats, dict(copy_pairs()), hooks.touched)
    missing = [n for n, r in zip(defects, hooks.records, strict=True) if r is None]
    if missing:
        raise RuntimeError(f"defects {missing} found no place to go in this package")
    phase("artifacts index")
    return GeneratedPackage(
        root=root,
        package_id=pkg,
        row_count=sum(by_file.values()),
        rows_by_file=by_file,
        version=version,
        seed=seed,
        defects=[r for r in hooks.records if r is not None],
    )
