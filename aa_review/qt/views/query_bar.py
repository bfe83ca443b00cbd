"""QueryBar: the filter line every table shares, with errors shown where they are."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from aa_review.core.query import QueryError
from aa_review.core.session import QueryResult
from aa_review.qt.views.query_completion import Completer, QueryCompleter

__all__ = ["QueryBar", "fields_help"]


def fields_help(what: str, fields: dict[str, str], free_text: str) -> str:
    """The tooltip of a query bar: the syntax, each field, and what free text matches."""
    lines = [
        f"Filter {what} (docs/query.md). Terms are ANDed; OR, NOT or -term and "
        "( ) combine them; confidence < 0.7 compares as shown. Fields and values are "
        "proposed while typing (Ctrl+Space):"
    ]
    lines += [f"  {k}:  {v}" for k, v in fields.items()]
    lines.append(f'  "text":  {free_text}')
    return "\n".join(lines)


class QueryBar(QWidget):
    """A line edit that runs ``apply(text)`` shortly after typing stops.

    ``apply`` raises :class:`QueryError` for a bad query; the bar shows the
    message and keeps the previous result.
    """

    applied = Signal(str)

    def __init__(
        self,
        placeholder: str,
        apply: Callable[[str], object],
        help_text: str = "",
        delay_ms: int = 180,
        completer: Completer | None = None,
    ) -> None:
        super().__init__()
        self._apply = apply
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(placeholder)
        self.edit.setClearButtonEnabled(True)
        self.edit.setToolTip(help_text)
        self.error = QLabel()
        self.error.setObjectName("query_error")
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        self.error.setVisible(False)
        lay.addWidget(self.edit)
        lay.addWidget(self.error)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.run)
        self.edit.textChanged.connect(lambda _t: self._timer.start())
        self.edit.returnPressed.connect(self.run)
        # Field names and values proposed while typing (Ctrl+Space asks for them).
        self.completer = QueryCompleter(self.edit, completer) if completer is not None else None

    def text(self) -> str:
        return self.edit.text()

    def set_text(self, text: str, *, run: bool = True) -> None:
        self.edit.blockSignals(True)
        self.edit.setText(text)
        self.edit.blockSignals(False)
        if run:
            self.run()

    def run(self) -> None:
        self._timer.stop()
        try:
            self._apply(self.edit.text())
        except QueryError as exc:
            self.show_error(exc)
            return
        self.show_error(None)
        self.applied.emit(self.edit.text())

    def show_error(self, exc: QueryError | None) -> None:
        if exc is None:
            self.error.setVisible(False)
            return
        self.error.setText(f"Column {exc.column}: {exc.message}")
        self.error.setVisible(True)

    def sync(self, result: QueryResult) -> None:
        """Show the query the session holds (another view may have set it) and its error."""
        if result.text != self.edit.text() and not self._timer.isActive():
            self.set_text(result.text, run=False)
        self.show_error(result.error)
