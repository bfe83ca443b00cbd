"""DocumentView: a package file shown at a finding's place, the place highlighted.

The reading (``aa_review.core.session.document.read_document``) runs in a worker; this
widget only shows the lines it returns, numbered, and scrolls to the place.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase, QTextCursor, QTextFormat
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from aa_review.core.session import ReviewSession, Selection
from aa_review.core.session.document import Document

__all__ = ["DocumentView", "finding_place"]

_LONG_RUN = re.compile(r"\S{24,}")
_SOFT_BREAK = "\u200b"  # zero-width space: a place a label may wrap a long token


def wrappable(text: str) -> str:
    """``text`` with a soft break every 16 characters of a run of 24 or more without a
    space (a hash, a path): a word-wrapped label cannot break inside a word, so such a
    run made the title wider than the dock, clipped on both sides."""
    return _LONG_RUN.sub(
        lambda m: _SOFT_BREAK.join(m[0][i : i + 16] for i in range(0, len(m[0]), 16)), text
    )


def finding_place(
    session: ReviewSession, sel: Selection
) -> tuple[str, int | None, str | None, str] | None:
    """(file, line, key path, what the finding says) of the selected finding's place when
    that file holds no row of the package (None otherwise: the row is shown)."""
    state, pkg = session.findings, session.package
    if (
        sel.finding is None
        or state is None
        or pkg is None
        or not 0 <= sel.finding < len(state.findings)
    ):
        return None
    f = state.findings[sel.finding]
    if not len(f.locations):
        return None
    k = (sel.location or 0) % len(f.locations)
    loc = f.locations[k]
    if not loc.file:
        return None
    if sel.row is not None and (
        loc.file in pkg.index.files or sel.row != state.index.row_at(sel.finding, k)
    ):
        return None  # a row of the package: the row is shown
    about = f"{f.severity.value} {f.code}: {f.message}"
    return loc.file, loc.line, loc.key_path, about


class DocumentView(QWidget):
    """A file's lines around a place, read-only; hidden until asked to show one."""

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("")
        self.title.setObjectName("document_title")
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.title)
        self.text = QPlainTextEdit()
        self.text.setObjectName("document_text")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.text)
        self.document: Document | None = None

    def _title(self, text: str) -> None:
        self.title.setText(wrappable(text))
        self.title.setToolTip(text)

    def reading(self, rel: str, about: str) -> None:
        self.document = None
        self._title(f"{rel}  (reading…)\n{about}")
        self.text.setPlainText("")

    def failed(self, rel: str, about: str, why: str) -> None:
        self.document = None
        self._title(f"{rel}: cannot be shown: {why}\n{about}")
        self.text.setPlainText("")

    def show_document(self, doc: Document, about: str) -> None:
        """``doc``'s lines, numbered as in the file, the target line highlighted;
        ``about`` (the finding's message) under the file's name."""
        self.document = doc
        where = f"{doc.rel} — {doc.note}" if doc.note else doc.rel
        self._title(f"{where}\n{about}")
        width = len(str(doc.first + len(doc.lines)))
        self.text.setPlainText(
            "\n".join(f"{doc.first + i:>{width}}  {line}" for i, line in enumerate(doc.lines))
        )
        self.text.setExtraSelections([])
        if doc.target is None:
            return
        block = self.text.document().findBlockByNumber(doc.target - doc.first)
        cursor = QTextCursor(block)
        mark = QTextEdit.ExtraSelection()
        color = self.palette().highlight().color()
        mark.format.setBackground(QColor(color.red(), color.green(), color.blue(), 90))
        mark.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        mark.cursor = cursor
        self.text.setExtraSelections([mark])
        self.text.setTextCursor(cursor)
        self.text.centerCursor()

    def target_text(self) -> str | None:
        """The line shown at the place (as in the file), None when there is none."""
        doc = self.document
        if doc is None or doc.target is None:
            return None
        return doc.lines[doc.target - doc.first]
