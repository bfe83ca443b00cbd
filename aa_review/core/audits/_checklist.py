"""The pre-final verification checklist, evaluated against the package's artifacts (3.3)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from aa_review.core.audits._artifact_read import ArtifactShape
from aa_review.core.derive import normalize_ref
from aa_review.core.findings import Finding
from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.layout import EC_DIR

if TYPE_CHECKING:
    from aa_review.core.audits._context import AuditContext
    from aa_review.core.package.model import Package

__all__ = ["evaluate_checklist"]

_LISTS = ("deliverable_refs", "artifact_refs", "files_created", "files_modified")
Shapes = dict[str, ArtifactShape | None]


def _exist(pkg: Package, shapes: Shapes) -> list[str]:
    return [ref for ref, shape in shapes.items() if shape is None]


def _json_parse(pkg: Package, shapes: Shapes) -> list[str]:
    return [ref for ref, s in shapes.items()
            if s is not None and s.kind == "json" and s.error is not None]


def _headers(pkg: Package, shapes: Shapes) -> list[str]:
    from aa_review.core.audits._chk_contracts import contracted_files

    bad = []
    for ref, kind, group in contracted_files(pkg):
        s = shapes.get(ref)
        if s is None or kind not in ("csv", "tsv"):
            continue
        if s.error is not None or any(isinstance(c.get("columns"), list)
                                      and c["columns"] != s.header for _, c in group):
            bad.append(ref)
    return bad


def _lists_files(pkg: Package, shapes: Shapes) -> list[str]:
    """Contracted artifacts of an attempt that its actual_outputs.json does not list."""
    bad = []
    listed_by: dict[str, set[str]] = {}
    for ref in shapes:
        parts = ref.split("/")
        if len(parts) < 3 or parts[0] != "attempts" or parts[-1] in ("actual_outputs.json",
                                                                     "agent_trace.json"):
            continue
        outputs_ref = f"attempts/{parts[1]}/actual_outputs.json"
        if outputs_ref not in listed_by:
            doc = read_json(pkg.safe, outputs_ref, [], required=False)
            names: set[str] = set()
            if isinstance(doc, dict):
                for key in _LISTS:
                    for r in doc.get(key) or []:
                        if isinstance(r, str) and normalize_ref(r):
                            names.add(normalize_ref(r) or "")
                prim = doc.get("primary_output_ref")
                if isinstance(prim, str):
                    names.add(normalize_ref(prim) or "")
            listed_by[outputs_ref] = names
        names = listed_by[outputs_ref]
        rel = "/".join(parts[2:])
        if ref not in names and rel not in names:
            bad.append(ref)
    return bad


_CHECKS: dict[str, Callable[[Package, Shapes], list[str]]] = {
    "required_files_exist": _exist,
    "json_outputs_parse": _json_parse,
    "csv_tsv_headers_match": _headers,
    "actual_outputs_lists_files": _lists_files,
}
_FAILS = {
    "required_files_exist": "missing",
    "json_outputs_parse": "not parsing",
    "csv_tsv_headers_match": "with other headers",
    "actual_outputs_lists_files": "not listed by their attempt's actual_outputs.json",
}


def evaluate_checklist(pkg: Package, ctx: AuditContext, shapes: Shapes) -> Iterator[Finding]:
    cl = pkg.docs.checklist
    path = DOC_PATHS["checklist"]
    if cl is None:
        return
    for i, item in enumerate(cl.checks):
        fn = _CHECKS.get(item.check_id)
        if fn is None:
            continue
        failed = fn(pkg, shapes)
        if failed and ctx.on("contract.checklist"):
            yield ctx.finding("contract.checklist", f"{item.check_id} fails: {len(failed)} "
                              f"artifact(s) {_FAILS[item.check_id]}: {', '.join(failed[:5])}",
                              file=failed[0], contract=f"prefinal_verification_checklist."
                              f"checks[{i}]", key_path=f"checks[{i}]")
    yield from _refs_and_counts(pkg, ctx, cl, path)


def _refs_and_counts(pkg: Package, ctx: AuditContext, cl: Any, path: str) -> Iterator[Finding]:
    for key in ("output_contract_ref", "artifact_contract_ref"):
        ref = getattr(cl, key)
        if not isinstance(ref, str) or pkg.safe.exists(ref):
            continue
        if pkg.safe.exists(f"{EC_DIR}/{ref}"):
            if ctx.on("quirk.checklist_ref_prefix"):
                yield ctx.finding("quirk.checklist_ref_prefix", f"{key} {ref!r} lacks the "
                                  f"'{EC_DIR}/' prefix (format 12.18); it names "
                                  f"{EC_DIR}/{ref}", file=path, key_path=key)
        elif ctx.on("contract.mismatch"):
            yield ctx.finding("contract.mismatch", f"{key} {ref!r} names no contract file",
                              file=path, key_path=key)
    for key, doc, attr in (("required_output_count", pkg.docs.output_contract, "required_outputs"),
                           ("required_artifact_count", pkg.docs.artifact_contract,
                            "required_artifacts")):
        have = getattr(cl, key)
        if doc is not None and have is not None and have != len(getattr(doc, attr)) \
                and ctx.on("contract.mismatch"):
            yield ctx.finding("contract.mismatch", f"{key} is {have}, the contract lists "
                              f"{len(getattr(doc, attr))}", file=path, key_path=key)
