"""Shared pydantic configuration of the dossier models: frozen, strict JSON types, extras kept."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError

from aa_review.core.dossier._timestamps import is_timestamp

__all__ = ["Strict", "Timestamp", "validation_problems"]


def _timestamp(value: str) -> str:
    if not is_timestamp(value):
        raise ValueError("timestamps must read YYYY-MM-DDTHH:MM:SSZ (UTC)")
    return value


# Decision: a timestamp not of the exact form of spec 1.2 is structurally invalid.
Timestamp = Annotated[str, AfterValidator(_timestamp)]


class Strict(BaseModel):
    """Base of every dossier/archive model.

    Frozen; JSON types are not coerced (``"1"`` is not an int, ``true`` is not
    a number); every field is optional because absent evidence must be
    representable (the predicates decide what absence means); unknown keys are
    kept (they are digested with the raw tree, and ignored by the predicates).
    """

    model_config = ConfigDict(strict=True, frozen=True, extra="allow")


def validation_problems(exc: ValidationError) -> list[str]:
    """``"<json path>: <message>"`` for each error of a pydantic validation."""
    out: list[str] = []
    for err in exc.errors():
        loc: list[Any] = list(err.get("loc", ()))
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
        out.append(f"{path or '<root>'}: {err.get('msg', 'invalid')}")
    return out
