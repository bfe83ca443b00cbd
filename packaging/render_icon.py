"""Render resources/aa-review.png from resources/aa-review.svg with Qt (run after editing the SVG).

Usage: ``.venv/bin/python packaging/render_icon.py [SIZE]`` (default 256 pixels square).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def render(svg: Path, png: Path, size: int) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icon: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    if not image.save(str(png)):  # PNG, from the suffix
        raise SystemExit(f"render_icon: cannot write {png}")


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    render(RESOURCES / "aa-review.svg", RESOURCES / "aa-review.png", size)
    print(f"render_icon: wrote {RESOURCES / 'aa-review.png'} ({size}x{size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
