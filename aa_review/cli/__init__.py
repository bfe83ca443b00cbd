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

__all__ = ["main", "build_parser", "COMMANDS", "SUMMARIES", "suggest"]

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

# Each command's one-line help, as its module registers it: the stand-in of a command that
# was not asked for shows it in ``aa-review --help`` without importing the module (a test
# holds the two equal).
SUMMARIES = {
    "info": "print a package's identity and counts",
    "audit": "audit a package (or a folder of packages) for integrity and privacy",
    "dossier": "check a training readiness dossier, project it, verify a journal",
    "keys": "create and show the Ed25519 keys that sign journal entries",
    "generate": "write a generated package (or a corpus) for tests and demos",
    "rows": "filter a package's training rows with a query, and export them",
    "diff": "say what changed from one package (or fingerprint) to another",
    "completion": "print a shell completion script (bash, zsh, tcsh)",
}


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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, that command's parser and stand-ins for the rest.

    A stand-in has the command's name and one-line help (so ``aa-review --help`` and the
    closest-name hints read as with every command registered) but no options, and its
    module is not imported: a command starts without importing the others (``dossier``
    and ``generate`` import the dossier core and numpy).
    """
    from aa_review import __version__

    parser = _Parser(
        prog="aa-review",
        description="Review, audit and sign off Experience Compiler packages. "
        "With no command (or a PATH), opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"aa-review {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=SUMMARIES[name], add_help=False)
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a command still being written
            if exc.name != module:
                raise
            continue
        mod.register(sub)
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    """The command ``argv`` asks for: its first word when that names one (the top-level
    parser has no option taking a value, so nothing else can stand first)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    """Run a headless command; returns the process exit code."""
    args_in = sys.argv[1:] if argv is None else list(argv)
    if args_in == ["--version"]:  # before any parser is built or module imported
        from aa_review import __version__

        print(f"aa-review {__version__}")
        raise SystemExit(0)  # as argparse's version action ends

    from aa_review.cli._common import pipe_guard

    logging.basicConfig(level=logging.WARNING, format="aa-review: %(message)s", stream=sys.stderr)
    parser = build_parser(only=_command_word(args_in) or "")  # "": stand-ins only
    args = parser.parse_args(args_in)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    with pipe_guard():
        return int(args.func(args))
