"""An audit of a package folder compares the contracts and reads a large evidence map
beside the row pass, not after it, and reports exactly what it reported before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aa_review.core.audits import _engine, audit_package
from aa_review.core.package import open_package


def _report(r: Any) -> dict[str, Any]:
    d: dict[str, Any] = r.model_dump(mode="json")
    d.pop("seconds", None)
    return d


def test_contracts_are_compared_while_the_rows_are_read(
    monkeypatch: pytest.MonkeyPatch, sample_copy: Path
) -> None:
    events: list[str] = []
    real = _engine.compare_package

    def compare(pkg: Any, **kw: Any) -> Any:
        events.append("contracts")
        return real(pkg, **kw)

    monkeypatch.setattr(_engine, "compare_package", compare)
    got = audit_package(sample_copy, progress=lambda p: events.append(p.stage))
    assert events.count("contracts") == 1
    assert events.index("contracts") < events.index("checks")  # not in the checks' turn
    assert _report(got) == _report(audit_package(open_package(sample_copy)))


def test_a_large_map_is_read_in_a_worker_started_before_the_rows(
    monkeypatch: pytest.MonkeyPatch, sample_copy: Path
) -> None:
    alone = audit_package(sample_copy)
    order: list[str] = []
    real = _engine._map_worker

    def worker(pkg: Any) -> Any:
        order.append("map" if len(pkg.index) == 0 else "map after the rows")
        return real(pkg)

    monkeypatch.setattr(_engine, "_MAP_IN_PROCESS_BYTES", 0)  # every map is "large"
    monkeypatch.setattr(_engine, "_map_worker", worker)
    got = audit_package(sample_copy, progress=lambda p: order.append(p.stage))
    assert order[0] == "map"  # asked for by the opening, before any row was read
    assert "map after the rows" not in order
    assert _report(got) == _report(alone)


def test_an_opened_packages_large_map_is_read_beside_its_row_pass(
    monkeypatch: pytest.MonkeyPatch, sample_copy: Path
) -> None:
    """The window's case: the package is open, its rows are checked by a row pass."""
    pkg = open_package(sample_copy)
    alone = audit_package(pkg)
    order: list[str] = []
    real_map, real_rows = _engine._map_worker, _engine.scan_rows

    def worker(p: Any) -> Any:
        order.append("map")
        return real_map(p)

    def rows(*a: Any, **kw: Any) -> Any:
        order.append("rows")
        return real_rows(*a, **kw)

    monkeypatch.setattr(_engine, "_MAP_IN_PROCESS_BYTES", 0)
    monkeypatch.setattr(_engine, "_map_worker", worker)
    monkeypatch.setattr(_engine, "scan_rows", rows)
    got = audit_package(pkg)
    assert order == ["map", "rows"]
    assert _report(got) == _report(alone)
