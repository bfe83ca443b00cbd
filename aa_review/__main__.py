"""``python -m aa_review``: headless commands, or the window when none is given."""

from __future__ import annotations

import sys
from pathlib import Path

from aa_review.cli import COMMANDS, suggest

EXIT_USAGE = 2


def _not_a_command(word: str) -> str | None:
    """Why ``word``, neither a command nor an existing path, cannot start anything.

    The window takes a package folder where a command would stand, so only a word that
    names nothing on disk is looked at: a near miss of a command is a misspelling.
    """
    if word.startswith("-") or Path(word).exists():
        return None
    close = suggest(word, list(COMMANDS))
    if close:
        return f"unknown command {word!r}; did you mean {close!r}?"
    return (
        f"{word!r} is neither a command ({', '.join(COMMANDS)}) nor a package folder; "
        "see 'aa-review --help'"
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and (args[0] in COMMANDS or args[0] in ("-h", "--help", "--version")):
        from aa_review.cli import main as cli_main

        return cli_main(args)
    problem = _not_a_command(args[0]) if args else None
    if problem:
        print(f"aa-review: {problem}", file=sys.stderr)
        return EXIT_USAGE
    return gui_main(args)


def gui_main(argv: list[str] | None = None) -> int:
    """The window (``aa-review-gui``), once the system can run it: Qt aborts otherwise."""
    args = sys.argv[1:] if argv is None else argv
    if not any(a in ("-h", "--help", "--version") for a in args):
        from aa_review.qt import syslibs

        if syslibs.report():
            return EXIT_USAGE
    from aa_review.qt.app import main as window_main

    return window_main(args)


if __name__ == "__main__":
    # First thing: in the frozen app a "spawn" worker of the loader's process pool starts
    # this same executable, and freeze_support() runs the worker and exits there. Unfrozen
    # it does nothing.
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
