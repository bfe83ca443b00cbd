"""Packages for the review session's tests: the generated sample, and one with defects
whose audit has findings about many rows, about files and about contracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aa_review.core.session import ReviewSession, prepare_package


@pytest.fixture(scope="module")
def defects(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """120 rows: 5 rows cite hidden evidence, 3 carry a private path, an artifact breaks
    its contract (the generator names each defect's rows)."""
    from aa_review.generator import generate_package

    return generate_package(
        tmp_path_factory.mktemp("defects"),
        rows=120,
        seed=5,
        defects=["hidden_cited", "private_path", "contract_drift"],
        defect_rows={"hidden_cited": 5, "private_path": 3},
    )


@pytest.fixture(scope="module")
def audited(defects: Any) -> Any:
    """(prepared package, prepared audit findings) of the defects package."""
    from aa_review.core.audits import audit_package
    from aa_review.core.package import open_package
    from aa_review.core.session import prepare_findings

    pkg = open_package(defects.root)
    return prepare_package(pkg), prepare_findings(pkg, audit_package(pkg))


def open_in(session: ReviewSession, root: Path):  # type: ignore[no-untyped-def]
    from aa_review.core.package import open_package

    return session.open(prepare_package(open_package(root)))
