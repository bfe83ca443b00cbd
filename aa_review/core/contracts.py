"""Contracts against the real artifact files: entries, previews and their differences."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from aa_review.core.errors import UnsafeRefError
from aa_review.core.package.documents import read_json
from aa_review.core.package.layout import EC_DIR
from aa_review.core.records import ContractItem

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = ["ContractEntry", "Diff", "Preview", "contract_entries", "preview", "checklist",
           "CheckResult", "json_type"]

MAX_PREVIEW_BYTES = 4 * 1024 * 1024
# The compiler judges numeric and non-empty columns on the first 5 data rows (format 3.3):
# a non-empty column has a value in at least one of them; later rows may differ.
JUDGED_ROWS = 5
TRANSFER_CHECKLIST = f"{EC_DIR}/runtime_learning_package/transfer_checklist.json"


@dataclass(frozen=True)
class ContractEntry:
    """One required output or artifact, with the package file it was built from."""

    kind: str  # "output" | "artifact"
    index: int
    item: ContractItem
    artifact_ref: str | None

    @property
    def key(self) -> str:
        """Stable id used in selections and finding locations: ``output[0]``."""
        return f"{self.kind}[{self.index}]"

    @property
    def label(self) -> str:
        return f"{self.key} {self.item.path}"


@dataclass(frozen=True)
class Diff:
    kind: str  # missing_file, unreadable, missing_column, extra_column, non_numeric, empty_value,
    #            too_few_rows, missing_key, wrong_type, empty_field
    field: str | None
    message: str
    line: int | None = None


@dataclass
class Preview:
    entry: ContractEntry
    format: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    row_count: int = 0
    value: Any = None
    text: str = ""
    diffs: list[Diff] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diffs


def contract_entries(pkg: Package) -> list[ContractEntry]:
    """Required outputs and artifacts, paired with ``transfer_checklist.artifact_contracts``."""
    refs: list[str | None] = []
    raw = read_json(pkg.safe, TRANSFER_CHECKLIST, [], required=False)
    if isinstance(raw, dict) and isinstance(raw.get("artifact_contracts"), list):
        refs = [c.get("artifact_ref") if isinstance(c, dict) else None
                for c in raw["artifact_contracts"]]
    out: list[ContractEntry] = []
    docs = pkg.docs
    for kind, items in (("output", docs.output_contract.required_outputs
                         if docs.output_contract else []),
                        ("artifact", docs.artifact_contract.required_artifacts
                         if docs.artifact_contract else [])):
        for i, item in enumerate(items):
            ref = refs[i] if i < len(refs) and isinstance(refs[i], str) else None
            out.append(ContractEntry(kind, i, item, ref))
    return out


def json_type(value: Any) -> str:
    """The contract's type vocabulary (format 3.3)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _is_number(text: str) -> bool:
    try:
        return not math.isnan(float(text))
    except ValueError:
        return False


def preview(pkg: Package, entry: ContractEntry, max_rows: int = 200) -> Preview:
    """Read the artifact behind ``entry`` and compare it with the contract."""
    item = entry.item
    fmt = item.kind or (item.path.rsplit(".", 1)[-1] if "." in item.path else "")
    pv = Preview(entry, fmt)
    if entry.artifact_ref is None:
        pv.diffs.append(Diff("missing_file", None, "no artifact_ref for this entry in "
                             "transfer_checklist.json: the real file cannot be named"))
        return pv
    try:
        path = pkg.safe.resolve(entry.artifact_ref)
    except UnsafeRefError as exc:
        pv.diffs.append(Diff("unreadable", None, str(exc)))
        return pv
    if not path.is_file():
        pv.diffs.append(Diff("missing_file", None, f"{entry.artifact_ref} does not exist"))
        return pv
    with open(path, "rb") as fh:
        data = fh.read(MAX_PREVIEW_BYTES + 1)
    truncated = len(data) > MAX_PREVIEW_BYTES
    text = data[:MAX_PREVIEW_BYTES].decode("utf-8", errors="replace")
    if fmt in ("csv", "tsv"):
        _compare_table(pv, text, "\t" if fmt == "tsv" else ",", max_rows, truncated)
    elif fmt == "json":
        _compare_json(pv, data, truncated)
    else:
        pv.text = text
    return pv


def _compare_table(pv: Preview, text: str, delim: str, max_rows: int, truncated: bool) -> None:
    item = pv.entry.item
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    try:
        pv.header = next(reader)
    except StopIteration:
        pv.diffs.append(Diff("too_few_rows", None, "the file is empty: no header"))
        return
    cols = {c: i for i, c in enumerate(pv.header)}
    for c in item.columns or []:
        if c not in cols:
            pv.diffs.append(Diff("missing_column", c, f"column '{c}' is in the contract, not "
                                 "in the file"))
    for c in pv.header:
        if item.columns is not None and c not in item.columns:
            pv.diffs.append(Diff("extra_column", c, f"column '{c}' is in the file, not in the "
                                 "contract"))
    numeric = [c for c in item.numeric_columns or [] if c in cols]
    non_empty = [c for c in item.non_empty_columns or [] if c in cols]
    seen_value: set[str] = set()
    n = 0
    for n, row in enumerate(reader, 1):
        if n <= max_rows:
            pv.rows.append(row)
        if n > JUDGED_ROWS:
            continue
        for c in numeric:
            v = row[cols[c]] if cols[c] < len(row) else ""
            if v.strip() and not _is_number(v):
                pv.diffs.append(Diff("non_numeric", c, f"'{v}' in numeric column '{c}'", n + 1))
        for c in non_empty:
            if cols[c] < len(row) and row[cols[c]].strip():
                seen_value.add(c)
    pv.row_count = n
    for c in non_empty:
        if c not in seen_value and n:
            pv.diffs.append(Diff("empty_value", c, f"column '{c}' is empty in the first "
                                 f"{min(n, JUDGED_ROWS)} data rows; the contract says it is not"))
    if item.min_rows is not None and n < item.min_rows and not truncated:
        pv.diffs.append(Diff("too_few_rows", None, f"{n} data rows; the contract asks for at "
                             f"least {item.min_rows}"))


def _compare_json(pv: Preview, data: bytes, truncated: bool) -> None:
    item = pv.entry.item
    if truncated:
        pv.text = "(file too large to preview)"
        return
    try:
        pv.value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        pv.diffs.append(Diff("unreadable", None, f"not valid JSON: {exc.msg}", exc.lineno))
        return
    if isinstance(pv.value, list):
        if item.min_rows is not None and len(pv.value) < item.min_rows:
            pv.diffs.append(Diff("too_few_rows", None, f"{len(pv.value)} items; the contract "
                                 f"asks for at least {item.min_rows}"))
        return
    if not isinstance(pv.value, dict):
        pv.diffs.append(Diff("wrong_type", None, f"top level is {json_type(pv.value)}, "
                             "expected object"))
        return
    for k in item.keys or []:
        if k not in pv.value:
            pv.diffs.append(Diff("missing_key", k, f"key '{k}' is in the contract, not in "
                                 "the file"))
    for k, t in (item.expected_types or {}).items():
        if k in pv.value and json_type(pv.value[k]) != t and not (
                t == "number" and json_type(pv.value[k]) == "integer"):
            pv.diffs.append(Diff("wrong_type", k, f"'{k}' is {json_type(pv.value[k])}, the "
                                 f"contract says {t}"))
    for k in item.non_empty_fields or []:
        if k in pv.value and pv.value[k] in (None, "", [], {}):
            pv.diffs.append(Diff("empty_field", k, f"'{k}' is empty"))


@dataclass(frozen=True)
class CheckResult:
    check_id: str
    status: str  # pass | fail | unknown
    detail: str


def checklist(pkg: Package, previews: list[Preview] | None = None) -> list[CheckResult]:
    """The pre-final checklist, check by check, evaluated against the real files."""
    if pkg.docs.checklist is None:
        return []
    pvs = previews if previews is not None else [preview(pkg, e) for e in contract_entries(pkg)
                                                 if e.kind == "output"]
    outputs = [p for p in pvs if p.entry.kind == "output"]
    results = []
    for check in pkg.docs.checklist.checks:
        cid = check.check_id
        if cid == "required_files_exist":
            bad = [p.entry.item.path for p in outputs if any(d.kind == "missing_file"
                                                              for d in p.diffs)]
        elif cid == "json_outputs_parse":
            bad = [p.entry.item.path for p in outputs if p.format == "json" and any(
                d.kind in ("unreadable", "wrong_type") and d.field is None for d in p.diffs)]
        elif cid == "csv_tsv_headers_match":
            bad = [p.entry.item.path for p in outputs if p.format in ("csv", "tsv") and any(
                d.kind == "missing_column" for d in p.diffs)]
        elif cid == "actual_outputs_lists_files":
            bad = _actual_outputs_unlisted(pkg)
        else:
            results.append(CheckResult(cid, "unknown", "this check is not known to aa-review"))
            continue
        results.append(CheckResult(cid, "fail" if bad else "pass",
                                   ("; ".join(sorted(set(bad)))) if bad else "all hold"))
    return results


def _actual_outputs_unlisted(pkg: Package) -> list[str]:
    """Artifacts under attempts/<kind>/artifacts/ that the attempt's actual_outputs.json omits."""
    bad: list[str] = []
    attempts = pkg.root / "attempts"
    if not attempts.is_dir():
        return bad
    for d in sorted(p for p in attempts.iterdir() if p.is_dir() and not p.is_symlink()):
        raw = read_json(pkg.safe, f"attempts/{d.name}/actual_outputs.json", [], required=False)
        if not isinstance(raw, dict):
            continue
        listed: set[str] = set()
        for key in ("deliverable_refs", "artifact_refs", "files_created"):
            if isinstance(raw.get(key), list):
                listed.update(str(r).rsplit("/", 1)[-1] for r in raw[key])
        art = d / "artifacts"
        if art.is_dir():
            for f in sorted(art.iterdir()):
                if f.is_file() and f.name not in listed:
                    bad.append(f"attempts/{d.name}/artifacts/{f.name}")
    return bad
