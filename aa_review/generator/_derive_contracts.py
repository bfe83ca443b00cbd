"""Contract and checklist edits of a derived package (each recorded as the diff names it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aa_review.core.diff._jsonvalue import join_key
from aa_review.core.package.layout import EC_DIR

from ._derive_spec import ContractEdit

if TYPE_CHECKING:
    from ._derive import _Tree

__all__ = ["edit_contracts"]

_RLP = f"{EC_DIR}/runtime_learning_package"
OUTPUT = f"{_RLP}/output_contract.json"
CHECKLIST = f"{_RLP}/prefinal_verification_checklist.json"


def _name(items: list[Any], i: int, key: str) -> str:
    """The item's name as the diff gives it: its key, ``key (#n)`` for the n-th repeat."""
    value = items[i].get(key) if isinstance(items[i], dict) else None
    if not isinstance(value, str):
        return f"[{i}]"
    n = sum(1 for x in items[:i] if isinstance(x, dict) and x.get(key) == value) + 1
    return value if n == 1 else f"{value} (#{n})"


def _first(items: list[Any], ok: Any) -> int | None:
    return next((i for i, x in enumerate(items) if isinstance(x, dict) and ok(x)), None)


def _edit_output(doc: dict[str, Any], edit: str) -> ContractEdit | None:
    items = doc.get("required_outputs")
    if not isinstance(items, list):
        return None
    doc_name = "output_contract"
    if edit == "output_added":
        items.append(
            {"path": "output/derived_extra.json", "format": "json", "scoring_critical": True}
        )
        return ContractEdit(doc_name, _name(items, len(items) - 1, "path"), "added")
    if edit == "output_removed":
        if not items:
            return None
        name = _name(items, len(items) - 1, "path")
        items.pop()
        return ContractEdit(doc_name, name, "removed")
    if edit in ("column_added", "column_removed"):
        i = _first(items, lambda x: isinstance(x.get("columns"), list) and x["columns"])
        if i is None:
            return None
        cols = items[i]["columns"]
        if edit == "column_added":
            cols.append("derived_column")
            return ContractEdit(
                doc_name,
                _name(items, i, "path"),
                "changed",
                "columns",
                "added",
                new="derived_column",
            )
        gone = cols.pop(0)
        if gone in cols:  # a repeated column: dropping one copy is not a set change
            cols.insert(0, gone)
            return None
        return ContractEdit(
            doc_name, _name(items, i, "path"), "changed", "columns", "removed", old=gone
        )
    if edit == "type_changed":
        i = _first(
            items, lambda x: isinstance(x.get("expected_types"), dict) and x["expected_types"]
        )
        if i is None:
            return None
        types = items[i]["expected_types"]
        key = next(iter(types))
        old = types[key]
        types[key] = "number" if old == "string" else "string"
        return ContractEdit(
            doc_name,
            _name(items, i, "path"),
            "changed",
            join_key("expected_types", key),
            "changed",
            old,
            types[key],
        )
    if edit == "threshold_changed":
        i = _first(
            items,
            lambda x: isinstance(x.get("min_rows"), int) and not isinstance(x["min_rows"], bool),
        )
        if i is None:
            return None
        old = items[i]["min_rows"]
        items[i]["min_rows"] = old + 4
        return ContractEdit(
            doc_name, _name(items, i, "path"), "changed", "min_rows", "changed", old, old + 4
        )
    return None


def _edit_checklist(doc: dict[str, Any]) -> ContractEdit | None:
    items = doc.get("checks")
    if not isinstance(items, list):
        return None
    i = _first(items, lambda x: isinstance(x.get("check_id"), str))
    if i is None:
        return None
    existed = "blocking" in items[i]
    old = items[i].get("blocking")
    items[i]["blocking"] = not bool(old)
    return ContractEdit(
        "prefinal_checklist",
        _name(items, i, "check_id"),
        "changed",
        "blocking",
        "changed" if existed else "added",
        old,
        not bool(old),
    )


def edit_contracts(tree: _Tree, edits: Sequence[str]) -> list[ContractEdit]:
    """Apply the named edits (see ``CONTRACT_EDITS``), each at most once.

    ``output_removed`` goes first, so that it drops an output the source had (not one
    another edit added) and the other edits are recorded on outputs that remain.
    """
    out: list[ContractEdit] = []
    docs: dict[str, Any] = {}
    for rel in (OUTPUT, CHECKLIST):
        raw = tree.read(rel)
        if raw is not None:
            docs[rel] = json.loads(raw)
    for edit in sorted(dict.fromkeys(edits), key=lambda e: e != "output_removed"):
        if edit == "check_changed":
            doc = docs.get(CHECKLIST)
            rec = _edit_checklist(doc) if isinstance(doc, dict) else None
        else:
            doc = docs.get(OUTPUT)
            rec = _edit_output(doc, edit) if isinstance(doc, dict) else None
        if rec is not None:
            out.append(rec)
    touched = {
        OUTPUT: any(e.document == "output_contract" for e in out),
        CHECKLIST: any(e.document == "prefinal_checklist" for e in out),
    }
    for rel, doc in docs.items():
        if touched[rel]:
            tree.write_rel(rel, (json.dumps(doc, indent=2) + "\n").encode())
    return out
