"""Row-level defects: one row of a row file changed, everything derivable recomputed around it."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Any

from aa_review.core.package import derive

from ._copies import copy_pairs
from ._ctx import Ctx
from ._defect_targets import Targets
from ._hooks import Hooks
from ._jsonfast import Raw, content_hash
from ._result import InjectedDefect

__all__ = ["ROW_INJECTORS", "copies_of", "spread_rows", "by_place"]

_TEXT = ("expected_output", "state_change", "observed_environment_response")
# The validator checks input/target on these types only (format 8.8).
CORE_FILES = frozenset(
    {
        "training_examples.jsonl",
        "evaluation_examples.jsonl",
        "verifier_examples.jsonl",
        "reward_model_rows.jsonl",
    }
)
HUGE_BYTES = 50 * 1024 * 1024


def _plain(v: Any) -> Any:
    return v.value if isinstance(v, Raw) else v


def copies_of(primary: str) -> list[str]:
    """Package-relative copies of a primary file."""
    return [dst for dst, src in copy_pairs() if src == primary]


def _reid(row: dict[str, Any]) -> str:
    rid = derive.row_id(
        row["data_type"],
        row["source_task_id"],
        row.get("source_trace_id"),
        row.get("source_step_ids"),
        _plain(row.get("source_attempt_ids")),
        _plain(row.get("input")),
        _plain(row.get("target")),
        row["tdo_round"],
    )
    _set_id(row, rid)
    return rid


def _set_id(row: dict[str, Any], rid: str) -> None:
    if "pair_id" in row:
        row["pair_id"] = rid
    row["row_id"] = rid


def _flip(hexish: str) -> str:
    return hexish[:-1] + ("0" if hexish[-1] != "0" else "1")


def spread_rows(
    name: str,
    hooks: Hooks,
    targets: Targets,
    n: int,
    mutate: Callable[[dict[str, Any]], Any],
    **choose: Any,
) -> list[dict[str, Any]]:
    """Change ``n`` rows no other defect uses; the list returned fills, as they are written,
    with each row's ``{"file", "line", "row_id"}``."""
    affected: list[dict[str, Any]] = []
    for _ in range(n):
        file, idx = targets.row(name, **choose)
        path = targets.path(file)

        def hook(
            row: dict[str, Any], path: str = path, line: int = idx + 1
        ) -> list[dict[str, Any]]:
            mutate(row)
            rid = row.get("row_id") or row.get("pair_id")
            affected.append({"file": path, "line": line, "row_id": rid or None})
            return [row]

        hooks.row[(file, idx)] = hook
    return affected


def by_place(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["file"], r["line"]))


def _row_defect(
    name: str,
    hooks: Hooks,
    targets: Targets,
    slot: int,
    mutate: Callable[[dict[str, Any]], str],
    fixed_only: bool = False,
    no_pairs: bool = False,
    files: frozenset[str] | None = None,
    record: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Register a hook that changes one row (or ``targets.rows_for(name)`` rows); ``mutate``
    returns the record's detail sentence."""
    n = targets.rows_for(name)
    if n is not None:
        details: list[str] = []
        affected = spread_rows(
            name,
            hooks,
            targets,
            n,
            lambda row: details.append(mutate(row)),
            fixed_only=fixed_only,
            no_pairs=no_pairs,
            files=files,
        )

        def fin(facts: dict[str, Any]) -> None:
            rows = by_place(affected)
            hooks.records[slot] = InjectedDefect(
                name=name,
                file=rows[0]["file"],
                line=rows[0]["line"],
                row_id=rows[0]["row_id"],
                detail=f"in {n} rows: {details[0]}",
                extra=dict(extra or {}),
                rows=rows,
                **(record or {}),
            )

        hooks.finalize.append(fin)
        return
    file, idx = targets.row(name, fixed_only, no_pairs, files)
    path = targets.path(file)

    def hook(row: dict[str, Any]) -> list[dict[str, Any]]:
        before = row.get("row_id") or row.get("pair_id")
        detail = mutate(row)
        hooks.records[slot] = InjectedDefect(
            name=name,
            file=path,
            line=idx + 1,
            row_id=row.get("row_id") or row.get("pair_id") or before,
            detail=detail,
            extra={
                "row_file": file,
                "row_index": idx,
                "copies": copies_of(path),
                "compiled_row_id": before,
                **(extra or {}),
            },
            **(record or {}),
        )
        return [row]

    hooks.row[(file, idx)] = hook


def _missing_row_id(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        del row["row_id"]
        return "row_id removed; row_content_hash recomputed without it; the link's row_id is empty"

    _row_defect("missing_row_id", hooks, t, slot, m, fixed_only=True, no_pairs=True)


def _missing_key(name: str, key: str) -> Callable[[Ctx, Hooks, Targets, int], None]:
    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        def m(row: dict[str, Any]) -> str:
            del row[key]
            return f"{key} removed; row_content_hash recomputed"

        _row_defect(name, hooks, t, slot, m)

    return inject


def _missing_evidence_ids(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        row["evidence_refs"] = []
        row["source_evidence_ref_ids"] = []
        row["source_content_hashes"] = {}
        return (
            "evidence_refs, source_evidence_ref_ids and source_content_hashes emptied; "
            "link has no ids; row_content_hash recomputed"
        )

    _row_defect("missing_evidence_ids", hooks, t, slot, m)


def _missing_core(key: str) -> Callable[[Ctx, Hooks, Targets, int], None]:
    def inject(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
        def m(row: dict[str, Any]) -> str:
            row[key] = {}
            _reid(row)
            return f"{key} set to {{}}; row_id (new seed) and row_content_hash recomputed"

        _row_defect(f"missing_core_{key}", hooks, t, slot, m, files=CORE_FILES)

    return inject


def _schema_version(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    other = "aa-training-row-v0.1" if ctx.v02 else "aa-training-row-v0.2"

    def m(row: dict[str, Any]) -> str:
        row["schema_version"] = other
        return f"schema_version {other}; row_content_hash recomputed"

    _row_defect("schema_version_mismatch", hooks, t, slot, m)


def _row_id_mismatch(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        _set_id(row, _flip(row["row_id"]))
        return "last hex digit of the id changed; row_content_hash recomputed over the stored id"

    _row_defect("row_id_mismatch", hooks, t, slot, m, fixed_only=True)


def _row_hash_mismatch(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        row["row_content_hash"] = _flip(content_hash(row))
        return "last hex digit of row_content_hash changed"

    _row_defect("row_hash_mismatch", hooks, t, slot, m)


def _text_field(row: dict[str, Any]) -> str:
    return next(k for k in _TEXT if isinstance(row.get(k), str))


def _private_path(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        key = _text_field(row)
        row[key] = row[key] + " (see /home/alice/recon/notes.txt)"
        return f"{key} names /home/alice/recon/notes.txt; row_content_hash recomputed"

    _row_defect("private_path", hooks, t, slot, m)


def _secret_token(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    rnd = random.Random(f"secret:{ctx.seed}")
    alnum = string.ascii_letters + string.digits
    kind = ("api_key", "bearer_token", "private_key")[ctx.seed % 3]
    if kind == "api_key":
        secret = "OPENAI_API_KEY=sk-proj-" + "".join(rnd.choice(alnum) for _ in range(48))
    elif kind == "bearer_token":
        secret = "Authorization: Bearer " + "".join(rnd.choice(alnum) for _ in range(40))
    else:
        body = "".join(rnd.choice(alnum) for _ in range(64))
        secret = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"

    def m(row: dict[str, Any]) -> str:
        key = _text_field(row)
        row[key] = row[key] + " " + secret
        return f"{key} ends with a {kind.replace('_', ' ')}; row_content_hash recomputed"

    _row_defect("secret_token", hooks, t, slot, m, extra={"kind": kind})


def _forbidden_key(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        row["task_lineage"] = {**_plain(row["task_lineage"]), "buyer": "Northwind Traders"}
        return "task_lineage.buyer added; row_content_hash recomputed"

    _row_defect("forbidden_key", hooks, t, slot, m)


def _huge_line(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    def m(row: dict[str, Any]) -> str:
        key = "scoring_hint" if "scoring_hint" in row else "state_change"
        unit = "Ground every claim in the listed evidence before scoring. "
        row[key] = unit * (HUGE_BYTES // len(unit))
        return f"{key} is {len(row[key])} characters; row_content_hash recomputed"

    _row_defect("huge_line", hooks, t, slot, m)


def _orphan_evidence_id(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    ref = "attempts/revised/artifacts/review_notes.md"
    ev_id = derive.evidence_id(ref)

    def m(row: dict[str, Any]) -> str:
        row["evidence_refs"] = [*_plain(row["evidence_refs"]), ref]
        row["source_evidence_ref_ids"] = [*_plain(row["source_evidence_ref_ids"]), ev_id]
        return (
            f"cites {ref} ({ev_id}), absent from the catalog; link and orphan list follow; "
            "row_content_hash recomputed"
        )

    _row_defect("orphan_evidence_id", hooks, t, slot, m, record={"evidence_id": ev_id, "ref": ref})


def _duplicate_row_id(ctx: Ctx, hooks: Hooks, t: Targets, slot: int) -> None:
    file = t.file("duplicate_row_id")
    path = t.path(file)

    def hook(row: dict[str, Any]) -> list[dict[str, Any]]:
        row["row_content_hash"] = content_hash(row)
        rid = row.get("row_id") or row.get("pair_id")
        hooks.records[slot] = InjectedDefect(
            name="duplicate_row_id",
            file=path,
            line=2,
            row_id=rid,
            detail="row written twice (lines 1 and 2, same bytes); counts and links include both",
            extra={"row_file": file, "lines": [1, 2], "copies": copies_of(path)},
        )
        return [row, dict(row)]

    hooks.row[(file, 0)] = hook


ROW_INJECTORS: dict[str, Callable[[Ctx, Hooks, Targets, int], None]] = {
    "missing_row_id": _missing_row_id,
    "duplicate_row_id": _duplicate_row_id,
    "missing_lineage": _missing_key("missing_lineage", "task_lineage"),
    "missing_domain": _missing_key("missing_domain", "domain"),
    "missing_evidence_ids": _missing_evidence_ids,
    "missing_core_input": _missing_core("input"),
    "missing_core_target": _missing_core("target"),
    "schema_version_mismatch": _schema_version,
    "row_id_mismatch": _row_id_mismatch,
    "row_hash_mismatch": _row_hash_mismatch,
    "private_path": _private_path,
    "forbidden_key": _forbidden_key,
    "huge_line": _huge_line,
    "orphan_evidence_id": _orphan_evidence_id,
    "secret_token": _secret_token,
}
