"""Builder of dossier variants for the tests: load the golden files, edit, re-seal digests."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from aa_review.core.dossier import (
    GATES,
    GateContext,
    GateResult,
    PrincipalRegistry,
    inspect_packages,
    json_digest,
    parse_archive,
    parse_dossier,
)
from aa_review.core.stats import PowerDesign, adjusted_alpha, simulate_power

DATA = Path(__file__).resolve().parents[2] / "data" / "dossier"
NOW = datetime(2026, 3, 1, tzinfo=UTC)
DELETE = object()

# Principals of tests/data/dossier/principals.json by role.
LEAD, LEAD2 = "p-lead-ada", "p-lead-bo"
EVALUATOR, EVALUATOR2 = "p-eval-cy", "p-eval-dee"
SIGNER, DECIDER = "p-maint-eve", "p-maint-fay"
AGENT_MAINTAINER, AGENT, REDUCER_ID = "p-maint-bot", "p-agent-gus", "p-reducer-hal"


def load(name: str) -> Any:
    """A golden JSON file of tests/data/dossier."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def passing() -> dict[str, Any]:
    """The passing dossier (a fresh copy)."""
    return load("dossier_passing.json")


def archive() -> dict[str, Any]:
    return load("archive.json")


def principals() -> list[dict[str, Any]]:
    return load("principals.json")["principals"]


def _walk(tree: Any, path: str) -> tuple[Any, Any]:
    parts: list[Any] = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = tree
    for p in parts[:-1]:
        node = node[p]
    return node, parts[-1]


def power_claims(dossier: dict[str, Any]) -> tuple[float, float]:
    """Recompute base and worst-case power of the dossier's plan (as the validator does)."""
    p = dossier["evidence"]["power_analysis"]["parameters"]
    alpha = adjusted_alpha(p["alpha"], len(p["comparison_family"]["hypotheses"]),
                           p["multiplicity_method"])
    box = p["sensitivity_range"]

    def run(icc: float, attr: float, miss: float, seed: int) -> float:
        design = PowerDesign(p["minimum_useful_effect"], p["clusters_per_arm"], p["cluster_size"],
                             icc, attr, miss, alpha, p["alternative"])
        return simulate_power(design, p["n_sim"], seed).power

    base = run(p["icc"], p["cluster_attrition"], p["missingness"]["rate"], p["seed"])
    worst = run(box["icc"][1], box["cluster_attrition"][1], box["missing_rate"][1], p["seed"] + 1)
    return base, worst


class DossierBuilder:
    """Edit a dossier tree by dotted paths, then re-seal what the edit should not break.

    ``build()`` by default keeps the power plan, the review digest and the
    amendment authorization linked to the edited evidence, so that a variant
    fails only for the reason a test is about; pass ``relink=False`` to keep
    the stale digests.
    """

    def __init__(self, base: dict[str, Any] | None = None) -> None:
        self.tree = copy.deepcopy(base if base is not None else passing())
        self._reclaim = False

    def set(self, path: str, value: Any) -> DossierBuilder:
        node, key = _walk(self.tree, path)
        if value is DELETE:
            del node[key]
        else:
            node[key] = copy.deepcopy(value)
        return self

    def delete(self, path: str) -> DossierBuilder:
        return self.set(path, DELETE)

    def evidence(self, path: str, value: Any) -> DossierBuilder:
        return self.set(f"evidence.{path}", value)

    def reclaim_power(self) -> DossierBuilder:
        """Also recompute the claimed power figures when building."""
        self._reclaim = True
        return self

    def build(self, relink: bool = True) -> dict[str, Any]:
        tree = copy.deepcopy(self.tree)
        if relink:
            relink_all(tree, reclaim=self._reclaim)
        return tree


def relink_all(tree: dict[str, Any], reclaim: bool = False) -> None:
    """Re-seal power digests, the review digest and the authorization of ``tree``."""
    ev = tree["evidence"]
    pa = ev.get("power_analysis")
    if isinstance(pa, dict) and isinstance(pa.get("parameters"), dict):
        d = json_digest(pa["parameters"])
        if isinstance(pa.get("simulation"), dict):
            pa["simulation"]["inputs_digest"] = d
        if isinstance(pa.get("preregistration"), dict):
            pa["preregistration"]["sealed_inputs_digest"] = d
        if reclaim:
            base, worst = power_claims(tree)
            pa["claimed"] = {"power_base": round(base, 4), "power_worst_case": round(worst, 4)}
    f = ev.get("feasibility")
    if isinstance(f, dict) and isinstance(f.get("human_review"), dict):
        f["human_review"]["reviewed_digest"] = json_digest({
            "source_corpus_report": f.get("source_corpus_report"),
            "dataset_feasibility_report": f.get("dataset_feasibility_report"),
        })
    if isinstance(tree.get("authorization"), dict):
        tree["authorization"]["evidence_digest"] = json_digest(ev)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def run_gate(gid: str, tree: dict[str, Any], archive_tree: dict[str, Any] | None = None,
             locator: Any = None, hook: Any = None) -> GateResult:
    """Evaluate a single gate of a dossier tree."""
    parsed = parse_dossier(tree)
    packages = inspect_packages(parsed.model.evidence.source_packages, locator)
    ctx = GateContext(parsed, parse_archive(archive_tree or archive()),
                      PrincipalRegistry(principals()), packages, hook)
    return GATES[gid](ctx)


def codes(result: GateResult) -> set[str]:
    return set(result.reason_codes)
