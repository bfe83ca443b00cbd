"""Session files with relative paths (exports: tests/core/query/test_export.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aa_review.core.session import SessionState, load_session, save_session
from aa_review.core.util.errors import AAReviewError


def test_session_round_trip_relative(sample_copy: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    state = SessionState(rows_query="type:x", selected_row_id="row_1", central_tab=1)
    save_session(sessions / "s.aareview.json", state, sample_copy)
    doc = json.loads((sessions / "s.aareview.json").read_text())
    assert doc["package"] == f"../{sample_copy.name}"
    # moving both together keeps the link
    moved = tmp_path / "moved"
    moved.mkdir()
    (sessions / "s.aareview.json").rename(moved / "s.aareview.json")
    sample_copy.rename(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").rename(tmp_path / sample_copy.name)
    loaded, pkg = load_session(moved / "s.aareview.json")
    assert loaded.rows_query == "type:x" and loaded.central_tab == 1
    assert pkg == (tmp_path / sample_copy.name).resolve()
    (moved / "bad.aareview.json").write_text("{")
    with pytest.raises(AAReviewError, match=r"bad\.aareview\.json"):
        load_session(moved / "bad.aareview.json")
