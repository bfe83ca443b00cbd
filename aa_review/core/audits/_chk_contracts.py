"""Check ``contracts``: the core's contract comparison (3.3), mapped to finding codes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aa_review.core.audits._checklist import evaluate_checklist
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._refrules import classify_ref
from aa_review.core.audits._registry import register
from aa_review.core.contracts import (
    COLUMN_KINDS,
    ArtifactShape,
    Diff,
    DiffKind,
    FileCheck,
)
from aa_review.core.findings import Finding, Locations
from aa_review.core.package.documents import DOC_PATHS
from aa_review.core.package.model import Package

CODES = (
    "contract.missing_file",
    "contract.columns",
    "contract.numeric",
    "contract.min_rows",
    "contract.json_keys",
    "contract.json_types",
    "contract.empty",
    "contract.checklist",
    "contract.mismatch",
    "quirk.shared_contract_path",
    "quirk.checklist_ref_prefix",
)
_SHAPE_KEYS = (
    "columns",
    "numeric_columns",
    "non_empty_columns",
    "min_rows",
    "keys",
    "top_level_keys",
    "expected_types",
    "non_empty_fields",
)
# A missing file is reported once per file, an unreadable one by the checklist
# (json_outputs_parse, csv_tsv_headers_match); every other difference has its code.
_CODE = {
    DiffKind.MISSING_COLUMN: "contract.columns",
    DiffKind.EXTRA_COLUMN: "contract.columns",
    DiffKind.COLUMN_ORDER: "contract.columns",
    DiffKind.NON_NUMERIC: "contract.numeric",
    DiffKind.TOO_FEW_ROWS: "contract.min_rows",
    DiffKind.MISSING_KEY: "contract.json_keys",
    DiffKind.WRONG_TYPE: "contract.json_types",
    DiffKind.EMPTY: "contract.empty",
}


@register("contracts", "Contracts and checklist", CODES)
def check_contracts(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Each contracted artifact (transfer checklist entry i = artifact contract entry i,
    and the output contract in the same order) must exist; a CSV's header must equal the
    contract's columns, its numeric columns hold numbers in the first 5 data rows, and it
    must have min_rows data rows, its non-empty columns a value in one of those rows; a
    JSON object must have the contracted keys with the contracted types, its non-empty
    fields a value. The four pre-final checklist checks are evaluated against the files.
    The comparison is the Contracts tab's (``aa_review.core.contracts``)."""
    checks = ctx.contract_checks()
    for check in checks:
        if check.shape is None:
            if ctx.on("contract.missing_file"):
                yield _missing(pkg, ctx, check)
            continue
        yield from _against(ctx, check, check.shape)
    yield from _consistency(pkg, ctx)
    yield from evaluate_checklist(pkg, ctx, checks)


def _missing(pkg: Package, ctx: AuditContext, check: FileCheck) -> Finding:
    ref = check.file.ref
    if check.unsafe is not None:
        msg = f"the contracted artifact {ref!r} is not opened: {classify_ref(pkg.safe, ref)[1]}"
    else:
        msg = f"the contracted artifact {ref!r} is not in the package"
    return ctx.finding("contract.missing_file", msg, file=ref, contract=check.file.contracts[0][0])


def _against(ctx: AuditContext, check: FileCheck, shape: ArtifactShape) -> Iterator[Finding]:
    """One finding per distinct disagreement, located at every contract that states it."""
    seen: dict[tuple[str, str], list[str]] = {}
    for (cpath, c), diffs in zip(check.file.contracts, check.per_contract, strict=True):
        for code_msg in _findings(shape, c, diffs):
            seen.setdefault(code_msg, []).append(cpath)
    for (code, msg), paths in seen.items():
        if ctx.on(code):
            also = f" (also {', '.join(paths[1:])})" if len(paths) > 1 else ""
            yield ctx.finding(
                code,
                msg + also,
                locations=Locations.columns(len(paths), file=check.file.ref, contract=paths),
            )


def _findings(shape: ArtifactShape, c: dict[str, Any], diffs: list[Diff]) -> list[tuple[str, str]]:
    """``(code, message)`` per difference from one contract: a header, the first bad cell of a
    numeric column and the missing keys are one finding each."""
    out: dict[tuple[str, str], None] = {}
    bad_columns: set[str | None] = set()
    missing = [d.field for d in diffs if d.kind == DiffKind.MISSING_KEY]
    for d in diffs:
        code = _CODE.get(d.kind)
        if code is None:
            continue
        if d.kind == DiffKind.NON_NUMERIC:
            if d.field in bad_columns:
                continue
            bad_columns.add(d.field)
        if d.kind in COLUMN_KINDS:
            msg = f"header {shape.header} differs from the contract's columns {c.get('columns')}"
        elif d.kind == DiffKind.MISSING_KEY:
            msg = f"missing contracted key(s) {missing}"
        else:
            msg = d.message
        out[(code, msg)] = None
    return list(out)


def _consistency(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    outs = [
        (f"output_contract.required_outputs[{i}]", c.model_dump(exclude_none=True))
        for i, c in enumerate(
            pkg.docs.output_contract.required_outputs if pkg.docs.output_contract else []
        )
    ]
    by_path: dict[str, tuple[str, dict[str, Any]]] = {}
    for cpath, c in outs:
        first = by_path.setdefault(str(c.get("path")), (cpath, c))
        if first[0] != cpath and ctx.on("quirk.shared_contract_path"):
            diff = [k for k in _SHAPE_KEYS if c.get(k) != first[1].get(k)]
            if diff:
                yield ctx.finding(
                    "quirk.shared_contract_path",
                    f"{c.get('path')!r} is also "
                    f"contracted at {first[0]} with other {', '.join(diff)}: "
                    "same-named baseline and revised artifacts share one "
                    "contract path (format 12.17)",
                    file=DOC_PATHS["output_contract"],
                    contract=cpath,
                )
