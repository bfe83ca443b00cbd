"""Precompiled row layouts: constant keys encoded once, varying keys filled per row.

A :class:`RowTemplate` turns a prototype row into two ``%``-format strings, one
for the JSONL line (file key order) and one for the content-hash seed (sorted
keys, format 7.5). Rendering a row then costs one encode per varying value.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ._jsonfast import Raw, enc, key_prefix

__all__ = ["RowTemplate"]

_HASH_DROPPED = frozenset({"row_content_hash", "created_at"})


class RowTemplate:
    """Layout of rows sharing one key order and the same constant values.

    Parameters
    ----------
    proto : dict
        A complete row in file key order; values of constant keys are taken from it.
    variable : set of str
        Keys whose values change per row; ``row_content_hash`` is always variable
        for hashed rows. Pass :class:`Raw` values for dicts that repeat.
    hashed : bool
        Whether rows carry a ``row_content_hash`` (the 23 training-row files do).
    sorted_keys : set of str
        Variable keys whose values may hold dicts whose keys are not in sorted order
        (encoded again with ``sort_keys`` for the hash seed, whatever ``proto`` holds).
    """

    def __init__(
        self,
        proto: dict[str, Any],
        variable: set[str] | frozenset[str],
        hashed: bool = True,
        sorted_keys: frozenset[str] = frozenset(),
    ) -> None:
        var = set(variable) & set(proto)
        if hashed:
            var.add("row_content_hash")
        self.hashed = hashed
        self._line, self._line_slots = _layout([(k, k in var, enc(v)) for k, v in proto.items()])
        self._vars = [k for k in proto if k in var and k != "row_content_hash"]
        self._sorted = [k for k in self._vars if k in sorted_keys or not _flat(proto[k])]
        self._hash: list[str] = []
        self._hash_slots: list[tuple[int, str]] = []
        if hashed:
            seed: dict[str, Any] = {}
            for k, v in proto.items():
                if k == "model_training_targets":
                    break
                if k not in _HASH_DROPPED:
                    seed[k] = v
            seed["accepted"] = False
            seed["rejection_reason"] = None
            self._hash, self._hash_slots = _layout(
                [(k, k in var, enc(seed[k], True)) for k in sorted(seed)]
            )

    def render(self, values: dict[str, Any]) -> str:
        """The JSONL line (no newline) for ``values`` of the variable keys.

        ``row_content_hash`` is computed unless ``values`` brings one.
        """
        ev = {k: enc(values[k]) for k in self._vars}
        if self.hashed:
            given = values.get("row_content_hash")
            if given is None:
                sev = ev
                if self._sorted:
                    sev = dict(ev)
                    for k in self._sorted:
                        sev[k] = enc(values[k], True)
                buf = self._hash
                for i, k in self._hash_slots:
                    buf[i] = sev[k]
                given = "sha256:" + hashlib.sha256("".join(buf).encode("utf-8")).hexdigest()
            ev["row_content_hash"] = '"' + given + '"'
        buf = self._line
        for i, k in self._line_slots:
            buf[i] = ev[k]
        return "".join(buf)


def _layout(items: list[tuple[str, bool, str]]) -> tuple[list[str], list[tuple[int, str]]]:
    """Constant runs joined into single strings; one slot per variable value."""
    buf: list[str] = []
    slots: list[tuple[int, str]] = []
    text = "{"
    for n, (key, variable, encoded) in enumerate(items):
        text += ("" if n == 0 else ", ") + key_prefix(key)
        if variable:
            buf.append(text)
            slots.append((len(buf), key))
            buf.append("")
            text = ""
        else:
            text += encoded
    buf.append(text + "}")
    return buf, slots


def _flat(value: Any) -> bool:
    """True when sorting keys cannot change the encoding (no dict inside)."""
    if isinstance(value, Raw):
        return value.plain == value.sort
    if isinstance(value, dict):
        return False
    if isinstance(value, list):
        return all(_flat(v) for v in value)
    return True
