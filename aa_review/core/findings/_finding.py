"""A finding: one named problem in a package (loading or audit), with every place it concerns."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from aa_review.core.findings._locations import Location, Locations

__all__ = ["Severity", "Finding", "worst_first_key", "worst_first"]


class Severity(str, enum.Enum):  # noqa: UP042 - str() and format() of a member unchanged
    """How bad a finding is; ordered by ``rank``."""

    INFO = "info"
    LOW = "low"
    WARNING = "warning"
    ERROR = "error"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {
    Severity.INFO: 0,
    Severity.LOW: 1,
    Severity.WARNING: 2,
    Severity.ERROR: 3,
    Severity.CRITICAL: 4,
}


class Finding(BaseModel):
    """A named problem and every place it concerns. ``code`` is stable and documented in
    docs/findings.md.

    ``locations`` lists all of them (the rows carrying one problem, both entries of a
    duplicate...); ``location`` is the first, for readers that show one place. Give
    either: the other follows.
    """

    model_config = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)

    code: str = Field(description="Stable dotted code, e.g. 'hash.changed'")
    severity: Severity
    message: str = Field(description="What is wrong and, where possible, how to fix it")
    location: Location = Field(default_factory=Location, description="The first of `locations`")
    quirk: bool = Field(False, description="A known compiler quirk (format section 12)")
    locations: Locations = Field(
        default_factory=lambda: Locations(0),
        description="Every place the finding concerns, however many (non-null fields only)",
    )
    gathered: int = Field(
        0,
        description="How many findings of this code, beyond the listing limit, this one "
        "gathers (each keeps its place among `locations`); 0 for an ordinary finding",
    )

    @model_validator(mode="before")
    @classmethod
    def _both_forms(cls, data: Any) -> Any:
        if isinstance(data, dict):
            locs, loc = data.get("locations"), data.get("location")
            if locs is None or (isinstance(locs, (list, Locations)) and not len(locs)):
                first = loc if loc is not None else Location()
                data = {
                    **data,
                    "locations": Locations.one(
                        first if isinstance(first, Location) else Location(**first)
                    ),
                }
            elif loc is None:
                first = locs[0]
                data = {**data, "location": first}
        return data

    @computed_field(description="How many places `locations` lists")  # type: ignore[prop-decorator]  # mypy rejects a decorator over @property; pydantic documents this ignore
    @property
    def location_count(self) -> int:
        return len(self.locations)


def worst_first_key(severity: Severity, count: int) -> tuple[int, int]:
    """The key of the default order of findings, of their groups and of their exports:
    the worse severity first (critical, error, warning, low, info: :attr:`Severity.rank`),
    then the larger count (a finding's locations, a group's findings)."""
    return (-severity.rank, -count)


def worst_first(findings: Sequence[Finding], positions: Iterable[int] | None = None) -> list[int]:
    """``positions`` into ``findings`` (None: all) worst first (:func:`worst_first_key`,
    the count being each finding's locations); equal keys in the audit's check order
    (their position)."""
    pos = range(len(findings)) if positions is None else [int(p) for p in positions]

    def key(i: int) -> tuple[int, int, int]:
        f = findings[i]
        return (*worst_first_key(f.severity, len(f.locations)), i)

    return sorted(pos, key=key)
