"""The demo workspace written beside the demo package: deterministic, and it walks the lifecycle."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dossier_builder import DATA, DECIDER, EVALUATOR, LEAD, NOW, Clock, revision_file

from aa_review.core.dossier import (
    GATE_IDS,
    PrincipalRegistry,
    Workspace,
    evaluate,
    json_digest,
    parse_archive,
    parse_dossier,
)
from aa_review.core.package.digest import package_digest
from aa_review.demo._sample_archive import SAMPLE_PRINCIPALS, h, sample_archive
from aa_review.demo._sample_dossier import sample_dossier
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


# -- sample_dossier itself: its output is data the golden files hold ----------------------------
# dossier_passing.json is sample_dossier(sample_archive()) written by make_fixtures.py, key
# order kept; sample_dossier_bound.json is the demo's call shape (a far expiry and a bound
# package), sorted keys. Both were written once from the code; the test never regenerates them.
FAR = "2099-12-31T00:00:00Z"
BOUND = ({"package_id": "pkg_demo", "package_digest": h("pkg_demo")},)


@functools.cache
def _made(expires_at: str | None, packages: tuple[tuple[tuple[str, str], ...], ...]) -> str:
    """``sample_dossier``'s output as make_fixtures.py writes it (made once per test run)."""
    kwargs: dict[str, Any] = {"source_packages": [dict(p) for p in packages]}
    if expires_at is not None:
        kwargs["expires_at"] = expires_at
    return json.dumps(sample_dossier(sample_archive(), **kwargs), indent=2, ensure_ascii=False)


def _frozen(packages: Sequence[dict[str, str]]) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple(p.items()) for p in packages)


def test_sample_dossier_with_its_defaults_is_the_golden_passing_dossier_byte_for_byte() -> None:
    golden = (DATA / "dossier_passing.json").read_text(encoding="utf-8")
    assert _made(None, ()) + "\n" == golden  # same keys, same values, same key order


def test_sample_dossier_for_a_bound_package_is_its_golden_file() -> None:
    golden = json.loads((DATA / "sample_dossier_bound.json").read_text(encoding="utf-8"))
    made = json.loads(_made(FAR, _frozen(BOUND)))
    assert made == golden
    assert made["evidence"]["source_packages"] == [dict(p) for p in BOUND]
    assert made["evidence"]["expiry"] == {"expires_at": FAR}


def test_sample_dossier_passes_every_gate_until_it_expires(tmp_path: Path) -> None:
    pkg = fake_package(tmp_path / "pkg_demo")
    bound = [{"package_id": "pkg_demo", "package_digest": package_digest(pkg)}]
    archive = parse_archive(sample_archive())
    principals = PrincipalRegistry(SAMPLE_PRINCIPALS)
    default = parse_dossier(json.loads(_made(None, ())))
    for parsed, now in (
        (default, NOW),
        (parse_dossier(json.loads(_made(FAR, _frozen(bound)))), NOW),
    ):
        record = evaluate(
            parsed,
            archive,
            principals,
            now,
            EVALUATOR,
            package_locator={"pkg_demo": pkg}.get,
            package_contamination=lambda root: [],
        )
        assert record.conclusions() == dict.fromkeys(GATE_IDS, "pass")
        assert record.eligible_if_decided and record.dossier_reason_codes == ()
    # Its seals hold: the authorization covers the final evidence, the plan its parameters.
    tree = json.loads(_made(None, ()))
    assert tree["authorization"]["evidence_digest"] == json_digest(tree["evidence"])
    power = tree["evidence"]["power_analysis"]
    assert power["simulation"]["inputs_digest"] == json_digest(power["parameters"])
    after = datetime(2026, 6, 2, tzinfo=UTC)  # past the default expiry
    expired = evaluate(default, archive, principals, after, EVALUATOR)
    assert not expired.eligible_if_decided and expired.dossier_reason_codes
