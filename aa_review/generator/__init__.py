"""Deterministic generator of compiled packages, clean or with recorded defects (Qt-free).

Tests, benchmarks and the bundled demo package come from here. A package is a
vendor-invoice reconciliation task with a baseline and a revised attempt, their
traces, grading and review loop, and the ``experience_compiler/`` tree the
Experience Compiler 0.2.1 (or 0.1.x) would write for it.
"""

from __future__ import annotations

from ._corpus import generate_corpus
from ._defects import DEFECT_NAMES, DEFECTS
from ._derive import derive_package
from ._derive_spec import CONTRACT_EDITS, ChangeRecord, ChangeSpec, ContractEdit, DerivedPackage
from ._package import MIN_ROWS, generate_package
from ._result import GeneratedPackage, InjectedDefect
from ._variation import VARIED, Variation

__all__ = [
    "generate_package",
    "generate_corpus",
    "GeneratedPackage",
    "InjectedDefect",
    "DEFECTS",
    "DEFECT_NAMES",
    "MIN_ROWS",
    "derive_package",
    "ChangeSpec",
    "ChangeRecord",
    "ContractEdit",
    "DerivedPackage",
    "CONTRACT_EDITS",
    "Variation",
    "VARIED",
]
