"""The window's audit in a process of its own gives the report the audit gives here."""

from __future__ import annotations

from pathlib import Path
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


@pytest.mark.parametrize("halted", [True, False])
def test_the_audit_child_ends_quietly_when_the_window_is_gone(
    generated_sample: Path, capfd: pytest.CaptureFixture[str], halted: bool
) -> None:
    """Quitting during an audit closes the pipe: the worker stops without a traceback
    (it printed BrokenPipeError before), whether it was told to stop or not."""
    import multiprocessing

    from aa_review.core.session._prepare import _audit_child

    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    stop = ctx.Event()
    if halted:
        stop.set()
    receive.close()  # the window went away
    _audit_child(str(generated_sample), send, stop, 0)  # returns, raises nothing
    assert stop.is_set()  # a closed pipe ends the work
    err = capfd.readouterr().err
    assert "Traceback" not in err and "BrokenPipeError" not in err
