"""Contracts and checklists compared item by item: outputs, columns, types, thresholds."""

from __future__ import annotations

from typing import Any

from aa_review.core.diff._fingerprint import ContractDoc
from aa_review.core.diff._jsonvalue import join_key, json_equal
from aa_review.core.diff._model import ContractChange, FieldChange

__all__ = ["diff_contracts", "ITEM_LISTS"]

# Per document: the list of items and the key naming each item.
ITEM_LISTS = {
    "output_contract": ("required_outputs", "path"),
    "artifact_contract": ("required_artifacts", "path"),
    "transfer_checklist": ("artifact_contracts", "artifact_ref"),
    "prefinal_checklist": ("checks", "check_id"),
}


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _value_changes(path: str, old: Any, new: Any) -> list[FieldChange]:
    """Differences of one field: list elements and object keys added or removed, else
    the value changed. Lists of plain values are compared as sets, then as orders."""
    if json_equal(old, new):
        return []
    if isinstance(old, list) and isinstance(new, list) and all(map(_scalar, old + new)):
        removed = [x for x in old if not any(json_equal(x, y) for y in new)]
        added = [y for y in new if not any(json_equal(x, y) for x in old)]
        out = [FieldChange(path, "removed", old=x) for x in removed]
        out += [FieldChange(path, "added", new=y) for y in added]
        return out or [FieldChange(path, "changed", old=old, new=new)]  # reordered
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in list(old) + [k for k in new if k not in old]:
            sub = join_key(path, k)
            if k not in new:
                out.append(FieldChange(sub, "removed", old=old[k]))
            elif k not in old:
                out.append(FieldChange(sub, "added", new=new[k]))
            else:
                out += _value_changes(sub, old[k], new[k])
        return out
    return [FieldChange(path, "changed", old=old, new=new)]


def _keyed(items: list[Any], key: str) -> dict[str, Any]:
    """Items by key; a repeated key's copies are named ``key (#2)``, ``key (#3)``...

    Entries that are not objects (or lack the key) are named by position.
    """
    out: dict[str, Any] = {}
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        name = item.get(key) if isinstance(item, dict) else None
        name = name if isinstance(name, str) else f"[{i}]"
        n = seen.get(name, 0) + 1
        seen[name] = n
        out[name if n == 1 else f"{name} (#{n})"] = item
    return out


def _diff_doc(name: str, old: Any, new: Any) -> list[ContractChange]:
    list_key, item_key = ITEM_LISTS[name]
    items_a = old.get(list_key) if isinstance(old, dict) else None
    items_b = new.get(list_key) if isinstance(new, dict) else None
    if not (isinstance(items_a, list) and isinstance(items_b, list)):
        items_a = items_b = None  # no item lists to match: compare the documents whole
    else:
        old = {k: v for k, v in old.items() if k != list_key}
        new = {k: v for k, v in new.items() if k != list_key}
    out: list[ContractChange] = []
    top = _value_changes("", old, new)
    if top:
        out.append(ContractChange(name, "", "changed", tuple(top)))
    if items_a is not None and items_b is not None:
        ka, kb = _keyed(items_a, item_key), _keyed(items_b, item_key)
        for key in list(ka) + [k for k in kb if k not in ka]:
            if key not in kb:
                out.append(ContractChange(name, key, "removed"))
            elif key not in ka:
                out.append(ContractChange(name, key, "added"))
            else:
                fields = _value_changes("", ka[key], kb[key])
                if fields:
                    out.append(ContractChange(name, key, "changed", tuple(fields)))
    return out


def diff_contracts(
    old: dict[str, ContractDoc], new: dict[str, ContractDoc]
) -> tuple[ContractChange, ...]:
    """Changes to the output and artifact contracts, the transfer and prefinal checklists."""
    out: list[ContractChange] = []
    for name in ITEM_LISTS:
        a = old.get(name, ContractDoc("missing", None, None))
        b = new.get(name, ContractDoc("missing", None, None))
        if a.status != "ok" and b.status == "ok":
            out.append(
                ContractChange(
                    name, "", "added", (FieldChange("", "changed", a.status, "present"),)
                )
            )
        elif a.status == "ok" and b.status != "ok":
            out.append(
                ContractChange(
                    name, "", "removed", (FieldChange("", "changed", "present", b.status),)
                )
            )
        elif a.status != b.status:
            out.append(
                ContractChange(
                    name, "", "changed", (FieldChange("", "changed", a.status, b.status),)
                )
            )
        elif a.status == "ok" and a.digest != b.digest:
            if a.content is None or b.content is None:
                out.append(
                    ContractChange(
                        name, "", "changed", (FieldChange("", "changed", a.digest, b.digest),)
                    )
                )
            else:
                out += _diff_doc(name, a.content, b.content)
    return tuple(out)
