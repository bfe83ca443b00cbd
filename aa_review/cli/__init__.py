"""The headless command line, without Qt.

``aa-review info|audit|rows|dossier|keys|generate|completion``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main", "build_parser", "COMMANDS", "suggest"]

# Subcommand name -> module exposing ``register(subparsers)``; each sets ``func(args) -> int``.
COMMANDS = {
    "info": "aa_review.cli.info_cmd",
    "audit": "aa_review.cli.audit_cmd",
    "dossier": "aa_review.cli.dossier_cmd",
    "keys": "aa_review.cli.keys_cmd",
    "generate": "aa_review.cli.generate_cmd",
    "rows": "aa_review.cli.rows_cmd",
    "diff": "aa_review.cli.diff_cmd",
}
# Listed after the commands above; kept apart so that list reads as what the tool does.
COMMANDS["completion"] = "aa_review.cli.completion_cmd"


def suggest(word: str, known: Sequence[str]) -> str | None:
    """The known name closest to a misspelt ``word``, if one is close enough."""
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


class _Parser(argparse.ArgumentParser):
    """argparse that names the closest command, choice or option when one is misspelt.

    Sub-commands' parsers are made from the same class (``add_subparsers`` passes its
    parser's type on), so ``aa-review dossier chek`` gets the same help.
    """

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        known = [str(c) for c in action.choices]
        command = isinstance(action, argparse._SubParsersAction)
        msg = f"unknown command {value!r}" if command else f"invalid choice {value!r}"
        close = suggest(str(value), known)
        msg += f"; did you mean {close!r}?" if close else f" (choose from {', '.join(known)})"
        raise argparse.ArgumentError(None if command else action, msg)

    # argparse's stubs overload parse_args per namespace type; this override is typed for
    # a plain Namespace only.
    def parse_args(  # type: ignore[override]  # see above: argparse's overloads
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> argparse.Namespace:
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            parser = _innermost(self, ns)
            parser.error(_unrecognized(parser, extras))
        return ns


def _innermost(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> argparse.ArgumentParser:
    """The (sub-)command parser that read the last command word of ``ns``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(ns, action.dest, None) or "")
            if chosen is not None:
                return _innermost(chosen, ns)
    return parser


def _unrecognized(parser: argparse.ArgumentParser, extras: list[str]) -> str:
    msg = f"unrecognized arguments: {' '.join(extras)}"
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    for word in extras:
        name = word.split("=", 1)[0]
        if not name.startswith("--"):
            continue
        close = suggest(name, options)
        if name == "--version":
            msg += "; the program's version is 'aa-review --version'"
            if close:
                msg += f", and this command's option is {close!r}"
            break
        if close:
            msg += f"; did you mean {close!r}?"
            break
    return msg


def build_parser() -> argparse.ArgumentParser:
    from aa_review import __version__

    parser = _Parser(
        prog="aa-review",
        description="Review, audit and sign off Experience Compiler packages. "
        "With no command (or a PATH), opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"aa-review {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS.values():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a command still being written
            if exc.name != module:
                raise
            continue
        mod.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a headless command; returns the process exit code."""
    from aa_review.cli._common import pipe_guard

    logging.basicConfig(level=logging.WARNING, format="aa-review: %(message)s", stream=sys.stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    with pipe_guard():
        return int(args.func(args))
