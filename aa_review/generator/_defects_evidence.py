"""Evidence, catalog, map and manifest defects (format 6, 7, 10.1)."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from typing import Any

from aa_review.core.package import derive

from ._ctx import Ctx
from ._defect_targets import Targets
from ._defects_rows import by_place, spread_rows
from ._evidence import ExtraRef
from ._hooks import Hooks
from ._jsonfast import Raw
from ._result import InjectedDefect

__all__ = ["EVIDENCE_INJECTORS", "MAP", "map_line"]

MAP = "experience_compiler/source_evidence_map.json"
_MAP_HEAD = 5  # "{", three header keys, '"evidence_catalog": ['


def map_line(facts: dict[str, Any], ref: str) -> int:
    """1-based line of a catalog entry in the evidence map."""
    return _MAP_HEAD + 1 + int(facts["catalog_refs"].index(ref))


def _record(
    hooks: Hooks,
    slot: int,
    name: str,
    ref: str,
    file: str | None,
    detail: str,
    ev_id: str | None = None,
    rows: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> None:
    """Fill the record at the end, when the catalog line (and the rows changed) are known."""

    def fin(facts: dict[str, Any]) -> None:
        eid = ev_id or derive.evidence_id(ref)
        hooks.records[slot] = InjectedDefect(
            name=name,
            file=file or MAP,
            line=None if file else map_line(facts, ref),
            evidence_id=eid,
            ref=ref,
            detail=detail,
            extra={"evidence_map_line": map_line(facts, ref), **extra},
            rows=by_place(rows or []),
        )

    hooks.finalize.append(fin)


def _hash_changed(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "input/invoices.csv"

    def post() -> None:
        with open(ctx.path(ref), "a", encoding="utf-8", newline="\n") as fh:
            fh.write(f"INV-1999,{ctx.sc.vendors[0]},2026-01-31,2026-03-02,USD,99.00\n")
        hooks.touched.add(ref)

    hooks.post.append(post)
    _record(
        hooks,
        slot,
        "hash_changed",
        ref,
        ref,
        "a row was appended after compiling; the catalog "
        "content_hash and the rows' source_content_hashes describe the old bytes",
    )


def _evidence_missing(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "input/payments.csv"

    def post() -> None:
        os.remove(ctx.path(ref))
        hooks.touched.add(ref)

    hooks.post.append(post)
    _record(
        hooks,
        slot,
        "evidence_missing",
        ref,
        ref,
        "deleted after compiling; catalogued resolves: true with a content_hash",
    )


def _oversize(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "input/reconciliation_policy.md"
    line = "- Keep every converted amount to two decimals and note the rate used.\n"
    ctx.text_hooks[ref] = lambda text: text + line * (derive.CONTENT_HASH_LIMIT // len(line) + 64)
    hooks.hash_any_size.add(ref)
    _record(
        hooks,
        slot,
        "evidence_oversize_hashed",
        ref,
        ref,
        "file is over 2,000,000 bytes yet its catalog "
        "entry and the rows' source_content_hashes hold its sha256",
    )


def _bad_encoding(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "input/reconciliation_policy.md"
    line = "- Approved by Ren\udce9e Dubois (exported from a Latin-1 editor).\n"
    before = ctx.text_hooks.get(ref)
    ctx.text_hooks[ref] = lambda text: (before(text) if before else text) + line

    def fin(facts: dict[str, Any]) -> None:
        data = ctx.path(ref).read_bytes()
        offset = data.index(b"Ren\xe9e") + 3
        hooks.records[slot] = InjectedDefect(
            name="evidence_bad_encoding",
            file=ref,
            line=data.count(b"\n", 0, offset) + 1,
            evidence_id=derive.evidence_id(ref),
            ref=ref,
            detail=f"byte {offset} is 0xE9 (Latin-1 'é'), not UTF-8; the catalog hashes the "
            "file as the compiler reads it, with U+FFFD in its place",
            extra={"byte_offset": offset, "evidence_map_line": map_line(facts, ref)},
        )

    hooks.finalize.append(fin)


def _extra_ref(
    name: str, ref: str, detail: str, cited: bool = True, forced: dict[str, Any] | None = None
) -> Callable[[Ctx, Hooks, Targets, int], None]:
    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        n = t.rows_for(name)
        if n is None:
            hooks.extras.append(ExtraRef(ref, cited=cited, forced=forced or {}))
            _record(hooks, slot, name, ref, None, detail)
            return
        # Catalogued like the others, but cited by n rows only: the ref and its id are
        # appended to those rows' evidence lists (their links follow the rows).
        hooks.extras.append(ExtraRef(ref, cited=False, forced=forced or {}))
        eid = derive.evidence_id(ref)

        def cite(row: dict[str, Any]) -> None:
            row["evidence_refs"] = [*_plain(row["evidence_refs"]), ref]
            row["source_evidence_ref_ids"] = [*_plain(row["source_evidence_ref_ids"]), eid]

        affected = spread_rows(name, hooks, t, n, cite)
        _record(
            hooks,
            slot,
            name,
            ref,
            None,
            detail.replace("every row", f"{n} row(s)").replace("all rows", f"{n} row(s)"),
            rows=affected,
        )

    return inject


def _plain(v: Any) -> Any:
    return v.value if isinstance(v, Raw) else v


def _symlink_out(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "input/fx_rates.csv"
    outside = ctx.root.parent / f"{ctx.pkg}.outside" / "fx_rates.csv"

    def post() -> None:
        outside.parent.mkdir(parents=True, exist_ok=True)
        link = ctx.path(ref)
        shutil.copyfile(link, outside)
        link.unlink()
        os.symlink(os.path.relpath(outside, link.parent), link)
        hooks.touched.add(ref)

    hooks.post.append(post)
    _record(
        hooks,
        slot,
        "symlink_out",
        ref,
        ref,
        f"replaced by a symlink to {outside} (same bytes) outside the package root",
        target=str(outside),
    )


def _link_mismatch(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    file, idx = t.row("link_mismatch")
    dropped: dict[str, Any] = {}

    def hook(link: dict[str, Any]) -> dict[str, Any]:
        dropped["id"] = link["evidence_ref_ids"][-1]
        dropped["row_id"] = link["row_id"]
        link["evidence_ref_ids"] = link["evidence_ref_ids"][:-1]
        link["visible_evidence_ref_ids"] = [
            i for i in link["visible_evidence_ref_ids"] if i != dropped["id"]
        ]
        return link

    hooks.link[(file, idx)] = hook

    def fin(facts: dict[str, Any]) -> None:
        counts = facts["counts_by_file"]
        pos = sum(n for f, n in counts.items() if f < file) + idx
        hooks.records[slot] = InjectedDefect(
            name="link_mismatch",
            file=MAP,
            line=_MAP_HEAD + len(facts["catalog_refs"]) + 3 + pos,
            row_id=dropped["row_id"],
            evidence_id=dropped["id"],
            detail="the link omits the last id of its row's source_evidence_ref_ids",
            extra={"row_file": file, "row_index": idx, "row_path": t.path(file)},
        )

    hooks.finalize.append(fin)


def _evidence_id_mismatch(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "feedback/revision_plan.json"
    wrong = "evidence_" + hashlib.sha256(("not:" + ref).encode()).hexdigest()[:16]
    hooks.id_override[ref] = wrong
    _record(
        hooks,
        slot,
        "evidence_id_mismatch",
        ref,
        None,
        f"catalogued as {wrong}, not {derive.evidence_id(ref)}; rows and links use {wrong}",
        ev_id=wrong,
        expected=derive.evidence_id(ref),
    )


def _tweak(
    name: str,
    key: str,
    fn: Callable[[Any], Any],
    file: str,
    detail: str,
    evidence_id: str | None = None,
) -> Callable[[Ctx, Hooks, Targets, int], None]:
    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        hooks.tweak[key] = fn
        hooks.records[slot] = InjectedDefect(
            name=name,
            file=file,
            evidence_id=evidence_id,
            detail=detail,
            extra={"also": ["experience_compiler/quality_report.json"]}
            if key == "coverage"
            else {},
        )

    return inject


def _coverage(cov: dict[str, int]) -> dict[str, int]:
    cov = dict(cov)
    cov["resolved_evidence_ref_count"] -= 1
    cov["unresolved_evidence_ref_count"] += 1
    return cov


def _plus_one(key: str) -> Callable[[dict[str, int]], dict[str, int]]:
    def fn(d: dict[str, int]) -> dict[str, int]:
        return {k: v + 1 if k == key else v for k, v in d.items()}

    return fn


def _counts_mismatch(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    hooks.tweak["manifest_rows_by_type"] = _plus_one("evaluation_example")
    hooks.tweak["manifest_counts_by_file"] = _plus_one("evaluation_examples.jsonl")
    hooks.records[slot] = InjectedDefect(
        name="counts_mismatch",
        file="experience_compiler/compiler_manifest.json",
        detail="rows_by_type.evaluation_example and "
        "training_row_counts_by_file[evaluation_examples.jsonl] "
        "are one more than the file holds",
        extra={"row_file": "evaluation_examples.jsonl"},
    )


_FAKE = "evidence_" + hashlib.sha256(b"orphan-list").hexdigest()[:16]


def _manifest_missing(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    rel = "experience_compiler/compiler_trace.jsonl"

    def post() -> None:
        os.remove(ctx.path(rel))
        hooks.touched.add(rel)

    hooks.post.append(post)
    hooks.records[slot] = InjectedDefect(
        name="manifest_missing_file",
        file=rel,
        detail="listed in compiler_manifest.json compiler_output_refs but deleted",
        extra={"manifest": "experience_compiler/compiler_manifest.json"},
    )


EVIDENCE_INJECTORS: dict[str, Callable[[Ctx, Hooks, Targets, int], None]] = {
    "hash_changed": _hash_changed,
    "evidence_missing": _evidence_missing,
    "evidence_oversize_hashed": _oversize,
    "evidence_bad_encoding": _bad_encoding,
    "ref_absolute": _extra_ref(
        "ref_absolute",
        "/etc/passwd",
        "absolute ref catalogued (unresolved, never opened) and cited by every row",
    ),
    "ref_dotdot": _extra_ref(
        "ref_dotdot",
        "../outside.txt",
        "ref leaving the package catalogued (unresolved, never opened) and cited by every row",
    ),
    "symlink_out": _symlink_out,
    "ref_unresolved": _extra_ref(
        "ref_unresolved",
        "attempts/revised/artifacts/exceptions_detail.csv",
        "catalogued resolves: true, confidence 1.0, but no such file; cited by every row",
        forced={"resolves": True, "confidence": 1.0},
    ),
    "uncited_evidence": _extra_ref(
        "uncited_evidence",
        "attempts/revised/stdout.txt",
        "catalogued (hashed, resolves) but cited by no row",
        cited=False,
    ),
    "hidden_cited": _extra_ref(
        "hidden_cited",
        "hidden_reference/expected_vendor_totals.csv",
        "catalogued hidden_excluded and cited by every row",
    ),
    "link_mismatch": _link_mismatch,
    "evidence_id_mismatch": _evidence_id_mismatch,
    "coverage_mismatch": _tweak(
        "coverage_mismatch",
        "coverage",
        _coverage,
        MAP,
        "coverage_statistics counts one resolved entry as unresolved (also in quality_report.json)",
    ),
    "counts_mismatch": _counts_mismatch,
    "orphan_list_mismatch": _tweak(
        "orphan_list_mismatch",
        "orphans",
        lambda o: [*o, _FAKE],
        MAP,
        f"orphan_evidence_ref_ids lists {_FAKE}, which no link cites",
        evidence_id=_FAKE,
    ),
    "manifest_missing_file": _manifest_missing,
}
