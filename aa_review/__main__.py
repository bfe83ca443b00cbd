"""``python -m aa_review``: headless commands, or the window when none is given."""

from __future__ import annotations

import sys

from aa_review.cli import COMMANDS


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and (args[0] in COMMANDS or args[0] in ("-h", "--help", "--version")):
        from aa_review.cli import main as cli_main

        return cli_main(args)
    from aa_review.qt.app import main as gui_main

    return gui_main(args)


if __name__ == "__main__":
    # First thing: in the frozen app a "spawn" worker of the loader's process pool starts
    # this same executable, and freeze_support() runs the worker and exits there. Unfrozen
    # it does nothing.
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
