"""The window's audit in a process of its own gives the report the audit gives here."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from aa_review.core.audits import audit_package
from aa_review.core.package import open_package
from aa_review.core.session import Cancelled, audit_in_process, prepare_findings


def test_the_report_and_where_it_points_are_the_same(defects: Any) -> None:
    pkg = open_package(defects.root)
    here = audit_package(pkg)
    seen: list[Any] = []
    there = audit_in_process(defects.root, progress=seen.append)
    assert there.summary_line() == here.summary_line()
    assert [f.code for f in there.findings] == [f.code for f in here.findings]
    assert there.identity.package_digest == here.identity.package_digest
    assert seen and all(0.0 <= p.fraction <= 1.0 for p in seen)
    # linked to this process's index, each finding locates the same rows
    a, b = prepare_findings(pkg, here).index, prepare_findings(pkg, there).index
    for i in range(len(a)):
        assert np.array_equal(a.rows_of_finding(i), b.rows_of_finding(i)), here.findings[i].code
    assert any(len(a.rows_of_finding(i)) == 5 for i in range(len(a)))


def test_a_cancelled_audit_stops(defects: Any) -> None:
    with pytest.raises(Cancelled):
        audit_in_process(defects.root, cancelled=lambda: True)


def test_an_audit_that_cannot_run_says_why(tmp_path) -> None:
    with pytest.raises(RuntimeError, match="not a compiled package"):
        audit_in_process(tmp_path)
