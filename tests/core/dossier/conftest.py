"""Shared fixtures of the dossier tests: golden data, a settable clock, workspaces."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dossier_builder import Clock, archive, principals

from aa_review.core.dossier import Workspace


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
        return Workspace(
            principals(), archive_tree or archive(), clock, tmp_path / "journal.jsonl", **kw
        )

    return make


@pytest.fixture
def ws(make_ws: Callable[..., Workspace]) -> Workspace:
    return make_ws()
