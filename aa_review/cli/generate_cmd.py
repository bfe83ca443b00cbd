"""``aa-review generate OUT``: write generated packages (clean or with named defects)."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aa_review.cli._common import EXIT_OK, EXIT_UNUSABLE, emit_json, err

if TYPE_CHECKING:  # the generator (numpy) is imported where used, not for --help
    from aa_review.generator import GeneratedPackage

__all__ = ["register", "run"]

EXIT_USAGE = 2


def defect_names() -> tuple[str, ...]:
    from aa_review.generator import DEFECT_NAMES

    return DEFECT_NAMES


class _DefectChoice(argparse._AppendAction):
    """``--defect NAME``: checked against the generator's names when one is given.

    The names live in the generator, which imports numpy; a parser's ``choices`` are read
    to format ``--help`` too, so they are filled only here, when a name is checked (with
    the same message and closest-name hint as any choice). ``lazy_choices`` gives them to
    the completion script.
    """

    lazy_choices = staticmethod(defect_names)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        self.choices = defect_names()
        parser._check_value(self, values)
        super().__call__(parser, namespace, values, option_string)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "generate",
        help="write a generated package (or a corpus) for tests and demos",
        description="Write a deterministic compiled package into OUT/<package_id>/: the same "
        "arguments give byte-identical folders. --defect injects a named defect (repeatable) "
        "and prints where it went. "
        "Exit 0: written; 2: bad arguments or the folder cannot be written.",
    )
    p.add_argument("out", nargs="?", help="folder that receives the package root(s)")
    p.add_argument(
        "--rows", type=int, default=60, help="training rows across the 23 row files (default 60)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the content (default 0)")
    p.add_argument(
        "--format-version",
        choices=("v0.2", "v0.1"),
        default="v0.2",
        help="package format the compiler generation writes (default v0.2)",
    )
    p.add_argument(
        "--package-id", help="package id and folder name (default pkg_recon_s<seed>_n<rows>)"
    )
    p.add_argument(
        "--defect",
        default=[],
        metavar="NAME",
        action=_DefectChoice,
        help="inject this defect (repeatable; see --list-defects)",
    )
    p.add_argument(
        "--corpus", type=int, metavar="COUNT", help="write COUNT packages (seeds SEED, SEED+1, ...)"
    )
    p.add_argument(
        "--list-defects", action="store_true", help="print the defect names and what each does"
    )
    p.add_argument(
        "--lean",
        action="store_true",
        help="write only what opening a package reads (for load benchmarks; not a faithful "
        "package: an audit reports the missing files; no --defect)",
    )
    p.add_argument(
        "--varied",
        action="store_true",
        help="rows differ as compiler 0.2.1's do not: a catalog of 400 evidence items (12 "
        "hidden), each trace step's rows citing a subset, scores spread per row, about one "
        "step in 97 citing a hidden item (for benchmarks and linked views)",
    )
    p.add_argument(
        "--derive-from",
        metavar="PACKAGE",
        help="instead, write a changed copy of PACKAGE into OUT (same folder name unless "
        "--package-id), with the changes given by --change, and print what was changed",
    )
    p.add_argument(
        "--change",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --derive-from: how many of a change, e.g. rows_changed=3, evidence_hidden=1, "
        "contract_edits=column_added,output_removed (repeatable; names in docs/diff.md)",
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON document")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from aa_review.generator import (
        DEFECT_NAMES,
        DEFECTS,
        VARIED,
        generate_corpus,
        generate_package,
    )

    if args.list_defects:
        width = max(len(n) for n in DEFECT_NAMES)
        for name, text in DEFECTS:
            print(f"{name:<{width}}  {text}")
        return EXIT_OK
    if not args.out:
        err("generate: OUT is required (or use --list-defects)")
        return EXIT_USAGE
    if args.derive_from or args.change:
        return _derive(args)
    try:
        if args.corpus is not None:
            if args.corpus < 1:
                err("generate: --corpus needs a positive COUNT")
                return EXIT_USAGE
            if args.package_id:
                err("generate: --package-id cannot name a corpus")
                return EXIT_USAGE
            if args.lean or args.varied:
                err("generate: --lean and --varied are for one package, not a corpus")
                return EXIT_USAGE
            results = generate_corpus(
                Path(args.out),
                args.corpus,
                rows=args.rows,
                seed=args.seed,
                version=args.format_version,
                defects=[args.defect] if args.defect else None,
            )
        else:
            results = [
                generate_package(
                    Path(args.out),
                    rows=args.rows,
                    seed=args.seed,
                    package_id=args.package_id,
                    version=args.format_version,
                    defects=args.defect,
                    lean=args.lean,
                    variation=VARIED if args.varied else None,
                )
            ]
    except (ValueError, FileExistsError) as exc:
        err(f"generate: {exc}")
        return EXIT_USAGE
    except OSError as exc:
        err(f"generate: {args.out}: cannot be written ({exc.strerror or exc})")
        return EXIT_UNUSABLE
    if args.json:
        emit_json([_doc(r) for r in results])
    else:
        for r in results:
            _print_text(r)
    return EXIT_OK


def _doc(r: Any) -> dict[str, Any]:
    d: dict[str, Any] = dataclasses.asdict(r)
    d["root"] = str(d["root"])
    return d


def _print_text(r: GeneratedPackage) -> None:
    out = sys.stdout
    print(f"{r.root}  {r.row_count} rows  ({r.version}, seed {r.seed})", file=out)
    for d in r.defects:
        where = d.file or ""
        if d.line:
            where += f":{d.line}"
        ids = " ".join(x for x in (d.row_id, d.evidence_id, d.ref) if x)
        print(f"  defect {d.name:<24} {where}  {ids}".rstrip(), file=out)


def _derive(args: argparse.Namespace) -> int:
    from aa_review.core.util.errors import PackageError
    from aa_review.generator import ChangeSpec, derive_package
    from aa_review.generator._derive_spec import parse_change

    if not args.derive_from:
        err("generate: --change needs --derive-from PACKAGE")
        return EXIT_USAGE
    try:
        # Each value has its field's type (parse_change checks it against the default).
        changes: dict[str, Any] = dict(parse_change(c) for c in args.change)
        spec = ChangeSpec(**changes)
        made = derive_package(
            Path(args.derive_from), Path(args.out), spec, seed=args.seed, package_id=args.package_id
        )
    except (ValueError, FileExistsError, PackageError) as exc:
        err(f"generate: {exc}")
        return EXIT_USAGE
    except OSError as exc:
        err(f"generate: {args.out}: cannot be written ({exc.strerror or exc})")
        return EXIT_UNUSABLE
    record = dataclasses.asdict(made.changes)
    if args.json:
        emit_json({"root": str(made.root), "source": str(made.source), "changes": record})
        return EXIT_OK
    print(f"{made.root}  derived from {made.source}")
    for name, value in record.items():
        if value:
            n = len(value)
            print(f"  {name:<26} {n}")
    return EXIT_OK
