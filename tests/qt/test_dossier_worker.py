"""The dossier panel's worker: a job's result is delivered before the panel stops being busy."""

from __future__ import annotations

import pytest

from aa_review.qt.workers import SerialWorker

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("fails", [False, True])
def test_busy_clears_only_after_the_result_was_delivered(
    qtbot, monkeypatch: pytest.MonkeyPatch, fails: bool
) -> None:
    """``busy`` is true "until the last job's signal has been delivered": whoever waits for
    ``busy`` to clear finds the result already taken (the panel's ``last_result``)."""
    monkeypatch.setenv("AA_REVIEW_SYNCHRONOUS", "0")  # a real thread, queued signals
    worker = SerialWorker()
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


def test_the_panel_has_its_result_when_it_stops_being_busy(
    window, tmp_path, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever waits for the Dossier panel to be idle (a test, a user's next click) finds
    the step's result and the new state in place, on a real worker thread."""
    from aa_review.core.dossier import Action
    from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample

    demo = ensure_sample(tmp_path / "demo")
    monkeypatch.setenv("AA_REVIEW_SYNCHRONOUS", "0")
    window.open_package(demo / SAMPLE_PACKAGE_ID)
    qtbot.waitUntil(
        lambda: window.session.package is not None and not window.controller.busy("load"),
        timeout=60_000,
    )
    assert window.open_workspace(demo / "dossier_workspace")
    window.center.setCurrentWidget(window.dossier)  # the panel fills when it is shown
    panel = window.dossier
    panel.confirm = lambda title, text: True
    panel.inform = lambda title, text: None
    qtbot.waitUntil(lambda: not panel.busy and panel.state is not None, timeout=60_000)
    seen: list[object] = []
    panel.worker.busy_changed.connect(
        lambda busy: seen.append(None if busy else (panel.last_result, panel.state))
    )
    panel.set_actor("p-lead-ada")
    assert panel.request(Action.BIND) is None  # the result comes later
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=60_000)
    result, st = seen[-1]  # type: ignore[misc]
    assert result is not None and result.outcome.value == "applied"
    assert st is not None and panel.ws.revision(*panel.current)["state"] == "evidence_bound"
    panel.close_workspace()
