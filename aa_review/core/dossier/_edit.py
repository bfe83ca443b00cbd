"""Apply one path edit to a copy of a raw evidence tree."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

__all__ = ["DELETE", "EditPathError", "apply_edit"]


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


# Pass as the value of ``edit_evidence`` to remove the key (or list element).
DELETE: Any = _Delete()


class EditPathError(ValueError):
    """The path does not name a place in the evidence tree."""


def apply_edit(evidence: dict[str, Any], path: Sequence[str], value: Any) -> dict[str, Any]:
    """A deep copy of ``evidence`` with ``value`` set at ``path``.

    Missing object keys along the path are created as objects; list positions
    are given as decimal strings and must exist (or be the length, to append).

    Raises
    ------
    EditPathError
        Empty path, a step into a scalar, or a list index out of range.
    """
    if not path or not all(isinstance(p, str) for p in path):
        raise EditPathError("an edit path is a non-empty list of strings")
    tree = copy.deepcopy(evidence)
    node: Any = tree
    for step in path[:-1]:
        if isinstance(node, dict):
            if not isinstance(node.get(step), (dict, list)):
                if step in node and node[step] is not None:
                    raise EditPathError(f"{step!r} is a value, not an object or list")
                node[step] = {}
            node = node[step]
        elif isinstance(node, list):
            node = node[_index(node, step, allow_end=False)]
        else:
            raise EditPathError(f"cannot step into {step!r}")
    last = path[-1]
    if isinstance(node, dict):
        if value is DELETE:
            node.pop(last, None)
        else:
            node[last] = copy.deepcopy(value)
    elif isinstance(node, list):
        i = _index(node, last, allow_end=value is not DELETE)
        if value is DELETE:
            del node[i]
        elif i == len(node):
            node.append(copy.deepcopy(value))
        else:
            node[i] = copy.deepcopy(value)
    else:
        raise EditPathError(f"cannot set {last!r} inside a value")
    return tree


def _index(node: list[Any], step: str, allow_end: bool) -> int:
    if not step.isdigit():
        raise EditPathError(f"{step!r} is not a list position")
    i = int(step)
    if i > len(node) or (i == len(node) and not allow_end):
        raise EditPathError(f"list position {i} is out of range")
    return i
