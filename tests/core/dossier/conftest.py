"""Shared fixtures of the dossier tests: golden data, a settable clock, workspaces, gate runners."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import NOW, archive, passing, principals

from aa_review.core.dossier import (
    GATES,
    GateContext,
    GateResult,
    PrincipalRegistry,
    Workspace,
    inspect_packages,
    parse_archive,
    parse_dossier,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def archive_raw() -> dict[str, Any]:
    return archive()


@pytest.fixture
def principals_raw() -> list[dict[str, Any]]:
    return principals()


@pytest.fixture
def make_ws(tmp_path: Path, clock: Clock) -> Callable[..., Workspace]:
    """Build an in-memory workspace with the golden principals and archive."""

    def make(archive_tree: dict[str, Any] | None = None, **kw: Any) -> Workspace:
        return Workspace(principals(), archive_tree or archive(), clock,
                         tmp_path / "journal.jsonl", **kw)

    return make


@pytest.fixture
def ws(make_ws: Callable[..., Workspace]) -> Workspace:
    return make_ws()


def run_gate(gid: str, tree: dict[str, Any], archive_tree: dict[str, Any] | None = None,
             locator: Any = None, hook: Any = None) -> GateResult:
    """Evaluate a single gate of a dossier tree."""
    parsed = parse_dossier(tree)
    packages = inspect_packages(parsed.model.evidence.source_packages, locator)
    ctx = GateContext(parsed, parse_archive(archive_tree or archive()),
                      PrincipalRegistry(principals()), packages, hook)
    return GATES[gid](ctx)


def codes(result: GateResult) -> set[str]:
    return set(result.reason_codes)


def bound_copy(tree: dict[str, Any] | None = None) -> dict[str, Any]:
    return copy.deepcopy(tree or passing())
