"""Empty means absent (spec 1.1, settled in section 15): the one definition every gate sees.

An input is *absent* when it is missing, ``null``, an empty string where a string is
expected, an empty object where an object is expected, an empty list where the contract
requires a non-empty one, or an object whose contract fields are all absent (only
unknown keys, or only nulls, recursively). The typed models replace every absent value
by ``None`` while they parse (:class:`~aa_review.core.dossier._models_strict.Strict`
calls :func:`absent_as_none`), so a gate only ever tests ``is None``: a ``{}`` can no
longer reach a predicate as "present". The raw tree, from which every digest is
computed, is never changed.

A value of the wrong JSON type is not absent: ``""`` where a boolean is expected, or
``{}`` where a string is, stays what it is and is refused by the parser (section 15,
"does not parse to the shapes of section 2").
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

__all__ = ["NON_EMPTY", "NonEmpty", "absent_as_none", "is_absent"]


class NonEmpty:
    """Field metadata: the contract requires a non-empty list here, so ``[]`` is absent."""

    def __repr__(self) -> str:
        return "NON_EMPTY"


NON_EMPTY = NonEmpty()


def _parts(annotation: Any) -> tuple[list[Any], bool]:
    """The non-None members of an annotation, and whether it is marked :data:`NON_EMPTY`."""
    non_empty = False
    members: list[Any] = []
    stack = [annotation]
    while stack:
        tp = stack.pop()
        origin = get_origin(tp)
        if origin is Annotated:
            base, *meta = get_args(tp)
            non_empty = non_empty or any(isinstance(m, NonEmpty) for m in meta)
            stack.append(base)
        elif origin is Union or origin is types.UnionType:
            stack.extend(get_args(tp))
        elif tp is not type(None):
            members.append(tp)
    return members, non_empty


def _optional(annotation: Any) -> bool:
    """Whether ``None`` is a value of the annotation."""
    stack = [annotation]
    while stack:
        tp = stack.pop()
        origin = get_origin(tp)
        if origin is Annotated:
            stack.append(get_args(tp)[0])
        elif origin is Union or origin is types.UnionType:
            stack.extend(get_args(tp))
        elif tp is type(None):
            return True
    return False


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _field_absent(value: Any, info: FieldInfo) -> bool:
    members, non_empty = _parts(info.annotation)
    non_empty = non_empty or any(isinstance(m, NonEmpty) for m in info.metadata)
    return is_absent(value, members, non_empty=non_empty)


def is_absent(value: Any, members: list[Any], *, non_empty: bool = False) -> bool:
    """Whether ``value`` is an absent input for a field whose types are ``members``."""
    if value is None:
        return True
    if isinstance(value, str):
        return value == "" and any(m is str for m in members)
    if isinstance(value, list):
        return non_empty and not value and any(get_origin(m) is list for m in members)
    if not isinstance(value, dict):
        return False
    for tp in members:
        if _is_model(tp):
            return model_absent(tp, value)
        if get_origin(tp) is dict:
            item = get_args(tp)[1] if len(get_args(tp)) == 2 else Any
            item_members, _ = _parts(item)
            return all(is_absent(v, item_members) for v in value.values())
    return False


def model_absent(model: type[BaseModel], value: dict[str, Any]) -> bool:
    """An object whose contract fields are all absent (unknown keys do not count)."""
    return all(
        _field_absent(value.get(name), info)
        for name, info in model.model_fields.items()
        if name in value
    )


def absent_as_none(model: type[BaseModel], data: Any) -> Any:
    """``data`` with every absent contract field set to ``None`` and every absent entry of
    an object-valued map dropped; a new dict when anything changed, ``data`` otherwise."""
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] | None = None
    for name, info in model.model_fields.items():
        if name not in data:
            continue
        value = data[name]
        if value is None or not _optional(info.annotation):
            continue  # a required field (an identity constant, ``evidence``) is the parser's
        new = value
        if _field_absent(value, info):
            new = None
        elif isinstance(value, dict):
            new = _drop_absent_entries(value, info)
        if new is not value:
            if out is None:
                out = dict(data)
            out[name] = new
    return data if out is None else out


def _drop_absent_entries(value: dict[str, Any], info: FieldInfo) -> dict[str, Any]:
    members, _ = _parts(info.annotation)
    for tp in members:
        if get_origin(tp) is dict and len(get_args(tp)) == 2:
            item_members, _ = _parts(get_args(tp)[1])
            if not any(_is_model(m) for m in item_members):
                return value
            kept = {k: v for k, v in value.items() if not is_absent(v, item_members)}
            return value if len(kept) == len(value) else kept
    return value
