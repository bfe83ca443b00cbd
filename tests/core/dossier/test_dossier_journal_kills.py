"""Spec 10.5: a writer killed at any instant leaves a workspace that opens writable, with
every acknowledged action and no half-applied one (a short run of the kill campaign)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.bench_journal_kills import campaign

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL"), pytest.mark.slow]


def test_ten_random_kills_of_a_journal_writer(tmp_path: Path) -> None:
    # The longer campaign: ./dev bench journal_kills --kills 50
    acknowledged = campaign(tmp_path, kills=10, seed=12, max_delay=1.0)
    assert acknowledged > 10  # the writer did get work done between the kills
