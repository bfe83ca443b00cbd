"""Evidence assembly (format 2) and the catalog (7.1-7.3), read from the written source package."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from aa_review.core.package import derive

from ._attempts import INPUT_REFS, attempt_refs
from ._ctx import Ctx
from ._loops import ITERATIONS
from ._plan import ATTEMPTS

__all__ = ["Evidence", "ExtraRef", "assemble_evidence"]

_GRADING = (
    "grading/baseline_grader_result.json",
    "grading/revised_grader_result.json",
    "grading/baseline_verifier_result.json",
    "grading/revised_verifier_result.json",
    "feedback/baseline_evaluator_feedback.json",
    "feedback/revision_plan.json",
    "signals/hillclimb_result.json",
)


@dataclass
class ExtraRef:
    """A ref a defect adds; ``cited`` puts it in every row, else it is catalogued only.

    ``forced`` overrides catalog fields (for instance ``resolves``) after derivation.
    """

    ref: str
    cited: bool = True
    forced: dict[str, Any] = field(default_factory=dict)


@dataclass
class Evidence:
    """The refs every row carries and the catalog describing them."""

    artifact_refs: list[str]
    evidence_refs: list[str]
    evidence_ids: list[str]
    catalog: list[dict[str, Any]]
    eval_refs: list[str]
    input_refs: list[str]
    loop_refs: list[str]
    task_refs: list[str]
    content_hashes: dict[str, str]
    id_of: dict[str, str]

    @property
    def visible_ids(self) -> list[str]:
        vis = {e["evidence_id"] for e in self.catalog if e["visibility"] == "visible"}
        return [i for i in self.evidence_ids if i in vis]


def _loop_refs(ctx: Ctx) -> list[str]:
    its = [it for it, _ in ITERATIONS]
    out = [f"loops/iterations/{it}/review_packet.json" for it in its] + ["loops/loop_manifest.json"]
    for name in ("reviewer_feedback", "revision_plan", "loop_decision", "diff_report"):
        out += [
            r for r in (f"loops/iterations/{it}/{name}.json" for it in its) if ctx.path(r).exists()
        ]
    return out


def _entry(ctx: Ctx, ref: str, ev_id: str, no_limit: bool = False) -> dict[str, Any]:
    path = os.path.join(ctx.root, ref)
    # Never look outside the package: an absolute or ``..`` ref is recorded, not opened.
    exists = not (os.path.isabs(ref) or ".." in ref.split("/")) and os.path.exists(path)
    resolves = exists or ref.startswith(derive.ALWAYS_RESOLVING_PREFIXES)
    content_hash = None
    if (
        exists
        and os.path.isfile(path)
        and (no_limit or os.path.getsize(path) <= derive.CONTENT_HASH_LIMIT)
    ):
        with open(path, "rb") as fh:
            content_hash = derive.content_hash_bytes(fh.read())
    return {
        "evidence_id": ev_id,
        "ref": ref,
        "evidence_type": derive.evidence_type(ref),
        "visibility": derive.visibility(ref),
        "resolves": resolves,
        "content_hash": content_hash,
        "confidence": 1.0 if resolves else 0.5,
    }


def assemble_evidence(
    ctx: Ctx,
    extras: list[ExtraRef],
    id_override: dict[str, str],
    hash_any_size: frozenset[str] = frozenset(),
) -> Evidence:
    """Collect refs in the compiler's order and catalogue them against the files on disk.

    ``hash_any_size`` names refs hashed even above the 2,000,000-byte limit (a defect).
    """
    artifact: list[str] = []
    for kind in ATTEMPTS:
        refs = attempt_refs(kind)
        for ref in [
            *refs,
            *refs,
            *refs,
            *INPUT_REFS,
            f"attempts/{kind}/actual_outputs.json",
            f"attempts/{kind}/agent_trace.json",
        ]:
            norm = derive.normalize_ref(ref)
            if norm is not None and norm not in artifact:
                artifact.append(norm)
    grading = [r for r in _GRADING if ctx.path(r).exists()]
    loops = _loop_refs(ctx)
    refs = []
    for ref in ["task/task_intake_spec.json", "rubric/rubric.json", *artifact, *grading, *loops]:
        if ref not in refs:
            refs.append(ref)
    refs += [e.ref for e in extras if e.cited]
    id_of = {r: id_override.get(r, derive.evidence_id(r)) for r in refs}
    catalog = [_entry(ctx, r, id_of[r], r in hash_any_size) for r in refs]
    for e in extras:
        if not e.cited:
            id_of[e.ref] = id_override.get(e.ref, derive.evidence_id(e.ref))
            catalog.append(_entry(ctx, e.ref, id_of[e.ref]))
    by_ref = {c["ref"]: c for c in catalog}
    for e in extras:
        by_ref[e.ref].update(e.forced)
    hashes: dict[str, str] = {}
    for r in refs:
        h = by_ref[r]["content_hash"]
        if h is not None and len(hashes) < 24:
            hashes[r] = h
    task_refs = [
        r
        for r in (
            "task/task_packet.json",
            "task/task_intake_spec.json",
            "task/raw_task_record.json",
            "source_task/task_packet.json",
        )
        if ctx.path(r).exists()
    ] or ["task/task_packet.json"]
    return Evidence(
        artifact_refs=artifact,
        evidence_refs=refs,
        evidence_ids=[id_of[r] for r in refs],
        catalog=catalog,
        eval_refs=[r for r in refs if r.startswith(("grading/", "feedback/", "signals/"))],
        input_refs=[r for r in artifact if r.startswith("input/")],
        loop_refs=loops,
        task_refs=task_refs,
        content_hashes=hashes,
        id_of=id_of,
    )
