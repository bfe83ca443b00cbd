"""Findings: named problems of a package, each with every place it concerns.

The vocabulary the package reader (loading problems), the audit and the query
language share; it sits below all of them and imports only the small utilities.
"""

from __future__ import annotations

from aa_review.core.findings._finding import Finding, Severity, worst_first, worst_first_key
from aa_review.core.findings._locations import (
    LOCATION_FIELDS,
    Location,
    Locations,
    RowTable,
    distinct_sorted,
)

__all__ = [
    "Severity",
    "Location",
    "Locations",
    "RowTable",
    "Finding",
    "LOCATION_FIELDS",
    "distinct_sorted",
    "worst_first",
    "worst_first_key",
]
