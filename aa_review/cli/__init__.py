"""The headless command line: ``aa-review info|audit|dossier|generate``; no Qt."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

__all__ = ["main", "build_parser", "COMMANDS"]

# Subcommand name -> module exposing ``register(subparsers)``; each sets ``func(args) -> int``.
COMMANDS = {
    "info": "aa_review.cli.info_cmd",
    "audit": "aa_review.cli.audit_cmd",
    "dossier": "aa_review.cli.dossier_cmd",
    "generate": "aa_review.cli.generate_cmd",
    "diff": "aa_review.cli.diff_cmd",
}


def build_parser() -> argparse.ArgumentParser:
    from aa_review import __version__

    parser = argparse.ArgumentParser(
        prog="aa-review",
        description="Review, audit and sign off Experience Compiler packages. "
        "With no command (or a PATH), opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"aa-review {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
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
    logging.basicConfig(level=logging.WARNING, format="aa-review: %(message)s", stream=sys.stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
