"""``aa-review completion bash|zsh|tcsh``: a shell completion script, made by shtab."""

from __future__ import annotations

import argparse
import sys

__all__ = ["register", "run", "SHELLS", "mark_paths"]

SHELLS = ("bash", "zsh", "tcsh")

# What an argument completes to, by its dest, unless it says so itself (``action.complete``
# set to ``shtab.FILE`` or ``shtab.DIRECTORY``). Package folders, corpora and output folders
# are directories; dossiers, archives, registries and journals are files. An argument whose
# metavar is not a plain path (``ID=FOLDER``) completes to nothing.
_DIRECTORIES = frozenset({"package", "path", "out", "folder", "workspace", "packages"})
_FILES = frozenset({"dossier", "archive", "principals", "journal", "file", "schema", "output"})


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh, tcsh)",
        description="Print a completion script for aa-review's commands, options and package "
        "paths. bash: add 'eval \"$(aa-review completion bash)\"' to ~/.bashrc. zsh: "
        "'aa-review completion zsh > ~/.zfunc/_aa-review' with ~/.zfunc on $fpath before "
        "compinit. Exit 0: printed; 2: unknown shell.",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=run)


def mark_paths(parser: argparse.ArgumentParser) -> None:
    """Tell shtab which arguments of every (sub-)command take a folder or a file."""
    import shtab

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases share a parser
                mark_paths(child)
            continue
        lazy = getattr(action, "lazy_choices", None)
        if lazy is not None:  # choices read only when used (``generate --defect``'s names)
            action.choices = lazy()
        if getattr(action, "complete", None) is not None or action.choices is not None:
            continue
        if action.nargs == 0 or "=" in str(action.metavar or ""):
            continue
        if action.dest in _DIRECTORIES:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]  # shtab's documented hook, an attribute argparse's stubs do not declare
        elif action.dest in _FILES:
            action.complete = shtab.FILE  # type: ignore[attr-defined]  # shtab's documented hook, an attribute argparse's stubs do not declare


def run(args: argparse.Namespace) -> int:
    import shtab

    from aa_review.cli import build_parser

    parser = build_parser()
    mark_paths(parser)
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0
