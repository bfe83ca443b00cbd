"""State that must not go stale: another package opened under a filter, a finding without a
row, a finding naming a contract, and the dock layout of the next launch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def drift(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A package whose artifact breaks its contract: findings about a file, not a row."""
    from aa_review.generator import generate_package

    return generate_package(
        tmp_path_factory.mktemp("drift"), rows=40, seed=1, defects=["contract_drift"]
    )


def _click(qtbot: Any, view: Any, row: int) -> None:
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _types_on_disk(root: Path) -> list[str]:
    from aa_review.core.package import open_package

    pkg = open_package(root)
    return [
        json.loads(line)["data_type"]
        for rel in pkg.index.files
        for line in (root / rel).read_text().splitlines()
        if line.strip()
    ]


def test_opening_a_larger_package_while_a_rows_filter_is_active(
    window, sample_copy: Path, tmp_path: Path
) -> None:
    from aa_review.generator import generate_package

    big = generate_package(tmp_path / "big", rows=200, seed=4).root
    window.open_package(sample_copy)  # 60 rows
    window.rows.query.set_text("type:environment_response_pair")
    window.open_package(big)  # the filter's positions now reach past row 60
    want = _types_on_disk(big).count("environment_response_pair")
    assert want > 60
    assert window.rows.model.rowCount() == want
    assert window.count_label.text() == f"{want} of 200 rows"
    # the map highlights exactly the rows the filter keeps, of the package now open
    marked = window.plots.points.markers.data
    assert len(marked) == want and float(max(marked["x"])) >= 60


def test_a_finding_without_a_row_leaves_no_row_selected(window, qtbot, drift) -> None:
    window.open_package(drift.root)
    window.controller.run_audit()
    _click(qtbot, window.rows.view, 4)
    assert window.session.selection.current.row is not None
    assert window.detail.model.rowCount() > 0
    panel = window.findings
    codes = [panel.model.finding(r).code for r in range(panel.model.rowCount())]
    table_row = codes.index("contract.numeric")  # about a CSV file, no row
    _click(qtbot, panel.view, table_row)
    assert window.session.selection.current.finding == panel.model.position(table_row)
    # neither the rows view nor the row detail still shows the unrelated row
    assert not window.rows.view.selectionModel().hasSelection()
    assert window.session.selection.current.row is None
    assert window.detail.model.rowCount() == 0
    assert "no row" in window.detail.title.text()


def test_a_finding_naming_a_contract_shows_its_tab_and_rows_come_back(window, qtbot, drift) -> None:
    window.open_package(drift.root)
    window.controller.run_audit()
    tabs = window.center
    assert tabs.currentWidget() is window.rows
    panel = window.findings
    codes = [panel.model.finding(r).code for r in range(panel.model.rowCount())]
    _click(qtbot, panel.view, codes.index("contract.numeric"))
    # the tab bar says Contracts, as the page does
    assert tabs.tabBar().currentIndex() == tabs.indexOf(window.contracts)
    assert window.contracts.isVisible() and not window.rows.isVisible()
    qtbot.mouseClick(
        tabs.tabBar(),
        Qt.MouseButton.LeftButton,
        pos=tabs.tabBar().tabRect(tabs.indexOf(window.rows)).center(),
    )
    assert tabs.currentWidget() is window.rows and window.rows.isVisible()
    assert not window.contracts.isVisible()


def _visible_tab_bars(win: Any) -> list[tuple[tuple[str, ...], Any]]:
    return [
        (tuple(sorted(b.tabText(i) for i in range(b.count()))), b.geometry())
        for b in win.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
        if b.isVisible() and b.count()
    ]


def test_the_next_launch_after_closing_with_findings_raised(qtbot, settings, sample_copy) -> None:
    from aa_review.qt.app import create_window

    first = create_window(settings)
    qtbot.addWidget(first)
    first.resize(1400, 900)
    first.show()
    qtbot.waitExposed(first)
    first.open_package(sample_copy)  # the docks come out from behind the welcome page
    first.docks["findings"].raise_()
    first.close()
    for _ in range(2):  # and the launch after that
        win = create_window(settings)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        win.open_package(sample_copy)
        bars = _visible_tab_bars(win)
        assert sorted(g for g, _ in bars) == [
            ("Evidence catalog", "Findings", "Rows citing the evidence"),
            ("Evidence cited by the row", "Plots", "Row detail"),
        ]
        assert not win.docks["facets"].isVisible()  # closed in the focused default
        detail = win.docks["detail"].geometry()
        assert not any(rect.intersects(detail) for g, rect in bars if "Findings" in g)
        # the tab raised at closing is the one in front
        assert not win.findings.visibleRegion().isEmpty()
        assert win.evidence_rows.visibleRegion().isEmpty()
        assert win.evidence.visibleRegion().isEmpty()
        win.close()


def test_rows_shown_while_another_package_loads_select_nothing(
    window, qtbot, sample_copy, tmp_path
) -> None:
    from aa_review.core.package import open_package
    from aa_review.generator import generate_package

    window.open_package(sample_copy)  # 60 rows
    loading = open_package(generate_package(tmp_path / "next", rows=80, seed=2).root)
    window.show_partial(loading.index)  # its first rows, while it loads
    _click(qtbot, window.rows.view, 70)
    assert window.session.selection.current.row is None  # row 70 of a 60-row package
    assert window.session.package.root == sample_copy
