"""Light and dark schemes: follow the system, or an override kept in the settings."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

__all__ = ["apply_theme", "THEMES", "effective_scheme"]

THEMES = ("system", "light", "dark")


def effective_scheme(choice: str) -> str:
    """``light`` or ``dark`` for a choice of ``system``, ``light`` or ``dark``."""
    if choice in ("light", "dark"):
        return choice
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def _dark_palette() -> QPalette:
    p = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colors = {
        role.Window: "#202225",
        role.WindowText: "#e6e6e6",
        role.Base: "#17181a",
        role.AlternateBase: "#24262a",
        role.ToolTipBase: "#2b2d31",
        role.ToolTipText: "#e6e6e6",
        role.Text: "#e6e6e6",
        role.Button: "#2b2d31",
        role.ButtonText: "#e6e6e6",
        role.BrightText: "#ff6b6b",
        role.Highlight: "#3d6fb6",
        role.HighlightedText: "#ffffff",
        role.Link: "#7aa7ff",
        role.PlaceholderText: "#8a8f98",
        role.Mid: "#3a3d42",
        role.Dark: "#111214",
        role.Light: "#3a3d42",
    }
    for r, c in colors.items():
        p.setColor(r, QColor(c))
    for r in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(group.Disabled, r, QColor("#6b6f76"))
    return p


def apply_theme(app: QApplication, choice: str) -> str:
    """Apply the scheme for ``choice``; returns ``light`` or ``dark``."""
    scheme = effective_scheme(choice)
    app.setStyle("Fusion")
    app.setPalette(_dark_palette() if scheme == "dark" else app.style().standardPalette())
    return scheme
