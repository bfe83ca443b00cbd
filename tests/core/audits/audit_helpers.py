"""Small helpers shared by the audit tests."""

from __future__ import annotations

from typing import Any


def non_quirk(report: Any) -> list[Any]:
    """Findings that are not recognised compiler quirks."""
    return [f for f in report.findings if not f.quirk]


def codes(report: Any) -> set[str]:
    return {f.code for f in report.findings}


def located(findings: list[Any], code: str, **where: Any) -> Any:
    """The first finding with ``code`` one of whose locations has every field in ``where``."""
    hits = [f for f in findings if f.code == code]
    assert hits, f"no {code}"
    for f in hits:
        if any(all(getattr(loc, k) == v for k, v in where.items()) for loc in f.locations):
            return f
    raise AssertionError(f"no {code} at {where}: {[f.locations for f in hits]}")


def only_low_quirks(report: Any) -> bool:
    return all(f.quirk and f.severity.value == "low" for f in report.findings)
