"""The selected row in full, read from disk by offset in a worker, as a JSON tree."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QTreeView

from aa_review.core.session import OpenPackage, ReviewSession, Selection
from aa_review.core.session.document import Document, read_document
from aa_review.core.util.errors import AAReviewError
from aa_review.qt.models import JsonTreeModel
from aa_review.qt.views._linked import Linked
from aa_review.qt.views.document_view import DocumentView, finding_place

if TYPE_CHECKING:
    from aa_review.qt.controller import Runner

__all__ = ["RowDetailPanel"]

log = logging.getLogger(__name__)

_PICK = "Select a row to see it in full."


class RowDetailPanel(Linked):
    """The selected row in full. A row can be large: it is read and parsed in a worker,
    and only the row still selected when it arrives is shown."""

    def __init__(self, session: ReviewSession, runner: Runner) -> None:
        super().__init__(session, "Row detail")
        self.runner = runner
        self.title = QLabel(_PICK)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.title.setMinimumWidth(100)
        self.layout_.addWidget(self.title)
        self.model = JsonTreeModel(self)
        self.view = QTreeView()
        self.view.setObjectName("row_detail_view")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        # The key column a share of the width, not measured (measuring on every selection
        # costs a frame): the value column keeps most of a narrow dock (1366x768), and a
        # long value (a row id) is elided in the middle, its distinct end kept.
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.view.header().setStretchLastSection(True)
        self.view.viewport().installEventFilter(self)
        self._fit_keys()
        self.layout_.addWidget(self.view)
        self._shown: tuple[int, int] | None = None  # (version, row) shown or being read
        # A finding placed in a file that holds no row of the package shows that file.
        self.document = DocumentView()
        self.document.setVisible(False)
        self.layout_.addWidget(self.document)
        self._place: tuple[int, int, int] | None = None  # (version, finding, location) shown

    def _fit_keys(self) -> None:
        width = self.view.viewport().width()
        self.view.setColumnWidth(0, max(90, min(240, int(width * 0.34))))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if obj is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_keys()
        return super().eventFilter(obj, event)

    def show_package(self, opened: OpenPackage | None) -> None:
        self.runner.cancel("row")
        self._show_document(None)
        self._shown = None
        self.model.set_value({})
        self.title.setText(_PICK)

    def follow(self, sel: Selection) -> None:
        pkg = self.pkg
        if pkg is None:
            return
        self._show_document(sel)
        if sel.row is None:
            if self._shown is not None:
                self.runner.cancel("row")
                self._shown = None
                self.model.set_value({})
            self.title.setText(self.session.describe_detail())
            return
        want = (self.version, sel.row)
        if want == self._shown:
            return
        self._shown = want
        ix = pkg.index
        where = f"{ix.files[int(ix.file[sel.row])]}:{int(ix.line[sel.row])}"
        heading = f"{ix.row_id_str(sel.row)}  —  {where}"
        self.title.setText(f"{heading}  (reading…)")
        row = sel.row

        def done(value: Any) -> None:
            if self._shown != want:
                return
            self.title.setText(heading)
            self.model.set_value(value)

        def failed(exc: BaseException) -> None:
            if self._shown != want:
                return
            if not isinstance(exc, (AAReviewError, OSError)):
                log.error("reading row %s failed", row, exc_info=exc)
            self.title.setText(f"{where}: cannot be read: {exc}")
            self.model.set_value({})

        self.runner.run("row", lambda _job: pkg.read_row(row), done=done, failed=failed)

    def _show_document(self, sel: Selection | None) -> None:
        """Show the file of the selected finding's place when no row of the package is
        there (a JSON document, rejected rows, a malformed line); else the row tree."""
        place = finding_place(self.session, sel) if sel is not None else None
        self.document.setVisible(place is not None)
        self.view.setVisible(place is None)
        self.title.setVisible(place is None)
        if place is None:
            self._place = None
            return
        assert sel is not None and sel.finding is not None and self.pkg is not None
        key = (self.version, sel.finding, sel.location or 0)
        if key == self._place:
            return
        self._place = key
        rel, line, key_path, about = place
        self.document.reading(rel, about)
        safe = self.pkg.safe

        def done(doc: Document) -> None:
            if self._place == key:
                self.document.show_document(doc, about)

        def failed(exc: BaseException) -> None:
            if self._place != key:
                return
            if not isinstance(exc, (AAReviewError, OSError)):
                log.error("reading %s failed", rel, exc_info=exc)
            self.document.failed(rel, about, str(exc))

        self.runner.run(
            "document",
            lambda _job: read_document(safe, rel, line=line, key_path=key_path),
            done=done,
            failed=failed,
        )
