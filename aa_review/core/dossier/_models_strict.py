"""Shared pydantic configuration of the dossier models: frozen, strict JSON types, extras kept."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, model_validator

from aa_review.core.dossier._absent import NON_EMPTY, absent_as_none
from aa_review.core.dossier._timestamps import is_timestamp

__all__ = [
    "NON_EMPTY",
    "RULE_AUTHOR",
    "RULE_BINDING",
    "SchemaProblem",
    "Strict",
    "Timestamp",
    "schema_problems",
    "validation_problems",
]

_SPEC = "READINESS_DOSSIER.md"
_RULE_SHAPES = f"{_SPEC} 15: a file that does not parse to the shapes of section 2 is refused"
_RULE_TYPE = f"{_SPEC} 15: a value of the wrong JSON type is refused"
_RULE_ENUM = f"{_SPEC} 15: a string outside its enumeration or literal is refused"
_RULE_IDENTITY = f"{_SPEC} 15: an identity constant of 2.1 that is absent is refused"
_RULE_TIMESTAMP = f"{_SPEC} 1.2 and 15: a timestamp not of the exact form of 1.2 is refused"
RULE_BINDING = f"{_SPEC} 15: a bound or later state without a binding is refused"
RULE_AUTHOR = f"{_SPEC} 15: a file whose author is not in the registry is refused"


def _timestamp(value: str) -> str:
    if not is_timestamp(value):
        raise ValueError("timestamps must read YYYY-MM-DDTHH:MM:SSZ (UTC)")
    return value


# Spec 15: a timestamp not of the exact form of 1.2 is refused, wherever it stands.
Timestamp = Annotated[str, AfterValidator(_timestamp)]


class Strict(BaseModel):
    """Base of every dossier/archive model.

    Frozen; JSON types are not coerced (``"1"`` is not an int, ``true`` is not
    a number); every field is optional because absent evidence must be
    representable (the predicates decide what absence means); unknown keys are
    kept (they are digested with the raw tree, and ignored by the predicates).
    """

    model_config = ConfigDict(strict=True, frozen=True, extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _empty_is_absent(cls, data: Any) -> Any:
        """Spec 15, "empty means absent": every absent contract field parses to ``None``."""
        return absent_as_none(cls, data)


@dataclass(frozen=True)
class SchemaProblem:
    """One reason a file does not parse to the shapes of spec section 2, for a person.

    Attributes
    ----------
    path : str
        The JSON path of the value (``evidence.power_analysis.parameters.n_sim``).
    message : str
        What is wrong with it.
    rule : str
        The contract clause that refuses it (``READINESS_DOSSIER.md 15, ...``).
    remedy : str
        What would satisfy the rule.
    """

    path: str
    message: str
    rule: str = _RULE_SHAPES
    remedy: str = "give the value the JSON type and form section 2 names"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"

    def explain(self) -> str:
        """The problem, its rule and its remedy in one line."""
        return f"{self.path}: {self.message} ({self.rule}); to fix: {self.remedy}"


def _remedy(kind: str, ctx: dict[str, Any], field: str) -> tuple[str, str]:
    """(rule, remedy) for a pydantic error type."""
    expected = str(ctx.get("expected", "")).replace("'", '"')
    if kind == "missing":
        return _RULE_IDENTITY, f"add `{field}`: section 2.1 requires it in every dossier file"
    if kind in ("literal_error", "enum"):
        return (
            _RULE_ENUM,
            f"write one of {expected}" if expected else "write a value section 2 lists",
        )
    if kind in ("bool_type", "bool_parsing"):
        return _RULE_TYPE, "write the JSON boolean true or false (not a string)"
    if kind in ("int_type", "int_from_float", "int_parsing"):
        return _RULE_TYPE, "write an integer without a decimal point (20000, not 20000.0)"
    if kind in ("float_type", "float_parsing"):
        return _RULE_TYPE, "write a JSON number"
    if kind in ("string_type", "string_too_short"):
        return _RULE_TYPE, "write a non-empty JSON string"
    if kind in ("list_type", "tuple_type"):
        return _RULE_TYPE, "write a JSON array"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return _RULE_TYPE, "write a JSON object"
    if kind in ("greater_than_equal", "greater_than"):
        return (
            _RULE_SHAPES,
            f"write a number {'≥' if kind.endswith('equal') else '>'} "
            f"{ctx.get('ge', ctx.get('gt'))}",
        )
    if kind == "value_error" and "timestamp" in str(ctx.get("error", "")):
        return _RULE_TIMESTAMP, "write the instant as YYYY-MM-DDTHH:MM:SSZ, in UTC"
    return _RULE_SHAPES, "give the value the JSON type and form section 2 names"


def schema_problems(exc: ValidationError) -> list[SchemaProblem]:
    """One :class:`SchemaProblem` for each error of a pydantic validation."""
    out: list[SchemaProblem] = []
    for err in exc.errors():
        loc: list[Any] = list(err.get("loc", ()))
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
        field = str(loc[-1]) if loc else "<root>"
        rule, remedy = _remedy(str(err.get("type", "")), dict(err.get("ctx") or {}), field)
        out.append(SchemaProblem(path or "<root>", str(err.get("msg", "invalid")), rule, remedy))
    return out


def validation_problems(exc: ValidationError) -> list[str]:
    """``"<json path>: <message>"`` for each error of a pydantic validation."""
    return [str(p) for p in schema_problems(exc)]
