"""Drives the review window offscreen for benchmarks: the user actions, and when each is done.

Every action is what a user does (a key, a click on a table row, a button); every
``done`` predicate says when the window has shown the result, so a benchmark can
measure the whole action, including work it hands to other threads.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

__all__ = ["WindowDriver"]

QUERY = "type:environment_response_pair confidence<0.7"
CHANGE_QUERY = "change:changed OR change:removed"
KEY_INTERVAL_MS = 40


class WindowDriver:
    """One MainWindow at a time, with a dossier workspace bound to the package it opens."""

    def __init__(self, app: QApplication, settings: QSettings, scratch: Path) -> None:
        self.app = app
        self.settings = settings
        self.scratch = scratch
        self.win: Any = None
        self._bound_root: Path | None = None
        self._bound_digest = ""
        self._workspaces = 0
        self._typed_at: float | None = None
        self._query = QUERY
        self._clicks = 0
        self._baseline: Path | None = None
        self._want_row: str | None = None
        self._new_window()

    # -- window ---------------------------------------------------------------
    def _new_window(self) -> None:
        from aa_review.qt.app import create_window

        self.win = create_window(self.settings)
        self.win.resize(1600, 1000)
        self.win.show()
        self.app.processEvents()

    def close_package(self) -> None:
        """Start again from an empty window (the next open is a first open)."""
        if self.win is not None:
            self.win.close()
            self.win.deleteLater()
            self.app.processEvents()
        self._new_window()

    def close(self) -> None:
        if self.win is not None:
            self.win.close()
            self.app.processEvents()

    def idle(self) -> bool:
        return True

    # -- package ----------------------------------------------------------------
    def open(self, root: Path) -> None:
        self._root = root
        self.win.open_package(root)

    def opened(self) -> bool:
        pkg = self.win.session.package
        return (
            pkg is not None
            and Path(pkg.root) == Path(self._root)
            and not self.win.controller.busy("load")
            and self.win.rows.model.row_index is pkg.index
            and self.win.rows.model.rowCount() > 0
            and not self.win.turns.pending  # every view filled
        )

    def audit(self) -> None:
        self.win.controller.run_audit()

    def audited(self) -> bool:
        return self.win.session.report is not None and not self.win.controller.busy("audit")

    def type_query(self, query: str = QUERY) -> None:
        edit = self.win.rows.query.edit
        edit.setFocus()
        edit.clear()
        self._typed_at = None
        self._query = query
        keys = list(query)

        # One key, then the next one a key interval later: timers set all at once may fire
        # out of order after a stall, and the query typed would not be QUERY.
        def next_key() -> None:
            if keys:
                QTest.keyClick(edit, keys.pop(0))
                QTimer.singleShot(KEY_INTERVAL_MS, next_key)
            else:
                self._typed_at = time.perf_counter()

        QTimer.singleShot(0, next_key)

    def query_typed(self) -> bool:
        # The bar waits for typing to pause, then filters; give it that pause and a frame.
        return (
            self._typed_at is not None
            and time.perf_counter() - self._typed_at > 0.4
            and self.win.rows.query.text() == self._query
            and self.win.session.query("rows") == self._query
        )

    def clear_query(self) -> None:
        self.win.rows.query.set_text("")
        self.app.processEvents()

    def _click_row(self, view: Any, row: int) -> None:
        model = view.model()
        if model.rowCount() == 0:
            return
        index = model.index(row % model.rowCount(), 0)
        view.scrollTo(index)
        rect = view.visualRect(index)
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    def select_row(self) -> None:
        self._clicks += 1
        self._click_row(self.win.rows.view, 3 + self._clicks)

    def row_shown(self) -> bool:
        """The row detail shows the selected row (it is read in a worker)."""
        return "reading…" not in self.win.detail.title.text()

    def select_evidence(self) -> None:
        self._clicks += 1
        self._click_row(self.win.evidence.view, self._clicks)

    def select_finding(self) -> None:
        self._clicks += 1
        self._click_row(self.win.findings.view, self._clicks)

    # -- compare mode -------------------------------------------------------------------
    def compare(self, baseline: Path) -> None:
        """File > Compare With… on ``baseline`` (the dialog's answer given)."""
        self._baseline = baseline
        self.win.compare.commands.open_baseline(baseline)

    def compared(self) -> bool:
        """The diff is shown: the Change columns, and the Compare dock listing the changes."""
        from aa_review.qt.models.rows_table import ROW_COLUMNS

        win = self.win
        c = win.session.comparison
        return (
            c is not None
            and c.prepared is not None
            and c.version == win.session.version
            and Path(c.baseline.root) == Path(self._baseline)
            and not win.runner.is_running("baseline")
            and win.rows.model.columnCount() > len(ROW_COLUMNS)
            and "change" in win.evidence.model.columns
            and win.docks["compare"].isVisible()
            and win.compare.model.rowCount() > 0
        )

    def select_changed_row(self) -> None:
        """A click on a changed row (not a removed one) in the Compare dock's list."""
        self._clicks += 1
        panel = self.win.compare
        rows = [i for i, t in enumerate(panel._targets) if t[0] == "row" and t[1] is not None]
        if not rows:
            self._want_row = None
            return
        i = rows[(7 * self._clicks) % len(rows)]
        self._want_row = panel._targets[i][3]
        self._click_row(panel.view, i)

    def changed_row_shown(self) -> bool:
        """Both versions of the row are side by side."""
        view = self.win.compare.shown_view
        return (
            self._want_row is not None
            and view is not None
            and view.title == self._want_row
            and "reading" not in self.win.compare.title.text().lower()
        )

    def type_change_query(self) -> None:
        self.type_query(CHANGE_QUERY)

    def change_query_typed(self) -> bool:
        return self.query_typed()

    def close_baseline(self) -> None:
        self.win.compare.commands.close_baseline()

    def baseline_closed(self) -> bool:
        from aa_review.qt.models.rows_table import ROW_COLUMNS

        win = self.win
        return (
            win.session.comparison is None
            and not win.docks["compare"].isVisible()
            and win.rows.model.columnCount() == len(ROW_COLUMNS)
            and "change" not in win.evidence.model.columns
        )

    # -- dossier ------------------------------------------------------------------
    def prepare_workspace(self, root: Path) -> None:
        """Hash the stress package once: every repeat gets a new workspace binding it."""
        from aa_review.core.package.digest import package_digest

        self._bound_root = root
        self._bound_digest = package_digest(root)
        self._workspaces = 0

    def reset_workspace(self) -> None:
        """A new demo workspace (a copy of an old one would be a cut journal to the
        witness store, and open read-only)."""
        from aa_review.demo.sample import write_sample_workspace

        panel = self.win.dossier
        panel.close_workspace()
        self._workspaces += 1
        live = self.scratch / f"workspace-{self._workspaces}"
        write_sample_workspace(live, self._bound_root, digest=self._bound_digest)
        panel.confirm = lambda *_a, **_k: True
        panel.inform = lambda *_a, **_k: None
        self.win.center.setCurrentIndex(0)
        self.app.processEvents()
        self.win.open_workspace(live)
        self._set_actor("p-lead-ada")
        self.app.processEvents()

    def _set_actor(self, principal: str) -> None:
        # Acting as someone is a deliberate choice in the panel (a dialog for the user).
        self.win.dossier.set_actor(principal)

    def show_dossier(self) -> None:
        self.win.center.setCurrentWidget(self.win.dossier)

    def dossier_idle(self) -> bool:
        return not self.win.dossier.busy

    def dossier_shown(self) -> bool:
        panel = self.win.dossier
        return panel.isVisible() and self.dossier_idle() and panel.state is not None

    def change_actor(self) -> None:
        self._set_actor("p-eval-cy")

    def bind(self) -> None:
        from aa_review.core import dossier as dz

        self.win.dossier.request(dz.Action.BIND)

    def bound(self) -> bool:
        panel = self.win.dossier
        return (
            self.dossier_idle()
            and panel.state is not None
            and panel.state.state.value == "evidence_bound"
        )

    def check(self) -> None:
        from aa_review.core import dossier as dz

        self.win.dossier.request(dz.Action.CHECK)

    def checked(self) -> bool:
        panel = self.win.dossier
        return (
            self.dossier_idle()
            and panel.state is not None
            and panel.state.state.value not in ("draft", "evidence_bound")
        )
