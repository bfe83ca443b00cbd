"""Filtering while typing (issue 25, item 7): it waits for a pause, and a value the
package does not have (a word not finished) is said like a wrong one, the table kept."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture
def rows(window, sample_copy):
    window.open_package(sample_copy)
    return window.rows


def test_typing_runs_the_query_once_after_a_pause(rows, window, qtbot) -> None:
    runs: list[str] = []
    rows.query.applied.connect(runs.append)
    rows.query.edit.setFocus()
    qtbot.keyClicks(rows.query.edit, "type:failure_case")
    assert runs == []  # not on every key
    qtbot.waitUntil(lambda: runs == ["type:failure_case"])
    assert window.session.result("rows").count == rows.model.rowCount() > 0


def test_an_unknown_value_of_a_known_field_is_flagged_and_the_table_kept(
    rows, window, qtbot
) -> None:
    before = rows.model.rowCount()
    assert before > 0
    rows.query.set_text("type:fa")
    assert rows.query.error.isVisible()
    text = rows.query.error.text()
    assert text.startswith("Column 6:") and "failure_case" in text
    assert rows.model.rowCount() == before  # the table did not blank mid-word
    # like severity:bad in the findings box
    window.findings.query.set_text("severity:bad")
    assert window.findings.query.error.isVisible()
    # a finished value, a wildcard: applied
    rows.query.set_text("type:fa*")
    assert not rows.query.error.isVisible() and 0 < rows.model.rowCount() < before
    rows.query.set_text("type:failure_case")
    assert not rows.query.error.isVisible() and rows.model.rowCount() > 0


def test_the_cli_still_answers_an_unknown_value_with_no_rows(sample_copy) -> None:
    """The language is unchanged: only the window's box flags it."""
    from aa_review.core.package import open_package
    from aa_review.core.query import RowsScope

    pkg = open_package(sample_copy)
    mask = RowsScope(pkg).mask("type:fa")
    assert mask is not None and not mask.any()
