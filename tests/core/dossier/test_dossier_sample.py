"""The demo workspace written beside the demo package: deterministic, and it walks the lifecycle."""

from __future__ import annotations

from pathlib import Path

from dossier_builder import DECIDER, EVALUATOR, LEAD, Clock, revision_file

from aa_review.core.dossier import Workspace
from aa_review.demo.sample import SAMPLE_DOSSIER_IDS, write_sample_workspace


def fake_package(root: Path) -> Path:
    (root / "experience_compiler").mkdir(parents=True)
    (root / "experience_compiler" / "rows.jsonl").write_text('{"row_id": "r1"}\n')
    return root


def test_demo_workspace_is_deterministic_and_steps_through(tmp_path: Path) -> None:
    pkg = fake_package(tmp_path / "pkg_demo")
    write_sample_workspace(tmp_path / "ws1", pkg)
    write_sample_workspace(tmp_path / "ws2", pkg)
    # The same keys of the user's key store sign both; only the journal's own id differs,
    # so that each journal has a genesis hash of its own (witnessed apart, spec 10.3).
    for name in ("archive.json", "principals.json"):
        assert (tmp_path / "ws1" / name).read_bytes() == (tmp_path / "ws2" / name).read_bytes()
    r1, r2 = (revision_file(tmp_path / w, SAMPLE_DOSSIER_IDS[0], 1) for w in ("ws1", "ws2"))
    assert r1.read_bytes() == r2.read_bytes()
    j1, j2 = (sorted((tmp_path / w / "journal").iterdir()) for w in ("ws1", "ws2"))
    assert j1[0].read_bytes() != j2[0].read_bytes() and len(j1) == len(j2) == 2
    ready, dirty = SAMPLE_DOSSIER_IDS
    with Workspace.open_folder(
        tmp_path / "ws1",
        clock=Clock(),
        package_locator={"pkg_demo": pkg}.get,
        package_contamination=lambda root: [],
    ) as ws:
        assert not ws.read_only and ws.dossier_ids() == sorted(SAMPLE_DOSSIER_IDS)
        assert ws.revision(ready, 1)["evidence"]["source_packages"][0]["package_id"] == "pkg_demo"
        for d in (ready, dirty):
            ws.bind(d, 1, LEAD)
            ws.check(d, 1, EVALUATOR)
        assert ws.decide_eligible(ready, 1, DECIDER).state_after == {"1": "eligible"}
        assert ws.revision(dirty, 1)["state"] == "deferred"
        assert ws.revision(dirty, 1)["check"]["gates"]["G9"]["status"] == "fail"
        (pkg / "experience_compiler" / "rows.jsonl").write_text("changed\n")
        assert ws.freshness(ready, 1).expiring == ("DOSSIER_PACKAGE_CHANGED:pkg_demo",)
        assert ws.verify_journal()["valid"]


def test_the_varied_demo_package_keeps_the_demo_dossiers_outcomes(tmp_path: Path) -> None:
    """The real demo package (varied, with defects) bound with the audit's contamination
    hook: the ready dossier still reaches eligible, the contaminated one is deferred by G9."""
    from aa_review.core.audits import contamination_rows
    from aa_review.demo import SAMPLE_PACKAGE_ID, ensure_sample

    home = ensure_sample(tmp_path / "demo")
    pkg = home / SAMPLE_PACKAGE_ID
    assert contamination_rows(pkg) == []  # hidden items are catalogued, never cited
    ready, dirty = SAMPLE_DOSSIER_IDS
    with Workspace.open_folder(
        home / "dossier_workspace",
        clock=Clock(),
        package_locator={SAMPLE_PACKAGE_ID: pkg}.get,
        package_contamination=contamination_rows,
    ) as ws:
        for d in (ready, dirty):
            ws.bind(d, 1, "p-lead-ada")
            ws.check(d, 1, "p-eval-cy")
        assert ws.revision(ready, 1)["check"]["gates"]["G9"]["status"] == "pass"
        assert ws.decide_eligible(ready, 1, "p-maint-eve").state_after == {"1": "eligible"}
        assert ws.revision(dirty, 1)["state"] == "deferred"
        assert ws.revision(dirty, 1)["check"]["gates"]["G9"]["status"] == "fail"
