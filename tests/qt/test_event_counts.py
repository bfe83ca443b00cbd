"""An open of a package plus its automatic audit: each view updates once per change.

Counted with the rows table model's ``modelReset``, the session's query updates per
table, and how often the Dossier tab is told about the package and the digest computed.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui


def test_open_and_audit_reset_the_rows_table_once_and_update_each_query_once(
    window, sample_copy: Path, settings, monkeypatch
) -> None:
    from aa_review.core.session import dossier_session
    from aa_review.qt import controller

    settings.setValue("audit/auto", "true")
    resets: Counter[str] = Counter()
    stage = ["open"]
    window.rows.model.modelReset.connect(lambda: resets.update([stage[0]]))
    real_partial = window.show_partial

    def partial(p):  # the loader's first rows, shown while the rest loads
        stage[0] = "partial"
        try:
            real_partial(p)
        finally:
            stage[0] = "open"

    monkeypatch.setattr(window, "show_partial", partial)
    queries: Counter[str] = Counter()
    window.session.events.query_changed.connect(lambda r: queries.update([str(r.scope)]))
    told: Counter[str] = Counter()
    real_package = dossier_session.DossierSession.set_open_package
    real_facts = dossier_session.DossierSession.set_package_facts

    def told_package(self, *a, **k):
        told.update(["package"])
        return real_package(self, *a, **k)

    def told_facts(self, facts):
        told.update(["facts"])
        return real_facts(self, facts)

    monkeypatch.setattr(dossier_session.DossierSession, "set_open_package", told_package)
    monkeypatch.setattr(dossier_session.DossierSession, "set_package_facts", told_facts)
    digests: Counter[str] = Counter()
    real_digest = controller.compute_digest

    def digest(*a, **k):
        digests.update(["digest"])
        return real_digest(*a, **k)

    monkeypatch.setattr(controller, "compute_digest", digest)

    window.open_package(sample_copy)

    assert window.session.report is not None  # the audit ran
    assert resets["open"] == 1, resets  # the partial preview is the loader's, before
    # the findings table changes twice: the loading problems, then the audit's findings
    assert dict(queries) == {"rows": 1, "evidence": 1, "findings": 2}
    # the dossier is told once, at the audit's end, with the audit's digest
    assert dict(told) == {"package": 1, "facts": 1}
    # the one value: the dossier holds the session's facts, not a copy of the digest
    assert window.dossier.session._facts is window.session.facts
    assert window.session.digest == window.session.report.identity.package_digest
    assert digests["digest"] == 0  # the audit computed the digest; nobody hashed again


def test_without_an_audit_the_digest_is_computed_once_and_the_dossier_shares_it(
    window, sample_copy: Path, monkeypatch
) -> None:
    from aa_review.qt import controller

    calls: list[Path] = []
    real_digest = controller.compute_digest

    def digest(root, *a, **k):
        calls.append(Path(root))
        return real_digest(root, *a, **k)

    monkeypatch.setattr(controller, "compute_digest", digest)
    window.open_package(sample_copy)  # audit/auto is off in these tests
    window.controller.ensure_digest()  # the Dossier tab shown asks again: nothing new
    assert window.dossier.request_digest == window.controller.ensure_digest
    assert calls == [sample_copy]
    assert window.session.digest is not None
    assert window.dossier.session._facts is window.session.facts
