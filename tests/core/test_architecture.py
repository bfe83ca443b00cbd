"""The layers hold: import-linter's contracts, the core without Qt, and a tidy tree."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "aa_review" / "core"


def _contracts() -> list[dict]:
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return doc["tool"]["importlinter"]["contracts"]


def test_import_linter_contracts_hold() -> None:
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    for contract in _contracts():
        assert f"{contract['name']} KEPT" in proc.stdout, contract["name"]


def test_every_part_of_the_core_sits_in_a_layer() -> None:
    """A new module or package at the root of core/ must be given its layer."""
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    placed = {name.strip() for layer in layers for name in layer.split("|")}
    parts = {
        p.stem if p.is_file() else p.name
        for p in CORE.iterdir()
        if (p.suffix == ".py" and p.name != "__init__.py")
        or (p.is_dir() and (p / "__init__.py").exists())
    }
    assert parts, "no module found under aa_review/core"
    assert sorted(f"aa_review.core.{p}" for p in parts if f"aa_review.core.{p}" not in placed) == []
    assert layers[0].strip() == "aa_review.qt | aa_review.cli"


def test_the_generator_is_only_for_the_demo_and_the_generate_command() -> None:
    (rule,) = [c for c in _contracts() if c.get("forbidden_modules") == ["aa_review.generator"]]
    assert {"aa_review.core", "aa_review.cli", "aa_review.qt"} <= set(rule["source_modules"])
    allowed = {line.split(" -> ")[0] for line in rule["ignore_imports"]}
    assert allowed == {"aa_review.demo", "aa_review.cli.generate_cmd"}


def test_modules_are_named_for_what_they_hold() -> None:
    """No ``x_more.py`` / ``x_base.py`` split off because ``x.py`` got long."""
    named = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "aa_review").rglob("*.py")
        if p.stem.endswith(("_more", "_base"))
    }
    assert named == set()


# The start of a script run in a process where importing Qt fails.
_NO_QT = textwrap.dedent("""
    import sys

    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
                raise ImportError(f"blocked: {name}")
            return None

    sys.meta_path.insert(0, Block())
""")


def test_core_and_cli_import_without_qt() -> None:
    script = _NO_QT + textwrap.dedent("""
        import importlib, pkgutil

        import aa_review.core, aa_review.cli
        for pkg in (aa_review.core, aa_review.cli):
            for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
                importlib.import_module(mod.name)
        assert not any(m.startswith(("PySide6", "pyqtgraph")) for m in sys.modules)
        print("ok")
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("ok")


def test_the_session_tests_pass_with_qt_blocked() -> None:
    """The review session and the selection hub hold without Qt: their tests run in a
    process where importing PySide6, shiboken6 or pyqtgraph fails."""
    script = _NO_QT + textwrap.dedent("""
        import pytest
        code = pytest.main(["-q", "-p", "no:pytest-qt", "-p", "no:cacheprovider",
                            "-W", "ignore::pytest.PytestConfigWarning",
                            "tests/core/session"])
        assert not any(m.startswith(("PySide6", "pyqtgraph")) for m in sys.modules)
        sys.exit(code)
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout
