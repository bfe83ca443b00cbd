"""Take the screenshots docs/window.md links: first launch, triage and the sign-off of
the demo, at 1366x768 and 1920x1080, light and dark, offscreen.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/take.py [OUT_DIR]

Each picture is made as a user gets there: the demo opened as on first launch (its
automatic audit run), the finding on the changed file picked and the rows citing it
selected, then the ready dossier bound by the author, checked by the evaluator and
decided eligible by the maintainer through the Dossier tab's buttons. The demo and the
settings live in a temporary folder; nothing of the user's is read or written.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SIZES = ((1366, 768), (1920, 1080))
THEMES = ("light", "dark")


def _wait(app: object, until: object, what: str, seconds: float = 300) -> None:
    import time

    from PySide6.QtCore import QCoreApplication

    end = time.monotonic() + seconds
    while not until():  # type: ignore[operator]
        QCoreApplication.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:
            raise SystemExit(f"take.py: gave up waiting for {what}")


def _settle(app: object) -> None:
    import time

    from PySide6.QtCore import QCoreApplication

    for _ in range(30):
        QCoreApplication.processEvents()
        time.sleep(0.01)


def _shoot(app: object, out: Path, size: tuple[int, int], theme: str, tmp: Path) -> None:
    from PySide6.QtCore import QSettings

    from aa_review.qt.app import create_window

    tag = f"{size[0]}x{size[1]}-{theme}"
    os.environ["AA_REVIEW_SAMPLE_DIR"] = str(tmp / "demo")
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = create_window(settings)
    win.set_theme(theme)
    win.resize(*size)
    win.show()
    win.open_demo()
    s = win.session
    _wait(app, lambda: s.package is not None and not s.auditing, "the demo")
    _wait(app, lambda: s.findings is not None, "the audit")
    _settle(app)
    win.grab().save(str(out / f"first-launch-{tag}.png"))

    # triage: the finding on the changed evidence file, the rows citing it selected
    # (the worst, listed first, is in the first-launch picture)
    view = win.findings.view
    model = view.model()
    codes = [model.index(r, 1).data() for r in range(model.rowCount())]
    view.selectRow(codes.index("hash.changed"))
    _settle(app)
    if win.findings.all_button.isEnabled():
        win.findings.all_button.click()
    _settle(app)
    win.grab().save(str(out / f"triage-{tag}.png"))

    # the sign-off: bind as the author, check as the evaluator, decide eligible as the
    # maintainer (each confirmation answered yes)
    panel = win.dossier
    panel.confirm = lambda title, text: True  # type: ignore[method-assign]
    win.show_page("dossier")
    panel.wait_idle()
    panel.select_dossier("dos-demo-ready")
    panel.wait_idle()
    for actor, label in (
        ("p-lead-ada", "Bind evidence"),
        ("p-eval-cy", "Run independent check"),
        ("p-maint-eve", "Decide eligible"),
    ):
        panel.set_actor(actor)
        panel.wait_idle()
        button = dict(panel.step_commands()).get(label)
        if button is None or not button.isEnabled():
            raise SystemExit(f"take.py: {label!r} is not available as {actor}")
        button.click()
        panel.wait_idle()
    _settle(app)
    win.grab().save(str(out / f"sign-off-{tag}.png"))
    win.close()
    _settle(app)
    print(f"take.py: {tag} done")


def take(out: Path) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    for size in SIZES:
        for theme in THEMES:
            with tempfile.TemporaryDirectory(prefix="aa-review-shots-") as tmp:
                _shoot(app, out, size, theme, Path(tmp))


if __name__ == "__main__":
    take(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
