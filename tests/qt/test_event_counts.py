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
    real_package = dossier_session.DossierSession.set_package
    real_facts = dossier_session.DossierSession.set_package_facts

    def told_package(self, *a, **k):
        told.update(["package"])
        return real_package(self, *a, **k)

    def told_facts(self, facts):
        told.update(["facts"])
        return real_facts(self, facts)

    monkeypatch.setattr(dossier_session.DossierSession, "set_package", told_package)
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
    assert window.dossier.session._facts.digest == window.session.digest is not None
    assert digests["digest"] == 0  # the audit computed the digest; nobody hashed again
