"""The dossier mutation test: every field of a passing dossier and archive, and random edits.

A fixed budget of the long campaign (``./dev fuzz dossier``): the representative
per-field walk of :func:`mutations.field_mutations` (every field shape deleted, set
null, emptied and retyped) and a derandomized hypothesis run of one-to-three-edit
mutants, each through the headless ``Workspace`` and judged by the invariants of
:data:`mutations.INVARIANTS` (sections 1.1, 4, 5, 9, 10, 11 and 15). A failure lists the
mutant, the invariant and the result, one line each.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mutations import (
    INVARIANTS,
    REQUIRED,
    SECTIONS,
    Change,
    Mutation,
    Outcome,
    base_variant,
    field_mutations,
    materialize,
    need_of,
    random_mutation,
    run_mutation,
    scratch_parent,
    violations,
)
from spec_fixture import DELETE, spec_digest

WALK = field_mutations(representative=True)
# The walk by where it edits: each evidence section, the dossier root, the archive.
AREAS = (*SECTIONS, "dossier", "archive")


def _area(m: Mutation) -> str:
    c = m.changes[0]
    if c.place == "arc":
        return "archive"
    if c.path[:1] == ("evidence",) and len(c.path) > 1:
        return str(c.path[1])
    return "dossier"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    parent = scratch_parent()
    if parent is None:
        yield tmp_path_factory.mktemp("mutants")
        return
    folder = Path(tempfile.mkdtemp(prefix="aa-review-mutants-", dir=parent))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def walked(work: Path) -> dict[str, list[tuple[Mutation, Outcome]]]:
    """Every mutant of the walk run once, by area."""
    out: dict[str, list[tuple[Mutation, Outcome]]] = {a: [] for a in AREAS}
    for i, m in enumerate(WALK):  # every third checked mutant is projected too (budget)
        out[_area(m)].append((m, run_mutation(m, work, project=i % 3 == 0)))
    return out


def _report(found: list[tuple[Mutation, str, str, Outcome]]) -> str:
    return "\n".join(f"{inv}: {msg}\n    {m}\n    -> {o.summary()}" for m, inv, msg, o in found)


# -- the generator ------------------------------------------------------------------------------
def test_the_unmutated_base_is_eligible_and_breaks_no_invariant(work: Path) -> None:
    m = Mutation("none", ())
    o = run_mutation(m, work)
    assert o.record is not None and o.record["eligible_if_decided"] is True, o.summary()
    assert o.states == ["independently_checked", "eligible"]
    assert o.projection is not None and o.projection["outcome"] == "eligible"
    assert violations(m, o) == []


def test_the_walk_covers_every_field_of_the_dossier_and_the_archive() -> None:
    def shapes(place: str, node: Any, path: tuple[str | int, ...] = ()) -> Iterator[Change]:
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for k, v in items:
            yield Change(place, (*path, k), v)
            yield from shapes(place, v, (*path, k))

    b = base_variant()
    every = [*shapes("doc", b.dossier), *shapes("arc", b.archive)]
    assert len(every) > 900
    full = {
        (m.changes[0].place, m.changes[0].path) for m in field_mutations() if m.kind == "delete"
    }
    assert {(c.place, c.path) for c in every} <= full  # every field of every record
    want = {(c.place, c.shape) for c in every}
    non_null = {(c.place, c.shape) for c in every if c.value is not None}
    got = {(m.changes[0].place, m.changes[0].shape) for m in WALK if m.kind == "delete"}
    assert want <= got, sorted(want - got)[:10]
    nulled = {
        (m.changes[0].place, m.changes[0].path) for m in field_mutations() if m.kind == "null"
    }
    assert {(c.place, c.path) for c in every if c.value is not None} <= nulled
    retyped = {(m.changes[0].place, m.changes[0].shape) for m in WALK if m.kind == "retype"}
    assert {w for w in non_null if "settings." not in w[1]} <= retyped
    assert {m.kind for m in WALK} == {"delete", "null", "empty", "nulls", "retype"}


def test_every_required_entry_names_a_field_of_the_base() -> None:
    walked_patterns = {m.changes[0].pattern for m in field_mutations()}
    for key in REQUIRED:
        c = Change("doc", tuple(int(p) if p.isdigit() else p for p in key.split(".")), None)
        assert need_of(c) is REQUIRED[key]
        assert any(
            len(p.split(".")) == len(key.split("."))
            and all(
                x == y or y == "*" or (y.endswith("_identity") and x.endswith("_identity"))
                for x, y in zip(p.split("."), key.replace(".5.", ".*.").split("."), strict=True)
            )
            for p in walked_patterns
        ), key


def test_resealing_keeps_only_the_semantic_change() -> None:
    """6.3, 2.2, 2.4, 2.3: derived digests follow an edit; an edit of a digest itself stays."""
    pa = ("evidence", "power_analysis")
    v = materialize(Mutation("random", (Change("doc", (*pa, "parameters", "n_sim"), 5000),)))
    ev = v.dossier["evidence"]
    assert ev["power_analysis"]["simulation"]["inputs_digest"] == spec_digest(
        ev["power_analysis"]["parameters"]
    )
    assert v.dossier["authorization"]["evidence_digest"] == spec_digest(ev)
    assert v.dossier["binding"]["evidence_digest"] == spec_digest(ev)
    assert v.dossier["binding"]["section_digests"]["power_analysis"] == spec_digest(
        ev["power_analysis"]
    )

    odd = "sha256:" + "0" * 64
    v = materialize(Mutation("random", (Change("doc", (*pa, "simulation", "inputs_digest"), odd),)))
    assert v.dossier["evidence"]["power_analysis"]["simulation"]["inputs_digest"] == odd
    assert v.dossier["binding"]["evidence_digest"] == spec_digest(v.dossier["evidence"])

    v = materialize(Mutation("delete", (Change("doc", (*pa, "claimed", "power_base"), DELETE),)))
    assert "power_base" not in v.dossier["evidence"]["power_analysis"]["claimed"]
    report = ("evidence", "feasibility", "source_corpus_report")
    v = materialize(Mutation("empty", (Change("doc", report, {}),)))
    f = v.dossier["evidence"]["feasibility"]
    assert f["human_review"]["reviewed_digest"] == spec_digest(
        {"source_corpus_report": {}, "dataset_feasibility_report": f["dataset_feasibility_report"]}
    )


def test_random_mutants_are_reproducible() -> None:
    a = [str(random_mutation(random.Random(s))) for s in range(20)]
    b = [str(random_mutation(random.Random(s))) for s in range(20)]
    assert a == b and len(set(a)) == 20


# -- the invariants over the walk -------------------------------------------------------------
@pytest.mark.parametrize("area", AREAS)
def test_every_field_mutant_keeps_the_invariants(
    walked: dict[str, list[tuple[Mutation, Outcome]]], area: str
) -> None:
    runs = walked[area]
    assert runs, f"no mutant edits {area}"
    found = [(m, inv, msg, o) for m, o in runs for inv, msg in violations(m, o)]
    assert not found, f"{len(found)} violations in {area}:\n" + _report(found)


# -- the issue's cases, from the contract's sentences -------------------------------------------
def _at(*path: str | int) -> tuple[str | int, ...]:
    return ("evidence", *path)


@pytest.mark.parametrize(
    ("change", "gate", "status", "codes"),
    [
        # 1.1 / 15: a feasibility report {} is G2_REPORT_MISSING (unknown), never a pass.
        (
            Change("doc", _at("feasibility", "source_corpus_report"), {}),
            "G2",
            "unknown",
            {"G2_REPORT_MISSING"},
        ),
        (
            Change("doc", _at("feasibility", "dataset_feasibility_report"), {}),
            "G2",
            "unknown",
            {"G2_REPORT_MISSING"},
        ),
        # 15: a consent decision {} is G2_DECISION_MISSING, not G2_DECIDER_NOT_HUMAN_MAINTAINER.
        (Change("doc", _at("decisions", "consent"), {}), "G2", "unknown", {"G2_DECISION_MISSING"}),
        # 15: multiplicity_method "" is missing, not invalid.
        (
            Change("doc", _at("power_analysis", "parameters", "multiplicity_method"), ""),
            "G1",
            "unknown",
            {"G1_POWER_PARAMETER_MISSING"},
        ),
        # 15 / 6.1: a pool group of 0 units over-states the claims; ESS_INVALID is the ICC's.
        (
            Change("doc", _at("effective_sample", "groups", 3, "n_units"), 0),
            "G1",
            "fail",
            {"G1_ESS_GROUPS_OVERCLAIMED", "G1_ESS_OVERCLAIMED"},
        ),
        # 15 G1: an absent missingness.mechanism is "not the supported value".
        (
            Change("doc", _at("power_analysis", "parameters", "missingness", "mechanism"), DELETE),
            "G1",
            "unknown",
            {"G1_POWER_METHOD_UNSUPPORTED"},
        ),
    ],
    ids=[
        "source-report-empty",
        "dataset-report-empty",
        "consent-empty",
        "multiplicity-empty-string",
        "pool-group-zero-units",
        "mechanism-absent",
    ],
)
def test_the_issue_cases_give_the_contract_verdict(
    work: Path, change: Change, gate: str, status: str, codes: set[str]
) -> None:
    m = Mutation("random", (change,))
    o = run_mutation(m, work)
    assert o.record is not None, o.summary()
    got = o.record["gates"][gate]
    assert got["status"] == status, o.summary()
    assert codes <= set(got["reason_codes"]), o.summary()
    assert "G1_ESS_INVALID" not in got["reason_codes"]
    assert o.record["eligible_if_decided"] is False
    assert [v for v in violations(m, o) if v[0] != "I6_wrong_type_refused"] == []


# -- random mutants ----------------------------------------------------------------------------
@settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: a seed is already minimal
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_mutants_keep_the_invariants(work: Path, seed: int) -> None:
    m = random_mutation(random.Random(seed))
    o = run_mutation(m, work)
    found = violations(m, o)
    assert not found, _report([(m, inv, msg, o) for inv, msg in found])


# -- the long campaign's command ---------------------------------------------------------------
def test_the_campaign_reports_every_invariant_and_exits_on_its_violations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from benchmarks.fuzz import _dossier

    code = _dossier.main(["--mutants", "12", "--seed", "3", "--work", str(tmp_path)])
    out = capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["mutants"] == 12 and summary["kinds"]["random"] == 5
    for inv in INVARIANTS:
        assert f"{inv}: " in out
    rows = [json.loads(line) for line in (tmp_path / "mutants.jsonl").read_text().splitlines()]
    assert len(rows) == 12 and all(r["result"] for r in rows)
    assert code == (1 if any(r["violations"] for r in rows) else 0)
    assert [str(m) for m in _dossier.plan(12, 3, 0.4)] == [r["mutation"] for r in rows]
