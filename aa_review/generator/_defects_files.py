"""File-level defects: contract drift, stale copies, broken, cut or emptied row files."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ._attempts import artifact_texts
from ._ctx import Ctx
from ._defect_targets import Targets
from ._defects_rows import copies_of
from ._hooks import Hooks
from ._result import InjectedDefect

__all__ = ["FILE_INJECTORS"]


def _contract_drift(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    texts = artifact_texts(ctx, "revised")
    if ctx.seed % 2 == 0:
        rel = "attempts/revised/artifacts/vendor_totals.csv"
        ctx.text_hooks[rel] = lambda text: "".join(
            line.rsplit(",", 1)[0] + "\n" for line in text.splitlines()
        )
        column, detail, line = "balance_usd", "the CSV lost the contract column balance_usd", 1
    else:
        rel = "attempts/revised/artifacts/reconciliation_report.csv"

        def numeric(text: str) -> str:
            lines = text.splitlines()
            cells = lines[2].split(",")
            cells[5] = "n/a"
            lines[2] = ",".join(cells)
            return "\n".join(lines) + "\n"

        ctx.text_hooks[rel] = numeric
        column, detail, line = (
            "paid_usd",
            "numeric contract column paid_usd holds n/a in data row 2",
            3,
        )
    # The contracts describe the deliverable as it was when compiled.
    ctx.state.setdefault("contract_view", {})[rel] = texts[rel]
    hooks.records[slot] = InjectedDefect(
        name="contract_drift",
        file=rel,
        line=line,
        ref=rel,
        detail=detail,
        extra={
            "column": column,
            "contracts": [
                "experience_compiler/runtime_learning_package/output_contract.json",
                "experience_compiler/runtime_learning_package/artifact_contract.json",
                "experience_compiler/runtime_learning_package/transfer_checklist.json",
            ],
        },
    )


def _copy_differs(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    rel = "experience_compiler/evals/evaluation_examples.jsonl"
    src = "experience_compiler/training_time_package/evaluation_examples.jsonl"

    def post() -> None:
        lines = ctx.path(src).read_bytes().splitlines(keepends=True)
        ctx.path(rel).write_bytes(b"".join(lines[:-1]))
        hooks.touched.add(rel)

    hooks.post.append(post)
    hooks.records[slot] = InjectedDefect(
        name="copy_differs",
        file=rel,
        detail="stale copy: the source's last row is missing",
        extra={"source": src},
    )


def _row_file_defect(
    name: str, ctx: Ctx, hooks: Hooks, t: Targets, slot: int
) -> tuple[str, str, list[str]]:
    file = t.file(name)
    path = t.path(file)
    return file, path, [path, *copies_of(path)]


def _line_hook(
    name: str, change: Callable[[str], bytes], detail: str, where: Callable[[int], int]
) -> Callable[[Ctx, Hooks, Targets, int], None]:
    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        file, path, paths = _row_file_defect(name, ctx, hooks, t, slot)
        idx = where(t.n[file])

        def hook(line: str) -> bytes:
            rid = line.split('"row_id": "', 1)[1].split('"', 1)[0]
            hooks.records[slot] = InjectedDefect(
                name=name,
                file=path,
                line=idx + 1,
                row_id=rid,
                detail=detail,
                extra={"row_file": file, "copies": paths[1:]},
            )
            return change(line)

        hooks.line[(file, idx)] = hook

    return inject


def _bad_bytes(line: str) -> bytes:
    data = line.encode("utf-8")
    for key in (b'"scoring_hint": "', b'"state_change": "', b'"data_type": "'):
        at = data.find(key)
        if at >= 0:
            at += len(key)
            return data[:at] + b"R\xe9vis\xe9 \xff" + data[at:]
    return data + b"\xff"


def _last_line(path: Path) -> tuple[int, bytes]:
    """Offset and bytes (without the newline) of a file's last line, reading from the end."""
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(0, size - 1))
        end = size - 1 if size and fh.read(1) == b"\n" else size
        pos, line_start = end, 0
        while pos > 0:
            lo = max(0, pos - (1 << 20))
            fh.seek(lo)
            cut = fh.read(pos - lo).rfind(b"\n")
            if cut >= 0:
                line_start = lo + cut + 1
                break
            pos = lo
        fh.seek(line_start)
        return line_start, fh.read(end - line_start)


def _cut_files(name: str, empty: bool, detail: str) -> Callable[[Ctx, Hooks, Targets, int], None]:
    """Cut a row file (and its copies) after compiling: to nothing, or mid-way through its
    last line; big files are cut in place, never read whole."""

    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        file, path, paths = _row_file_defect(name, ctx, hooks, t, slot)

        def post() -> None:
            start, last = _last_line(ctx.path(path))
            key = b'"row_id": "'
            rid = last.split(key, 1)[1].split(b'"', 1)[0].decode() if key in last else None
            size = 0 if empty else start + len(last) // 2
            for p in paths:
                os.truncate(ctx.path(p), size)
                hooks.touched.add(p)
            hooks.records[slot] = InjectedDefect(
                name=name,
                file=path,
                line=None if empty else t.n[file],
                row_id=rid,
                detail=detail,
                extra={"row_file": file, "copies": paths[1:]},
            )

        hooks.post.append(post)

    return inject


FILE_INJECTORS: dict[str, Callable[[Ctx, Hooks, Targets, int], None]] = {
    "contract_drift": _contract_drift,
    "copy_differs": _copy_differs,
    "malformed_line": _line_hook(
        "malformed_line",
        lambda line: line[: len(line) // 2].encode("utf-8"),
        "the line is cut in half (not JSON)",
        lambda n: n // 2,
    ),
    "bad_encoding": _line_hook(
        "bad_encoding",
        _bad_bytes,
        "the line holds latin-1 bytes (not UTF-8) inside a text value",
        lambda n: 0,
    ),
    "truncated_file": _cut_files(
        "truncated_file", False, "the file ends in the middle of its last line"
    ),
    "empty_file": _cut_files("empty_file", True, "the file is empty; the manifest counts its rows"),
}
