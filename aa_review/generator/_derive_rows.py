"""Row changes of a derived package: which rows, and the row files written again."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from aa_review.core.diff._jsonvalue import join_key
from aa_review.core.package import derive
from aa_review.core.package.layout import ROW_FILES

from ._derive_evidence import EvidenceEdits
from ._derive_spec import ChangeRecord, ChangeSpec

__all__ = ["RowPlan", "plan_rows", "rewrite_rows", "Row"]

Key = tuple[int, int]  # (file code in ROW_FILES, 0-based line index)
_ID_FIELDS = frozenset({"row_id", "pair_id"})


@dataclass
class RowPlan:
    """Rows chosen for each change, by (file code, line index) of the source package."""

    lines: list[int]
    remove: set[Key] = field(default_factory=set)
    change: set[Key] = field(default_factory=set)
    move_end: set[Key] = field(default_factory=set)
    to_other: dict[Key, int] = field(default_factory=dict)
    reformat: set[Key] = field(default_factory=set)
    add: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)  # before, template, k
    stash: dict[int, list[tuple[Key, bytes]]] = field(default_factory=dict)  # for target files


@dataclass
class Row:
    """One row of a derived file: its line, and what ``summarize`` made of its value."""

    line: bytes
    value: Any


def _split(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _moves_hold(keys: list[int], removed: set[int], gone: set[int], n: int) -> bool:
    """Moving the rows at ``keys`` (sorted) to the end is unambiguous: every longest run of
    rows kept in order leaves out exactly them (rows after each outnumber the moved)."""
    stay = [i for i in range(n) if i not in removed and i not in gone and i not in keys]
    return all(sum(1 for i in stay if i > r) > len(keys) - k for k, r in enumerate(keys))


def plan_rows(
    root: Path, spec: ChangeSpec, rng: random.Random, read: Callable[[str], bytes | None]
) -> RowPlan:
    """Choose the rows of every change, disjoint, deterministically."""
    datas = [read(rel) for rel, _ in ROW_FILES]
    plan = RowPlan(lines=[len(_split(d)) if d else 0 for d in datas])
    n = plan.lines
    pool = [(f, i) for f in range(len(n)) for i in range(n[f])]
    rng.shuffle(pool)
    taken: set[Key] = set()

    def take(count: int, ok: Callable[[Key], bool] = lambda k: True) -> list[Key]:
        out: list[Key] = []
        for k in pool:
            if len(out) >= count:
                break
            if k not in taken and ok(k):
                out.append(k)
                taken.add(k)
        return out

    per_file: dict[int, int] = {}

    def movable(k: Key) -> bool:
        f, i = k
        if n[f] < 8 or i >= n[f] // 2 or per_file.get(f, 0) >= n[f] // 4:
            return False
        per_file[f] = per_file.get(f, 0) + 1
        return True

    plan.move_end = set(take(spec.rows_moved, movable))
    plan.remove = set(take(spec.rows_removed))
    others = list(range(len(n)))
    for key in take(spec.rows_to_other_file):
        target = rng.choice([g for g in others if g != key[0]])
        plan.to_other[key] = target
    plan.change = set(take(spec.rows_changed))
    plan.reformat = set(take(spec.rows_reformatted))
    # Drop moves that removals made ambiguous (rare: only in small files).
    for f in {k[0] for k in plan.move_end}:
        keys = sorted(i for g, i in plan.move_end if g == f)
        removed = {i for g, i in plan.remove if g == f}
        gone = {i for (g, i) in plan.to_other if g == f}
        while keys and not _moves_hold(keys, removed, gone, n[f]):
            plan.move_end.discard((f, keys.pop()))
    with_rows = [f for f in range(len(n)) if n[f]]
    for k in range(spec.rows_added):
        if not with_rows:
            break
        f = rng.choice(with_rows)
        plan.add.setdefault(f, []).append((rng.randrange(n[f] + 1), rng.randrange(n[f]), k))
    for (f, i), g in plan.to_other.items():
        line = _split(datas[f] or b"")[i]
        plan.stash.setdefault(g, []).append(((f, i), line))
    return plan


def _row_id(row: dict[str, Any] | None) -> str:
    if not isinstance(row, dict):
        return ""
    return str(row.get("row_id") or row.get("pair_id") or "")


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return row if isinstance(row, dict) else None


def _bump(value: Any, path: str) -> tuple[Any, str]:
    """A different value of the same JSON type, and the path at which it differs."""
    if isinstance(value, bool):
        return not value, path
    if isinstance(value, int):
        return value + 1, path
    if isinstance(value, float):
        return round(value + 0.01, 6) if round(value + 0.01, 6) != value else value + 1.0, path
    if isinstance(value, str):
        return value + " (revised)", path
    if isinstance(value, list):
        return [*value, "revised"], path
    if isinstance(value, dict):
        return {**value, "revised": True}, join_key(path, "revised")
    return "revised", path


def _edit(row: dict[str, Any], dotted: str) -> str | None:
    parts = dotted.split(".")
    parent: Any = row
    path = ""
    for p in parts[:-1]:
        parent = parent.get(p) if isinstance(parent, dict) else None
        path = join_key(path, p)
        if not isinstance(parent, dict):
            return None
    leaf = parts[-1]
    new, where = _bump(parent.get(leaf), join_key(path, leaf))
    parent[leaf] = new
    return where


def _rehash(row: dict[str, Any], paths: list[str]) -> None:
    old = row.get("row_content_hash")
    if isinstance(old, str):
        new = derive.row_content_hash(row)
        if new != old:
            row["row_content_hash"] = new
            paths.append("row_content_hash")


def _new_row(
    template: dict[str, Any], k: int, task_id: str | None, edits: EvidenceEdits
) -> dict[str, Any] | None:
    """A copy of ``template`` with a new target (or step), hence a new id and hash."""
    row: dict[str, Any] = json.loads(json.dumps(template))
    if edits:
        edits.apply(row)
    target = row.get("target")
    if isinstance(target, dict):
        row["target"] = {**target, "variant": k + 1}
    elif isinstance(target, str):
        row["target"] = f"{target} (variant {k + 1})"
    else:
        row["source_step_ids"] = [100000 + k]
    rid = derive.row_id_of(row, task_id)
    if rid is None:
        return None
    old = _row_id(template)
    for key in _ID_FIELDS:
        if key in row:
            row[key] = rid
    for key, value in list(row.items()):  # ids derived from the row id (rollout ids...)
        if isinstance(value, str) and old and value.endswith(old) and key not in _ID_FIELDS:
            row[key] = value[: -len(old)] + rid
    if isinstance(row.get("row_content_hash"), str):
        row["row_content_hash"] = derive.row_content_hash(row)
    return row


def rewrite_rows(
    plan: RowPlan,
    spec: ChangeSpec,
    edits: EvidenceEdits,
    rec: ChangeRecord,
    read: Callable[[str], bytes | None],
    task_id: str | None,
    summarize: Callable[[str, dict[str, Any]], Any] | None,
) -> Iterator[tuple[int, list[Row], bool]]:
    """For each row file in ROW_FILES order: its rows as derived, and whether it changed.

    ``summarize(file name, row)``, when given, is called on every row as derived (the
    evidence map's links are rebuilt from them) and kept as ``Row.value``; rows are not
    kept parsed, so a large file costs its bytes, not its objects.
    """
    if any(f.split(".")[0] in _ID_FIELDS for f in spec.changed_fields):
        raise ValueError("changed_fields cannot name the row id (the row would be a new row)")
    for f, (rel, _) in enumerate(ROW_FILES):
        data = read(rel)
        lines = _split(data or b"")
        out: list[Row] = []
        tail: list[Row] = []
        adds = sorted(plan.add.get(f, []))
        a = 0

        name = rel.rsplit("/", 1)[1]

        def done(line: bytes, row: dict[str, Any]) -> Row:
            return Row(line, summarize(name, row) if summarize is not None else None)  # noqa: B023 - used within this iteration only

        def finish(key: Key, line: bytes, moved: str | None) -> Row:
            planned = key in plan.change or key in plan.reformat or bool(edits)
            row = _parse(line) if (planned or summarize is not None or moved) else None
            if row is None:
                return Row(line, None)
            paths: list[str] = []
            if key in plan.change:
                paths += [p for p in (_edit(row, d) for d in spec.changed_fields) if p]
            if edits:
                paths += edits.apply(row)
            if paths and spec.rehash:
                _rehash(row, paths)
            rid = _row_id(row)
            if paths:
                rec.rows_changed[rid] = tuple(dict.fromkeys(paths))
                if "row_content_hash" in paths:
                    rec.rows_content_hash_changed.append(rid)
                return done(json.dumps(row).encode(), row)
            if moved:
                rec.rows_moved[rid] = moved
            if key in plan.reformat:
                new = orjson.dumps(row)
                if new != line:
                    rec.rows_reformatted.append(rid)
                    return done(new, row)
            return done(line, row)

        def add(template: int, k: int) -> None:
            new = _new_row(_parse(lines[template]) or {}, k, task_id, edits)  # noqa: B023 - used within this iteration only
            if new is not None:
                out.append(done(json.dumps(new).encode(), new))  # noqa: B023 - used within this iteration only
                rec.rows_added.append(_row_id(new))

        for i, line in enumerate(lines):
            while a < len(adds) and adds[a][0] <= i:
                _, t, k = adds[a]
                a += 1
                add(t, k)
            key = (f, i)
            if key in plan.remove:
                rec.rows_removed.append(_row_id(_parse(line)))
                continue
            if key in plan.to_other:
                continue
            row = finish(key, line, "order" if key in plan.move_end else None)
            (tail if key in plan.move_end else out).append(row)
        while a < len(adds):
            _, t, k = adds[a]
            a += 1
            add(t, k)
        for key, line in plan.stash.get(f, []):
            tail.append(finish(key, line, "file"))
        rows = out + tail
        yield f, rows, [r.line for r in rows] != lines
