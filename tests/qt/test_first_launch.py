"""First launch (issue 25, item 6): the demo made in the background with progress, a
hint to the Dossier tab shown once, status texts that say what is happening."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.gui


def test_the_demo_is_made_off_the_gui_thread_saying_so(
    window, qtbot, monkeypatch, tmp_path
) -> None:
    import aa_review.demo as demo
    from aa_review.qt import workers

    home = tmp_path / "fresh-demo"
    monkeypatch.setenv("AA_REVIEW_SAMPLE_DIR", str(home))
    assert not demo.sample_ready(home)
    real = demo.ensure_sample
    seen: dict[str, Any] = {}

    def watched(where: Path | None = None, progress: Any = None) -> Path:
        seen["thread"] = threading.current_thread()
        seen["status"] = window.state_label.text()
        seen["busy"] = window.progress.isVisibleTo(window)
        return real(where, progress=progress)

    monkeypatch.setattr(demo, "ensure_sample", watched)
    monkeypatch.setattr(workers, "synchronous", lambda: False)  # a real worker thread
    stages: list[str] = []
    orig = window.show_busy
    monkeypatch.setattr(
        window, "show_busy", lambda text, f=None: (stages.append(text), orig(text, f))[1]
    )
    window.open_demo()
    # the window is not blocked: it says what it is doing while the worker makes the demo
    assert stages and stages[0] == "Making the demo package (first run only)…"
    qtbot.waitUntil(lambda: window.session.package is not None, timeout=120_000)
    assert seen["thread"] is not threading.main_thread()
    assert seen["status"].startswith("Making the demo") and seen["busy"]
    assert any(s.startswith("Making the demo: the package") for s in stages)
    assert demo.sample_ready(home)
    assert window.session.package.root == home / demo.SAMPLE_PACKAGE_ID
    qtbot.waitUntil(
        lambda: not window.controller.busy("audit") and not window.controller.busy("hashes"),
        timeout=120_000,
    )
    window.dossier.close_workspace()


def test_the_dossier_hint_is_shown_once(window, qtbot, settings) -> None:
    from aa_review.qt.controller import DOSSIER_HINT

    window.open_demo()
    assert window.session.package is not None
    assert window.offer_button.isVisible() and window.offer_button.text() == DOSSIER_HINT
    window.offer_button.click()
    assert window.center.currentIndex() == 2  # the Dossier tab
    assert not window.offer_button.isVisible()
    window.dossier.close_workspace()
    window.dossier.close_workspace()
    # had the user found the tab without it, the hint goes as the tab comes forward
    window.settings.remove("hints/dossier_tab")
    window.open_demo()
    assert window.offer_button.text() == DOSSIER_HINT and window.offer_button.isVisible()
    window.show_page("rows")
    window.show_page("dossier")
    assert not window.offer_button.isVisible()
    # the next time (this window or another): no hint
    window.open_demo()
    assert window.offer_button.text() != DOSSIER_HINT or not window.offer_button.isVisible()
    window.dossier.close_workspace()


def test_the_findings_say_auditing_while_the_audit_runs(window, qtbot, settings) -> None:
    from aa_review.demo import bundled_package

    settings.setValue("audit/auto", "true")
    said: list[str] = []
    window.session.events.auditing_changed.connect(
        lambda on: said.append(window.findings.summary.text()) if on else None
    )
    window.open_package(bundled_package())
    assert said and said[0].startswith("Auditing…")
    assert "Run Audit" not in said[0]
    assert window.session.report is not None and not window.session.auditing
    assert "Auditing" not in window.findings.summary.text()
