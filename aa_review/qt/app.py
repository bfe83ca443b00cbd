"""Entry point of the window: QApplication, logging of Qt messages, crash dialog."""

from __future__ import annotations

import argparse
import logging
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import (
    QCoreApplication,
    QSettings,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from aa_review import __version__

if TYPE_CHECKING:
    from aa_review.qt.views.main_window import MainWindow

__all__ = ["main", "make_settings", "create_window"]

log = logging.getLogger("aa_review")
_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def _qt_message(mode: QtMsgType, context: object, message: str) -> None:
    logging.getLogger("aa_review.qt").log(_QT_LEVELS.get(mode, logging.WARNING), "%s", message)


def _excepthook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    text = "".join(traceback.format_exception(kind, exc, tb))
    log.error("unhandled error\n%s", text)
    app = QApplication.instance()
    if app is not None:
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "aa-review: unexpected error",
            f"{kind.__name__}: {exc}\n\nYour package files were not changed. "
            "The details below are also in the log.",
        )
        box.setDetailedText(text)
        box.exec()


def app_icon() -> QIcon:
    """The application icon, shipped inside the package (found the same way when frozen)."""
    from importlib import resources

    return QIcon(str(resources.files("aa_review.qt") / "assets" / "aa-review.svg"))


def make_settings() -> QSettings:
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, "aa-review", "aa-review"
    )


def create_window(settings: QSettings | None = None) -> MainWindow:
    from aa_review.qt.views.main_window import MainWindow

    return MainWindow(settings or make_settings())


def _screenshot_when_loaded(app: QCoreApplication, window: MainWindow, out: Path) -> None:
    """Hidden ``--screenshot PNG``: once the package has loaded, save a grab of the window, quit.

    It lets a smoke test prove that an installed or frozen app really renders (with
    ``QT_QPA_PLATFORM=offscreen`` on a machine without a display). Exit status 0 means the
    picture was saved; 1 means the package failed to load or the PNG could not be written.
    """

    def grab() -> None:
        app.processEvents()  # let the views lay out the rows they were just given
        saved = window.grab().save(str(out), "PNG")
        if not saved:
            log.error("could not write the screenshot to %s", out)
        window.close()
        app.exit(0 if saved else 1)

    def failed(_title: str, message: str) -> None:
        # Instead of the window's modal warning box: say why, and exit.
        log.error("no screenshot: %s", message)
        window.close()
        app.exit(1)

    setattr(window, "warn", failed)  # noqa: B010 - replaces a method on this instance
    window.session.events.package_changed.connect(
        lambda opened: window.turns.add("screenshot", grab) if opened is not None else None
    )


def main(argv: list[str] | None = None) -> int:
    """Open the window on PATH, or on the bundled sample package when none is given."""
    parser = argparse.ArgumentParser(prog="aa-review", description="Open the review window.")
    parser.add_argument("path", nargs="?", help="package folder (default: the bundled sample)")
    parser.add_argument("--version", action="version", version=f"aa-review {__version__}")
    parser.add_argument("--screenshot", metavar="PNG", help=argparse.SUPPRESS)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if QApplication.instance() is None:
        from aa_review.qt import syslibs

        if syslibs.report():  # Qt would abort the process: say what to install instead
            return 2
    qInstallMessageHandler(_qt_message)
    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    app.setApplicationName("aa-review")
    app.setOrganizationName("aa-review")
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    sys.excepthook = _excepthook
    window = create_window()
    window.set_theme(str(window.settings.value("theme", "system")))
    window.show()
    if args.screenshot:
        _screenshot_when_loaded(app, window, Path(args.screenshot))
    if args.path:
        window.open_package(Path(args.path))
    else:
        # The demo: the sample package and, beside it, a dossier workspace to step
        # through; made in the background the first time, the window showing meanwhile.
        window.open_demo()
    return int(app.exec())
