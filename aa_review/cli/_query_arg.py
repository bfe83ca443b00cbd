"""``--query`` options that take a value starting with '-' (``--query -quirk:yes``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["add_query_argument", "join_option_values"]


def join_option_values(args: Sequence[str], names: Sequence[str]) -> list[str]:
    """``--query VALUE`` written as ``--query=VALUE``, so argparse never reads VALUE as an
    option, whatever it starts with. Nothing after ``--`` is touched."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            out.extend(args[i:])
            break
        if a in names and i + 1 < len(args):
            out.append(f"{a}={args[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def add_query_argument(parser: argparse.ArgumentParser, *names: str, **kwargs: Any) -> None:
    """Add a query option whose value may start with '-'.

    argparse decides whether a word is an option before it knows which option takes
    it, so ``--query -quirk:yes`` fails. The parser given here (a sub-command's
    parser) rewrites its own arguments first; nothing else is changed.
    """
    parser.add_argument(*names, **kwargs)
    long_names = [n for n in names if n.startswith("--")]
    parse = parser.parse_known_args

    def parse_known_args(
        args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> Any:
        import sys

        given = sys.argv[1:] if args is None else list(args)
        return parse(join_option_values(given, long_names), namespace)

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign, assignment]  # patches this one parser; argparse's stubs overload the method per namespace type
