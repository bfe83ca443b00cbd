"""The dossier package exports the names others use, and no more (issue 24).

Every name in ``aa_review.core.dossier.__all__`` must be imported, or read as an
attribute of the package, somewhere outside the package: in ``aa_review``, the
tests, the benchmarks or the packaging. A name nobody uses any more is dropped
from the list (its module still has it); a test of an internal name imports it
from its private module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import aa_review.core.dossier as dz

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "aa_review" / "core" / "dossier"
MODULE = "aa_review.core.dossier"


def _sources() -> Iterator[Path]:
    for top in ("aa_review", "tests", "benchmarks", "packaging"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".spec") or PACKAGE in path.parents:
                continue
            if path == Path(__file__).resolve():
                continue
            yield path


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def names_used(source: str) -> set[str]:
    """Names of the package a module imports from it or reads as its attributes."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    used: set[str] = set()
    aliases = {MODULE}  # the package spelled out: aa_review.core.dossier.X
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module == MODULE:
                used.update(a.name for a in node.names)
            elif node.module == "aa_review.core":
                aliases.update(a.asname or a.name for a in node.names if a.name == "dossier")
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.name == MODULE and a.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _dotted(node.value) in aliases:
            used.add(node.attr)
    return used


def test_the_scan_sees_each_way_of_using_the_package() -> None:
    source = (
        "from aa_review.core.dossier import Workspace, evaluate as ev\n"
        "import aa_review.core.dossier as dz\n"
        "from aa_review.core import dossier\n"
        "import aa_review.core.dossier\n"
        "dz.Role; dossier.Kind; aa_review.core.dossier.Outcome; other.Action\n"
    )
    assert names_used(source) == {"Workspace", "evaluate", "Role", "Kind", "Outcome"}


def test_every_exported_name_is_used_outside_the_package() -> None:
    used: set[str] = set()
    for path in _sources():
        used |= names_used(path.read_text(encoding="utf-8"))
    dead = sorted(set(dz.__all__) - used)
    assert dead == [], f"drop these from aa_review.core.dossier.__all__ (nobody uses them): {dead}"


def test_every_exported_name_is_exported_once_and_exists() -> None:
    assert len(dz.__all__) == len(set(dz.__all__))
    assert [n for n in dz.__all__ if not hasattr(dz, n)] == []
