"""No function in aa_review grows past a screenful or two: a long one is split by what it builds."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import aa_review

ROOT = Path(aa_review.__file__).parent
LIMIT = 150
# The functions longer than LIMIT when the limit came in, each with its length then: none
# may grow, and an entry goes when its function is split (shrink this list, never extend it).
EXCEPTIONS = {
    "generator/_runtime.py::write_runtime_package": 175,  # writes one runtime file per block
    "demo/_sample_archive.py::sample_archive": 174,  # demo data: groups, epochs, experiments
    "qt/views/menus.py::build_actions": 154,  # one QAction per command of the menus
}


@functools.cache
def _lengths() -> dict[str, int]:
    """``"path::qualified.name"`` -> lines from ``def`` (decorators excluded) to its end."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found[f"{where}::{name}"] = (
                        (child.end_lineno or child.lineno) - child.lineno + 1
                    )
                visit(child, f"{name}.", where)
            else:
                visit(child, prefix, where)

    for path in sorted(ROOT.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        visit(ast.parse(path.read_text(encoding="utf-8")), "", where)
    return found


def test_no_function_is_longer_than_the_limit_unless_listed_and_none_listed_grows() -> None:
    lengths = _lengths()
    too_long = {name: n for name, n in lengths.items() if n > EXCEPTIONS.get(name, LIMIT)}
    assert too_long == {}, f"split these (at most {LIMIT} lines, or their listed length)"


def test_every_listed_exception_is_still_over_the_limit() -> None:
    lengths = _lengths()
    stale = {name for name in EXCEPTIONS if lengths.get(name, 0) <= LIMIT}
    assert stale == set(), "these were split or removed: delete them from EXCEPTIONS"
