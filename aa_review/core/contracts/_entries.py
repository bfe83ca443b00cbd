"""Contracts against the real artifact files: which file each entry names, and the verdicts.

The Contracts tab and the ``contracts`` audit check both start from :func:`compare_package`
and :func:`checklist`, so they report the same differences for the same package.
"""

from __future__ import annotations

import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from aa_review.core.contracts._compare import COLUMN_KINDS, JUDGED_ROWS, Diff, DiffKind
from aa_review.core.contracts._filecheck import (
    ContractedFile,
    FileCheck,
    check_elsewhere,
    check_in,
)
from aa_review.core.package.derive import normalize_ref
from aa_review.core.package.documents import read_json
from aa_review.core.package.layout import EC_DIR
from aa_review.core.package.records import ContractItem
from aa_review.core.util.errors import UnsafeRefError
from aa_review.core.util.procpool import POOL_UNAVAILABLE, run_in_processes

if TYPE_CHECKING:
    from aa_review.core.package import Package

__all__ = [
    "ContractEntry",
    "ContractedFile",
    "FileCheck",
    "Preview",
    "CheckResult",
    "contract_entries",
    "contracted_files",
    "contract_path",
    "check_file",
    "compare_package",
    "preview",
    "checklist",
    "MAX_PREVIEW_BYTES",
    "TRANSFER_CHECKLIST",
    "LARGE_JSON",
]

MAX_PREVIEW_BYTES = 4 * 1024 * 1024  # of a file shown as text (formats other than CSV/JSON)
LARGE_JSON = 2 * 1024 * 1024  # a JSON artifact above this is compared in a worker process
TRANSFER_CHECKLIST = f"{EC_DIR}/runtime_learning_package/transfer_checklist.json"
_PATHS = {
    "transfer": "transfer_checklist.artifact_contracts",
    "artifact": "artifact_contract.required_artifacts",
    "output": "output_contract.required_outputs",
}


def contract_path(kind: str, index: int) -> str:
    """Where an entry sits among the contract files: ``output_contract.required_outputs[0]``."""
    return f"{_PATHS[kind]}[{index}]"


def contracted_files(pkg: Package) -> list[ContractedFile]:
    """The artifacts the contracts describe, each with its contract entries.

    Entry *i* of the artifact contract is ``transfer_checklist.artifact_contracts[i]``,
    which names the file; the output contract lists the same artifacts in the same order,
    so its entry *i* joins when its path is the artifact entry's (format 3.3). A transfer
    entry with a ``read_error`` had no shape to contract and is left out.
    """
    raw = read_json(pkg.safe, TRANSFER_CHECKLIST, [], required=False)
    transfer = raw.get("artifact_contracts") if isinstance(raw, dict) else None
    docs = pkg.docs
    arts = [
        c.model_dump(exclude_none=True)
        for c in (docs.artifact_contract.required_artifacts if docs.artifact_contract else [])
    ]
    outs = [
        c.model_dump(exclude_none=True)
        for c in (docs.output_contract.required_outputs if docs.output_contract else [])
    ]
    files = []
    for i, tc in enumerate(transfer if isinstance(transfer, list) else []):
        if (
            not isinstance(tc, dict)
            or not isinstance(tc.get("artifact_ref"), str)
            or tc.get("read_error")
        ):
            continue
        group = [(contract_path("transfer", i), tc)]
        if i < len(arts):
            group.append((contract_path("artifact", i), arts[i]))
        if i < len(outs) and (i >= len(arts) or outs[i].get("path") == arts[i].get("path")):
            group.append((contract_path("output", i), outs[i]))
        ref = tc["artifact_ref"]
        fmt = str(tc.get("format") or (ref.rsplit(".", 1)[-1] if "." in ref else "")).lower()
        files.append(ContractedFile(ref, fmt, tuple(group)))
    return files


def check_file(pkg: Package, cf: ContractedFile, keep: int = JUDGED_ROWS) -> FileCheck:
    """Open ``cf`` (never outside the package) and compare it with each of its contracts."""
    return check_in(pkg.safe, cf, keep)


def _never() -> bool:
    return False


def compare_package(
    pkg: Package, keep: int = JUDGED_ROWS, cancelled: Callable[[], bool] = _never
) -> list[FileCheck]:
    """Every contracted file against its contracts; ``keep`` data rows are kept for display.

    A JSON artifact over :data:`LARGE_JSON` bytes is parsed and compared in a worker
    process: parsing holds the interpreter, so in a thread it would freeze the window
    for as long. Its parsed value is then not kept (``shape.value_dropped``).
    """
    files = contracted_files(pkg)
    out: list[FileCheck | None] = [None] * len(files)
    large = {}
    for i, cf in enumerate(files):
        st = pkg.safe.stat(cf.ref) if cf.format == "json" else None
        if st is not None and stat.S_ISREG(st.st_mode) and st.st_size > LARGE_JSON:
            large[i] = (str(pkg.root), cf, keep)
        else:
            out[i] = check_file(pkg, cf, keep)
    if large:

        def finish(i: int, check: FileCheck) -> None:
            out[i] = check

        try:
            run_in_processes(
                check_elsewhere, large, finish, cancelled, _Stopped, workers=min(len(large), 2)
            )
        except POOL_UNAVAILABLE:  # no worker processes here: compare them in this thread
            for i, (_root, cf, _keep) in large.items():
                if out[i] is None:
                    out[i] = check_file(pkg, cf, keep)
    return [c for c in out if c is not None]


class _Stopped(Exception):
    """The caller's ``cancelled()`` turned true while large files were compared."""


@dataclass(frozen=True)
class ContractEntry:
    """One required output or artifact, with the package file it was built from."""

    kind: str  # "output" | "artifact"
    index: int
    item: ContractItem
    artifact_ref: str | None  # None: no transfer contract pairs with it, nothing to compare
    group: tuple[str, ...] = ()  # the contract paths describing the same file

    @property
    def key(self) -> str:
        """Stable id used in selections: ``output[0]``."""
        return f"{self.kind}[{self.index}]"

    @property
    def path(self) -> str:
        """Where the entry sits, as finding locations name it."""
        return contract_path(self.kind, self.index)

    @property
    def label(self) -> str:
        return f"{self.key} {self.item.path}"


def contract_entries(pkg: Package) -> list[ContractEntry]:
    """Required outputs, then required artifacts, each with the file it is compared with."""
    paired = {cpath: cf for cf in contracted_files(pkg) for cpath, _ in cf.contracts}
    docs = pkg.docs
    out: list[ContractEntry] = []
    for kind, items in (
        ("output", docs.output_contract.required_outputs if docs.output_contract else []),
        ("artifact", docs.artifact_contract.required_artifacts if docs.artifact_contract else []),
    ):
        for i, item in enumerate(items):
            cf = paired.get(contract_path(kind, i))
            out.append(
                ContractEntry(
                    kind,
                    i,
                    item,
                    cf.ref if cf else None,
                    tuple(p for p, _ in cf.contracts) if cf else (),
                )
            )
    return out


@dataclass
class Preview:
    """An entry's file as read, and its differences from every contract describing it."""

    entry: ContractEntry
    format: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # the file line of each of ``rows``
    row_count: int = 0
    value: Any = None
    text: str = ""
    diffs: list[Diff] = field(default_factory=list)
    compared: bool = True
    note: str = ""  # why it was not compared

    @property
    def ok(self) -> bool:
        return self.compared and not self.diffs

    @property
    def status(self) -> str:
        if not self.compared:
            return "not compared"
        n = len(self.diffs)
        return "ok" if self.ok else f"fail ({n} difference{'s' if n > 1 else ''})"


def preview(
    pkg: Package,
    entry: ContractEntry,
    max_rows: int = 200,
    checks: Sequence[FileCheck] | None = None,
) -> Preview:
    """The file behind ``entry`` with its differences; ``checks`` from
    :func:`compare_package` (with ``keep=max_rows``) saves reading it again."""
    item = entry.item
    fmt = item.kind or (item.path.rsplit(".", 1)[-1] if "." in item.path else "")
    if entry.artifact_ref is None:
        return Preview(
            entry,
            fmt,
            compared=False,
            note=(
                "no transfer_checklist.json artifact contract names a file for this entry, so "
                "there is nothing to compare it with (the audit does not judge it either)"
            ),
        )
    check = next((c for c in checks or () if entry.path in dict(c.file.contracts)), None)
    if check is None:
        cf = next(cf for cf in contracted_files(pkg) if entry.path in dict(cf.contracts))
        check = check_file(pkg, cf, max_rows)
    shape = check.shape
    pv = Preview(entry, check.file.format or fmt, diffs=check.diffs)
    if shape is None:
        return pv
    pv.header, pv.rows, pv.lines = (
        list(shape.header or []),
        shape.rows[:max_rows],
        shape.lines[:max_rows],
    )
    pv.row_count, pv.value = shape.data_rows, shape.value
    if shape.value_dropped:
        pv.text = (
            f"{shape.value_dropped / 1e6:,.1f} MB of JSON: compared with its contract "
            "in full, too large to show here as a tree."
        )
    if pv.format not in ("csv", "tsv", "json"):
        try:
            with pkg.safe.open(entry.artifact_ref) as fh:
                pv.text = fh.read(MAX_PREVIEW_BYTES).decode("utf-8", errors="replace")
        except (OSError, UnsafeRefError) as exc:
            pv.note = f"cannot be read: {getattr(exc, 'reason', None) or exc}"
    return pv


# check id -> what its failing artifacts are, as the window and the audit both say it
_FAILING = {
    "required_files_exist": "missing",
    "json_outputs_parse": "not parsing as an object or a declared array",
    "csv_tsv_headers_match": "with other headers",
    "actual_outputs_lists_files": "not listed by their attempt's actual_outputs.json",
}
_LISTS = ("deliverable_refs", "artifact_refs", "files_created", "files_modified")


@dataclass(frozen=True)
class CheckResult:
    """One pre-final check evaluated against the files; ``failed`` names the artifacts."""

    check_id: str
    status: str  # pass | fail | unknown
    detail: str
    failed: tuple[str, ...] = ()

    def failure(self, limit: int | None = None) -> str:
        """``2 artifact(s) missing: a.csv, b.json``, naming at most ``limit``."""
        return (
            f"{len(self.failed)} artifact(s) {_FAILING[self.check_id]}: "
            f"{', '.join(self.failed[:limit])}"
        )


def checklist(pkg: Package, checks: Sequence[FileCheck] | None = None) -> list[CheckResult]:
    """The pre-final checklist, one result per check in its order, against the real files."""
    if pkg.docs.checklist is None:
        return []
    checks = compare_package(pkg) if checks is None else checks
    results = []
    for item in pkg.docs.checklist.checks:
        cid = item.check_id
        if cid not in _FAILING:
            results.append(CheckResult(cid, "unknown", "this check is not known to aa-review"))
            continue
        failed = tuple(dict.fromkeys(_failing(pkg, cid, checks)))
        result = CheckResult(cid, "fail" if failed else "pass", "all hold", failed)
        results.append(replace(result, detail=result.failure()) if failed else result)
    return results


def _failing(pkg: Package, check_id: str, checks: Sequence[FileCheck]) -> list[str]:
    if check_id == "required_files_exist":
        return [c.file.ref for c in checks if c.shape is None]
    if check_id == "json_outputs_parse":
        return [
            c.file.ref
            for c in checks
            if c.shape is not None
            and c.file.format == "json"
            and any(
                d.kind == DiffKind.UNREADABLE or (d.kind == DiffKind.WRONG_TYPE and d.field is None)
                for d in c.diffs
            )
        ]
    if check_id == "csv_tsv_headers_match":
        return [
            c.file.ref
            for c in checks
            if c.shape is not None
            and c.file.format in ("csv", "tsv")
            and any(d.kind == DiffKind.UNREADABLE or d.kind in COLUMN_KINDS for d in c.diffs)
        ]
    return _unlisted(pkg, [c.file.ref for c in checks])


def _unlisted(pkg: Package, refs: list[str]) -> list[str]:
    """Contracted artifacts of an attempt that its actual_outputs.json does not list."""
    bad = []
    listed_by: dict[str, set[str]] = {}
    for ref in refs:
        parts = ref.split("/")
        if (
            len(parts) < 3
            or parts[0] != "attempts"
            or parts[-1] in ("actual_outputs.json", "agent_trace.json")
        ):
            continue
        outputs_ref = f"attempts/{parts[1]}/actual_outputs.json"
        if outputs_ref not in listed_by:
            listed_by[outputs_ref] = _listed(pkg, outputs_ref)
        if ref not in listed_by[outputs_ref] and "/".join(parts[2:]) not in listed_by[outputs_ref]:
            bad.append(ref)
    return bad


def _listed(pkg: Package, outputs_ref: str) -> set[str]:
    doc = read_json(pkg.safe, outputs_ref, [], required=False)
    if not isinstance(doc, dict):
        return set()
    refs = [r for key in _LISTS if isinstance(doc.get(key), list) for r in doc[key]]
    refs.append(doc.get("primary_output_ref"))
    return {n for r in refs if isinstance(r, str) and (n := normalize_ref(r))}
