"""Check ``quirks``: known compiler behaviour (format 12) recognised and explained, not blamed."""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from typing import Any

import numpy as np
import orjson

from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._files import Wants
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.layout import EC_DIR
from aa_review.core.package.model import Package
from aa_review.core.package.safepath import printable
from aa_review.core.util.errors import UnsafeRefError

CODES = (
    "quirk.tdo_compiler_id",
    "quirk.trajectory_traces_ref",
    "quirk.dedup_counts",
    "quirk.duplicate_row_rejected",
    "quirk.uncatalogued_grading",
    "quirk.bogus_list_ref",
    "quirk.canonical_skill_refs",
)
_TRAJ = f"{EC_DIR}/training_time_package/trajectory_rollouts.jsonl"
_ROUNDS = f"{EC_DIR}/compiler_rounds.jsonl"
_REJECTED = f"{EC_DIR}/reports/rejected_rows.jsonl"
_DUPLICATE = b'"rejection_reason": "duplicate_row_id'
_DUPLICATES = Wants(needles=(_DUPLICATE,))
_ENV_SPEC = f"{EC_DIR}/environment/environment_spec.json"
_SKILL = f"{EC_DIR}/skill_pack/canonical_skill.json"
_FIXED_GRADING = (
    "grading/baseline_grader_result.json",
    "grading/revised_grader_result.json",
    "grading/baseline_verifier_result.json",
    "grading/revised_verifier_result.json",
    "feedback/baseline_evaluator_feedback.json",
    "feedback/revision_plan.json",
)


def _jsonl(pkg: Package, rel: str, needle: bytes = b"") -> Iterator[tuple[int, Any]]:
    """Parsed lines of a JSONL file; with ``needle``, only lines containing it are parsed."""
    try:
        with pkg.safe.open(rel) as fh:
            for n, line in enumerate(fh, 1):
                if line.strip() and needle in line:
                    try:
                        yield n, orjson.loads(line)
                    except orjson.JSONDecodeError:
                        continue
    except (OSError, UnsafeRefError):
        return


@register("quirks", "Compiler quirks", CODES, reads={_REJECTED: _DUPLICATES})
def check_quirks(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Recognises behaviour of compiler 0.2.1 that looks wrong but is how every package is
    made (format 12), so that a maintainer can tell a compiler bug from tampering: the tdo_
    compiler id in the report, the absent traces file trajectory rows cite, de-dup losses,
    rows rejected as duplicate ids, grading files outside the fixed names, str(list) refs
    in environment_spec.json, refs where canonical_skill expects ids."""
    m, r = pkg.docs.manifest, pkg.docs.report
    if (
        m
        and r
        and r.compiler_id
        and m.compiler_id
        and r.compiler_id.startswith("tdo_")
        and r.compiler_id.replace("tdo_", "compiler_", 1) == m.compiler_id
        and ctx.on("quirk.tdo_compiler_id")
    ):
        yield ctx.finding(
            "quirk.tdo_compiler_id",
            f"compiler_report.compiler_id keeps "
            f"{r.compiler_id}; the manifest has {m.compiler_id} (format 12.2): the "
            "same compile",
            file=DOC_PATHS["report"],
            key_path="compiler_id",
        )
    for n, row in _jsonl(pkg, _TRAJ):
        ref = row.get("trajectory_ref") if isinstance(row, dict) else None
        if (
            isinstance(ref, str)
            and not pkg.safe.exists(ref)
            and ctx.on("quirk.trajectory_traces_ref")
        ):
            yield ctx.finding(
                "quirk.trajectory_traces_ref",
                f"trajectory rows always cite {ref}, which the compiler never writes (format 12.4)",
                file=_TRAJ,
                line=n,
                ref=ref,
                key_path="trajectory_ref",
            )
            break
    yield from _dedup(pkg, ctx)
    yield from _grading(pkg, ctx)
    spec = read_json(pkg.safe, _ENV_SPEC, [], required=False)
    if ctx.on("quirk.bogus_list_ref"):
        for path, s in _strings(spec, ""):
            if s.startswith(("['", '["')) and s.endswith("]"):
                yield ctx.finding(
                    "quirk.bogus_list_ref",
                    f"{s!r} is the str() of a list step "
                    "field, appended to a ref list (format 12.8); not a file",
                    file=_ENV_SPEC,
                    key_path=path,
                )
    skill = read_json(pkg.safe, _SKILL, [], required=False)
    ids = skill.get("evidence_reference_ids") if isinstance(skill, dict) else None
    if (
        isinstance(ids, list)
        and any(isinstance(i, str) and not i.startswith("evidence_") for i in ids)
        and ctx.on("quirk.canonical_skill_refs")
    ):
        yield ctx.finding(
            "quirk.canonical_skill_refs",
            "evidence_reference_ids holds refs, not evidence ids (format 12.18)",
            file=_SKILL,
            key_path="evidence_reference_ids",
        )


def _dedup(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    stated = (pkg.docs.manifest.rows_by_type if pkg.docs.manifest else None) or {}
    last: tuple[int, Any] | None = None
    for n, row in _jsonl(pkg, _ROUNDS):
        last = (n, row)
    if last is not None and isinstance(last[1], dict) and ctx.on("quirk.dedup_counts"):
        acc = last[1].get("accepted_counts") or {}
        over = sorted(t for t, c in acc.items() if isinstance(c, int) and c > stated.get(t, 0))
        if over:
            yield ctx.finding(
                "quirk.dedup_counts",
                f"the last round accepted more "
                f"{', '.join(over)} rows than rows_by_type keeps: de-dup drops "
                "same-numbered steps of later attempts silently (format 12.9)",
                file=_ROUNDS,
                line=last[0],
                key_path="accepted_counts",
            )
    found = _lines_with(pkg, ctx, _REJECTED, _DUPLICATES)
    if found and ctx.on("quirk.duplicate_row_rejected"):
        yield ctx.finding(
            "quirk.duplicate_row_rejected",
            f"{len(found)} row(s) rejected as "
            "duplicate ids: several refs of one multimodal step share a seed "
            "(format 12.10)",
            locations=Locations.columns(
                len(found),
                file=_REJECTED,
                line=[n for n, _ in found],
                row_id=[rid for _, rid in found],
            ),
        )


_BLOCK = 16 * 1024 * 1024
# A search holds the interpreter, page faults of a file not yet in memory included: 1 MB
# at a time keeps each hold within a frame.
_FIND_BLOCK = 1024 * 1024


def _newlines(mm: mmap.mmap, start: int, end: int) -> int:
    """Newlines in ``mm[start:end]``, counted a block at a time (no copy of the file)."""
    n = 0
    for a in range(start, end, _BLOCK):
        view = np.frombuffer(mm, dtype=np.uint8, count=min(_BLOCK, end - a), offset=a)
        n += int(np.count_nonzero(view == 10))
        del view  # the mmap cannot close while a view of it lives
    return n


def _find(mm: mmap.mmap, needle: bytes, start: int) -> int:
    """``mm.find(needle, start)``, a block at a time: one search through hundreds of MB
    would hold the interpreter (and freeze the window) until it ends."""
    size = len(mm)
    while start < size:
        stop = min(start + _FIND_BLOCK + len(needle), size)
        at = mm.find(needle, start, stop)
        if at >= 0 or stop == size:
            return at
        start = stop - len(needle) + 1  # a needle across the block's end is found next
    return -1


def _lines_with(
    pkg: Package, ctx: AuditContext, rel: str, wants: Wants
) -> list[tuple[int, str | None]]:
    """(line number, row id) of every line holding the needle of ``wants``.

    The rejected-rows file can be hundreds of MB: it is searched, not parsed (only the
    lines found are), and whether it holds the needle at all comes from the hashing read
    when the audit hashes it.
    """
    scan = ctx.byte_scan(rel, wants)
    if scan is None:
        return []
    needle = wants.needles[0]
    count, at, line_no = scan.needles[needle]
    if not count:
        return []
    out: list[tuple[int, str | None]] = []
    try:
        with pkg.safe.open(rel) as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            prev = at
            while at >= 0:
                line_no += _newlines(mm, prev, at)
                start = mm.rfind(b"\n", 0, at) + 1
                end = mm.find(b"\n", at)
                try:
                    row = orjson.loads(mm[start : end if end >= 0 else len(mm)])
                except orjson.JSONDecodeError:
                    row = None
                rid = row.get("row_id") if isinstance(row, dict) else None
                out.append((line_no, str(rid) if rid else None))
                prev, at = at, _find(mm, needle, end if end >= 0 else len(mm))
    except (OSError, ValueError, UnsafeRefError):
        return out
    return out


def _grading(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    if not ctx.on("quirk.uncatalogued_grading"):
        return
    catalogued = {e.ref for e in pkg.catalog}
    for folder in ("grading", "feedback"):
        for name in pkg.safe.regular_files_in(folder):
            rel = f"{folder}/{name}"
            if name.endswith(".json") and rel not in catalogued and rel not in _FIXED_GRADING:
                rel = printable(rel)
                yield ctx.finding(
                    "quirk.uncatalogued_grading",
                    f"{rel} is not catalogued: only "
                    "the fixed baseline_/revised_ names are (format 12.14)",
                    file=rel,
                )


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")
