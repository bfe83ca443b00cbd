"""Fixtures of the conformance suite: a settable clock and in-memory workspaces."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from spec_fixture import NOW, Variant, build

from aa_review.core.dossier import Workspace


class Clock:
    """The injectable clock of 1.2, moved by hand."""

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
def make_ws(tmp_path: Path, clock: Clock) -> Callable[..., Workspace]:
    """A workspace over a variant's archive and registry; ``**kw`` go to ``Workspace``."""

    def make(v: Variant | None = None, **kw: Any) -> Workspace:
        v = v or build()
        return Workspace(v.principals, v.archive, clock, tmp_path / "journal.jsonl", **kw)

    return make
