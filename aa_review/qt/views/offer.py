"""OfferButton: a step the window proposes (in the status bar) and the user may take."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QPushButton

__all__ = ["OfferButton"]


class OfferButton(QPushButton):
    """Hidden until :meth:`offer` names a step; clicking takes it once and hides."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("offer_button")
        self._take: Callable[[], object] | None = None
        self.clicked.connect(self._clicked)
        self.setVisible(False)

    def offer(self, label: str | None, take: Callable[[], object] | None = None) -> None:
        self._take = take if label else None
        self.setText(label or "")
        self.setToolTip(f"{label}: changes the rows and findings queries" if label else "")
        self.setVisible(bool(label) and take is not None)

    def _clicked(self) -> None:
        take, self._take = self._take, None
        self.setVisible(False)
        if take is not None:
            take()
