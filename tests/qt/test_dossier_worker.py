"""The dossier panel's worker: a job's result is delivered before the panel stops being busy."""

from __future__ import annotations

import pytest

from aa_review.qt.views.dossier_worker import DossierWorker

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("fails", [False, True])
def test_busy_clears_only_after_the_result_was_delivered(
    qtbot, monkeypatch: pytest.MonkeyPatch, fails: bool
) -> None:
    """``busy`` is true "until the last job's signal has been delivered": whoever waits for
    ``busy`` to clear finds the result already taken (the panel's ``last_result``)."""
    monkeypatch.setenv("AA_REVIEW_SYNCHRONOUS", "0")  # a real thread, queued signals
    worker = DossierWorker()
    seen: list[tuple[str, object]] = []
    # Connected after construction, as the panel connects its handlers.
    worker.done.connect(lambda token, result: seen.append(("done", result)))
    worker.failed.connect(lambda token, message: seen.append(("failed", token)))
    worker.busy_changed.connect(lambda busy: seen.append(("busy", busy)))

    def job() -> int:
        if fails:
            raise ValueError("no")
        return 42

    try:
        with qtbot.waitSignal(worker.busy_changed, timeout=60_000, check_params_cb=lambda b: not b):
            worker.submit(("action", 0), job)
        outcome = ("failed", ("action", 0)) if fails else ("done", 42)
        assert seen == [("busy", True), outcome, ("busy", False)]
        assert not worker.busy
    finally:
        worker.stop()
