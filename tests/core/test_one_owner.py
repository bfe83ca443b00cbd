"""One definition of the package facts: a second class drifting apart is caught here."""

from __future__ import annotations

import ast
from pathlib import Path

import aa_review

ROOT = Path(aa_review.__file__).parent


def test_one_class_named_package_facts_in_aa_review() -> None:
    defined = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "PackageFacts"
    ]
    assert defined == ["core/util/package_facts.py"]


def test_the_session_and_the_dossier_name_the_same_class() -> None:
    from aa_review.core import dossier, session
    from aa_review.core.util.package_facts import PackageFacts

    assert session.PackageFacts is dossier.PackageFacts is PackageFacts
