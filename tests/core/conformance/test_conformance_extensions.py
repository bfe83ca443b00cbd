"""The package-binding extension (docs/decisions.md) fires only when its key is present.

A dossier written from the spec has no ``evidence.source_packages``: no locator, hook or
package state may change its verdict. With the key present, each extension code fires
on the condition docs/decisions.md gives for it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from spec_fixture import DECIDER, EVAL, LEAD, NOW, Variant, build
from test_conformance_freshness import SECTIONS
from test_conformance_lifecycle import D

from aa_review.core.dossier import (
    PrincipalRegistry,
    Workspace,
    evaluate,
    parse_archive,
    parse_dossier,
)
from aa_review.core.package.digest import package_digest


def _raise(_root: Path) -> list[str]:
    raise RuntimeError("the audit engine is not available")


def run(v: Variant, **kw: Any):
    return evaluate(
        parse_dossier(v.dossier),
        parse_archive(v.archive),
        PrincipalRegistry(v.principals),
        NOW,
        EVAL,
        **kw,
    )


def package(tmp_path: Path, name: str = "pkg-a") -> tuple[Path, dict[str, str]]:
    root = tmp_path / name
    root.mkdir()
    (root / "rows.jsonl").write_text('{"id": "r1"}\n', encoding="utf-8")
    return root, {"package_id": name, "package_digest": package_digest(root)}


@pytest.mark.parametrize(
    "locator",
    [None, lambda _pid: None, lambda _pid: Path("/nonexistent")],
    ids=["no-locator", "locator-finds-nothing", "locator-bad-path"],
)
@pytest.mark.parametrize(
    "hook",
    [None, _raise, lambda _root: ["row-1"]],
    ids=["no-hook", "hook-raises", "hook-finds-rows"],
)
def test_a_spec_dossier_is_unaffected_by_the_extension(locator: Any, hook: Any) -> None:
    rec = run(build(), package_locator=locator, package_contamination=hook)
    assert rec.eligible_if_decided is True
    assert rec.dossier_reason_codes == ()


def test_an_empty_package_list_binds_nothing() -> None:
    rec = run(build([("ev", "source_packages", [])]), package_contamination=_raise)
    assert rec.eligible_if_decided is True


def test_a_spec_dossier_gets_the_eighteen_section_digests_of_2_3(
    make_ws: Callable[..., Workspace],
) -> None:
    v = build()
    ws = make_ws(v, package_locator=lambda _pid: None, package_contamination=_raise)
    ws.import_dossier(v.dossier)
    ws.bind(D, 1, LEAD)
    assert set(ws.revision(D, 1)["binding"]["section_digests"]) == set(SECTIONS)
    assert ws.check(D, 1, EVAL).state_after == {"1": "independently_checked"}
    assert ws.decide_eligible(D, 1, DECIDER).state_after == {"1": "eligible"}


def bound_with_package(make_ws: Callable[..., Workspace], tmp_path: Path) -> tuple[Workspace, Path]:
    """A workspace holding the spec dossier bound, with one package it can find and audit."""
    root, entry = package(tmp_path)
    v = build([("ev", "source_packages", [entry])])
    ws = make_ws(v, package_locator={"pkg-a": root}.get, package_contamination=lambda _root: [])
    ws.import_dossier(v.dossier)
    assert ws.bind(D, 1, LEAD).state_after == {"1": "evidence_bound"}
    return ws, root


def test_with_packages_bound_the_binding_also_digests_them(
    make_ws: Callable[..., Workspace], tmp_path: Path
) -> None:
    ws, _root = bound_with_package(make_ws, tmp_path)
    assert set(ws.revision(D, 1)["binding"]["section_digests"]) == {*SECTIONS, "source_packages"}


def test_each_extension_code_fires_on_its_condition(tmp_path: Path) -> None:
    root, entry = package(tmp_path)
    v = build([("ev", "source_packages", [entry])])
    found = {"pkg-a": root}.get
    clean = run(v, package_locator=found, package_contamination=lambda _root: [])
    assert clean.eligible_if_decided is True

    rec = run(v, package_locator=found, package_contamination=lambda _root: ["row-3", "row-9"])
    assert rec.gates["G9"].reason_codes == ("G9_CONTAMINATION_PACKAGE_HIDDEN_EVIDENCE",)
    assert rec.gates["G9"].detail["package_rows_citing_hidden_evidence"] == {
        "pkg-a": ["row-3", "row-9"]
    }

    for hook in (None, _raise):
        rec = run(v, package_locator=found, package_contamination=hook)
        assert rec.gates["G9"].status.value == "unknown"
        assert rec.gates["G9"].reason_codes == ("G9_PACKAGE_CONTAMINATION_UNVERIFIED",)

    rec = run(v, package_contamination=lambda _root: [])
    assert rec.dossier_reason_codes == ("DOSSIER_PACKAGE_UNVERIFIABLE:pkg-a",)
    rec = run(v, package_locator=lambda _pid: None, package_contamination=lambda _root: [])
    assert rec.dossier_reason_codes == ("DOSSIER_PACKAGE_UNRESOLVED:pkg-a",)

    bad = build(
        [("ev", "source_packages", [{"package_id": "pkg-a", "package_digest": "sha256:nope"}])]
    )
    rec = run(bad, package_locator=found, package_contamination=lambda _root: [])
    assert rec.dossier_reason_codes == ("DOSSIER_PACKAGE_BINDING_INVALID:pkg-a",)


def test_a_changed_package_expires_a_bound_revision(
    make_ws: Callable[..., Workspace], tmp_path: Path
) -> None:
    ws, root = bound_with_package(make_ws, tmp_path)
    (root / "rows.jsonl").write_text('{"id": "r1"}\n{"id": "r2"}\n', encoding="utf-8")
    r = ws.check(D, 1, EVAL)
    assert (r.outcome.value, r.reason) == ("expired", "DOSSIER_PACKAGE_CHANGED:pkg-a")
