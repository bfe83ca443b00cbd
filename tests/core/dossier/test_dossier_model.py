"""Parsing: structure only; absent evidence is representable; archive and registry rules."""

from __future__ import annotations

from typing import Any

import pytest
from dossier_builder import DossierBuilder, archive, passing, principals
from pydantic import ValidationError

from aa_review.core.dossier import (
    ArchiveSchemaError,
    DossierSchemaError,
    DossierState,
    Kind,
    PrincipalRegistry,
    PrincipalRegistryError,
    Role,
    parse_archive,
    parse_dossier,
)


def test_passing_fixture_parses() -> None:
    p = parse_dossier(passing())
    assert p.model.state is DossierState.DRAFT
    assert p.model.evidence.power_analysis.parameters.clusters_per_arm == 12


def test_empty_evidence_is_representable() -> None:
    tree = passing()
    tree["evidence"] = {}
    assert parse_dossier(tree).model.evidence.coverage is None


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("activation", "active"),
        ("kind", "SomethingElse"),
        ("spec", "SPEC-025"),
        ("revision", 0),
        ("revision", "1"),
        ("state", "approved"),
        ("evidence.power_analysis.parameters.icc", "0.1"),
        ("evidence.power_analysis.parameters.n_sim", 4000.0),
        ("evidence.power_analysis.sealed", "true"),
        ("evidence.effective_sample.groups.0.n_units", True),
        ("evidence.expiry.expires_at", "2026-06-01"),
        ("evidence.expiry.expires_at", "2026-06-01T00:00:00+00:00"),
        ("evidence.coverage.stages", {"0": "sufficient"}),
        ("evidence", []),
    ],
)
def test_structurally_invalid_dossiers_are_refused(path: str, value: Any) -> None:
    tree = DossierBuilder().set(path, value).build(relink=False)
    with pytest.raises(DossierSchemaError) as info:
        parse_dossier(tree)
    assert info.value.reason_code == "DOSSIER_SCHEMA_INVALID"
    assert info.value.problems


def test_missing_identity_field_is_schema_invalid() -> None:
    with pytest.raises(DossierSchemaError):
        parse_dossier(DossierBuilder().delete("activation").build(relink=False))
    with pytest.raises(DossierSchemaError):
        parse_dossier(["not", "an", "object"])


def test_enumerations_inside_evidence_are_left_to_the_gates() -> None:
    # A value outside an enumeration is evidence the gate judges, not a parse error.
    tree = DossierBuilder().evidence("effective_sample.analysis_unit", "attempt").build()
    assert parse_dossier(tree).model.evidence.effective_sample.analysis_unit == "attempt"


def test_models_are_frozen() -> None:
    m = parse_dossier(passing()).model
    with pytest.raises(ValidationError):
        m.revision = 2  # type: ignore[misc]


def test_archive_parses_and_indexes() -> None:
    a = parse_archive(archive())
    assert "pool-00" in a.groups and a.exposure["ep-2026"] == (0, 0)
    assert a.graph.component("pool-01") == "pool-00"  # shared template


@pytest.mark.parametrize(
    "mutate",
    [
        lambda a: a["groups"].append(dict(a["groups"][0])),
        lambda a: a["items"].append({"group_id": "train-1"}),
        lambda a: a["epochs"][0].update(sealed="yes"),
        lambda a: a["exposure_ledger"].append({"epoch_id": "ep-2026"}),
    ],
)
def test_untrustworthy_archive_is_refused(mutate: Any) -> None:
    a = archive()
    mutate(a)
    with pytest.raises(ArchiveSchemaError):
        parse_archive(a)


def test_principal_registry() -> None:
    reg = PrincipalRegistry(
        [*principals(), {"principal_id": "p-odd", "role": "chief_wizard", "kind": "wizard"}]
    )
    assert reg.is_human_maintainer("p-maint-eve")
    assert not reg.is_human_maintainer("p-maint-bot")  # maintainer role, agent kind
    assert not reg.is_human_maintainer("p-lead-ada")
    assert not reg.is_human_maintainer("nobody")
    odd = reg.get("p-odd")
    assert odd is not None and odd.role is Role.AGENT and odd.kind is Kind.AGENT
    with pytest.raises(PrincipalRegistryError):
        PrincipalRegistry([*principals(), principals()[0]])
    with pytest.raises(PrincipalRegistryError):
        PrincipalRegistry([{"role": "agent"}])
