"""Check ``contracts``: contracted artifacts against their contracts and the checklist (3.3)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aa_review.core.audits._artifact_read import ArtifactShape, is_number, json_type, read_shape
from aa_review.core.audits._checklist import evaluate_checklist
from aa_review.core.audits._context import AuditContext
from aa_review.core.audits._refrules import classify_ref
from aa_review.core.audits._registry import register
from aa_review.core.findings import Finding
from aa_review.core.package.documents import DOC_PATHS, read_json
from aa_review.core.package.layout import EC_DIR
from aa_review.core.package.model import Package

CODES = ("contract.missing_file", "contract.columns", "contract.numeric", "contract.min_rows",
         "contract.json_keys", "contract.json_types", "contract.checklist", "contract.mismatch",
         "quirk.shared_contract_path", "quirk.checklist_ref_prefix")
TRANSFER = f"{EC_DIR}/runtime_learning_package/transfer_checklist.json"
_SHAPE_KEYS = ("columns", "numeric_columns", "min_rows", "keys", "top_level_keys",
               "expected_types")


def _entries(pkg: Package) -> list[tuple[str, dict[str, Any]]]:
    """(contract path, entry) of every transfer, artifact and output contract entry."""
    out: list[tuple[str, dict[str, Any]]] = []
    tc = read_json(pkg.safe, TRANSFER, [], required=False)
    if isinstance(tc, dict) and isinstance(tc.get("artifact_contracts"), list):
        out += [(f"transfer_checklist.artifact_contracts[{i}]", c)
                for i, c in enumerate(tc["artifact_contracts"]) if isinstance(c, dict)]
    if pkg.docs.artifact_contract is not None:
        out += [(f"artifact_contract.required_artifacts[{i}]", c.model_dump(exclude_none=True))
                for i, c in enumerate(pkg.docs.artifact_contract.required_artifacts)]
    if pkg.docs.output_contract is not None:
        out += [(f"output_contract.required_outputs[{i}]", c.model_dump(exclude_none=True))
                for i, c in enumerate(pkg.docs.output_contract.required_outputs)]
    return out


def contracted_files(pkg: Package) -> list[tuple[str, str, list[tuple[str, dict[str, Any]]]]]:
    """``(artifact ref, kind, [(contract path, entry), ...])`` per contracted artifact.

    Entry *i* of the artifact contract is ``transfer_checklist.artifact_contracts[i]``;
    the output contract lists the same artifacts in the same order (format 3.3).
    """
    entries = _entries(pkg)
    tcs = [e for e in entries if e[0].startswith("transfer")]
    arts = [e for e in entries if e[0].startswith("artifact")]
    outs = [e for e in entries if e[0].startswith("output")]
    files = []
    for i, (tpath, tc) in enumerate(tcs):
        ref = tc.get("artifact_ref")
        if not isinstance(ref, str) or tc.get("read_error"):
            continue
        group = [(tpath, tc)]
        for seq in (arts, outs):
            if i < len(seq) and (i >= len(arts) or seq[i][1].get("path") == arts[i][1].get("path")):
                group.append(seq[i])
        kind = str(tc.get("format") or "").lower()
        files.append((ref, kind, group))
    return files


@register("contracts", "Contracts and checklist", CODES)
def check_contracts(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    """Each contracted artifact (transfer checklist entry i = artifact contract entry i,
    and the output contract in the same order) must exist; a CSV's header must equal the
    contract's columns, its numeric columns hold numbers in the first 5 data rows, and it
    must have min_rows data rows; a JSON object must have the contracted keys with the
    contracted types. The four pre-final checklist checks are evaluated against the files."""
    shapes: dict[str, ArtifactShape | None] = {}
    for ref, kind, group in contracted_files(pkg):
        code, why = classify_ref(pkg.safe, ref)
        if code in ("ref.absolute", "ref.escape", "ref.symlink_out"):
            shapes[ref] = None
            if ctx.on("contract.missing_file"):
                yield ctx.finding("contract.missing_file", f"the contracted artifact {ref!r} "
                                  f"is not opened: {why}", file=ref, contract=group[0][0])
            continue
        path = pkg.safe.resolve(ref)
        if not path.is_file():
            shapes[ref] = None
            if ctx.on("contract.missing_file"):
                yield ctx.finding("contract.missing_file", f"the contracted artifact {ref!r} "
                                  "is not in the package", file=ref, contract=group[0][0])
            continue
        shape = shapes[ref] = read_shape(path, kind)
        if shape.error is None:
            yield from _against(ctx, ref, shape, group)
    yield from _consistency(pkg, ctx)
    yield from evaluate_checklist(pkg, ctx, shapes)


def _against(ctx: AuditContext, ref: str, shape: ArtifactShape,
             group: list[tuple[str, dict[str, Any]]]) -> Iterator[Finding]:
    """One finding per distinct disagreement, located at the first contract that states it."""
    seen: dict[tuple[str, str], list[str]] = {}
    for cpath, c in group:
        for code, msg in _compare(shape, c):
            seen.setdefault((code, msg), []).append(cpath)
    for (code, msg), paths in seen.items():
        if ctx.on(code):
            also = f" (also {', '.join(paths[1:])})" if len(paths) > 1 else ""
            yield ctx.finding(code, msg + also, file=ref, contract=paths[0])


def _compare(shape: ArtifactShape, c: dict[str, Any]) -> Iterator[tuple[str, str]]:
    if shape.header is not None:
        cols = c.get("columns")
        if isinstance(cols, list) and shape.header != cols:
            yield "contract.columns", (f"header {shape.header} differs from the contract's "
                                       f"columns {cols}")
        for col in c.get("numeric_columns") or []:
            if col in shape.header:
                k = shape.header.index(col)
                bad = [r[k] for r in shape.sample if k < len(r) and r[k].strip()
                       and not is_number(r[k])]
                if bad:
                    yield "contract.numeric", f"numeric column {col!r} holds {bad[0]!r}"
        min_rows = c.get("min_rows")
        if isinstance(min_rows, int) and shape.data_rows < min_rows:
            yield "contract.min_rows", (f"{shape.data_rows} data row(s), the contract needs "
                                        f"at least {min_rows}")
    elif shape.kind == "json":
        value = shape.value
        if c.get("top_level_type") == "array" or isinstance(value, list):
            if c.get("top_level_type") == "array" and not isinstance(value, list):
                yield "contract.json_types", f"top level is {json_type(value)}, contract: array"
            return
        if not isinstance(value, dict):
            yield "contract.json_types", f"top level is {json_type(value)}, contract: object"
            return
        keys = c.get("keys") or c.get("top_level_keys") or []
        missing = [k for k in keys if k not in value]
        if missing:
            yield "contract.json_keys", f"missing contracted key(s) {missing}"
        for key, want in (c.get("expected_types") or {}).items():
            if key in value and json_type(value[key]) != want:
                yield "contract.json_types", (f"key {key!r} is {json_type(value[key])}, the "
                                              f"contract says {want}")


def _consistency(pkg: Package, ctx: AuditContext) -> Iterator[Finding]:
    outs = [e for e in _entries(pkg) if e[0].startswith("output")]
    by_path: dict[str, tuple[str, dict[str, Any]]] = {}
    for cpath, c in outs:
        first = by_path.setdefault(str(c.get("path")), (cpath, c))
        if first[0] != cpath and ctx.on("quirk.shared_contract_path"):
            diff = [k for k in _SHAPE_KEYS if c.get(k) != first[1].get(k)]
            if diff:
                yield ctx.finding("quirk.shared_contract_path", f"{c.get('path')!r} is also "
                                  f"contracted at {first[0]} with other {', '.join(diff)}: "
                                  "same-named baseline and revised artifacts share one "
                                  "contract path (format 12.17)",
                                  file=DOC_PATHS["output_contract"], contract=cpath)
