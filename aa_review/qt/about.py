"""The About text: versions and where settings live."""

from __future__ import annotations

import html
import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QSettings, qVersion

from aa_review import __version__

__all__ = ["about_text"]


def about_text(settings: QSettings) -> str:
    return (
        f"<h3>aa-review {__version__}</h3>"
        "<p>Review, audit and sign off Experience Compiler packages.</p>"
        f"<p>Qt {qVersion()} · PySide6 {pyside_version} · Python {platform.python_version()}</p>"
        f"<p>Settings are stored in:<br><code>{html.escape(settings.fileName())}</code></p>"
    )
